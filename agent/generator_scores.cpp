#include "agent/generator_scores.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "harness/metrics.h"

namespace tilecraft::agent {
namespace {

using nlohmann::json;

// What a finished sample cost, from its `sample` line.
struct SampleCost {
  int rounds = 0;
  double tokens = 0, seconds = 0;
};

std::map<std::pair<std::string, int>, SampleCost> readCosts(const std::filesystem::path& transcripts) {
  std::map<std::pair<std::string, int>, SampleCost> costs;
  std::ifstream in(transcripts);
  std::string line;
  while (std::getline(in, line)) {
    json j = json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("type", "") != "sample" || !j.contains("task") || !j["task"].is_string()) continue;
    SampleCost c;
    c.rounds = j.value("rounds", 0);
    c.tokens = j.value("prompt_tokens", 0.0) + j.value("completion_tokens", 0.0);
    c.seconds = j.value("wall_seconds", 0.0);
    costs[{j["task"].get<std::string>(), j.value("sample", 0)}] = c;
  }
  return costs;
}

// Per task, per sample: compiled and correct on every case.
struct SampleVerdict {
  bool compiled = true, correct = true;
};

GeneratorScores scoresOf(const std::string& scope, const std::vector<harness::Record>& rows,
                         const std::map<std::pair<std::string, int>, SampleCost>& costs) {
  GeneratorScores g;
  g.scope = scope;
  harness::Scores s = harness::summarize(rows).overall;
  g.tasks = s.tasks;
  g.samples = s.samples;
  g.compAt1 = s.compAt1;
  g.passAt1 = s.passAt1;
  g.fast1 = s.fastP.count("1") ? s.fastP.at("1") : 0;
  std::map<std::string, std::map<int, SampleVerdict>> verdicts;
  for (const harness::Record& r : rows) {
    if (r.failure == harness::Failure::GoldenError || r.failure == harness::Failure::NotEvaluable) continue;
    SampleVerdict& v = verdicts[r.task][r.sample];
    v.compiled = v.compiled && r.compiled;
    v.correct = v.correct && r.correct;
  }
  double comp = 0, pass = 0;
  for (const auto& [task, samples] : verdicts) {
    int n = static_cast<int>(samples.size()), nComp = 0, nPass = 0;
    double rounds = 0, tokens = 0, seconds = 0;
    for (const auto& [sample, v] : samples) {
      nComp += v.compiled ? 1 : 0;
      nPass += v.correct ? 1 : 0;
      auto cost = costs.find({task, sample});
      if (cost == costs.end()) continue;
      if (v.correct) rounds += cost->second.rounds;
      tokens += cost->second.tokens;
      seconds += cost->second.seconds;
    }
    comp += harness::passAtK(n, nComp, n);
    pass += harness::passAtK(n, nPass, n);
    if (nPass == 0) continue;
    ++g.solved;
    g.rounds += rounds / nPass;
    g.tokens += tokens;
    g.seconds += seconds;
  }
  if (!verdicts.empty()) {
    g.compAtK = comp / static_cast<double>(verdicts.size());
    g.passAtK = pass / static_cast<double>(verdicts.size());
  }
  if (g.solved > 0) {
    g.rounds /= g.solved;
    g.tokens /= g.solved;
    g.seconds /= g.solved;
  }
  return g;
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

}  // namespace

std::vector<GeneratorScores> generatorScores(const GeneratorRun& run) {
  auto costs = readCosts(run.transcripts);
  std::map<int, std::vector<harness::Record>> byLevel;
  std::map<std::string, std::vector<harness::Record>> byCategory;
  for (const harness::Record& r : run.rows) {
    byLevel[r.level].push_back(r);
    byCategory[r.category].push_back(r);
  }
  std::vector<GeneratorScores> out = {scoresOf("all", run.rows, costs)};
  for (const auto& [level, rows] : byLevel) out.push_back(scoresOf(fmt::format("level {}", level), rows, costs));
  for (const auto& [category, rows] : byCategory) out.push_back(scoresOf(category, rows, costs));
  return out;
}

std::string generatorTable(const std::vector<GeneratorRun>& runs) {
  std::string out =
      "| mode | model | scope | tasks | k | Comp@1 | Pass@1 | Comp@k | Pass@k | fast_1 | solved | rounds / solved | "
      "tokens / solved | wall s / solved |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const GeneratorRun& run : runs) {
    for (const GeneratorScores& g : generatorScores(run)) {
      bool solved = g.solved > 0;
      out +=
          fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", run.mode, run.model,
                      g.scope, g.tasks, g.samples, percent(g.compAt1), percent(g.passAt1), percent(g.compAtK),
                      percent(g.passAtK), percent(g.fast1), g.solved, solved ? fmt::format("{:.2f}", g.rounds) : "-",
                      solved ? fmt::format("{:.0f}", g.tokens) : "-", solved ? fmt::format("{:.1f}", g.seconds) : "-");
    }
  }
  return out;
}

}  // namespace tilecraft::agent
