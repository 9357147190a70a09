// cache-hints: which input tensors stream past L2. L2 pays off for data read again; a tensor every byte of which
// is read once, by one core, gains nothing from it, and on 910B2 the L2-allocating read path streams at 920 GB/s
// against 1530 GB/s around it (hardware.md §3.3 [meas S17]). Such a tensor is marked `streamed` and the emitter
// gives it SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE), as CANN's own kernels do for operands "without
// duplicate data reads".
#include "ir/check.h"
#include "passes/passes.h"

namespace tilecraft::passes {

namespace {

// The load reads new data on every iteration of every loop around it, and cores read disjoint parts: each
// enclosing tile loop indexes the view, a range loop around it is the grid's block loop, and one of the loops
// walks a core split's share or a grid block.
bool readsOnce(const ir::Kernel& k, const TreeIndex& index, ir::NodeId load) {
  const ir::Node& n = k.node(load);
  if (!n.srcs.empty()) return false;  // a gather may read a row many times
  auto indexes = [&](uint32_t loop) {
    for (const ir::GmIndex& g : n.access) {
      if (g.kind == ir::GmIndex::Kind::Tile && g.loop == loop) return true;
    }
    return false;
  };
  bool perCore = false;
  for (ir::NodeId p = index.parent[load]; p != ir::kNone; p = index.parent[p]) {
    const ir::Node& loop = k.node(p);
    if (loop.kind == ir::NodeKind::TileLoop) {
      if (!indexes(loop.ref)) return false;
      perCore = perCore || k.node(loop.args[0]).kind == ir::NodeKind::SplitField;
    } else if (loop.kind == ir::NodeKind::RangeLoop) {
      if (k.node(loop.args[0]).kind != ir::NodeKind::BlockIdx) return false;
      perCore = true;
    }
  }
  return perCore;
}

}  // namespace

void cacheHints(ir::Kernel& kernel, PassContext&) {
  TreeIndex index = indexTree(kernel);
  std::vector<int> loads(kernel.params.size(), 0);
  std::vector<bool> once(kernel.params.size(), true);
  for (ir::NodeId id : index.order) {
    const ir::Node& n = kernel.node(id);
    if (n.kind != ir::NodeKind::Load) continue;
    TC_ASSERT(n.ref < kernel.params.size(), "a load of parameter {} in a kernel of {}", n.ref, kernel.params.size());
    ++loads[n.ref];
    once[n.ref] = once[n.ref] && readsOnce(kernel, index, id);
  }
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    ir::Param& p = kernel.params[i];
    // Two loads of one tensor (a two-pass norm) may hit in L2 the second time.
    p.streamed = p.role == ir::TensorRole::In && loads[i] == 1 && once[i];
  }
}

}  // namespace tilecraft::passes
