// `tilecraft compile --emit=ascendc` and the compile step of `tilecraft run`: front end, lowering, the pass
// pipeline and the AscendC emitter on one .tile file, testable without a process.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "codegen/emitter.h"

namespace tilecraft::codegen {

struct AscendCOptions {
  std::string file;
  std::string diagnostics = "text";  // text | json
  std::string namespaceName = {};    // EmitOptions::namespaceName: emit for a batch (fuzz/batch.h)
};

/// A back end of compileKernel: writes its output for the file's kernel, reporting what it cannot express as error
/// diagnostics.
using KernelEmit = std::function<void(const ir::Kernel&, const EmitOptions&, support::DiagnosticEngine&)>;

/// The front end, lowering and the pipeline on `options.file`, then `emitKernel` on its kernel; `what` (e.g.
/// "--emit=ascendc") names the output in the error for a file without exactly one kernel. Exit status as below.
int compileKernel(const AscendCOptions& options, const std::string& what, const KernelEmit& emitKernel,
                  std::ostream& err);

/// Compiles `options.file` to AscendC. On success returns 0 and sets `code` (and `kernelName`); otherwise writes
/// the diagnostics to `err` and returns 1 (errors in the program, or an internal verifier failure) or 2 (bad usage,
/// unreadable file). A file must hold exactly one kernel: one generated source is one operator.
int compileToAscendC(const AscendCOptions& options, std::string& code, std::string& kernelName, std::ostream& err);

/// `tilecraft compile FILE --emit=ascendc`: the source on `out`.
int runCompileAscendC(const AscendCOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::codegen
