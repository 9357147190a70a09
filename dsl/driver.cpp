#include "dsl/driver.h"

#include <fmt/format.h>

#include <ostream>

#include "dsl/lexer.h"
#include "dsl/parser.h"

namespace tilecraft::dsl {

namespace {
// Stages of the libraries after the front end (passes::runCompileIr, codegen::runCompileAscendC,
// codegen::runCompileProject):
// dependencies point from them to dsl, so the command routes these there.
const char* laterDriver(const std::string& emit) {
  if (emit == "ir" || emit.rfind("ir-after=", 0) == 0) return "the IR driver, not the front end (passes::runCompileIr)";
  if (emit == "ascendc") return "the AscendC driver, not the front end (codegen::runCompileAscendC)";
  if (emit == "project") return "the project driver, not the front end (codegen::runCompileProject)";
  return nullptr;
}
}  // namespace

int checkDiagnosticsFormat(const std::string& format, std::ostream& err) {
  if (format == "text" || format == "json") return 0;
  err << fmt::format("error: unknown --diagnostics value '{}' (expected text or json)\n", format);
  return 2;
}

int compileFile(const FrontEndOptions& options, const BackEnd& backEnd, std::ostream& err) {
  if (int status = checkDiagnosticsFormat(options.diagnostics, err)) return status;
  Program program;
  program.path = options.file;
  std::string readError;
  auto file = program.sources.addFile(options.file, &readError);
  if (!file) {
    err << "error: " << readError << "\n";
    return 2;
  }
  program.file = *file;
  support::DiagnosticEngine& diagnostics = program.diagnostics;
  program.tokens = lex(program.sources, program.file, diagnostics);
  // Lexical errors do not stop the parser: one run reports both kinds (dsl/tests/diagnostics/parse_errors).
  if (!options.lexOnly) {
    program.ast = parse(program.tokens, diagnostics);
    // A statement the parser dropped would make every later use of its names an error: semantic checks run
    // only on a file that parsed cleanly.
    if (!diagnostics.hasErrors()) program.sema = check(program.sources, program.ast, diagnostics);
  }
  std::vector<std::string> internalErrors;
  if (!diagnostics.hasErrors()) internalErrors = backEnd(program);
  if (options.diagnostics == "json") {
    err << support::renderJson(program.sources, diagnostics.diagnostics());
  } else {
    err << support::renderText(program.sources, diagnostics.diagnostics());
    err << support::renderSummary(diagnostics.errorCount(), diagnostics.warningCount());
  }
  for (const std::string& e : internalErrors) err << "internal compiler error: " << e << "\n";
  return diagnostics.hasErrors() || !internalErrors.empty() ? 1 : 0;
}

int runCompile(const CompileOptions& options, std::ostream& out, std::ostream& err) {
  if (int status = checkDiagnosticsFormat(options.diagnostics, err)) return status;
  if (const char* driver = laterDriver(options.emit)) {
    err << fmt::format("error: --emit={} is produced by {}\n", options.emit, driver);
    return 2;
  }
  if (options.emit != "tokens" && options.emit != "ast") {
    err << fmt::format(
        "error: unknown --emit value '{}' (expected tokens, ast, ir, ir-after=PASS, ascendc or "
        "project)\n",
        options.emit);
    return 2;
  }
  std::string output;
  FrontEndOptions frontEnd{options.file, options.diagnostics, options.emit == "tokens"};
  int status = compileFile(
      frontEnd,
      [&](Program& p) {
        output = frontEnd.lexOnly ? printTokens(p.sources, p.tokens) : printTypedAst(p.sources, p.ast, p.sema);
        // The token stream is the lexer's view: a program that does not check still has one.
        if (frontEnd.lexOnly || !options.wholePipeline) return std::vector<std::string>{};
        return options.wholePipeline(p);
      },
      err);
  if (status == 0) out << output;
  return status;
}

}  // namespace tilecraft::dsl
