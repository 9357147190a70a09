// `tilecraft compile`: the front-end driver behind the command, testable without a process.
#pragma once

#include <iosfwd>
#include <string>

namespace tilecraft::dsl {

struct CompileOptions {
  std::string file;
  std::string emit = "ast";          // tokens | ast (ir, ir-after=PASS, ascendc, project: not implemented yet)
  std::string diagnostics = "text";  // text | json
};

/// Exit status: 0 success, 1 the program has errors (or the requested stage does not exist yet), 2 bad usage or
/// unreadable file. The emitted text goes to `out`; diagnostics go to `err`.
int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::dsl
