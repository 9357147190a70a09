// How a model did as a generator (`tilecraft bench --generator llm`): the bench's scores of the solutions the agent
// kept (Comp@k, Pass@k, fast_1: harness/metrics.h) next to what they cost, from the agent's transcripts (rounds,
// tokens and wall time per solved task), per mode and model, overall, per level and per category.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/record.h"

namespace tilecraft::agent {

// One agent run and the bench run of its solutions.
struct GeneratorRun {
  std::string mode, model;
  std::vector<harness::Record> rows;  // the bench's rows of OUT/solutions
  std::filesystem::path transcripts;  // the agent's OUT/transcripts.jsonl
};

struct GeneratorScores {
  std::string scope;  // "all", "level 2", a category
  int tasks = 0, samples = 0;
  double compAt1 = 0, passAt1 = 0, fast1 = 0;
  double compAtK = 0, passAtK = 0;  // k = samples: a task compiles / passes when one of its samples does
  int solved = 0;                   // tasks with a sample correct on every case
  // Per solved task: the mean rounds of its correct samples, and the tokens and wall seconds of all its samples.
  double rounds = 0, tokens = 0, seconds = 0;
};

// Overall, then per level, then per category (in name order). A sample line the transcripts lack (a run cut by a
// transport error) counts no rounds, tokens or time.
std::vector<GeneratorScores> generatorScores(const GeneratorRun& run);

// The Markdown table of every run's scores, a row per run and scope.
std::string generatorTable(const std::vector<GeneratorRun>& runs);

}  // namespace tilecraft::agent
