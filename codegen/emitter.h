// The AscendC emitter: walks one kernel of the final IR (after the whole pass pipeline) and writes one C++17 source
// in the shape of the official AscendC samples: a tiling struct and its host function, a kernel class with Init,
// Process and one method per DSL stage (CopyIn / Compute / CopyOut), TPipe/TQue/TBuf, the
// `extern "C" __global__ __aicore__` entry and a CPU-debug launcher `main` (ASCENDC_CPU_DEBUG). Every statement
// made from a DSL line carries that line as a comment. The output is deterministic: no paths, no timestamps.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::codegen {

struct EmitOptions {
  std::string sourceName;                   // the .tile file's base name, for the line comments
  std::vector<std::string> sourceLines;     // the .tile file's lines (index 0 = line 1), for the line comments
  std::map<std::string, double> attrDefaults;  // attribute name -> its default, for the launcher
};

/// The AscendC source of `kernel`. IR the emitter cannot express yet is reported as an error diagnostic at the DSL
/// construct (never silently wrong code); the result is then empty.
std::string emitAscendC(const ir::Kernel& kernel, const EmitOptions& options, support::DiagnosticEngine& diagnostics);

}  // namespace tilecraft::codegen
