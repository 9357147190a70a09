// `tilecraft compile --emit=ir|ir-after=PASS [--print-after-all] [--time-passes]`: front end, lowering and
// the pass pipeline, testable without a process.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "dsl/driver.h"
#include "passes/pipeline.h"

namespace tilecraft::passes {

struct IrCompileOptions {
  std::string file;
  std::string emit = "ir";  // ir | ir-after=PASS (lower, core-split, tiling, legalize, queue-insertion, buffer-plan)
  std::string diagnostics = "text";  // text | json
  bool printAfterAll = false;
  bool timePasses = false;
  /// The stages after the requested IR (the rest of the pipeline and the emitter: codegen::checkWholePipeline),
  /// run before the program is called fine; empty: none. The requested IR is still printed when only these fail.
  std::function<std::vector<std::string>(dsl::Program&)> wholePipeline;
  std::vector<std::string> params = {};  // --param NAME=VALUE: the instantiation of a generic program
};

/// True for the --emit values this driver owns.
bool isIrEmit(const std::string& emit);

/// Exit status as `tilecraft compile`: 0 success, 1 errors in the program (or an internal verifier failure),
/// 2 bad usage or unreadable file. The IR goes to `out`; diagnostics and pass times to `err`.
int runCompileIr(const IrCompileOptions& options, std::ostream& out, std::ostream& err, Clock* clock = nullptr);

}  // namespace tilecraft::passes
