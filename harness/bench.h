// `tilecraft bench`: scores a generator's solutions on a task suite. For every (task, case, sample): inputs on two
// seeds, the golden, the reference figures, the solution bound to the case, built once per kernel and run through
// the sandboxed build-and-run service, judged outside the process, and one result row appended to results.jsonl
// as it finishes (so --resume after kill -9 loses nothing). The reports are computed from the rows alone.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <vector>

#include "harness/golden.h"
#include "harness/judge.h"
#include "harness/record.h"
#include "harness/solution.h"
#include "harness/task.h"
#include "perf/arch.h"
#include "runner/service.h"

namespace tilecraft::harness {

struct BenchOptions {
  std::vector<std::string> suites;  // task folders or roots holding them
  std::string solutions;            // SOLUTIONS/TASK/...
  std::string outDir;               // results.jsonl, summary.md, report.html, work/
  bool smoke = false;               // the first case of each task only
  bool resume = false;              // continue outDir/results.jsonl
  Rule rule = Rule::Cann;
  int jobs = 2;       // tasks evaluated at once
  uint64_t seed = 1;  // the first of the two input seeds
  int shardIndex = 0, shardCount = 1;
  std::vector<std::string> only;  // task names to run; empty: all
  std::string arch = "910b2";
  double timeoutSeconds = 120;  // per kernel run
  bool quiet = false;           // no progress output
  bool terminal = false;        // progress as a bar redrawn in place (stderr is a terminal)
  int terminalWidth = 80;
};

// The outside world of a run, so tests can fake every part of it.
struct BenchEnv {
  runner::BuildRunService* service = nullptr;
  GoldenRunner* golden = nullptr;
  std::function<double()> clock;  // seconds; empty: the steady clock
};

// The (task, case, sample) keys a run covers, in order, before sharding; for --shard and the Slurm split.
struct WorkItem {
  std::string task;
  std::string caseId;
  int sample = 0;
};

// Returns the exit status: 0 when the run finished (whatever the scores; a task that cannot be evaluated is a row
// saying why), 2 for a usage error (nothing was run). Reports go to `out`, progress and problems to `err`.
int runBench(const BenchOptions& options, const BenchEnv& env, std::ostream& out, std::ostream& err);

// Judges `cases` of `task` against one solution exactly as runBench judges them (the same code: inputs on two
// seeds, golden, reference figures, build, sandboxed runs, comparison, profile) and returns the rows in case order
// instead of appending them to results.jsonl; for the services (service/), which judge one solution at a time.
// Work files go under options.outDir/work. `goldenMutex` serialises the golden runner among concurrent callers.
std::vector<Record> judgeTask(const Task& task, const std::vector<const Case*>& cases, const Solution& solution,
                              const BenchOptions& options, const BenchEnv& env, const perf::ArchSpec& arch,
                              std::mutex& goldenMutex);

// Reads a results.jsonl: rows in file order; a malformed line is reported as "FILE:LINE: message" in `problems`
// and skipped (a torn last line after kill -9 is expected and said so).
std::vector<Record> readResults(const std::string& path, std::vector<std::string>* problems, bool* tornTail = nullptr);

// Writes summary.md and report.html into `outDir` (atomically) and prints the table on `out`.
void writeReports(const std::vector<Record>& rows, const std::string& outDir, const std::string& title,
                  const BenchOptions& options, std::ostream& out);

}  // namespace tilecraft::harness
