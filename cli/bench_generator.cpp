#include "cli/bench_generator.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "agent/generator_scores.h"
#include "cli/flags.h"
#include "support/files.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

// The model the endpoint reported in the transcripts' first attempt, else the endpoint's name.
std::string modelOf(const fs::path& transcripts, const std::string& fallback) {
  std::ifstream in(transcripts);
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.value("type", "") == "attempt" && !j.value("model", "").empty())
      return j["model"].get<std::string>();
  }
  return fallback;
}

}  // namespace

void addGeneratorFlags(CLI::App* bench, GeneratorFlags& flags) {
  bench
      ->add_option("--generator", flags.generator,
                   "solutions: score --solutions; llm: generate them first with a model (--endpoint, --mode)")
      ->check(CLI::IsMember({"solutions", "llm"}))
      ->capture_default_str();
  addEndpointFlags(bench, flags.agent.endpoint,
                   {.endpointRequired = false, .seedAndTimeout = false, .severalEndpoints = true});
  checkSeconds(bench->add_option("--request-timeout", flags.agent.endpoint.timeout,
                                 "--generator llm: seconds to wait for a model's reply"),
               false);
  bench
      ->add_option("--mode", flags.modes,
                   "--generator llm: dsl (Tile DSL) and/or ascendc (MultiKernelBench AscendC submissions); "
                   "repeatable (default dsl)")
      ->check(CLI::IsMember({"dsl", "ascendc"}));
  addGenerationFlags(bench, flags.agent, false);
}

int runGeneratorBench(harness::BenchOptions bench, const std::string& cacheDir, bool noSandbox, GeneratorFlags& flags) {
  if (bench.suites.size() != 1) {
    std::cerr << fmt::format("error: --generator llm takes one task folder or suite (got {})\n", bench.suites.size());
    return 2;
  }
  if (!bench.solutions.empty()) {
    std::cerr << "error: --generator llm writes its own solutions: drop --solutions\n";
    return 2;
  }
  // No endpoint: a replay with the one its recording names.
  std::vector<std::string> endpoints = flags.agent.endpoint.endpoints;
  if (endpoints.empty()) endpoints.push_back("");
  if (flags.agent.endpoint.endpoints.empty() && flags.agent.replay.empty()) {
    std::cerr << "error: --generator llm needs --endpoint (or --replay DIR to rerun a recorded run offline)\n";
    return 2;
  }
  if (!prepareOutputFolder("--out", bench.outDir, std::cerr)) return 2;
  std::vector<std::string> modes = flags.modes.empty() ? std::vector<std::string>{"dsl"} : flags.modes;
  std::vector<agent::GeneratorRun> runs;
  int status = 0;
  for (const std::string& endpoint : endpoints) {
    for (const std::string& mode : modes) {
      // One endpoint: OUT/MODE/; several: OUT/ENDPOINT/MODE/.
      fs::path root = fs::path(bench.outDir) / (endpoints.size() > 1 ? fs::path(endpoint) / mode : fs::path(mode));
      AgentCommand a = flags.agent;
      a.endpoint.endpoint = endpoint;
      a.mode = mode;
      a.out = (root / "agent").string();
      a.judge.suite = bench.suites.front();
      a.judge.cacheDir = cacheDir;
      a.judge.noSandbox = noSandbox;
      a.judge.timeoutSeconds = bench.timeoutSeconds;
      a.run.only = bench.only;
      a.run.resume = bench.resume;
      a.endpoint.seed = bench.seed;
      std::cout << fmt::format("# generator: {} mode{}\n\n", mode,
                               endpoint.empty() ? "" : fmt::format(", endpoint {}", endpoint));
      int agentStatus = runAgentCommand(a, std::cout);
      if (agentStatus == 2) return 2;
      status = std::max(status, agentStatus);
      harness::BenchOptions b = bench;
      b.solutions = (root / "agent" / "solutions").string();
      b.outDir = (root / "bench").string();
      std::cout << '\n';
      if (int benchStatus = runBenchWithParts(b, cacheDir, !noSandbox, std::cout, std::cerr); benchStatus != 0)
        return benchStatus;
      std::vector<std::string> problems;
      agent::GeneratorRun run;
      run.mode = mode;
      run.transcripts = root / "agent" / "transcripts.jsonl";
      run.model = modelOf(run.transcripts, a.endpoint.endpoint);
      run.rows = harness::readResults((root / "bench" / "results.jsonl").string(), &problems);
      for (const std::string& p : problems) std::cerr << "warning: " << p << '\n';
      runs.push_back(std::move(run));
    }
  }
  std::string table = agent::generatorTable(runs);
  std::string error;
  fs::path file = fs::path(bench.outDir) / "generators.md";
  if (!support::writeFileAtomically(file, "# Generators\n\n" + table, &error)) {
    std::cerr << "error: " << error << '\n';
    status = 1;
  }
  std::cout << "\n# Generators\n\n" << table << fmt::format("\ngenerator table: {}\n", file.string());
  return status;
}

}  // namespace tilecraft::cli
