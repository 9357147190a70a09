// `tilecraft compile --emit=ascendc` and the compile step of `tilecraft run`: front end, lowering, the pass
// pipeline and the AscendC emitter on one .tile file, testable without a process.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "codegen/emitter.h"
#include "dsl/driver.h"

namespace tilecraft::codegen {

struct AscendCOptions {
  std::string file;
  std::string diagnostics = "text";      // text | json
  std::string namespaceName = {};        // EmitOptions::namespaceName: emit for a batch (fuzz/batch.h)
  std::vector<std::string> params = {};  // --param NAME=VALUE: the instantiation of a generic program
  /// Compile every instantiation the params leave (dsl::FrontEndOptions::everyInstantiation); the output is the
  /// last one's. For checks that want a verdict on the whole program (the MCP check_program tool).
  bool everyInstantiation = false;
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
/// With `tileLines`, the source's map back to the .tile file's lines (TileLineMap).
int compileToAscendC(const AscendCOptions& options, std::string& code, std::string& kernelName, std::ostream& err,
                     TileLineMap* tileLines = nullptr);

/// Lowering, the pass pipeline, the verifier and the emitter on every kernel of a program the front end accepted,
/// the output thrown away: what `tilecraft compile` runs whatever --emit says, so that it never calls a program
/// fine that a later stage refuses. Reports into p.diagnostics (a report a stage already made is kept once);
/// returns the verifier's failures.
std::vector<std::string> checkWholePipeline(dsl::Program& p);

/// `tilecraft compile FILE --emit=ascendc`: the source on `out`.
int runCompileAscendC(const AscendCOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::codegen
