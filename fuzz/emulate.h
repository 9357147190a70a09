// `tilecraft fuzz --emulate`: random programs through the whole compiler and the emulator. Each program is
// generated, run on the reference, compiled to AscendC; the AscendC of many programs goes into one translation
// unit (the emulator headers dominate a build: one build per program would make a thousand take most of an hour
// on two cores), which is built with warnings on; then each program runs in its own process (an emulator check
// ends the process) on the reference's inputs, and its outputs are compared with the reference's.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "fuzz/generator.h"
#include "runner/service.h"
#include "support/process.h"

namespace tilecraft::fuzz {

struct EmulateOptions {
  uint64_t seed = 1;
  int64_t count = 1;
  Mix mix = Mix::All;        // --patterns: only the productions modelled on programs that broke the compiler
  int jobs = 2;              // builds and runs at the same time
  int batchSize = 50;        // programs per translation unit (docs/compiler.md, "Fuzzing": the measured best)
  std::string keepDir;       // the .tile and the AscendC of every failing program; empty: keep nothing
  std::string corpusDir;     // --corpus: minimise failing programs and save them here by kind (minimise.h)
  int minimiseFailures = 4;  // how many failures --corpus minimises (the first, by seed)
  std::string workDir;       // where batches are built and run; empty: a temporary folder, removed at the end
  std::string emuInclude;    // the emulator's include folder (emu/include)
  double buildTimeoutSeconds = 1200;
  double runTimeoutSeconds = 120;
  bool sandbox = true;            // false: --no-sandbox
  std::function<double()> clock;  // seconds, for the summary's phase times; empty: the steady clock
};

/// Where a program failed: the reference (a generator bug), the compiler, the build, the run (an emulator check or
/// a crash), or the comparison of its outputs.
enum class Stage { Reference, Compile, Build, Run, Compare };
const char* stageName(Stage stage);

struct Failure {
  uint64_t seed = 0;
  std::string family;  // label(): the family and its patterns
  Stage stage = Stage::Compare;
  std::string message;  // one line: what went wrong
  std::string detail;   // the diagnostics, the compiler's or the program's output (may be several lines)
  size_t index = 0;     // the program's place in the list emulatePrograms() was given
};

struct EmulateSummary {
  int64_t programs = 0;
  int64_t passed = 0;
  int builds = 0;                 // g++ runs, including those that isolate a failing program in a batch
  double prepareSeconds = 0;      // generate, reference, compile to AscendC
  double buildSeconds = 0;        // wall clock of the build phase
  double runSeconds = 0;          // wall clock of the run-and-compare phase
  std::vector<Failure> failures;  // by seed
};

/// What kind of failure a stage is, for the report and the corpus: "wrong values" (compare), "emulator error"
/// (run), "compile error" (compile, build), "generator bug" (reference).
const char* failureKind(Stage stage);

/// The command that replays one program (the same seed generates the same program, inputs and checks), with
/// `--patterns` for that mix and `--keep DIR` when there is a keep folder.
std::string emulateReplayCommand(uint64_t seed, const std::string& keepDir, Mix mix = Mix::All);

/// One failure's line: "FAIL seed 17 (rows) compare: y: max rel error ... | replay: tilecraft fuzz ...".
std::string failureLine(const Failure& failure, const std::string& keepDir, Mix mix = Mix::All);

/// Lines [first, last] (1-based) of one kernel in a batch's file.
struct LineRange {
  int64_t first = 0;
  int64_t last = 0;
};

/// The translation unit of a batch: batchPrelude(), each namespaced kernel, then `main`, which runs the kernel
/// named by its first argument with the rest of the arguments (the standalone launcher's). With `ranges`, where
/// each kernel's code sits in it.
std::string batchSource(const std::vector<std::string>& kernelNames, const std::vector<std::string>& namespaces,
                        const std::vector<std::string>& kernelCode, std::vector<LineRange>* ranges = nullptr);

/// The kernels of a batch that g++'s messages point into: a `SOURCE:LINE:` anywhere in `err` (an error, a
/// warning, or the "required from here" of a template error in a header) with the line inside a kernel's range.
/// Indices into `ranges`, ascending.
std::vector<size_t> kernelsNamedBy(const std::string& err, const std::string& source,
                                   const std::vector<LineRange>& ranges);

/// The lines of `err` that point into `range` of `source`, each with the two lines g++ prints after it (the
/// source line and its caret), the path shortened to its file name.
std::string messagesFor(const std::string& err, const std::string& source, LineRange range);

/// The build request of a batch: warnings on, the flags of every emulated kernel build (runner::compileCommand).
runner::BuildRequest buildRequest(const std::string& source, const EmulateOptions& options);

/// The compiler's command line for a batch, as the build-and-run service runs it.
support::ProcessSpec buildSpec(const std::string& source, const std::string& binary, const EmulateOptions& options);

/// Runs the whole loop; progress is silent, the summary is the caller's to print. Throws std::runtime_error when
/// the work folder cannot be made or written.
EmulateSummary emulate(const EmulateOptions& options, runner::BuildRunService& service);

/// The same loop over any programs (the minimiser's candidates): options.seed, count and mix are not used.
/// Kernel names must differ; each program's inputs come from its own seed.
EmulateSummary emulatePrograms(const std::vector<FuzzProgram>& programs, const EmulateOptions& options,
                               runner::BuildRunService& service);

/// The check of --jobs and --batch-size: "" when `value` is a whole number of at least 1, else the message
/// ("'0' jobs: the value must be at least 1 (e.g. --jobs 2)").
std::string checkAtLeastOne(const std::string& value, const char* unit, const char* example);

/// `tilecraft fuzz --emulate`: one line per failure on `err` (with its detail indented under it), the summary on
/// `out`. Exit status: 0 every program passed, 1 some failed, 2 the work or keep folder could not be written.
int runEmulate(const EmulateOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err);

/// The same with the real service (sandboxed unless options.sandbox is false); a sandbox that cannot start is
/// status 2 with the reason and the hint.
int runEmulate(const EmulateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::fuzz
