// `tilecraft bench SUITE --generator llm`: models as the generators under test. Per --endpoint (repeatable) and
// --mode, the agent writes OUT/MODE/agent/ (OUT/ENDPOINT/MODE/agent/ for several endpoints: transcripts, kept
// solutions), the bench scores those solutions as k samples in .../bench/, and the generator table
// (agent/generator_scores.h) compares them: Comp@k, Pass@k, fast_1, and rounds, tokens and wall time per solved
// task, per mode and model, overall, per level and per category. It goes to stdout and OUT/generators.md.
#pragma once

#include <string>
#include <vector>

#include "cli/agent_command.h"
#include "harness/bench.h"

namespace CLI {
class App;
}

namespace tilecraft::cli {

struct GeneratorFlags {
  std::string generator = "solutions";  // solutions (score --solutions) | llm
  std::vector<std::string> modes;       // --mode, repeatable; empty: dsl
  AgentCommand agent;
};

// --generator and, for llm, the endpoint flags (--endpoint repeatable; the bench's own --seed seeds the model too;
// --request-timeout is the endpoint's --timeout), --mode and the agent's generation flags.
void addGeneratorFlags(CLI::App* bench, GeneratorFlags& flags);

// Runs the agent and the bench per mode; `bench` as the command's flags set it (its suite, --task, --out,
// --resume, --seed, --timeout, --smoke). Exit 0 when everything ran, 1 when a sample stopped early, 2 on a usage
// error.
int runGeneratorBench(harness::BenchOptions bench, const std::string& cacheDir, bool noSandbox, GeneratorFlags& flags);

}  // namespace tilecraft::cli
