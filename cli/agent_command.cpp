#include "cli/agent_command.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "agent/fix_memory.h"
#include "cli/flags.h"
#include "llm/openai_client.h"
#include "llm/response_cache.h"

namespace tilecraft::cli {

namespace fs = std::filesystem;

namespace {

// The endpoint a replay computes its keys with: the one the flags pick, else the one DIR recorded.
std::optional<llm::Endpoint> replayEndpoint(const AgentCommand& cmd) {
  if (!cmd.endpoint.endpoint.empty()) return resolveEndpoint(cmd.endpoint, std::cerr);
  std::vector<llm::Endpoint> recorded;
  std::string error;
  if (!llm::recordedEndpoints(cmd.replay, recorded, &error)) {
    std::cerr << "error: --replay " << error << '\n';
    return std::nullopt;
  }
  if (recorded.empty()) {
    std::cerr << fmt::format(
        "error: --replay {}: no recorded replies (no endpoints.json)\nhint: record a run first with --reply-cache "
        "{}\n",
        cmd.replay, cmd.replay);
    return std::nullopt;
  }
  if (recorded.size() > 1) {
    std::string names;
    for (const llm::Endpoint& e : recorded) {
      names += fmt::format("{}{} ({} at {})", names.empty() ? "" : ", ", e.name, e.model, e.baseUrl);
    }
    std::cerr << fmt::format(
        "error: --replay {}: it holds the replies of {} endpoints: {}\nhint: pick the one to replay with "
        "--endpoint (and --config)\n",
        cmd.replay, recorded.size(), names);
    return std::nullopt;
  }
  return recorded.front();
}

}  // namespace

int runAgentCommand(AgentCommand& cmd, std::ostream& out) {
  if (!fs::is_directory(cmd.judge.suite)) {
    std::cerr << fmt::format("error: {}: no such folder (a task suite, e.g. tasks/)\n", cmd.judge.suite);
    return 2;
  }
  cmd.run.agent.mode = cmd.mode == "ascendc" ? agent::Mode::AscendC : agent::Mode::Dsl;
  if (cmd.run.agent.mode == agent::Mode::AscendC) {
    cmd.examples.clear();  // the DSL's expert solutions are not shown to an AscendC writer
    if (!cmd.ascendcExample.empty() && !fs::is_directory(cmd.ascendcExample)) {
      std::cerr << fmt::format(
          "error: --ascendc-example {}: no such folder (a CANN project with its <op>.json, e.g. "
          "examples/ascendc/add_custom; '' for none)\n",
          cmd.ascendcExample);
      return 2;
    }
    cmd.run.ascendcExample = cmd.ascendcExample;
  }
  if (!cmd.examples.empty() && !fs::is_directory(cmd.examples)) {
    std::cerr << fmt::format("error: --examples {}: no such folder (expert solutions, e.g. solutions/; '' for none)\n",
                             cmd.examples);
    return 2;
  }
  agent::FixMemory memory;
  if (!cmd.memory.empty()) {
    if (!fs::is_regular_file(cmd.memory)) {
      std::cerr << fmt::format(
          "error: --memory {}: no such file\nhint: tilecraft memory mine TRANSCRIPTS... --memory {} makes one from "
          "earlier runs\n",
          cmd.memory, cmd.memory);
      return 2;
    }
    std::vector<std::string> problems;
    memory = agent::FixMemory::load(cmd.memory, &problems);
    for (const std::string& p : problems) std::cerr << "warning: " << p << '\n';
    cmd.run.agent.memory = &memory;
  }
  std::unique_ptr<llm::OpenAiChatClient> remote;
  std::unique_ptr<llm::CachingChatClient> cache;
  if (!cmd.replay.empty()) {
    std::optional<llm::Endpoint> endpoint = replayEndpoint(cmd);
    if (!endpoint) return 2;
    cache = std::make_unique<llm::CachingChatClient>(cmd.replay, *endpoint, nullptr);
  } else {
    if (cmd.endpoint.endpoint.empty()) {
      std::cerr << "error: --endpoint is required (or --replay DIR to rerun a recorded run offline)\n";
      return 2;
    }
    remote = openEndpoint(cmd.endpoint, std::cerr);
    if (!remote) return 2;
    if (!cmd.replyCache.empty()) {
      std::string error;
      if (!llm::recordEndpoint(cmd.replyCache, remote->endpoint(), &error)) {
        std::cerr << "error: --reply-cache " << error << '\n';
        return 2;
      }
      cache = std::make_unique<llm::CachingChatClient>(cmd.replyCache, remote->endpoint(), remote.get());
    }
  }
  llm::ChatClient& model = cache ? static_cast<llm::ChatClient&>(*cache) : *remote;
  cmd.judge.workDir = (fs::path(cmd.out) / "work").string();
  StartedJudge started = startJudge(cmd.judge, std::cerr);
  if (!started.judge) return 2;
  agent::CompilerChecker compiler((fs::path(cmd.out) / "work" / "checks").string());
  agent::SubmissionChecker submissions;
  agent::ProgramChecker& checker = cmd.run.agent.mode == agent::Mode::Dsl
                                       ? static_cast<agent::ProgramChecker&>(compiler)
                                       : static_cast<agent::ProgramChecker&>(submissions);
  cmd.run.suite = cmd.judge.suite;
  cmd.run.examples = cmd.examples;
  cmd.run.outDir = cmd.out;
  cmd.run.agent.temperature = cmd.endpoint.temperature;
  cmd.run.agent.maxTokens = cmd.endpoint.maxTokens;
  if (cmd.endpoint.seed) cmd.run.agent.seed = *cmd.endpoint.seed;
  int status = agent::runAgent(cmd.run, model, *started.judge, checker, started.environment->arch(), out, std::cerr);
  if (remote) {
    llm::ChatTotals totals = remote->totals();
    out << fmt::format("model: {} requests ({} retries), {} prompt + {} completion tokens, {:.1f} s, cost {:.4f}\n",
                       totals.requests, totals.retries, totals.promptTokens, totals.completionTokens, totals.seconds,
                       totals.cost);
  }
  if (cache) {
    llm::ReplyCacheStats stats = cache->stats();
    if (cache->replaying()) {
      out << fmt::format("model: replayed from {}: {} replies, {} missing\n", cmd.replay, stats.hits, stats.missing);
    } else {
      out << fmt::format("reply cache {}: {} hits, {} recorded\n", cmd.replyCache, stats.hits, stats.recorded);
    }
    if (stats.unwritten > 0) {
      std::cerr << fmt::format("error: reply cache: {} replies were not stored: {}\n", stats.unwritten,
                               stats.firstWriteError);
      status = 1;
    }
  }
  out << fmt::format(
      "transcripts: {}/transcripts.jsonl; solutions: {}/solutions (score them with tilecraft "
      "bench {} --solutions {}/solutions)\n",
      cmd.out, cmd.out, cmd.judge.suite, cmd.out);
  return status;
}

void addGenerationFlags(CLI::App* sub, AgentCommand& cmd, bool withMode) {
  if (withMode) {
    sub->add_option("--mode", cmd.mode,
                    "dsl: the model writes Tile DSL; ascendc: whole AscendC custom operators in MultiKernelBench's "
                    "six-string format")
        ->check(CLI::IsMember({"dsl", "ascendc"}))
        ->capture_default_str();
  }
  sub->add_option("--ascendc-example", cmd.ascendcExample,
                  "ascendc mode: the CANN project shown as the worked example ('' for none)")
      ->capture_default_str();
  sub->add_option("--examples", cmd.examples, "dsl mode: expert solutions shown in the prompt ('' for none)")
      ->capture_default_str();
  checkCount(sub->add_option("--example-count", cmd.run.exampleCount, "expert solutions per prompt"), 0, 8, "examples");
  checkCount(sub->add_option("--rounds", cmd.run.agent.rounds, "attempts per sample, the first included"), 1, 32,
             "rounds");
  checkCount(sub->add_option("--samples", cmd.run.samples, "independent samples per task (Pass@k)"), 1, 64, "samples");
  sub->add_option("--target-limit", cmd.run.agent.targetLimitScore,
                  "a correct kernel with this limit score or more ends the repair")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  sub->add_option("--memory", cmd.memory,
                  "a fix memory (tilecraft memory mine): repair requests carry the closest fixes for their failure");
  CLI::Option* record = sub->add_option("--reply-cache", cmd.replyCache,
                                        "answer repeated requests from DIR and record new replies in it");
  sub->add_option("--replay", cmd.replay,
                  "rerun offline from the replies recorded in DIR (--reply-cache): no model is called, a request it "
                  "does not hold ends its sample")
      ->excludes(record);
}

}  // namespace tilecraft::cli
