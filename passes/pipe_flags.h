// Part of queue insertion: the SetFlag/WaitFlag pairs the queues' own events leave out.
#pragma once

#include <map>
#include <vector>

#include "ir/ir.h"
#include "passes/passes.h"

namespace tilecraft::passes {

/// Walks the kernel in program order with the pipe each op reads and writes each UB buffer on (loads MTE2, a
/// gather's indices S, stores MTE3, vector ops V) and returns, per statement, the Flag nodes to put just before
/// it: one wherever a pipe touches a buffer another pipe wrote (or, for a write, still reads) and no queue event
/// or earlier flag has ordered the two.
std::map<ir::NodeId, std::vector<ir::NodeId>> pipeFlags(ir::Kernel& kernel);

}  // namespace tilecraft::passes
