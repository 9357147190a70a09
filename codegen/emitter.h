// The AscendC emitter: walks one kernel of the final IR (after the whole pass pipeline) and writes one C++17 source
// in the shape of the official AscendC samples: a tiling struct and its host function, a kernel class with Init,
// Process and one method per DSL stage (CopyIn / Compute / CopyOut), TPipe/TQue/TBuf, the
// `extern "C" __global__ __aicore__` entry and a CPU-debug launcher `main` (ASCENDC_CPU_DEBUG). Every statement
// made from a DSL line carries that line as a comment. The output is deterministic: no paths, no timestamps.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::codegen {

struct EmitOptions {
  std::string sourceName;                      // the .tile file's base name, for the line comments
  std::vector<std::string> sourceLines;        // the .tile file's lines (index 0 = line 1), for the line comments
  std::map<std::string, double> attrDefaults;  // attribute name -> its default, for the launcher
  // Batching many kernels into one translation unit (fuzz/batch.cpp: the emulator headers dominate a build, so
  // one build for many kernels): a non-empty name puts everything kernel-specific in `namespace NAME`, leaves
  // the includes and the launcher runtime to batchPrelude(), and makes the launcher `int Run(int argc, char**
  // argv)` (same arguments as the standalone `main`) for the batch's own `main` to call.
  std::string namespaceName;
};

/// The generated file's source map: element i is the DSL line that line i + 1 of the file was made from, 0 for
/// code the compiler adds on its own (includes, the tiling, the launcher). The line comments say the same to a
/// reader; the map says it exactly, for tools (docs/compiler.md, "Source locations").
using TileLineMap = std::vector<uint32_t>;

/// The AscendC source of `kernel`. IR the emitter cannot express yet is reported as an error diagnostic at the DSL
/// construct (never silently wrong code); the result is then empty. With `tileLines`, its source map.
std::string emitAscendC(const ir::Kernel& kernel, const EmitOptions& options, support::DiagnosticEngine& diagnostics,
                        TileLineMap* tileLines = nullptr);

/// The head of a batch's file, once before the kernels emitted with a namespaceName: the includes,
/// `using namespace AscendC;` and, under ASCENDC_CPU_DEBUG, the launcher's includes and runtime.
std::string batchPrelude();

}  // namespace tilecraft::codegen
