// `tilecraft agent SUITE --endpoint NAME`: the agent in DSL or AscendC mode (cli/agent_command.h, agent/run.h) over
// a suite's tasks with a model behind an OpenAI-compatible endpoint, judged by the harness in its sandbox;
// --reply-cache DIR records the replies and --replay DIR reruns from them offline (llm/response_cache.h).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/agent_command.h"
#include "cli/flags.h"
#include "cli/registry.h"

namespace tilecraft::cli {
namespace {

void registerAgentCommand(CLI::App& app) {
  auto cmd = std::make_shared<AgentCommand>();
  CLI::App* sub = app.add_subcommand("agent",
                                     "Generate Tile DSL kernels (or AscendC custom operators) for a suite's "
                                     "tasks with a model, repairing from execution feedback (docs/generation.md)");
  sub->add_option("SUITE", cmd->judge.suite, "task suite folder")->capture_default_str();
  addEndpointFlags(sub, cmd->endpoint, {.endpointRequired = false});
  sub->add_option("--task", cmd->run.only, "only these tasks (repeatable)");
  addGenerationFlags(sub, *cmd);
  sub->add_option("--out", cmd->out, "output folder: transcripts.jsonl, solutions/")->required();
  sub->add_flag("--resume", cmd->run.resume, "continue the transcripts in --out");
  sub->add_option("--cache", cmd->judge.cacheDir, "goldens and built kernels (default: as tilecraft bench)");
  checkSeconds(sub->add_option("--run-timeout", cmd->judge.timeoutSeconds, "seconds per kernel run"), false);
  sub->add_flag("--no-sandbox", cmd->judge.noSandbox, "run kernels without bubblewrap (trusted models only)");
  sub->callback([cmd] {
    int status = runAgentCommand(*cmd, std::cout);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("agent", &registerAgentCommand);

}  // namespace
}  // namespace tilecraft::cli
