#include "passes/driver.h"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "dsl/lexer.h"
#include "dsl/parser.h"
#include "dsl/sema.h"
#include "ir/printer.h"
#include "passes/lower.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::passes {

bool isIrEmit(const std::string& emit) {
  return emit == "ir" || emit.rfind("ir-after=", 0) == 0;
}

int runCompileIr(const IrCompileOptions& options, std::ostream& out, std::ostream& err, Clock* clock) {
  if (options.diagnostics != "text" && options.diagnostics != "json") {
    err << fmt::format("error: unknown --diagnostics value '{}' (expected text or json)\n",
                       options.diagnostics);
    return 2;
  }
  std::string stopAfter;
  if (options.emit.rfind("ir-after=", 0) == 0) {
    stopAfter = options.emit.substr(9);
    if (!isPipelineStage(stopAfter)) {
      std::string names = "lower";
      for (const PassInfo& p : pipelinePasses()) names += fmt::format(", {}", p.name);
      err << fmt::format("error: unknown pass '{}' in --emit=ir-after (passes: {})\n", stopAfter, names);
      return 2;
    }
  } else if (options.emit != "ir") {
    err << fmt::format(
        "error: --print-after-all and --time-passes need --emit=ir or --emit=ir-after=PASS (got "
        "--emit={})\n",
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
  std::vector<dsl::Token> tokens = dsl::lex(sources, *file, diagnostics);
  dsl::Ast ast = dsl::parse(tokens, diagnostics);
  std::ostringstream output;
  std::vector<std::string> verifierErrors;
  // Each step runs only on a program the previous one accepted, so errors never cascade.
  if (!diagnostics.hasErrors()) {
    dsl::SemaResult sema = dsl::check(sources, ast, diagnostics);
    if (!diagnostics.hasErrors()) {
      ir::Module module = lower(ast, sema, sources, diagnostics);
      if (!diagnostics.hasErrors()) {
        SteadyClock steady;
        PipelineOptions pipeline;
        pipeline.stopAfter = stopAfter;
        pipeline.printAfterAll = options.printAfterAll ? &output : nullptr;
        pipeline.timings = options.timePasses ? &err : nullptr;
        pipeline.clock = clock ? clock : &steady;
        bool ok = runPipeline(module, pipeline, diagnostics, &verifierErrors);
        if (ok && !options.printAfterAll) output << ir::printModule(module);
      }
    }
  }
  if (options.diagnostics == "json") {
    err << support::renderJson(sources, diagnostics.diagnostics());
  } else {
    err << support::renderText(sources, diagnostics.diagnostics());
    err << support::renderSummary(diagnostics.errorCount(), diagnostics.warningCount());
  }
  for (const std::string& e : verifierErrors) err << "internal compiler error: IR verifier: " << e << "\n";
  if (diagnostics.hasErrors() || !verifierErrors.empty()) return 1;
  out << output.str();
  return 0;
}

}  // namespace tilecraft::passes
