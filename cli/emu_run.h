// `tilecraft emu run`: build AscendC kernel files (CANN CPU-debug style) against the emulator headers, run them,
// and report each one's result and the emulator's checks.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "runner/service.h"

namespace CLI {
class App;
}

namespace tilecraft::cli {

struct EmuRunOptions {
  std::vector<std::string> files;
  int jobs = 2;
  std::string optLevel = "-O1";
  double timeoutSeconds = 60;  // per program run; 0 = none
  std::string keepDir;         // empty: build products go to a temporary folder that is removed afterwards
  std::string traceDir;        // empty: no instruction traces
  bool profile = false;        // simulate each passing run's trace on the perf model and print the profile
  bool quiet = false;          // leave out the programs' own output
  std::string includeDir;      // the emulator headers (the folder holding kernel_operator.h)
  bool sandbox = true;         // false: --no-sandbox (plain children, same limits, no isolation)
};

// What became of one file: one result line, then indented detail lines.
struct FileOutcome {
  bool passed = false;
  std::string summary;               // after "PASS name: " or "FAIL name: "
  std::vector<std::string> details;  // e.g. compiler errors, emulator notes, the end of the program's stderr
  std::string programOut;            // the program's stdout, printed indented above the result line
};

// The compiler gets this long, whatever --timeout says: the emulator headers are heavy.
inline constexpr double kCompileTimeoutSeconds = 300;
// Exit status of an emulated program whose run broke one of the emulator's checks.
inline constexpr int kEmuCheckFailedStatus = 3;

// Adds the options of `emu run` to `command`, storing them into `options` (which must outlive parsing).
void addEmuRunOptions(CLI::App& command, EmuRunOptions& options);

// "-O2", "O2" and "2" all mean -O2; returns "" for anything that is not an optimisation level.
std::string normalizeOptLevel(const std::string& level);

// Judges a finished build; passed means "go on and run it".
FileOutcome judgeCompile(const runner::BuildResult& compile);

// Judges a finished run from the service's verdict and the emulator's verified report (JSON lines, one per
// launch, in run.report).
FileOutcome judgeRun(const runner::RunResult& run, double timeoutSeconds);

// The limits of `emu run`'s builds and runs.
runner::Limits compileLimits();
runner::Limits runLimits(double timeoutSeconds);

// Runs every file through `service` and prints its outcome to `out` in argument order; usage errors go to `err`.
// Returns the exit status: 0 if all passed, 1 if any failed, 2 for a usage error (nothing was run).
int runEmuFiles(const EmuRunOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err);

// The same with the real service (the sandbox as options.sandbox says); a sandbox that cannot start is a usage
// error (status 2) with the reason and the hint.
int runEmuFiles(const EmuRunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::cli
