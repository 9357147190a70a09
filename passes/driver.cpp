#include "passes/driver.h"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "dsl/driver.h"
#include "ir/printer.h"
#include "passes/lower.h"

namespace tilecraft::passes {

bool isIrEmit(const std::string& emit) { return emit == "ir" || emit.rfind("ir-after=", 0) == 0; }

int runCompileIr(const IrCompileOptions& options, std::ostream& out, std::ostream& err, Clock* clock) {
  if (int status = dsl::checkDiagnosticsFormat(options.diagnostics, err)) return status;
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
  std::ostringstream output;
  bool printable = false;  // the stages up to the requested IR succeeded
  int status = dsl::compileFile(
      {options.file, options.diagnostics, false, options.params},
      [&](dsl::Program& p) {
        std::vector<std::string> internalErrors;
        ir::Module module = lower(p.ast, p.sema, p.sources, p.diagnostics);
        // The pipeline runs only on a module lowering accepted, so errors never cascade.
        if (p.diagnostics.hasErrors()) return internalErrors;
        SteadyClock steady;
        PipelineOptions pipeline;
        pipeline.stopAfter = stopAfter;
        pipeline.printAfterAll = options.printAfterAll ? &output : nullptr;
        pipeline.timings = options.timePasses ? &err : nullptr;
        pipeline.clock = clock ? clock : &steady;
        std::vector<std::string> verifierErrors;
        bool ok = runPipeline(module, pipeline, p.diagnostics, &verifierErrors);
        if (ok && !options.printAfterAll) output << ir::printModule(module);
        for (const std::string& e : verifierErrors) internalErrors.push_back("IR verifier: " + e);
        printable = ok && internalErrors.empty() && !p.diagnostics.hasErrors();
        if (printable && options.wholePipeline) internalErrors = options.wholePipeline(p);
        return internalErrors;
      },
      err);
  if (status == 0 || printable) out << output.str();
  return status;
}

}  // namespace tilecraft::passes
