#include "dsl/driver.h"

#include <fmt/format.h>

#include <ostream>

#include "dsl/ast.h"
#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::dsl {

namespace {
// Stages the issue plans after the IR; asking for them is an error until they exist, never fake output.
bool isPlannedStage(const std::string& emit) { return emit == "ascendc" || emit == "project"; }
// The IR stages are the passes library's (passes::runCompileIr); the command routes them there.
bool isIrStage(const std::string& emit) { return emit == "ir" || emit.rfind("ir-after=", 0) == 0; }
}  // namespace

int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err) {
  if (options.diagnostics != "text" && options.diagnostics != "json") {
    err << fmt::format("error: unknown --diagnostics value '{}' (expected text or json)\n", options.diagnostics);
    return 2;
  }
  if (isPlannedStage(options.emit)) {
    err << fmt::format("error: --emit={} is not implemented yet (available: tokens, ast, ir, ir-after=PASS)\n",
                       options.emit);
    return 1;
  }
  if (isIrStage(options.emit)) {
    err << fmt::format("error: --emit={} is produced by the IR driver, not the front end (passes::runCompileIr)\n",
                       options.emit);
    return 2;
  }
  if (options.emit != "tokens" && options.emit != "ast") {
    err << fmt::format("error: unknown --emit value '{}' (expected tokens, ast, ir, ir-after=PASS, ascendc or "
                       "project)\n",
                       options.emit);
    return 2;
  }
  support::SourceManager sources;
  std::string readError;
  auto file = sources.addFile(options.file, &readError);
  if (!file) {
    err << "error: " << readError << "\n";
    return 2;
  }
  support::DiagnosticEngine diagnostics;
  std::vector<Token> tokens = lex(sources, *file, diagnostics);
  std::string output;
  if (options.emit == "tokens") {
    output = printTokens(sources, tokens);
  } else {
    Ast ast = parse(tokens, diagnostics);
    // A statement the parser dropped would make every later use of its names an error: semantic checks run only
    // on a file that parsed cleanly, so syntax errors never cascade.
    if (!diagnostics.hasErrors()) {
      SemaResult sema = check(sources, ast, diagnostics);
      output = printTypedAst(sources, ast, sema);
    }
  }
  if (options.diagnostics == "json") {
    err << support::renderJson(sources, diagnostics.diagnostics());
  } else {
    err << support::renderText(sources, diagnostics.diagnostics());
    err << support::renderSummary(diagnostics.errorCount(), diagnostics.warningCount());
  }
  if (diagnostics.hasErrors()) return 1;
  out << output;
  return 0;
}

}  // namespace tilecraft::dsl
