// core-split: this core's share of a split extent, from host tiling fields.
#include <fmt/format.h>

#include "ir/builder.h"
#include "ir/check.h"
#include "passes/passes.h"

namespace tilecraft::passes {

void coreSplit(ir::Kernel& kernel, PassContext&) {
  ir::Builder b(kernel);
  for (ir::NodeId id = 0; id < kernel.nodes.size(); ++id) {
    if (kernel.nodes[id].kind != ir::NodeKind::CoreSplit || kernel.nodes[id].args.size() != 1) continue;
    const std::string name = kernel.splits.at(kernel.nodes[id].ref).name;
    ir::NodeId extent = kernel.nodes[id].args[0];
    int64_t cores = kernel.nodes[id].cores;
    // The host computes base and remainder once (tiling struct); the device needs only its block index. An
    // even split with the remainder on the last core would make that core the critical path; spreading it
    // over the first `rem` cores keeps every share within one element of the others.
    auto field = [&](const char* suffix, ir::Op op) {
      ir::Var v;
      v.name = fmt::format("{}_{}", name, suffix);
      v.kind = ir::Var::Kind::Field;
      v.dtype = ir::DType::I64;
      v.value = b.scalarBinary(op, extent, b.intConst(cores));
      return b.varRef(b.addVar(std::move(v)));
    };
    b.setSource(kernel.nodes[id].span, 0);
    ir::NodeId base = field("base", ir::Op::FloorDiv);
    ir::NodeId rem = field("rem", ir::Op::Mod);
    ir::NodeId block = b.blockIdx();
    ir::NodeId start = b.scalarBinary(ir::Op::Add, b.scalarBinary(ir::Op::Mul, block, base),
                                      b.scalarBinary(ir::Op::Min, b.blockIdx(), rem));
    ir::NodeId len = b.scalarBinary(ir::Op::Add, base, b.scalarBinary(ir::Op::Lt, b.blockIdx(), rem));
    kernel.nodes[id].args.push_back(start);
    kernel.nodes[id].args.push_back(len);
  }
}

}  // namespace tilecraft::passes
