#include "passes/passes.h"

namespace tilecraft::passes {

namespace {
void visit(const ir::Kernel& k, ir::NodeId id, ir::NodeId parent, ir::NodeId stage, TreeIndex& index) {
  index.parent[id] = parent;
  index.stage[id] = stage;
  index.order.push_back(id);
  const ir::Node& n = k.node(id);
  ir::NodeId inner = n.kind == ir::NodeKind::Stage ? id : stage;
  for (ir::NodeId s : n.body) visit(k, s, id, inner, index);
  for (ir::NodeId s : n.orelse) visit(k, s, id, inner, index);
}
}  // namespace

TreeIndex indexTree(const ir::Kernel& kernel) {
  TreeIndex index;
  index.parent.assign(kernel.nodes.size(), ir::kNone);
  index.stage.assign(kernel.nodes.size(), ir::kNone);
  visit(kernel, kernel.body, ir::kNone, ir::kNone, index);
  return index;
}

}  // namespace tilecraft::passes
