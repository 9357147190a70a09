#include "ir/row_form.h"

#include <algorithm>

namespace tilecraft::ir {

namespace {

bool isUnit(const Extent& e) { return e.kind == Extent::Kind::Const && e.value == 1; }

// The same row pitch in elements: equal block sizes, or a constant row that aligns to the same length in both.
bool samePitch(const Buffer& a, const Buffer& b) {
  int64_t ea = blockElements(a.dtype), eb = blockElements(b.dtype);
  if (ea == eb) return true;
  const Extent& inner = a.shape.back();
  return inner.kind == Extent::Kind::Const && alignUp(inner.value, ea) == alignUp(inner.value, eb);
}

bool elementwiseKind(const Kernel& k, const Node& n) {
  switch (n.kind) {
    case NodeKind::Cast:
    case NodeKind::Unary:
    case NodeKind::Binary:
    case NodeKind::BinaryScalar:
    case NodeKind::Fill: return true;
    case NodeKind::Copy: return !n.srcs.empty() && k.buffer(n.srcs[0]).mem == Mem::UB;
    default: return false;
  }
}

bool oneRowShape(const Buffer& b) {
  for (size_t i = 0; i + 1 < b.shape.size(); ++i) {
    if (!isUnit(b.shape[i])) return false;
  }
  return true;
}

// Elements a row of the buffer has room for: its bound padded to 32-byte blocks. A single row may hold any count
// up to its bound; several rows sit a pitch apart, so their count must be the same on every instantiation (a
// constant or a tile size): 0 when rows of a dim() extent follow each other at a pitch known only at run time.
int64_t rowRoom(const Buffer& b) {
  const Extent& inner = b.shape.back();
  if (!inner.bounded() || inner.value < 1) return 0;
  if (inner.kind == Extent::Kind::Dim && !oneRowShape(b)) return 0;
  return alignUp(inner.value, blockElements(b.dtype));
}

bool compareLanes(DType dtype, Op op) {
  return dtype == DType::F16 || dtype == DType::F32 || (dtype == DType::I32 && op == Op::Eq);
}

}  // namespace

int64_t blockElements(DType dtype) { return 256 / std::max(8, dsl::dtypeBits(dtype)); }

bool flatLayout(const Kernel& k, const Node& n) {
  if (!elementwiseKind(k, n) || n.dst == kNone) return false;
  const Buffer& d = k.buffer(n.dst);
  if (d.mem != Mem::UB || d.dtype == DType::Bool || d.shape.empty()) return false;
  const Extent& inner = d.shape.back();
  if (inner.kind == Extent::Kind::Tile) return false;
  bool severalRows = false;
  for (size_t i = 0; i + 1 < d.shape.size(); ++i) severalRows |= !isUnit(d.shape[i]);
  if (!severalRows) return false;
  for (BufferId s : n.srcs) {
    const Buffer& b = k.buffer(s);
    if (b.mem != Mem::UB || b.dtype == DType::Bool || b.shape != d.shape || !samePitch(b, d)) return false;
  }
  return true;
}

int64_t repeatLanes(DType dtype) { return 8 * blockElements(dtype); }

bool repeatReduce(const Kernel& k, const Node& n) {
  if (n.kind != NodeKind::Reduce || n.srcs.size() != 1 || n.dst == kNone) return false;
  const Buffer& s = k.buffer(n.srcs[0]);
  int rank = static_cast<int>(s.shape.size());
  if (s.mem != Mem::UB || rank < 2 || (n.axis != -1 && n.axis != rank - 1)) return false;
  bool sum = n.op == Op::ReduceSum || n.op == Op::ReduceMean;
  bool extreme = n.op == Op::ReduceMax || n.op == Op::ReduceMin;
  if (!(sum && s.dtype == DType::F32) && !(extreme && (s.dtype == DType::F32 || s.dtype == DType::F16))) return false;
  const Extent& inner = s.shape.back();
  if (!inner.bounded() || inner.value < 1 || inner.value > repeatLanes(s.dtype)) return false;
  bool severalRows = false;
  for (int i = 0; i + 1 < rank; ++i) severalRows |= !isUnit(s.shape[i]);
  return severalRows;
}

bool rowsUnpadded(const Buffer& b) {
  const Extent& inner = b.shape.back();
  return inner.kind == Extent::Kind::Const && inner.value % blockElements(b.dtype) == 0;
}

bool writesRowPadding(const Kernel& k, const Node& n) {
  if (n.form == VecForm::Flat || n.form == VecForm::ColumnFlat) return true;
  if (n.kind != NodeKind::Load || !n.srcs.empty() || n.dst == kNone || n.ref >= k.params.size()) return false;
  const Buffer& d = k.buffer(n.dst);
  const Param& prm = k.params[n.ref];
  if (d.mem != Mem::UB || d.shape.empty() || n.access.size() != prm.shape.size()) return false;
  // The copy's innermost extent is that of the last index that keeps its dimension.
  for (size_t i = n.access.size(); i-- > 0;) {
    const GmIndex& g = n.access[i];
    if (g.kind == GmIndex::Kind::Point) continue;
    if (g.kind == GmIndex::Kind::Full) return prm.shape[i] == d.shape.back();
    if (g.kind == GmIndex::Kind::Slice) return g.width == d.shape.back();
    return false;
  }
  return false;
}

bool paddedCompare(const Kernel& k, const Node& n) {
  if (n.kind != NodeKind::Compare || n.dst == kNone || n.srcs.empty()) return false;
  const Buffer& mask = k.buffer(n.dst);
  if (mask.mem != Mem::UB || mask.shape.empty()) return false;
  DType type = k.buffer(n.srcs[0]).dtype;
  if (!compareLanes(type, n.op)) return false;
  int64_t lanes = repeatLanes(type);
  for (BufferId s : n.srcs) {
    const Buffer& b = k.buffer(s);
    if (b.mem != Mem::UB || b.dtype != type || b.shape != mask.shape) return false;
    int64_t room = rowRoom(b);
    if (room == 0 || alignUp(b.shape.back().value, lanes) > room) return false;
  }
  // The mask's rows are ceil(n / 8) bytes padded to 32 (the emitter's pitch): room for the bits of whole repeats.
  const Extent& inner = mask.shape.back();
  if (inner.kind == Extent::Kind::Dim && !oneRowShape(mask)) return false;
  return alignUp(inner.value, lanes) / 8 <= alignUp((inner.value + 7) / 8, 32);
}

bool wholeMaskSelect(const Kernel& k, const Node& n, const std::vector<NodeId>& maskWriters) {
  if (n.kind != NodeKind::Select || n.dst == kNone || n.srcs.size() != 3 || maskWriters.empty()) return false;
  int64_t lanes = repeatLanes(k.buffer(n.dst).dtype);
  for (NodeId w : maskWriters) {
    const Node& c = k.node(w);
    if (c.kind != NodeKind::Compare || c.form != VecForm::Padded) return false;
    if (repeatLanes(k.buffer(c.srcs[0]).dtype) % lanes != 0) return false;
    if (k.buffer(c.dst).shape != k.buffer(n.dst).shape) return false;
  }
  return true;
}

namespace {

bool isColumnOf(const Buffer& column, const Buffer& tile) {
  if (column.shape.size() != tile.shape.size() || !isUnit(column.shape.back()) || isUnit(tile.shape.back())) {
    return false;
  }
  for (size_t i = 0; i + 1 < tile.shape.size(); ++i) {
    if (column.shape[i] != tile.shape[i]) return false;
  }
  return true;
}

// Rows of the buffer at their bound: 0 when one is unbounded.
int64_t rowBound(const Buffer& b) {
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < b.shape.size(); ++i) {
    if (!b.shape[i].bounded()) return 0;
    rows *= b.shape[i].value;
  }
  return rows;
}

}  // namespace

bool columnLanes(const Kernel& k, const Node& n) {
  if (n.dst == kNone || n.srcs.empty()) return false;
  bool level0 = false;
  switch (n.kind) {
    case NodeKind::Unary:
      level0 = n.op == Op::Exp || n.op == Op::Ln || n.op == Op::Abs || n.op == Op::Sqrt || n.op == Op::Rsqrt ||
               n.op == Op::Reciprocal || n.op == Op::Relu;
      break;
    case NodeKind::BinaryScalar:
      level0 = n.op == Op::Adds || n.op == Op::Muls || n.op == Op::Maxs || n.op == Op::Mins || n.op == Op::LeakyRelu;
      break;
    case NodeKind::Binary:
      level0 = n.op == Op::Add || n.op == Op::Sub || n.op == Op::Mul || n.op == Op::Div || n.op == Op::Max ||
               n.op == Op::Min;
      break;
    default: break;
  }
  if (!level0) return false;
  const Buffer& d = k.buffer(n.dst);
  if (d.mem != Mem::UB || (d.dtype != DType::F32 && d.dtype != DType::F16) || d.shape.empty()) return false;
  if (!isUnit(d.shape.back()) || oneRowShape(d)) return false;
  // Every repeat spans 8 rows' blocks, masked or not: each operand holds its rows rounded up to 8.
  int64_t rows = rowBound(d);
  if (rows < 2) return false;
  for (BufferId s : n.srcs) {
    const Buffer& b = k.buffer(s);
    if (b.mem != Mem::UB || b.dtype != d.dtype || b.shape != d.shape) return false;
  }
  for (BufferId s : n.srcs) {
    if (k.buffer(s).bytes < alignUp(rows, 8) * 32) return false;
  }
  return d.bytes >= alignUp(rows, 8) * 32;
}

BufferId columnTileOperand(const Kernel& k, const Node& n) {
  if (n.srcs.size() != 2 || n.dst == kNone) return kNone;
  const Buffer& d = k.buffer(n.dst);
  for (int i = 0; i < 2; ++i) {
    if (isColumnOf(k.buffer(n.srcs[1 - i]), d) && k.buffer(n.srcs[i]).shape == d.shape) return n.srcs[i];
  }
  return kNone;
}

int64_t columnCalls(const Kernel& k, const Node& n) {
  const Buffer& d = k.buffer(n.dst);
  return (alignUp(d.shape.back().value, blockElements(d.dtype)) + 63) / 64;
}

int64_t columnRowBound(const Kernel& k, const Node& n) { return rowBound(k.buffer(n.dst)); }

bool columnLayout(const Kernel& k, const Node& n) {
  if (n.kind != NodeKind::Binary || n.dst == kNone || n.srcs.size() != 2) return false;
  switch (n.op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Max:
    case Op::Min: break;
    default: return false;
  }
  BufferId tile = columnTileOperand(k, n);
  if (tile == kNone || n.srcs[0] == n.srcs[1]) return false;
  const Buffer& d = k.buffer(n.dst);
  const Buffer& column = k.buffer(n.srcs[0] == tile ? n.srcs[1] : n.srcs[0]);
  for (const Buffer* b : {&d, &k.buffer(tile), &column}) {
    if (b->mem != Mem::UB || b->dtype != DType::F32) return false;
  }
  const Extent& inner = d.shape.back();
  if (!inner.bounded() || inner.value < 1 || alignUp(inner.value, blockElements(d.dtype)) / 8 > 255) return false;
  int64_t rows = rowBound(d);
  // BlockReduce packs 8 rows a repeat and Brcb spreads 8 a repeat: at most 255 repeats each.
  return rows > 1 && rows <= 8 * 255 && alignUp(rows, 8) * 32 <= column.bytes;
}

}  // namespace tilecraft::ir
