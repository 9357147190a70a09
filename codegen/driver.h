// `tilecraft compile --emit=ascendc` and the compile step of `tilecraft run`: front end, lowering, the pass
// pipeline and the AscendC emitter on one .tile file, testable without a process.
#pragma once

#include <iosfwd>
#include <string>

namespace tilecraft::codegen {

struct AscendCOptions {
  std::string file;
  std::string diagnostics = "text";  // text | json
};

/// Compiles `options.file` to AscendC. On success returns 0 and sets `code` (and `kernelName`); otherwise writes
/// the diagnostics to `err` and returns 1 (errors in the program, or an internal verifier failure) or 2 (bad usage,
/// unreadable file). A file must hold exactly one kernel: one generated source is one operator.
int compileToAscendC(const AscendCOptions& options, std::string& code, std::string& kernelName, std::ostream& err);

/// `tilecraft compile FILE --emit=ascendc`: the source on `out`.
int runCompileAscendC(const AscendCOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::codegen
