// Private to the sema_*.cpp files: the checker's state. sema.cpp holds declarations and statements,
// sema_expr.cpp expressions and indexing, sema_builtins.cpp builtin calls, sema_capacity.cpp buffer accounting.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dsl/cpp_names.h"
#include "dsl/sema.h"

namespace tilecraft::dsl::detail {

/// A module-level name: a dim() or a constant.
struct ModuleSymbol {
  NodeId node = kNoNode;
  Type type;  // Int (a dim or an int constant) or Float
  bool isDim = false;
  int64_t dimMax = 0;
};

/// An on-chip buffer for capacity accounting: live from `start` to `end` (positions in evaluation order).
struct BufferRecord {
  NodeId def = kNoNode;
  std::string label;   // the name bound to it, or the operation that makes it
  bool named = false;  // label is the first name the value was bound to
  Mem mem = Mem::UB;
  DType dtype = DType::F32;
  std::vector<Dim> shape;
  int workFactor = 0;  // > 0: a work buffer of workFactor x these bytes
  uint32_t start = 0;
  uint32_t end = 0;
  size_t defLoopDepth = 0;
  NodeId extendTo = kNoNode;  // a loop the value is used in but not defined in: live to that loop's end
  int64_t buffers = 1;        // `buffers=` of the innermost tile loop at the definition
  bool l0Single = false;      // an L0A/L0B tile whose memory does not fit its tiles double-buffered
  Stage defStage = Stage::None;
  bool usedInOtherStage = false;
  bool usedInCopyOut = false;
  bool unknownSize = false;  // has a dim with no bound: already diagnosed, left out of the sums
  bool dead = false;         // folded into another buffer (a matmul accumulated in place)
  bool reduceWork = false;   // the work buffer of a reduction: sized by reduceWorkBytes, not by its tile
  bool mathWork = false;     // the sharedTmpBuffer of a math call: at least mathWorkBytes
  // The innermost loop around the definition, [loopStart, loopEnd]: a queue buffer with several copies
  // rotates over its iterations, so the planner keeps all copies live for the whole loop.
  NodeId loop = kNoNode;
  uint32_t loopStart = 0;
  uint32_t loopEnd = 0;
  // A queue buffer is held from AllocTensor at the start of its producing stage block to FreeTensor at the
  // end of the last stage block that reads it.
  uint32_t stageStart = 0;
  NodeId lastStage = kNoNode;
  int writes = 1;                // ops that write the name's buffer (lowering writes every rebinding of a name into it)
  bool folded = false;           // an in-place update of an outer name: lowering writes into that name's buffer
  std::vector<int> inPlaceFrom;  // operands of the elementwise op that made it: it may overwrite one that dies
};

struct Binding {
  Type type;
  NodeId def = kNoNode;
  int record = -1;             // BufferRecord of a Buffer value
  size_t loopDepth = 0;        // loops open at the definition
  std::vector<NodeId> scopes;  // For/If nodes open at the definition
};

struct LoopContext {
  NodeId node = kNoNode;
  bool isTile = false;  // tiles() or grid(): values crossing stages get `buffers` copies
  int64_t buffers = 1;
  uint32_t startPos = 0;  // the checker's position when the loop opens
};

/// A tile loop variable (the Name node of a tiles()/grid() target).
struct TileInfo {
  NodeId loop = kNoNode;
  NodeId sizeNode = kNoNode;  // the size expression, where a capacity error points
  int64_t size = 0;
  bool autoSize = false;      // size=auto: `size` is a placeholder until checkCapacity resolves it
  int64_t autoBound = 0;      // size=auto: the most the tile can hold of its extent (0: unbounded)
  std::optional<Dim> extent;  // the dimension it walks, when that is a plain dim or constant
};

class Checker {
 public:
  Checker(const support::SourceManager& sources, const Ast& ast, support::DiagnosticEngine& diagnostics);
  SemaResult run();

  // --- sema.cpp -------------------------------------------------------------------------------------------
  void checkModule();
  void checkConstDef(NodeId id);
  void checkKernel(NodeId id);
  void checkParam(NodeId id, KernelInfo& kernel);
  void checkGeneratedName(NodeId id, const std::string& name, const char* what, CppNameUse use);
  void checkBlock(std::span<const NodeId> stmts);
  void checkStatement(NodeId id);
  void checkAssign(NodeId id);
  void checkFor(NodeId id);
  void checkWith(NodeId id);
  void checkIf(NodeId id);
  void bind(NodeId nameNode, const Type& type, NodeId valueNode);
  Type lookup(NodeId nameNode);
  std::string lineOf(NodeId id) const;
  support::DiagnosticEngine::Builder error(NodeId id, std::string message);

  // --- sema_expr.cpp --------------------------------------------------------------------------------------
  Type expr(NodeId id);
  Type exprImpl(NodeId id);
  bool isChainLink(NodeId id) const;
  void typeChainLinks(NodeId id);
  Type checkUnary(NodeId id);
  Type checkBinary(NodeId id);
  Type checkCompare(NodeId id);
  Type checkAttribute(NodeId id);
  Type checkSubscript(NodeId id);
  Type scalarArith(NodeId id, OpKind op, const Type& a, const Type& b);
  void intOverflow(NodeId id, const std::string& expression);
  double f32Constant(NodeId id, double value, bool finiteOperands);
  Type tileArith(NodeId id, OpKind op, NodeId lhs, const Type& a, NodeId rhs, const Type& b);
  std::optional<std::vector<Dim>> broadcast(NodeId at, const std::vector<Dim>& a, const std::vector<Dim>& b);
  bool requireUbTile(NodeId operand, const Type& type, const char* what);
  /// An elementwise tile operation with numpy broadcasting; scalar operands take the tile's dtype.
  Type elementwise(NodeId id, const char* what, DTypeSet allowed, const std::vector<NodeId>& operands,
                   int workFactor = 0);
  bool requireCompute(NodeId at, const char* what);
  bool requireDType(NodeId at, const char* op, DType dtype, DTypeSet allowed);
  bool requireStage(NodeId at, Stage want, const char* what);
  std::optional<int64_t> constIntOf(NodeId id, const Type& type, const char* what);
  /// With `foldsLeading`, a leading `...` is allowed (a tensor parameter's shape) and sets it.
  std::optional<std::vector<Dim>> shapeFromTuple(NodeId id, const char* what, bool* foldsLeading = nullptr);

  // --- sema_builtins.cpp ----------------------------------------------------------------------------------
  Type checkCall(NodeId id);
  Type checkBuiltin(NodeId id, const BuiltinInfo& info, const std::vector<NodeId>& args,
                    const std::map<std::string, NodeId>& keywords);
  Type checkLoad(NodeId id, NodeId view, const std::map<std::string, NodeId>& kw);
  Type checkStore(NodeId id, NodeId view, NodeId value, const std::map<std::string, NodeId>& kw);
  Type checkCopy(NodeId id, NodeId value, const std::map<std::string, NodeId>& kw);
  Type checkMatmul(NodeId id, NodeId lhs, NodeId rhs);
  Type checkReduction(NodeId id, const BuiltinInfo& info, NodeId x, const std::map<std::string, NodeId>& kw);
  std::optional<int64_t> axisArg(NodeId call, const std::map<std::string, NodeId>& kw, size_t rank);
  /// Types the iterable of a for loop (tiles/grid/range) and returns one type per loop variable.
  std::vector<Type> iterator(NodeId forNode, LoopContext& loop);
  void noteCubeUse(NodeId at);
  Type checkSplit(NodeId id, NodeId extent, const std::map<std::string, NodeId>& kw);

  // --- sema_capacity.cpp ----------------------------------------------------------------------------------
  int newRecord(NodeId def, const Type& type, std::string label, int workFactor = 0);
  void use(NodeId operand);
  void closeLoop(NodeId loop);
  void closeStage(NodeId stage);
  /// The buffer lowering adds for a store of `value` (a name) written more than once or at another level:
  /// a fresh output queue copied from it just before the copyout.
  bool storeCopyRecord(NodeId value);
  /// The temporaries lowering adds for an op whose operands must have the result's shape (compare, where):
  /// a broadcast copy of each tile operand of another shape, and with `fillNumbers` a filled tile per number.
  void stagingRecords(NodeId at, const std::vector<NodeId>& operands, const Type& result, bool fillNumbers);
  void checkCapacity(KernelInfo& kernel);
  void resolveAutoSizes();
  void chooseL0Copies();
  int64_t recordBytes(const BufferRecord& r, NodeId loop, int64_t size) const;
  /// The checker's buffers in `mem` laid out with the planner's model (sema_layout.h), with `tileVar` at
  /// `size`; returns the end of the layout.
  int64_t layoutEnd(Mem mem, NodeId tileVar, int64_t size) const;

  // --- state ----------------------------------------------------------------------------------------------
  const support::SourceManager& sources_;
  const Ast& ast_;
  support::DiagnosticEngine& diag_;
  SemaResult result_;
  std::map<std::string, ModuleSymbol> module_;

  // per kernel
  KernelInfo* kernel_ = nullptr;
  std::map<std::string, Binding> locals_;
  std::vector<LoopContext> loops_;
  std::vector<NodeId> scopes_;
  std::map<NodeId, TileInfo> tiles_;  // every tile variable seen, by its Name node
  Stage stage_ = Stage::None;
  NodeId stageNode_ = kNoNode;
  NodeId splitNode_ = kNoNode;
  bool splitCube_ = false;
  bool inStoreValue_ = false;  // typing the value of a store in copyout: compute is allowed there
  NodeId cubeUse_ = kNoNode;
  NodeId vectorUse_ = kNoNode;
  std::vector<int> recordOf_;  // per NodeId
  std::vector<BufferRecord> records_;
  std::map<NodeId, Type> chainTypes_;      // links of an operator chain typed ahead of their parent
  std::set<std::string> unknownReported_;  // dims already reported as unbounded in this kernel
  uint32_t pos_ = 0;
  uint32_t stageStart_ = 0;  // position where the current stage block opened
  // What store(...) computes in copyout, and the copy of a stored name, are lowered into the compute stage
  // just before the copyout (the previous compute block at the same level, if any): queue buffers made there
  // are allocated from that block's start.
  uint32_t storeStageStart_ = 0;
  uint32_t lastComputeStart_ = 0;
  NodeId lastComputeScope_ = kNoNode;
  size_t lastComputeDepth_ = SIZE_MAX;
};

std::string kib(int64_t bytes);

}  // namespace tilecraft::dsl::detail
