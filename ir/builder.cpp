#include "ir/builder.h"

#include <fmt/format.h>

#include "dsl/sema_layout.h"
#include "ir/check.h"

namespace tilecraft::ir {

namespace {
bool isUnitExtent(const Extent& e) { return e.kind == Extent::Kind::Const && e.value == 1; }
}  // namespace

bool Builder::sameShape(const std::vector<Extent>& a, const std::vector<Extent>& b) { return a == b; }

bool Builder::broadcastsTo(const std::vector<Extent>& src, const std::vector<Extent>& dst) {
  if (src.size() > dst.size()) return false;
  size_t lead = dst.size() - src.size();
  for (size_t i = 0; i < src.size(); ++i) {
    if (!(src[i] == dst[lead + i]) && !isUnitExtent(src[i])) return false;
  }
  return true;
}

uint32_t Builder::addVar(Var var) {
  k_.vars.push_back(std::move(var));
  return static_cast<uint32_t>(k_.vars.size() - 1);
}

uint32_t Builder::addLoop(LoopInfo loop) {
  k_.loops.push_back(std::move(loop));
  return static_cast<uint32_t>(k_.loops.size() - 1);
}

uint32_t Builder::addSplit(SplitInfo split) {
  k_.splits.push_back(std::move(split));
  return static_cast<uint32_t>(k_.splits.size() - 1);
}

BufferId Builder::addBuffer(std::string name, Mem mem, DType dtype, std::vector<Extent> shape, BufferKind kind) {
  TILECRAFT_CHECK(mem != Mem::GM, "GM tensors are parameters, not buffers");
  TILECRAFT_CHECK(!shape.empty(), "a buffer needs at least one dimension");
  for (const Extent& e : shape) {
    TILECRAFT_CHECK(e.bounded() && e.value > 0, fmt::format("buffer '{}' has an unbounded or empty extent", name));
  }
  // Names are what the printer and the emitter show; a name used twice (a reassigned DSL name in two scopes,
  // two work buffers of one value) gets a numeric suffix so every buffer prints distinctly.
  for (; namesSynced_ < k_.buffers.size(); ++namesSynced_) bufferNames_.insert(k_.buffers[namesSynced_].name);
  std::string unique = name;
  if (bufferNames_.count(unique)) {
    int& suffix = nextSuffix_[name];  // names only ever join the set, so no smaller suffix frees up
    if (suffix == 0) suffix = 1;
    do {
      unique = fmt::format("{}.{}", name, suffix++);
    } while (bufferNames_.count(unique));
  }
  bufferNames_.insert(unique);
  ++namesSynced_;
  Buffer b;
  b.name = std::move(unique);
  b.mem = mem;
  b.dtype = dtype;
  b.bytes = tileBytes(dtype, shape);
  b.shape = std::move(shape);
  b.kind = kind;
  k_.buffers.push_back(std::move(b));
  return static_cast<BufferId>(k_.buffers.size() - 1);
}

NodeId Builder::add(Node node) {
  node.line = line_;
  node.span = span_;
  k_.nodes.push_back(std::move(node));
  return static_cast<NodeId>(k_.nodes.size() - 1);
}

const Buffer& Builder::buf(BufferId id) const {
  TILECRAFT_CHECK(id < k_.buffers.size(), fmt::format("buffer id {} out of range", id));
  return k_.buffers[id];
}

void Builder::checkScalar(NodeId id) const {
  TILECRAFT_CHECK(id < k_.nodes.size() && isScalarKind(k_.nodes[id].kind), "operand is not a scalar expression");
}

NodeId Builder::intConst(int64_t value) {
  Node n;
  n.kind = NodeKind::IntConst;
  n.dtype = DType::I64;
  n.intValue = value;
  return add(std::move(n));
}

NodeId Builder::floatConst(double value) {
  Node n;
  n.kind = NodeKind::FloatConst;
  n.dtype = DType::F32;
  n.floatValue = value;
  return add(std::move(n));
}

NodeId Builder::varRef(uint32_t var) {
  TILECRAFT_CHECK(var < k_.vars.size(), "unknown var");
  Node n;
  n.kind = NodeKind::VarRef;
  n.dtype = k_.vars[var].dtype;
  n.ref = var;
  return add(std::move(n));
}

NodeId Builder::loopField(uint32_t loop, Op field) {
  TILECRAFT_CHECK(loop < k_.loops.size(), "unknown loop");
  TILECRAFT_CHECK(field == Op::Start || field == Op::Len || field == Op::Size || field == Op::Index,
                  "a loop field is start, len, size or index");
  TILECRAFT_CHECK(k_.loops[loop].tile || field == Op::Index, "a range loop has only its index");
  Node n;
  n.kind = NodeKind::LoopField;
  n.dtype = DType::I64;
  n.ref = loop;
  n.op = field;
  return add(std::move(n));
}

NodeId Builder::splitField(uint32_t split, Op field) {
  TILECRAFT_CHECK(split < k_.splits.size(), "unknown split");
  TILECRAFT_CHECK(field == Op::Start || field == Op::Len, "a split field is start or len");
  Node n;
  n.kind = NodeKind::SplitField;
  n.dtype = DType::I64;
  n.ref = split;
  n.op = field;
  return add(std::move(n));
}

NodeId Builder::blockIdx() {
  Node n;
  n.kind = NodeKind::BlockIdx;
  n.dtype = DType::I64;
  return add(std::move(n));
}

NodeId Builder::scalarUnary(Op op, NodeId operand) {
  checkScalar(operand);
  TILECRAFT_CHECK(op == Op::Neg || op == Op::Not, "scalar unary is neg or not");
  Node n;
  n.kind = NodeKind::ScalarUnary;
  n.op = op;
  n.dtype = op == Op::Not ? DType::Bool : k_.nodes[operand].dtype;
  n.args = {operand};
  return add(std::move(n));
}

DType Builder::scalarBinaryType(Op op, DType lhs, DType rhs) {
  if (isCompare(op) || op == Op::And || op == Op::Or) return DType::Bool;
  return dsl::isFloat(lhs) || dsl::isFloat(rhs) || op == Op::Div ? DType::F32 : DType::I64;
}

NodeId Builder::scalarBinary(Op op, NodeId lhs, NodeId rhs) {
  checkScalar(lhs);
  checkScalar(rhs);
  TILECRAFT_CHECK(op >= Op::Add && op <= Op::Ge && op != Op::Neg && op != Op::Not,
                  fmt::format("'{}' is not a scalar binary operator", opName(op)));
  bool floating = dsl::isFloat(k_.nodes[lhs].dtype) || dsl::isFloat(k_.nodes[rhs].dtype);
  TILECRAFT_CHECK(!floating || (op != Op::FloorDiv && op != Op::Mod && op != Op::Cdiv),
                  "integer-only scalar operator on a float");
  Node n;
  n.kind = NodeKind::ScalarBinary;
  n.op = op;
  n.dtype = scalarBinaryType(op, k_.nodes[lhs].dtype, k_.nodes[rhs].dtype);
  n.args = {lhs, rhs};
  return add(std::move(n));
}

NodeId Builder::block() {
  Node n;
  n.kind = NodeKind::Block;
  return add(std::move(n));
}

NodeId Builder::coreSplit(uint32_t split, NodeId extent, int64_t cores) {
  checkScalar(extent);
  TILECRAFT_CHECK(cores > 0, "a split needs cores");
  Node n;
  n.kind = NodeKind::CoreSplit;
  n.ref = split;
  n.args = {extent};
  n.cores = cores;
  return add(std::move(n));
}

NodeId Builder::tileLoop(uint32_t loop, NodeId start, NodeId len, int64_t size, int buffers) {
  checkScalar(start);
  checkScalar(len);
  TILECRAFT_CHECK(size > 0 && buffers >= 1, "tile size and buffer count are positive");
  TILECRAFT_CHECK(k_.loops[loop].tile, "tileLoop needs a tile loop id");
  Node n;
  n.kind = NodeKind::TileLoop;
  n.ref = loop;
  n.args = {start, len};
  n.size = size;
  n.buffers = buffers;
  return add(std::move(n));
}

NodeId Builder::rangeLoop(uint32_t loop, NodeId start, NodeId stop, NodeId step) {
  checkScalar(start);
  checkScalar(stop);
  checkScalar(step);
  TILECRAFT_CHECK(!k_.loops[loop].tile, "rangeLoop needs a range loop id");
  Node n;
  n.kind = NodeKind::RangeLoop;
  n.ref = loop;
  n.args = {start, stop, step};
  return add(std::move(n));
}

NodeId Builder::ifStmt(NodeId cond) {
  checkScalar(cond);
  Node n;
  n.kind = NodeKind::If;
  n.args = {cond};
  return add(std::move(n));
}

NodeId Builder::stage(Stage stage) {
  Node n;
  n.kind = NodeKind::Stage;
  n.stage = stage;
  return add(std::move(n));
}

NodeId Builder::scalarDef(uint32_t var, NodeId value) {
  checkScalar(value);
  TILECRAFT_CHECK(var < k_.vars.size() && k_.vars[var].kind == Var::Kind::Device, "scalarDef needs a device var");
  Node n;
  n.kind = NodeKind::ScalarDef;
  n.ref = var;
  n.dtype = k_.vars[var].dtype;
  n.args = {value};
  NodeId id = add(std::move(n));
  k_.vars[var].value = id;
  return id;
}

void Builder::append(NodeId parent, NodeId statement) {
  NodeKind kind = k_.nodes[parent].kind;
  TILECRAFT_CHECK(kind == NodeKind::Block || kind == NodeKind::TileLoop || kind == NodeKind::RangeLoop ||
                      kind == NodeKind::If || kind == NodeKind::Stage,
                  fmt::format("{} has no body", nodeKindName(kind)));
  TILECRAFT_CHECK(!isScalarKind(k_.nodes[statement].kind), "a scalar expression is not a statement");
  k_.nodes[parent].body.push_back(statement);
}

NodeId Builder::makeOp(NodeKind kind, Op op, BufferId dst, std::vector<BufferId> srcs) {
  Node n;
  n.kind = kind;
  n.op = op;
  n.dst = dst;
  n.dtype = dst == kNone ? buf(srcs.at(0)).dtype : buf(dst).dtype;
  n.srcs = std::move(srcs);
  return add(std::move(n));
}

BufferId Builder::workFor(Op op, BufferId src, BufferId dst) {
  if (!needsWorkBuffer(op)) return kNone;
  Buffer s = buf(src);
  if (isReduce(op)) {
    // ReduceSum/Max/Min keep one partial result per 256-byte repeat of a row: roundup(repeats, 32 B)
    // elements, about twice that for max/min (ascendc_api.md, reductions); sized for the longest row reduced.
    int64_t elements = dsl::reduceWorkBytes(s.dtype, s.shape.back().value) / (dsl::dtypeBits(s.dtype) / 8);
    return addBuffer(buf(dst).name + ".work", Mem::UB, s.dtype, {Extent::constant(elements)}, BufferKind::Work);
  }
  BufferId work = addBuffer(buf(dst).name + ".work", Mem::UB, s.dtype, s.shape, BufferKind::Work);
  // The math APIs' sharedTmpBuffer has a minimum however small the tile (the checker sizes it alike).
  k_.buffers[work].bytes = dsl::mathWorkBytes(s.dtype, k_.buffers[work].bytes);
  return work;
}

namespace {
void checkUb(const Buffer& b, const char* what) {
  TILECRAFT_CHECK(b.mem == Mem::UB, fmt::format("{} operand '{}' is in {}, not UB", what, b.name, dsl::memName(b.mem)));
}
void checkSame(const Buffer& a, const Buffer& b, const char* what) {
  TILECRAFT_CHECK(a.dtype == b.dtype, fmt::format("{}: dtypes of '{}' and '{}' differ", what, a.name, b.name));
  TILECRAFT_CHECK(Builder::sameShape(a.shape, b.shape),
                  fmt::format("{}: shapes of '{}' and '{}' differ", what, a.name, b.name));
}
}  // namespace

NodeId Builder::load(BufferId dst, uint32_t param, std::vector<GmIndex> access, double padValue, BufferId index) {
  TILECRAFT_CHECK(param < k_.params.size() && !k_.params[param].shape.empty(), "load from a non-tensor");
  TILECRAFT_CHECK(access.size() == k_.params[param].shape.size(), "one GM index per tensor dimension");
  const Buffer& d = buf(dst);
  TILECRAFT_CHECK(d.mem == Mem::UB || d.mem == Mem::L1, "load writes UB or L1");
  TILECRAFT_CHECK(d.dtype == k_.params[param].dtype, "load keeps the tensor's dtype");
  bool gather = false;
  for (const GmIndex& g : access) gather = gather || g.kind == GmIndex::Kind::Gather;
  TILECRAFT_CHECK(gather == (index != kNone), "a gather load has exactly one Gather index and an index buffer");
  std::vector<BufferId> srcs;
  if (index != kNone) {
    TILECRAFT_CHECK(buf(index).dtype == DType::I32 && buf(index).mem == Mem::UB, "gather index is an i32 UB tile");
    srcs.push_back(index);
  }
  NodeId id = makeOp(NodeKind::Load, Op::None, dst, std::move(srcs));
  k_.nodes[id].ref = param;
  k_.nodes[id].access = std::move(access);
  k_.nodes[id].padValue = padValue;
  return id;
}

NodeId Builder::store(uint32_t param, std::vector<GmIndex> access, BufferId value, bool accumulate) {
  TILECRAFT_CHECK(param < k_.params.size() && !k_.params[param].shape.empty(), "store to a non-tensor");
  TILECRAFT_CHECK(access.size() == k_.params[param].shape.size(), "one GM index per tensor dimension");
  const Buffer& v = buf(value);
  TILECRAFT_CHECK(v.mem == Mem::UB || v.mem == Mem::L0C, "store reads UB or L0C");
  DType t = k_.params[param].dtype;
  TILECRAFT_CHECK(v.dtype == t || (v.mem == Mem::L0C && v.dtype == DType::F32 && (t == DType::F16 || t == DType::BF16)),
                  "store keeps the dtype (Fixpipe converts an f32 accumulator to f16/bf16)");
  NodeId id = makeOp(NodeKind::Store, Op::None, kNone, {value});
  k_.nodes[id].ref = param;
  k_.nodes[id].access = std::move(access);
  k_.nodes[id].accumulate = accumulate;
  k_.nodes[id].dtype = t;
  return id;
}

NodeId Builder::copy(BufferId dst, BufferId src, bool transpose) {
  const Buffer& d = buf(dst);
  const Buffer& s = buf(src);
  bool legal = (s.mem == Mem::L1 && (d.mem == Mem::L0A || d.mem == Mem::L0B)) ||
               (s.mem == Mem::UB && d.mem == Mem::UB) || (s.mem == Mem::L0C && d.mem == Mem::UB);
  TILECRAFT_CHECK(legal, fmt::format("no copy path {} -> {}", dsl::memName(s.mem), dsl::memName(d.mem)));
  TILECRAFT_CHECK(!transpose || d.mem == Mem::L0A || d.mem == Mem::L0B, "transpose only on the way to L0A/L0B");
  TILECRAFT_CHECK(d.dtype == s.dtype, "copy keeps the dtype");
  NodeId id = makeOp(NodeKind::Copy, Op::None, dst, {src});
  k_.nodes[id].transpose = transpose;
  return id;
}

NodeId Builder::fill(BufferId dst, NodeId value) {
  checkScalar(value);
  TILECRAFT_CHECK(buf(dst).mem == Mem::UB || buf(dst).mem == Mem::L0C, "fill writes UB (or zeroes L0C)");
  NodeId id = makeOp(NodeKind::Fill, Op::None, dst, {});
  k_.nodes[id].args = {value};
  return id;
}

NodeId Builder::cast(BufferId dst, BufferId src) {
  checkUb(buf(dst), "cast");
  checkUb(buf(src), "cast");
  TILECRAFT_CHECK(sameShape(buf(dst).shape, buf(src).shape), "cast keeps the shape");
  TILECRAFT_CHECK(dsl::castSupported(buf(src).dtype, buf(dst).dtype), "cast must be a direct hardware conversion");
  return makeOp(NodeKind::Cast, Op::None, dst, {src});
}

NodeId Builder::unary(Op op, BufferId dst, BufferId src) {
  TILECRAFT_CHECK(isVectorUnary(op), fmt::format("'{}' is not a vector unary op", opName(op)));
  checkUb(buf(dst), "unary");
  checkUb(buf(src), "unary");
  checkSame(buf(dst), buf(src), "unary");
  BufferId work = workFor(op, src, dst);
  NodeId id = makeOp(NodeKind::Unary, op, dst, {src});
  k_.nodes[id].work = work;
  return id;
}

NodeId Builder::binary(Op op, BufferId dst, BufferId a, BufferId b) {
  TILECRAFT_CHECK(isVectorBinary(op), fmt::format("'{}' is not a vector binary op", opName(op)));
  checkUb(buf(dst), "binary");
  checkUb(buf(a), "binary");
  checkUb(buf(b), "binary");
  for (BufferId x : {a, b}) {
    TILECRAFT_CHECK(buf(x).dtype == buf(dst).dtype, "binary operands have the result's dtype");
    TILECRAFT_CHECK(broadcastsTo(buf(x).shape, buf(dst).shape), "binary operands broadcast to the result's shape");
  }
  BufferId work = op == Op::Pow ? workFor(op, a, dst) : kNone;
  NodeId id = makeOp(NodeKind::Binary, op, dst, {a, b});
  k_.nodes[id].work = work;
  return id;
}

NodeId Builder::binaryScalar(Op op, BufferId dst, BufferId x, NodeId scalar) {
  TILECRAFT_CHECK(isVectorScalar(op), fmt::format("'{}' is not a vector-scalar op", opName(op)));
  checkScalar(scalar);
  checkUb(buf(dst), "vector-scalar");
  checkUb(buf(x), "vector-scalar");
  checkSame(buf(dst), buf(x), "vector-scalar");
  BufferId work = workFor(op, x, dst);
  NodeId id = makeOp(NodeKind::BinaryScalar, op, dst, {x});
  k_.nodes[id].args = {scalar};
  k_.nodes[id].work = work;
  return id;
}

NodeId Builder::compare(Op op, BufferId dst, BufferId a, BufferId b) {
  TILECRAFT_CHECK(isCompare(op), "compare needs a comparison");
  TILECRAFT_CHECK(buf(dst).dtype == DType::Bool, "compare writes a bool mask");
  checkUb(buf(a), "compare");
  checkSame(buf(a), buf(b), "compare");
  TILECRAFT_CHECK(sameShape(buf(dst).shape, buf(a).shape), "compare keeps the shape");
  return makeOp(NodeKind::Compare, op, dst, {a, b});
}

NodeId Builder::compareScalar(Op op, BufferId dst, BufferId a, NodeId scalar) {
  TILECRAFT_CHECK(isCompare(op), "compare needs a comparison");
  checkScalar(scalar);
  TILECRAFT_CHECK(buf(dst).dtype == DType::Bool, "compare writes a bool mask");
  checkUb(buf(a), "compare");
  TILECRAFT_CHECK(sameShape(buf(dst).shape, buf(a).shape), "compare keeps the shape");
  NodeId id = makeOp(NodeKind::Compare, op, dst, {a});
  k_.nodes[id].args = {scalar};
  return id;
}

NodeId Builder::select(BufferId dst, BufferId mask, BufferId a, BufferId b) {
  TILECRAFT_CHECK(buf(mask).dtype == DType::Bool, "select needs a bool mask");
  TILECRAFT_CHECK(sameShape(buf(mask).shape, buf(dst).shape), "select mask has the result's shape");
  checkSame(buf(dst), buf(a), "select");
  checkSame(buf(dst), buf(b), "select");
  return makeOp(NodeKind::Select, Op::None, dst, {mask, a, b});
}

NodeId Builder::broadcast(BufferId dst, BufferId src) {
  checkUb(buf(dst), "broadcast");
  checkUb(buf(src), "broadcast");
  TILECRAFT_CHECK(buf(dst).dtype == buf(src).dtype, "broadcast keeps the dtype");
  TILECRAFT_CHECK(broadcastsTo(buf(src).shape, buf(dst).shape), "broadcast source must stretch to the result");
  return makeOp(NodeKind::Broadcast, Op::None, dst, {src});
}

NodeId Builder::reduce(Op op, BufferId dst, BufferId src, int axis) {
  TILECRAFT_CHECK(isReduce(op), "reduce needs a reduction");
  const Buffer& s = buf(src);
  const Buffer& d = buf(dst);
  checkUb(s, "reduce");
  checkUb(d, "reduce");
  TILECRAFT_CHECK(axis >= 0 && static_cast<size_t>(axis) < s.shape.size(), "reduce axis in range");
  std::vector<Extent> expect = s.shape;
  expect[axis] = Extent::constant(1);
  TILECRAFT_CHECK(sameShape(d.shape, expect), "reduce keeps the axis with extent 1");
  DType want = op == Op::Argmax || op == Op::Argmin ? DType::I32 : s.dtype;
  TILECRAFT_CHECK(d.dtype == want, "reduce result dtype");
  BufferId work = workFor(op, src, dst);
  NodeId id = makeOp(NodeKind::Reduce, op, dst, {src});
  k_.nodes[id].axis = axis;
  k_.nodes[id].work = work;
  return id;
}

NodeId Builder::scan(Op op, BufferId dst, BufferId src, int axis) {
  TILECRAFT_CHECK(isScan(op), "scan needs cumsum or cumprod");
  checkUb(buf(dst), "scan");
  checkUb(buf(src), "scan");
  checkSame(buf(dst), buf(src), "scan");
  TILECRAFT_CHECK(axis >= 0 && static_cast<size_t>(axis) < buf(src).shape.size(), "scan axis in range");
  NodeId id = makeOp(NodeKind::Scan, op, dst, {src});
  k_.nodes[id].axis = axis;
  return id;
}

NodeId Builder::gather(BufferId dst, BufferId table, BufferId index) {
  checkUb(buf(dst), "gather");
  checkUb(buf(table), "gather");
  TILECRAFT_CHECK(buf(index).dtype == DType::I32, "gather index is i32");
  TILECRAFT_CHECK(buf(dst).dtype == buf(table).dtype, "gather keeps the table's dtype");
  TILECRAFT_CHECK(sameShape(buf(dst).shape, buf(index).shape), "gather result has the index's shape");
  return makeOp(NodeKind::Gather, Op::None, dst, {table, index});
}

NodeId Builder::matmul(BufferId dst, BufferId a, BufferId b, bool accumulate) {
  TILECRAFT_CHECK(buf(dst).mem == Mem::L0C && buf(a).mem == Mem::L0A && buf(b).mem == Mem::L0B,
                  "matmul is L0A x L0B -> L0C");
  TILECRAFT_CHECK(buf(a).dtype == buf(b).dtype, "matmul operands share a dtype");
  TILECRAFT_CHECK(dsl::mmadAccumulator(buf(a).dtype) == buf(dst).dtype, "matmul accumulator dtype");
  NodeId id = makeOp(NodeKind::Matmul, Op::None, dst, {a, b});
  k_.nodes[id].accumulate = accumulate;
  return id;
}

NodeId Builder::sync(NodeKind kind, BufferId buffer) {
  TILECRAFT_CHECK(isSyncKind(kind) && kind != NodeKind::Flag, "sync needs Alloc, EnQue, DeQue or Free");
  buf(buffer);
  return makeOp(kind, Op::None, kNone, {buffer});
}

}  // namespace tilecraft::ir

namespace tilecraft::ir {

NodeId Builder::flag(BufferId buffer, Pipe from, Pipe to) {
  TILECRAFT_CHECK(from != Pipe::None && to != Pipe::None && from != to, "a flag orders two different pipes");
  buf(buffer);
  NodeId id = makeOp(NodeKind::Flag, Op::None, kNone, {buffer});
  k_.nodes[id].fromPipe = from;
  k_.nodes[id].toPipe = to;
  return id;
}

}  // namespace tilecraft::ir
