// Checks a whole kernel: every rule a pass must keep. It runs after every pass in tests (and in the driver),
// so a pass that breaks the IR is caught at the pass, not in the emitted AscendC. Failures are compiler bugs;
// the messages name the node, its DSL line and the broken rule.
#pragma once

#include <string>
#include <vector>

#include "ir/ir.h"

namespace tilecraft::ir {

/// Every violation, in node order; empty when the kernel is well-formed.
std::vector<std::string> verify(const Kernel& kernel);
std::vector<std::string> verify(const Module& module);

}  // namespace tilecraft::ir
