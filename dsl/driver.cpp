#include "dsl/driver.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
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

namespace {

// The diagnostics of one instantiation, with the instantiation named when the program has parameters.
void mergeDiagnostics(const support::DiagnosticEngine& from, const Instantiation& inst,
                      support::DiagnosticEngine& into) {
  for (const support::Diagnostic& d : from.diagnostics()) {
    auto b = into.report(d.severity, d.span, d.message);
    for (const support::DiagnosticNote& n : d.notes) b.note(n.span, n.message);
    if (!inst.values.empty()) b.note(support::Span{}, fmt::format("in the instantiation {}", inst.str()));
    if (!d.hint.empty()) b.hint(d.hint);
  }
}

}  // namespace

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
  support::DiagnosticEngine diagnostics;
  program.tokens = lex(program.sources, program.file, diagnostics);
  // Lexical errors do not stop the parser: one run reports both kinds (dsl/tests/diagnostics/parse_errors).
  Ast parsed;
  std::vector<Instantiation> insts = {Instantiation{}};
  if (!options.lexOnly) {
    parsed = parse(program.tokens, diagnostics);
    if (!diagnostics.hasErrors()) program.params = genericParams(parsed, diagnostics);
    if (!diagnostics.hasErrors()) {
      std::string usage;
      insts = instantiations(parsed, program.params, options.params, diagnostics, &usage);
      if (!usage.empty()) {
        err << "error: " << usage << "\n";
        return 2;
      }
      if (insts.size() > 1 && !options.everyInstantiation) {
        err << fmt::format(
            "error: {} has {} instantiations and this command runs one: bind {} with --param NAME=VALUE\n",
            options.file, insts.size(), unboundParams(program.params, options.params));
        return 2;
      }
    }
  }
  std::vector<std::string> internalErrors;
  if (options.lexOnly || diagnostics.hasErrors()) {
    program.diagnostics = std::move(diagnostics);
    if (!program.diagnostics.hasErrors()) internalErrors = backEnd(program);
  } else {
    for (const Instantiation& inst : insts) {
      // Each instantiation is its own program from here on; its diagnostics say which one it is.
      program.diagnostics = support::DiagnosticEngine();
      program.instantiation = inst;
      program.ast = instantiate(parsed, program.params, inst, program.diagnostics);
      // A statement the parser dropped would make every later use of its names an error: semantic checks run
      // only on a file that parsed cleanly.
      program.sema = SemaResult{};
      if (!program.diagnostics.hasErrors()) {
        program.sema = check(program.sources, program.ast, program.diagnostics);
        // Before the first check's verdict: a capacity error may count a cast that costs nothing.
        if (dropSameDTypeCasts(program.ast, program.sema)) {
          program.diagnostics = support::DiagnosticEngine();  // the second check repeats the first one's reports
          program.sema = check(program.sources, program.ast, program.diagnostics);
        }
      }
      if (!program.diagnostics.hasErrors()) {
        for (std::string& e : backEnd(program)) internalErrors.push_back(std::move(e));
      }
      mergeDiagnostics(program.diagnostics, inst, diagnostics);
    }
    program.diagnostics = std::move(diagnostics);
  }
  const support::DiagnosticEngine& all = program.diagnostics;
  if (options.diagnostics == "json") {
    err << support::renderJson(program.sources, all.diagnostics());
  } else {
    err << support::renderText(program.sources, all.diagnostics());
    err << support::renderSummary(all.errorCount(), all.warningCount());
  }
  for (const std::string& e : internalErrors) err << "internal compiler error: " << e << "\n";
  return all.hasErrors() || !internalErrors.empty() ? 1 : 0;
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
  FrontEndOptions frontEnd{options.file, options.diagnostics, options.emit == "tokens", options.params, true};
  int status = compileFile(
      frontEnd,
      [&](Program& p) {
        // A generic program prints each instantiation after a line naming it.
        if (!p.instantiation.values.empty()) output += fmt::format("# instantiation {}\n", p.instantiation.str());
        output += frontEnd.lexOnly ? printTokens(p.sources, p.tokens) : printTypedAst(p.sources, p.ast, p.sema);
        // The token stream is the lexer's view: a program that does not check still has one.
        if (frontEnd.lexOnly || !options.wholePipeline) return std::vector<std::string>{};
        return options.wholePipeline(p);
      },
      err);
  if (status == 0) out << output;
  return status;
}

}  // namespace tilecraft::dsl
