// `tilecraft compile`: the front-end driver behind the command, testable without a process.
#pragma once

#include <iosfwd>
#include <string>

namespace tilecraft::dsl {

struct CompileOptions {
  std::string file;
  std::string emit = "ast";          // tokens | ast (ascendc, project: not implemented yet; ir is passes/driver.h)
  std::string diagnostics = "text";  // text | json
};

/// Exit status: 0 success, 1 the program has errors (or the requested stage does not exist yet), 2 bad usage
/// (including an IR stage, which passes::runCompileIr handles) or unreadable file. The emitted text goes to `out`; diagnostics go to `err`.
int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::dsl
