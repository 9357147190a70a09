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
  if (n.form == VecForm::Flat) return true;
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

}  // namespace tilecraft::ir
