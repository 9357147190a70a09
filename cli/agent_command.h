// `tilecraft agent` as a function the commands share: the agent (agent/run.h) with the model the flags pick (an
// endpoint, or a recorded run with --replay), judged by the harness in its sandbox. `tilecraft agent` runs it once;
// `tilecraft bench --generator llm` once per mode before scoring what it kept.
#pragma once

#include <iosfwd>
#include <string>

#include "agent/run.h"
#include "cli/judge_setup.h"
#include "cli/llm_endpoint.h"

namespace CLI {
class App;
}

namespace tilecraft::cli {

struct AgentCommand {
  EndpointFlags endpoint;
  agent::RunOptions run;
  std::string examples = "solutions";
  std::string mode = "dsl";  // dsl | ascendc
  std::string ascendcExample = "examples/ascendc/add_custom";
  std::string out;
  std::string replyCache, replay;
  std::string memory;  // --memory FILE: the fix memory the repair requests draw on
  JudgeFlags judge;
};

// The generation flags both commands take: --mode (unless `withMode` is false: bench takes several), the examples,
// --rounds, --samples, --target-limit, --memory, --reply-cache and --replay.
void addGenerationFlags(CLI::App* command, AgentCommand& cmd, bool withMode = true);

// Runs the agent as `cmd` says, its table and the model's totals on `out`, problems on std::cerr. Exit 0 when
// every sample ran, 1 when one stopped on a transport error or a replay miss or a file could not be written, 2 on
// a usage error.
int runAgentCommand(AgentCommand& cmd, std::ostream& out);

}  // namespace tilecraft::cli
