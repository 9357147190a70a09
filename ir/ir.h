// The typed kernel IR: what a checked Tile DSL kernel means on the hardware, in a form the passes rewrite and
// the AscendC emitter walks. One flat node list (indexed by NodeId) holds statements and scalar expressions;
// tile values live in Buffers (typed, placed in a memory, planned to offsets), so ops name their operands by
// BufferId.
//
// Node layout per kind (fields not listed are unused):
//   Block        body = statements
//   CoreSplit    ref = split id; args = [extent] (+ [start, len] after core-split); cores; line
//   TileLoop     ref = loop id; args = [start, len] of the walked range (+ [count, tail] after tiling);
//                size; buffers; body
//   RangeLoop    ref = loop id; args = [start, stop, step]; body
//   If           args = [cond]; body = then; orelse = else
//   Stage        stage; body = ops and sync
//   ScalarDef    ref = var id; args = [value]               a device scalar computed in the kernel
//   IntConst     intValue        FloatConst floatValue      (dtype I64 / F32)
//   VarRef       ref = var id (dim, attribute, host scalar, device scalar, tiling field)
//   LoopField    ref = loop id; op = Start | Len | Size | Index
//   SplitField   ref = split id; op = Start | Len
//   BlockIdx     this core's index (GetBlockIdx)
//   ScalarUnary  op = Neg | Not; args = [operand]
//   ScalarBinary op = Add..Cdiv, comparisons, And, Or; args = [lhs, rhs]
//   Load         dst; access (GM view of param `ref`); srcs = [index buffer] for a gather load; padValue
//   Store        srcs = [value]; access (GM view of param `ref`); accumulate; L0C sources are Fixpipe stores
//   Copy         dst; srcs = [src]; transpose (L1 -> L0B)
//   Fill         dst; args = [value]                        zeros / full (Duplicate)
//   Cast         dst; srcs = [src]                          dtype = dst dtype
//   Unary        op = Exp..Erf; dst; srcs = [x]; work
//   Binary       op = Add..Pow; dst; srcs = [a, b]; an operand with extent 1 where dst has more is read
//                repeatedly (a row with a zero repeat stride, a column as a per-row scalar)
//   BinaryScalar op = Adds | Muls | Maxs | Mins | LeakyRelu | Pows; dst; srcs = [x]; args = [scalar]
//   Compare      op = Eq..Ge; dst (bool); srcs = [a, b] or [a] with args = [scalar]
//   Select       dst; srcs = [mask, a, b]
//   Broadcast    dst; srcs = [x]; extent-1 dims of x stretched to dst's shape (operands of compare, select)
//   Reduce       op = ReduceSum..Argmin; dst; srcs = [x]; axis; work
//   Scan         op = Cumsum | Cumprod; dst; srcs = [x]; axis
//   Gather       dst; srcs = [table, index]
//   Matmul       dst (L0C); srcs = [a (L0A), b (L0B)]; accumulate (dst += a @ b)
//   Alloc / EnQue / DeQue / Free    srcs = [buffer]: the TQue protocol, inserted by queue insertion
//   Flag         srcs = [buffer]; fromPipe, toPipe: SetFlag/WaitFlag so toPipe may touch what fromPipe did to the
//                buffer (a hand-over no queue event covers), inserted by queue insertion
// Vector ops (Cast .. BinaryScalar, Fill, Copy) carry a `form`, the instruction selection of the legalize pass.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dsl/types.h"
#include "support/source.h"

namespace tilecraft::ir {

using dsl::DType;
using dsl::Mem;

using NodeId = uint32_t;
using BufferId = uint32_t;
inline constexpr uint32_t kNone = UINT32_MAX;

// clang-format off
#define TILECRAFT_IR_NODE_KINDS(X)                                                                        \
  X(Block) X(CoreSplit) X(TileLoop) X(RangeLoop) X(If) X(Stage) X(ScalarDef) X(IntConst) X(FloatConst)    \
  X(VarRef) X(LoopField) X(SplitField) X(BlockIdx) X(ScalarUnary) X(ScalarBinary) X(Load) X(Store)        \
  X(Copy) X(Fill) X(Cast) X(Unary) X(Binary) X(BinaryScalar) X(Compare) X(Select) X(Broadcast) X(Reduce)  \
  X(Scan) X(Gather) X(Matmul) X(Alloc) X(EnQue) X(DeQue) X(Free) X(Flag)
// clang-format on

enum class NodeKind : unsigned char {
#define X(k) k,
  TILECRAFT_IR_NODE_KINDS(X)
#undef X
};

// Every operator an IR node can carry: (name, spelling in the printer). The node kind says which are legal.
// clang-format off
#define TILECRAFT_IR_OPS(X)                                                                                  \
  X(None, "") X(Add, "add") X(Sub, "sub") X(Mul, "mul") X(Div, "div") X(FloorDiv, "floordiv") X(Mod, "mod")  \
  X(Pow, "pow") X(Max, "max") X(Min, "min") X(Cdiv, "cdiv") X(Neg, "neg") X(Not, "not") X(And, "and")       \
  X(Or, "or") X(Eq, "eq") X(Ne, "ne") X(Lt, "lt") X(Le, "le") X(Gt, "gt") X(Ge, "ge")                       \
  X(Exp, "exp") X(Ln, "ln") X(Abs, "abs") X(Sqrt, "sqrt") X(Rsqrt, "rsqrt") X(Reciprocal, "reciprocal")     \
  X(Relu, "relu") X(Tanh, "tanh") X(Sigmoid, "sigmoid") X(Gelu, "gelu") X(Silu, "silu") X(Sin, "sin")       \
  X(Cos, "cos") X(Erf, "erf") X(Adds, "adds") X(Muls, "muls") X(Maxs, "maxs") X(Mins, "mins")               \
  X(LeakyRelu, "leaky_relu") X(Pows, "pows") X(ReduceSum, "sum") X(ReduceMax, "max") X(ReduceMin, "min")    \
  X(ReduceMean, "mean") X(Argmax, "argmax") X(Argmin, "argmin") X(Cumsum, "cumsum") X(Cumprod, "cumprod")   \
  X(Start, "start") X(Len, "len") X(Size, "size") X(Index, "index")
// clang-format on

enum class Op : unsigned char {
#define X(name, spelling) name,
  TILECRAFT_IR_OPS(X)
#undef X
};

const char* nodeKindName(NodeKind kind);
const char* opName(Op op);

bool isScalarKind(NodeKind kind);  // IntConst .. ScalarBinary
bool isTileOpKind(NodeKind kind);  // Load .. Matmul
bool isSyncKind(NodeKind kind);    // Alloc .. Flag
bool isVectorUnary(Op op);         // Exp .. Erf
bool isVectorBinary(Op op);        // Add, Sub, Mul, Div, Max, Min, Pow
bool isVectorScalar(Op op);        // Adds .. Pows
bool isCompare(Op op);             // Eq .. Ge
bool isReduce(Op op);              // ReduceSum .. Argmin
bool isScan(Op op);                // Cumsum, Cumprod
bool needsWorkBuffer(Op op);       // the high-level math calls and reductions reserve a work buffer

enum class Stage : unsigned char { CopyIn, Compute, CopyOut };
const char* stageName(Stage stage);

/// The AI core's instruction pipes, as AscendC's HardEvent names them (S: the scalar unit).
enum class Pipe : unsigned char { None, S, V, M, MTE1, MTE2, MTE3, FIX };
const char* pipeName(Pipe pipe);

/// One dimension of a buffer or tensor: its upper bound is what memory is planned for.
struct Extent {
  enum class Kind : unsigned char {
    Const,  // exactly `value`
    Dim,    // a dim() tiling field `ref` (a var id); `value` is its declared max, 0 = unbounded
    Tile,   // the extent of tile loop `ref`: `value` (its size), less in the tail tile
  };
  Kind kind = Kind::Const;
  int64_t value = 0;
  uint32_t ref = kNone;

  static Extent constant(int64_t v) { return {Kind::Const, v, kNone}; }
  bool bounded() const { return kind != Kind::Dim || value > 0; }
  bool operator==(const Extent&) const = default;
};

/// One index of a GM view, per tensor dimension.
struct GmIndex {
  enum class Kind : unsigned char {
    Full,    // the whole dimension (`:`)
    Tile,    // tile loop `loop`: [start, start + len)
    Point,   // scalar `lo`; the dimension is dropped from the view
    Slice,   // [lo, lo + width)
    Gather,  // one row per element of the load's index buffer
  };
  Kind kind = Kind::Full;
  uint32_t loop = kNone;
  NodeId lo = kNone;
  Extent width;
  // Slice: how many of its elements lie inside the tensor, max(0, min(width, extent - lo)); set by tiling when
  // the slice may run past the tensor's end, so the copy moves only those (loads read the rest as pad).
  NodeId valid = kNone;
};

enum class TensorRole : unsigned char { In, Out, InOut, Unused, Attr };
const char* roleName(TensorRole role);

struct Param {
  std::string name;
  TensorRole role = TensorRole::In;
  DType dtype = DType::F32;
  std::vector<Extent> shape;  // empty for a scalar attribute
  uint32_t var = kNone;       // Attr: its var (a tiling field)
  bool streamed = false;      // In: one core reads each byte once, so its reads go around L2 (cache-hints)
};

/// A scalar variable: a dim, an attribute, a host value or tiling field (all in the tiling struct), or a
/// device value computed in the kernel.
struct Var {
  enum class Kind : unsigned char { Dim, Attr, Host, Device, Field };
  std::string name;
  Kind kind = Kind::Device;
  DType dtype = DType::I64;
  int64_t max = 0;       // Dim: declared max, 0 = unbounded
  NodeId value = kNone;  // Host / Field: the host expression; Device: set by its ScalarDef
  bool inTiling() const { return kind != Kind::Device; }
};

struct LoopInfo {
  std::string name;
  bool tile = true;  // false: a range loop
};

struct SplitInfo {
  std::string name;
  bool cube = false;
  int64_t cores = 0;  // the number of cores used
};

enum class BufferKind : unsigned char {
  Value,  // a tile value (named or a temporary)
  Work,   // scratch an op needs for itself
};

/// How a buffer is handed between stages; decided by queue insertion.
enum class QueueKind : unsigned char { None, VecIn, VecOut, VecInOut, A1, B1, A2, B2, CO1, Calc };
const char* queueKindName(QueueKind kind);

struct Buffer {
  std::string name;
  Mem mem = Mem::UB;
  DType dtype = DType::F32;
  std::vector<Extent> shape;
  BufferKind kind = BufferKind::Value;
  int64_t bytes = 0;  // one copy, at the upper bounds, rows padded to 32 bytes
  int buffers = 1;    // copies in flight (double buffering), set by queue insertion
  QueueKind queue = QueueKind::None;
  int64_t offset = -1;  // in its memory, set by buffer planning
};

/// How a vector op over a multi-row tile is issued; decided by the legalize pass (ir/row_form.h), printed by the
/// emitter.
enum class VecForm : unsigned char {
  Rows,        // one instruction per row over its valid elements: row padding is neither read nor written
  Flat,        // one count-mode instruction over rows * pitch elements: the operands share one row layout and every
               // source's padding was written (by a padding load or another flat op), so the padding is computed on too
  Repeat,      // a last-axis reduction of rows no longer than one 256-byte repeat: one WholeReduce per 255 rows, a row
               // per repeat (mask: the row's elements, repeat stride: the row pitch), each result at its row of dst
  Padded,      // a Compare over each row's elements rounded up to whole 256-byte repeats (the lanes past the row's
               // blocks filled first), or a Select whose mask only such Compares write: no scalar tail
  Column,      // a binary op of a tile and a per-row (r, 1) column: the column's values spread across their 32-byte
               // blocks (BlockReduce packs them, Brcb spreads them), then one instruction a row per repeat reads the
               // block with stride 0; over each row's elements
  ColumnFlat,  // the same over each row's whole pitch: the tile's padding was written, and so is dst's
  FirstLanes,  // an elementwise op on (r, 1) columns whose padding is not known written: each row's first element,
               // eight rows (blocks) a repeat under a mask of every block's first lane
};
const char* vecFormName(VecForm form);

struct Node {
  NodeKind kind = NodeKind::Block;
  Op op = Op::None;
  DType dtype = DType::F32;
  BufferId dst = kNone;
  std::vector<BufferId> srcs;
  BufferId work = kNone;
  std::vector<NodeId> args;
  std::vector<NodeId> body;
  std::vector<NodeId> orelse;
  std::vector<GmIndex> access;
  uint32_t ref = kNone;
  int64_t intValue = 0;
  double floatValue = 0;
  int axis = -1;
  int64_t size = 0;
  int buffers = 0;
  int64_t cores = 0;
  Stage stage = Stage::Compute;
  bool transpose = false;
  bool accumulate = false;
  double padValue = 0;
  bool tail = false;             // Load/Store: the copy may be partial or unaligned (DataCopyPad), set by tiling
  VecForm form = VecForm::Rows;  // vector ops: set by legalize
  Pipe fromPipe = Pipe::None;    // Flag: the pipe that sets it
  Pipe toPipe = Pipe::None;      // Flag: the pipe that waits for it
  uint32_t line = 0;             // DSL source line, 0 when the node was made by the compiler
  support::Span span;            // where diagnostics about this node point
};

/// One TPipe::InitBuffer of the emitted Init(), as buffer planning decided it: a queue (`queue`, `copies` x
/// `bytes`) or, with `queue` kNone, the TBuf of `mem` that holds every compute-only buffer of that memory at
/// its planned offset. The emitter prints these and sizes nothing itself.
struct PipeBuffer {
  Mem mem = Mem::UB;
  BufferId queue = kNone;
  int64_t offset = 0;
  int64_t bytes = 0;  // per copy
  int64_t copies = 1;
};

enum class CoreKind : unsigned char { Vector, Cube, Mixed };
const char* coreKindName(CoreKind kind);

struct Kernel {
  std::string name;
  CoreKind coreKind = CoreKind::Vector;
  std::vector<Param> params;
  std::vector<Var> vars;
  std::vector<LoopInfo> loops;
  std::vector<SplitInfo> splits;
  std::vector<Buffer> buffers;
  std::vector<Node> nodes;
  NodeId body = kNone;                    // a Block
  support::Span span;                     // the kernel's definition, for diagnostics without a better place
  bool planned = false;                   // buffer planning has run: offsets must be set and aligned
  std::array<int64_t, 6> plannedBytes{};  // per Mem: the end of the highest planned buffer
  std::vector<PipeBuffer> pipe;           // set by buffer planning: the InitBuffer calls, per memory in offset order

  const Node& node(NodeId id) const { return nodes[id]; }
  Node& node(NodeId id) { return nodes[id]; }
  const Buffer& buffer(BufferId id) const { return buffers[id]; }
};

struct Module {
  std::vector<Kernel> kernels;
};

int64_t alignmentOf(Mem mem);  // 32 bytes, 512 for L0A/L0B
/// Bytes of one copy of a tile: upper bounds of every extent, the innermost row padded to 32 bytes
/// (DataCopyPad lays rows out that way in UB).
int64_t tileBytes(DType dtype, const std::vector<Extent>& shape);
int64_t alignUp(int64_t value, int64_t align);

}  // namespace tilecraft::ir
