#include "harness/metrics.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tilecraft::harness {
namespace {

bool scored(const Record& r) { return r.failure != Failure::GoldenError && r.failure != Failure::NotEvaluable; }

double speedup(const Record& r) { return r.simUs > 0 && r.eagerUs > 0 ? r.eagerUs / r.simUs : 0; }

// The fast_p thresholds the reports show, as their labels.
constexpr std::pair<const char*, double> kFastP[] = {{"0", 0}, {"0.8", 0.8}, {"1", 1}, {"2", 2}};

// One sample of one task: its case rows.
struct SampleRows {
  std::vector<const Record*> cases;
  bool compiled() const {
    return !cases.empty() && std::all_of(cases.begin(), cases.end(), [](const Record* r) { return r->compiled; });
  }
  bool correct() const {
    return !cases.empty() && std::all_of(cases.begin(), cases.end(), [](const Record* r) { return r->correct; });
  }
  double geomeanSpeedup() const {
    double logSum = 0;
    for (const Record* r : cases) {
      if (speedup(*r) <= 0) return 0;
      logSum += std::log(speedup(*r));
    }
    return cases.empty() ? 0 : std::exp(logSum / static_cast<double>(cases.size()));
  }
};

// task -> sample -> rows, for the scored rows of `rows`.
using TaskSamples = std::map<std::string, std::map<int, SampleRows>>;

Scores score(const std::vector<const Record*>& rows) {
  Scores s;
  TaskSamples bySample;
  double logSpeedups = 0;
  int correctWithSpeed = 0;
  double limitScores = 0;
  std::map<std::string, int> caseKeys;
  for (const Record* r : rows) {
    s.failures[failureName(r->failure)]++;
    if (!scored(*r)) continue;
    bySample[r->task][r->sample].cases.push_back(r);
    caseKeys[r->task + "/" + r->caseId]++;
    if (r->correct) {
      if (speedup(*r) > 0) {
        logSpeedups += std::log(speedup(*r));
        ++correctWithSpeed;
      }
      limitScores += limitScore(r->simUs, r->eagerUs, r->limitUs);
    }
  }
  s.tasks = static_cast<int>(bySample.size());
  s.cases = static_cast<int>(caseKeys.size());
  int scoredRows = 0;
  for (const auto& [task, samples] : bySample) {
    for (const auto& [sample, rowsOf] : samples) scoredRows += static_cast<int>(rowsOf.cases.size());
  }
  if (s.tasks == 0) return s;

  int minSamples = 1 << 30;
  for (const auto& [task, samples] : bySample) minSamples = std::min(minSamples, static_cast<int>(samples.size()));
  s.samples = minSamples;
  for (int k : {1, 5, 10, 20, 50, 100}) {
    if (k > minSamples) break;
    double comp = 0, pass = 0;
    for (const auto& [task, samples] : bySample) {
      int n = static_cast<int>(samples.size()), nComp = 0, nPass = 0;
      for (const auto& [sample, rowsOf] : samples) {
        nComp += rowsOf.compiled() ? 1 : 0;
        nPass += rowsOf.correct() ? 1 : 0;
      }
      comp += passAtK(n, nComp, k);
      pass += passAtK(n, nPass, k);
    }
    s.compAtK[k] = comp / s.tasks;
    s.passAtK[k] = pass / s.tasks;
  }
  s.compAt1 = s.compAtK[1];
  s.passAt1 = s.passAtK[1];

  int pairs = 0;
  std::map<std::string, int> fast;
  double cann = 0;
  for (const auto& [task, samples] : bySample) {
    double taskCann = 0;
    for (const auto& [sample, rowsOf] : samples) {
      ++pairs;
      taskCann += cannOperatorScore(rowsOf.cases);
      if (!rowsOf.correct()) continue;
      double g = rowsOf.geomeanSpeedup();
      for (const auto& [label, p] : kFastP) {
        if (p == 0 || g > p) fast[label]++;
      }
    }
    cann += taskCann / static_cast<double>(samples.size());
  }
  for (const auto& [label, p] : kFastP) s.fastP[label] = static_cast<double>(fast[label]) / pairs;
  s.cannScore = cann / s.tasks;
  s.geomeanSpeedup = correctWithSpeed > 0 ? std::exp(logSpeedups / correctWithSpeed) : 0;
  s.limitScore = scoredRows > 0 ? limitScores / scoredRows : 0;
  return s;
}

}  // namespace

double passAtK(int n, int c, int k) {
  if (n <= 0 || k <= 0) return 0;
  if (n - c < k) return 1;
  // 1 - prod_{i = n-c+1}^{n} (1 - k / i): the numerically stable form of 1 - C(n-c, k) / C(n, k).
  double none = 1;
  for (int i = n - c + 1; i <= n; ++i) none *= 1.0 - static_cast<double>(k) / i;
  return 1 - none;
}

double limitScore(double candUs, double baseUs, double limitUs) {
  if (candUs <= 0 || baseUs <= 0) return 0;
  double gain = baseUs - limitUs;
  if (gain <= 0) return candUs <= baseUs ? 1.0 : 0.5 * baseUs / candUs;  // the baseline is already at the limit
  double loss = std::max(candUs - limitUs, 0.0);
  return gain / (loss + gain);
}

double cannOperatorScore(const std::vector<const Record*>& cases) {
  if (cases.empty()) return 0;
  double sum = 0;
  for (const Record* r : cases) {
    if (!r->compiled) return 0;
    if (r->correct) sum += 0.3 + 0.5 * limitScore(r->simUs, r->eagerUs, r->limitUs);
  }
  return 100 * (0.2 + sum / static_cast<double>(cases.size()));
}

Summary summarize(std::vector<Record> rows) {
  Summary summary;
  std::sort(rows.begin(), rows.end(), [](const Record& a, const Record& b) {
    if (a.task != b.task) return a.task < b.task;
    if (a.caseId != b.caseId) return a.caseId < b.caseId;
    return a.sample < b.sample;
  });
  summary.rows = std::move(rows);

  std::vector<const Record*> all;
  std::map<std::string, std::vector<const Record*>> byCategory, byTask;
  std::map<int, std::vector<const Record*>> byLevel;
  for (const Record& r : summary.rows) {
    all.push_back(&r);
    byCategory[r.category].push_back(&r);
    byLevel[r.level].push_back(&r);
    byTask[r.task].push_back(&r);
  }
  summary.overall = score(all);
  for (const auto& [category, rowsOf] : byCategory) summary.byCategory[category] = score(rowsOf);
  for (const auto& [level, rowsOf] : byLevel) summary.byLevel[level] = score(rowsOf);
  for (const auto& [task, rowsOf] : byTask) {
    TaskScore t;
    t.task = task;
    t.category = rowsOf.front()->category;
    t.level = rowsOf.front()->level;
    Scores s = score(rowsOf);
    double logSum = 0;
    int withSpeed = 0;
    for (const Record* r : rowsOf) {
      if (!scored(*r)) {
        if (t.firstFailure.empty()) t.firstFailure = fmt::format("{}: {}", failureName(r->failure), r->message);
        continue;
      }
      ++t.cases;
      if (!r->eagerSource.empty()) {
        t.eagerSource = t.eagerSource.empty() || t.eagerSource == r->eagerSource ? r->eagerSource : "mixed";
      }
      t.compiled += r->compiled ? 1 : 0;
      t.correct += r->correct ? 1 : 0;
      if (r->correct && speedup(*r) > 0) {
        logSum += std::log(speedup(*r));
        ++withSpeed;
      }
      if (!r->correct && t.firstFailure.empty()) {
        t.firstFailure = fmt::format("{}: {}", failureName(r->failure), r->message);
      }
    }
    t.geomeanSpeedup = withSpeed > 0 ? std::exp(logSum / withSpeed) : 0;
    t.limitScore = s.limitScore;
    t.cannScore = s.cannScore;
    summary.tasks.push_back(std::move(t));
  }
  return summary;
}

}  // namespace tilecraft::harness
