// The mutation fuzzer's loop (docs/fuzzing.md): mutants of the examples and solutions (fuzz/mutate.h) through
// `tilecraft` as a user runs it, each run judged on what the command promises whatever its input: exit status
// 0, 1 or 2, no signal, no hang (a timeout per run), no "internal error", valid JSON diagnostics. A failing
// mutant is minimised and written out with its seed and the command that replays it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "fuzz/mutate.h"
#include "support/process.h"

namespace tilecraft::fuzz {

struct MutateOptions {
  std::string tilecraft = "tilecraft";  // the command under test
  std::filesystem::path root = ".";     // the repository: its examples/ and solutions/ are the seed programs
  uint64_t seed = 1;
  int64_t count = 1000;
  std::vector<MutationKind> kinds = allMutationKinds();
  int64_t sampleEvery = 4;     // every Nth mutant also goes through --emit=ascendc, interp and JSON diagnostics
  double timeoutSeconds = 20;  // per run
  int jobs = 1;                // runs at the same time
  int minimiseRuns = 150;      // per failure, the runs the minimiser may spend; 0 keeps mutants as found
  int minimiseFailures = 4;    // failures minimised; the later ones are written as found
  std::filesystem::path workDir = "mutate-work";  // mutants are written here to be run; failures/ under it
};

/// One way of running a file through `tilecraft`.
struct Stage {
  std::string name;               // check | ascendc | interp | json
  std::vector<std::string> args;  // after the command; "{file}" stands for the mutant's path
};

/// `check` (compile --emit=ir: the front end, lowering and every pass) for every mutant; with `sampled` also
/// `ascendc` (the emitter), `interp` (with every dim() of the text set to a small size) and `json`
/// (--emit=ast --diagnostics=json).
std::vector<Stage> stagesFor(const std::string& text, bool sampled);

struct Verdict {
  bool ok = true;
  std::string category;  // what kind of failure: "signal SIGSEGV", "timeout", "exit status 3", ...
  std::string detail;    // the category with its figures
};

/// What `tilecraft` promises for any input: see the file comment.
Verdict judgeRun(const support::ProcessResult& result, double timeoutSeconds, bool jsonDiagnostics);

/// Removes lines, then runs of bytes, while `stillFails` holds, spending at most `maxRuns` calls.
std::string minimise(const std::string& text, const std::function<bool(const std::string&)>& stillFails, int maxRuns);

/// The campaign: `options.count` mutants from `options.seed`. Exit status: 0 every run kept the promises, 1 some
/// did (each failure is listed, its reproducer written under workDir/failures), 2 no seed programs or an
/// unwritable work folder.
int runMutate(const MutateOptions& options, support::ProcessRunner& runner, std::ostream& out, std::ostream& err);

/// Mutant `seed` alone, through every stage: prints it, and the verdict of each run (exit status as runMutate).
int replayMutant(const MutateOptions& options, uint64_t seed, support::ProcessRunner& runner, std::ostream& out,
                 std::ostream& err);

/// Every .tile file under `dir` (the committed reproducers) through every stage (exit status as runMutate).
int runCorpus(const MutateOptions& options, const std::filesystem::path& dir, support::ProcessRunner& runner,
              std::ostream& out, std::ostream& err);

}  // namespace tilecraft::fuzz
