// tiling: trip counts and tail lengths of tile loops; which GM copies need DataCopyPad.
#include "ir/builder.h"
#include "ir/check.h"
#include "passes/passes.h"

namespace tilecraft::passes {

namespace {

/// True when the extent is known to be a whole number of 32-byte blocks of `dtype` (DataCopy moves whole
/// blocks).
bool rowAligned(const ir::Extent& e, ir::DType dtype) {
  if (e.kind != ir::Extent::Kind::Const && e.kind != ir::Extent::Kind::Tile) return false;
  return e.value * dsl::dtypeBits(dtype) % (32 * 8) == 0;
}

/// A constant walk length that the tile size divides has no tail; anything else may.
bool hasTail(const ir::Kernel& k, const ir::Node& loop) {
  const ir::Node& len = k.node(loop.args.at(1));
  return !(len.kind == ir::NodeKind::IntConst && len.intValue % loop.size == 0);
}

/// The scalar value of an extent (a tensor dimension or a slice's width).
ir::NodeId extentValue(ir::Builder& b, const ir::Extent& e) {
  switch (e.kind) {
    case ir::Extent::Kind::Const: return b.intConst(e.value);
    case ir::Extent::Kind::Dim: return b.varRef(e.ref);
    case ir::Extent::Kind::Tile: return b.loopField(e.ref, ir::Op::Len);
  }
  return ir::kNone;
}

/// A slice [lo, lo + width) of a dimension of `extent` stays inside only when both are constants that say so;
/// any other may run past the end (a constant-width chunk at an offset computed on the device), and then its
/// copy is bounded by the elements inside: max(0, min(width, extent - lo)).
void boundSlice(ir::Builder& b, const ir::Kernel& k, ir::GmIndex& g, const ir::Extent& extent) {
  const ir::Node& lo = k.node(g.lo);
  bool constant = extent.kind == ir::Extent::Kind::Const && g.width.kind == ir::Extent::Kind::Const &&
                  lo.kind == ir::NodeKind::IntConst;
  if (constant && lo.intValue >= 0 && lo.intValue + g.width.value <= extent.value) return;
  ir::NodeId room = b.scalarBinary(ir::Op::Sub, extentValue(b, extent), g.lo);
  ir::NodeId inside = b.scalarBinary(ir::Op::Min, extentValue(b, g.width), room);
  g.valid = b.scalarBinary(ir::Op::Max, b.intConst(0), inside);
}

}  // namespace

void tiling(ir::Kernel& kernel, PassContext&) {
  ir::Builder b(kernel);
  std::vector<bool> loopTail(kernel.loops.size(), false);
  for (ir::NodeId id = 0; id < kernel.nodes.size(); ++id) {
    if (kernel.nodes[id].kind != ir::NodeKind::TileLoop || kernel.nodes[id].args.size() != 2) continue;
    const ir::Node loop = kernel.nodes[id];
    loopTail[loop.ref] = hasTail(kernel, loop);
    b.setSource(loop.span, 0);
    // count = cdiv(len, size); the last tile holds len - (count - 1) * size elements (size when it divides).
    // A length of min(size, ...) (a grid block) is a single tile, which is its own tail.
    const ir::Node& len = kernel.node(loop.args[1]);
    bool single = len.kind == ir::NodeKind::ScalarBinary && len.op == ir::Op::Min &&
                  kernel.node(len.args[0]).kind == ir::NodeKind::IntConst &&
                  kernel.node(len.args[0]).intValue == loop.size;
    ir::NodeId count = ir::kNone;
    ir::NodeId tail = ir::kNone;
    if (single) {
      count = b.intConst(1);
      tail = loop.args[1];
    } else {
      count = b.scalarBinary(ir::Op::Cdiv, loop.args[1], b.intConst(loop.size));
      ir::NodeId full = b.scalarBinary(ir::Op::Sub, count, b.intConst(1));
      tail = b.scalarBinary(ir::Op::Sub, loop.args[1], b.scalarBinary(ir::Op::Mul, full, b.intConst(loop.size)));
    }
    kernel.nodes[id].args.push_back(count);
    kernel.nodes[id].args.push_back(tail);
  }
  // A GM copy is exact (DataCopy) only when every row it moves is whole 32-byte blocks and no tile dimension
  // can be a short tail; otherwise it is DataCopyPad, which pads the UB rows and masks the GM side.
  for (ir::NodeId id = 0; id < kernel.nodes.size(); ++id) {
    if (kernel.nodes[id].kind != ir::NodeKind::Load && kernel.nodes[id].kind != ir::NodeKind::Store) continue;
    const ir::Param& p = kernel.params.at(kernel.nodes[id].ref);
    b.setSource(kernel.nodes[id].span, 0);
    std::vector<ir::GmIndex> access = kernel.nodes[id].access;
    for (size_t j = 0; j < access.size() && j < p.shape.size(); ++j) {
      if (access[j].kind == ir::GmIndex::Kind::Slice) boundSlice(b, kernel, access[j], p.shape[j]);
    }
    // The builder may have grown the node list: take the reference only now.
    ir::Node& n = kernel.nodes[id];
    n.access = std::move(access);
    bool tail = false;
    for (const ir::GmIndex& g : n.access) {
      if (g.kind == ir::GmIndex::Kind::Tile && loopTail.at(g.loop)) tail = true;
      if (g.valid != ir::kNone) tail = true;
    }
    // The innermost index decides the row length actually moved.
    const ir::GmIndex& last = n.access.back();
    ir::Extent row = p.shape.back();
    if (last.kind == ir::GmIndex::Kind::Tile) {
      row = {ir::Extent::Kind::Tile, 0, last.loop};
      for (const ir::Node& l : kernel.nodes) {
        if (l.kind == ir::NodeKind::TileLoop && l.ref == last.loop) row.value = l.size;
      }
    } else if (last.kind == ir::GmIndex::Kind::Slice) {
      row = last.width;
    } else if (last.kind == ir::GmIndex::Kind::Point) {
      row = ir::Extent::constant(1);
    }
    if (!rowAligned(row, p.dtype)) tail = true;
    // The UB side's rows count too: an (r, 1) tile stored into a 1-D view moves one element per 32-byte row.
    ir::BufferId local = n.kind == ir::NodeKind::Load ? n.dst : n.srcs.at(0);
    const std::vector<ir::Extent>& shape = kernel.buffers.at(local).shape;
    if (n.kind == ir::NodeKind::Load && !n.srcs.empty()) local = ir::kNone;  // a gather: its rows are table rows
    if (local != ir::kNone && !shape.empty() && !rowAligned(shape.back(), p.dtype)) tail = true;
    n.tail = tail;
  }
}

}  // namespace tilecraft::passes
