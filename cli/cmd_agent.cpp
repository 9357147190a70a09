// `tilecraft agent SUITE --endpoint NAME`: the DSL-mode agent (agent/run.h) over a suite's tasks with a model behind
// an OpenAI-compatible endpoint, judged by the harness in its sandbox (service::HarnessJudge). Exit 0 when every
// sample ran, 1 when one stopped on a transport error or a file could not be written, 2 on a usage error.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "agent/run.h"
#include "cli/flags.h"
#include "cli/judge_setup.h"
#include "cli/llm_endpoint.h"
#include "cli/registry.h"
#include "llm/openai_client.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct AgentCommand {
  EndpointFlags endpoint;
  agent::RunOptions run;
  std::string examples = "solutions";
  std::string out;
  JudgeFlags judge;
};

int runAgentCommand(AgentCommand& cmd) {
  if (!fs::is_directory(cmd.judge.suite)) {
    std::cerr << fmt::format("error: {}: no such folder (a task suite, e.g. tasks/)\n", cmd.judge.suite);
    return 2;
  }
  if (!cmd.examples.empty() && !fs::is_directory(cmd.examples)) {
    std::cerr << fmt::format("error: --examples {}: no such folder (expert solutions, e.g. solutions/; '' for none)\n",
                             cmd.examples);
    return 2;
  }
  std::unique_ptr<llm::OpenAiChatClient> model = openEndpoint(cmd.endpoint, std::cerr);
  if (!model) return 2;
  cmd.judge.workDir = (fs::path(cmd.out) / "work").string();
  StartedJudge started = startJudge(cmd.judge, std::cerr);
  if (!started.judge) return 2;
  agent::CompilerChecker checker((fs::path(cmd.out) / "work" / "checks").string());
  cmd.run.suite = cmd.judge.suite;
  cmd.run.examples = cmd.examples;
  cmd.run.outDir = cmd.out;
  cmd.run.agent.temperature = cmd.endpoint.temperature;
  cmd.run.agent.maxTokens = cmd.endpoint.maxTokens;
  if (cmd.endpoint.seed) cmd.run.agent.seed = *cmd.endpoint.seed;
  int status =
      agent::runAgent(cmd.run, *model, *started.judge, checker, started.environment->arch(), std::cout, std::cerr);
  llm::ChatTotals totals = model->totals();
  std::cout << fmt::format("model: {} requests ({} retries), {} prompt + {} completion tokens, {:.1f} s, cost {:.4f}\n",
                           totals.requests, totals.retries, totals.promptTokens, totals.completionTokens,
                           totals.seconds, totals.cost);
  std::cout << fmt::format(
      "transcripts: {}/transcripts.jsonl; solutions: {}/solutions (score them with tilecraft "
      "bench {} --solutions {}/solutions)\n",
      cmd.out, cmd.out, cmd.judge.suite, cmd.out);
  return status;
}

void registerAgentCommand(CLI::App& app) {
  auto cmd = std::make_shared<AgentCommand>();
  CLI::App* sub = app.add_subcommand("agent",
                                     "Generate Tile DSL kernels for a suite's tasks with a model, repairing "
                                     "from execution feedback (docs/generation.md)");
  sub->add_option("SUITE", cmd->judge.suite, "task suite folder")->capture_default_str();
  addEndpointFlags(sub, cmd->endpoint);
  sub->add_option("--task", cmd->run.only, "only these tasks (repeatable)");
  sub->add_option("--examples", cmd->examples, "expert solutions shown in the prompt ('' for none)")
      ->capture_default_str();
  checkCount(sub->add_option("--example-count", cmd->run.exampleCount, "expert solutions per prompt"), 0, 8,
             "examples");
  checkCount(sub->add_option("--rounds", cmd->run.agent.rounds, "attempts per sample, the first included"), 1, 32,
             "rounds");
  checkCount(sub->add_option("--samples", cmd->run.samples, "independent samples per task (Pass@k)"), 1, 64, "samples");
  sub->add_option("--target-limit", cmd->run.agent.targetLimitScore,
                  "a correct kernel with this limit score or more ends the repair")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_option("--out", cmd->out, "output folder: transcripts.jsonl, solutions/")->required();
  sub->add_flag("--resume", cmd->run.resume, "continue the transcripts in --out");
  sub->add_option("--cache", cmd->judge.cacheDir, "goldens and built kernels (default: as tilecraft bench)");
  checkSeconds(sub->add_option("--run-timeout", cmd->judge.timeoutSeconds, "seconds per kernel run"), false);
  sub->add_flag("--no-sandbox", cmd->judge.noSandbox, "run kernels without bubblewrap (trusted models only)");
  sub->callback([cmd] {
    int status = runAgentCommand(*cmd);
    if (status != 0) throw CLI::RuntimeError(status);
  });
}

const CommandRegistration kRegistration("agent", &registerAgentCommand);

}  // namespace
}  // namespace tilecraft::cli
