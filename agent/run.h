// `tilecraft agent`: the agent (DSL or AscendC mode) over a suite's tasks, k samples each. Every attempt is a line of
// OUT/transcripts.jsonl as it ends and every finished sample a `sample` line after its attempts, so a run killed
// half-way resumes at the first unfinished sample (--resume) and the transcripts are the training data
// (docs/generation.md). The kept program of sample s of task T is OUT/solutions/T/s/, which `tilecraft bench
// --solutions OUT/solutions` scores.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "agent/loop.h"
#include "llm/retry.h"
#include "perf/arch.h"

namespace tilecraft::agent {

struct RunOptions {
  std::filesystem::path suite;     // the tasks (a root of task folders)
  std::vector<std::string> only;   // task names; empty: all
  std::filesystem::path examples;  // DSL mode: expert solutions for the prompts; empty: none
  int exampleCount = 2;
  // AscendC mode: the project (msopgen's layout with its <op>.json) shown packed as the worked example, except to
  // the task it solves; empty: none.
  std::filesystem::path ascendcExample;
  std::string ascendcExampleTask = "add";
  std::filesystem::path outDir;
  int samples = 1;
  bool resume = false;
  AgentOptions agent;
  llm::Clock* clock = nullptr;  // the samples' wall time; null: the system's monotonic clock
};

/// The (task, sample) pairs a transcript file finished, from its `sample` lines; a torn last line is ignored.
std::set<std::pair<std::string, int>> finishedSamples(const std::filesystem::path& transcripts);

/// One JSON line (no newline) for an attempt, and for a finished sample.
std::string attemptJson(const Attempt& a);
std::string sampleJson(const SampleOutcome& s);

/// Returns 0 when every sample ran (whatever their verdicts), 1 when a transcript or a solution could not be
/// written or a sample stopped on a transport error, 2 for a usage error. The table of outcomes goes to `out`.
int runAgent(const RunOptions& options, llm::ChatClient& model, service::Judge& judge, ProgramChecker& checker,
             const perf::ArchSpec& arch, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::agent
