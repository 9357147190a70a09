#include "perf/calibrate.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "perf/work.h"

namespace tilecraft::perf {
namespace {

constexpr double kUs = 1e6;

bool within(double ratio, double tolerance) { return std::fabs(ratio - 1.0) <= tolerance + 1e-12; }
bool within2x(double ratio) { return ratio >= 0.5 && ratio <= 2.0; }

const char* baselineKind(const TaskCase& t) {
  if (!t.hasFigures) return "none";
  return t.baselineMeasured ? "measured" : "capped";
}

struct Geo {
  double logSum = 0;
  int n = 0;
  void add(double ratio) {
    logSum += std::log(ratio);
    ++n;
  }
  double value() const { return n == 0 ? 0 : std::exp(logSum / n); }
};

}  // namespace

CalibrationReport calibrate(const std::vector<TaskCase>& cases, const ArchSpec& arch, const std::string& fileName) {
  CalibrationReport report;
  report.arch = arch.name;
  report.file = fileName;
  std::map<std::string, size_t> opIndex;
  std::vector<Geo> opLimitGeo, opEagerGeo;
  Geo limitGeo, eagerGeo;
  int limitHits = 0, eagerHits = 0, limitCompared = 0;

  for (const TaskCase& task : cases) {
    CaseResult r;
    r.task = &task;
    WorkFn fn = task.problem.empty() ? findWork(task.op) : nullptr;
    if (!task.problem.empty()) {
      r.skipReason = fmt::format("{}:{}: {}", fileName, task.line, task.problem);
      ++report.summary.casesMalformed;
    } else if (fn == nullptr) {
      r.skipReason = "not modelled: " + unmodelledReason(task.op);
    } else {
      WorkResult wr = fn(task);
      if (!wr.ok) {
        r.skipReason = wr.skipReason;
      } else {
        r.covered = true;
        r.limit = computeLimit(wr.work, arch);
        r.eager = computeEager(wr.work, task.baselineKernels, arch);
        // A row without figures (a CANN Bench cases.csv) has nothing to compare with: ratios stay 0.
        r.limitRatio = task.tHwUs > 0 ? r.limit.hapS * kUs / task.tHwUs : 0;
        r.eagerRatio = task.baselineUs > 0 ? r.eager.deviceS * kUs / task.baselineUs : 0;
      }
    }
    ++report.summary.casesTotal;
    if (!r.covered) {
      ++report.summary.casesSkipped;
      report.cases.push_back(std::move(r));
      continue;
    }
    ++report.summary.casesCovered;
    auto [it, inserted] = opIndex.try_emplace(task.op, report.operators.size());
    if (inserted) {
      report.operators.push_back(OperatorSummary{task.op, task.level});
      opLimitGeo.emplace_back();
      opEagerGeo.emplace_back();
    }
    OperatorSummary& op = report.operators[it->second];
    ++op.cases;
    if (task.tHwUs > 0) ++limitCompared;
    if (r.limitRatio > 0) {
      opLimitGeo[it->second].add(r.limitRatio);
      limitGeo.add(r.limitRatio);
      if (within(r.limitRatio, 0.10)) {
        ++op.limitWithin10;
        ++limitHits;
      }
    }
    if (task.baselineMeasured && r.eagerRatio > 0) {
      ++op.eagerMeasured;
      ++report.summary.eagerMeasuredCases;
      opEagerGeo[it->second].add(r.eagerRatio);
      eagerGeo.add(r.eagerRatio);
      if (within2x(r.eagerRatio)) {
        ++op.eagerWithin2x;
        ++eagerHits;
      }
    }
    report.cases.push_back(std::move(r));
  }
  for (size_t i = 0; i < report.operators.size(); ++i) {
    report.operators[i].limitGeomean = opLimitGeo[i].value();
    report.operators[i].eagerGeomean = opEagerGeo[i].value();
  }
  CalibrationSummary& s = report.summary;
  s.limitWithin10pct = limitCompared ? static_cast<double>(limitHits) / limitCompared : 0;
  s.limitGeomeanRatio = limitGeo.value();
  s.eagerWithin2x = s.eagerMeasuredCases ? static_cast<double>(eagerHits) / s.eagerMeasuredCases : 0;
  s.eagerGeomeanRatio = eagerGeo.value();
  return report;
}

std::string renderText(const CalibrationReport& report, bool perCase) {
  std::string out =
      fmt::format("perf calibrate: {} cases from {}, arch {}\n", report.summary.casesTotal, report.file, report.arch);
  if (perCase) {
    out += fmt::format("\n{:<24} {:>4} {:>10} {:>10} {:>6} {:<7} {:>10} {:>10} {:<8} {:>6}\n", "operator", "case",
                       "limit_us", "t_hw_us", "ratio", "bound", "eager_us", "base_us", "kind", "ratio");
    for (const CaseResult& r : report.cases) {
      if (!r.covered) continue;
      const TaskCase& t = *r.task;
      // A row without figures shows our two times and dashes where the published ones would be.
      auto figure = [&](double v, int width) {
        return t.hasFigures ? fmt::format("{:>{}.2f}", v, width) : fmt::format("{:>{}}", "-", width);
      };
      out +=
          fmt::format("{:<24} {:>4} {:>10.2f} {} {} {:<7} {:>10.2f} {} {:<8} {}\n", t.op, t.caseId, r.limit.hapS * kUs,
                      figure(t.tHwUs, 10), figure(r.limitRatio, 6), r.limit.hapUnits.bottleneck(),
                      r.eager.deviceS * kUs, figure(t.baselineUs, 10), baselineKind(t), figure(r.eagerRatio, 6));
    }
  }
  out += fmt::format("\n{:<24} {:<7} {:>5} {:>10} {:>12} {:>9} {:>10} {:>12}\n", "operator", "level", "cases",
                     "limit±10%", "limit_geo", "measured", "eager≤2x", "eager_geo");
  for (const OperatorSummary& op : report.operators) {
    out += fmt::format("{:<24} {:<7} {:>5} {:>10} {:>12.3f} {:>9} {:>10} {:>12}\n", op.op, op.level, op.cases,
                       fmt::format("{}/{}", op.limitWithin10, op.cases), op.limitGeomean, op.eagerMeasured,
                       fmt::format("{}/{}", op.eagerWithin2x, op.eagerMeasured),
                       op.eagerMeasured ? fmt::format("{:.3f}", op.eagerGeomean) : std::string("-"));
  }
  // Skipped cases grouped by operator and reason, so the report says what is not covered and why.
  std::map<std::string, std::pair<int, std::string>> skipped;
  std::vector<std::string> order;
  for (const CaseResult& r : report.cases) {
    if (r.covered) continue;
    std::string key = r.task->op.empty() ? r.skipReason : r.task->op + ": " + r.skipReason;
    auto [it, inserted] = skipped.try_emplace(key, 0, r.task->level);
    if (inserted) order.push_back(key);
    ++it->second.first;
  }
  if (!order.empty()) {
    out += "\nskipped:\n";
    for (const std::string& key : order) {
      const auto& [count, level] = skipped[key];
      out += fmt::format("  {} ({} case{}{}{})\n", key, count, count == 1 ? "" : "s", level.empty() ? "" : ", ", level);
    }
  }
  const CalibrationSummary& s = report.summary;
  out += fmt::format(
      "\nsummary: {} covered, {} skipped{}\n"
      "  limit within ±10% of t_hw_us: {:.1f}% of covered cases (target 90%), geomean ratio {:.3f}\n"
      "  eager vs measured baselines ({} cases): geomean ratio {:.3f} (target 0.8-1.25), within 2x: {:.1f}% (target "
      "80%)\n",
      s.casesCovered, s.casesSkipped,
      s.casesMalformed ? fmt::format(" ({} unreadable row{})", s.casesMalformed, s.casesMalformed == 1 ? "" : "s") : "",
      100 * s.limitWithin10pct, s.limitGeomeanRatio, s.eagerMeasuredCases, s.eagerGeomeanRatio, 100 * s.eagerWithin2x);
  return out;
}

std::string renderJson(const CalibrationReport& report) {
  using nlohmann::ordered_json;
  ordered_json root;
  root["arch"] = report.arch;
  root["file"] = report.file;
  ordered_json cases = ordered_json::array();
  for (const CaseResult& r : report.cases) {
    ordered_json c;
    c["operator"] = r.task->op;
    c["level"] = r.task->level;
    c["case_id"] = r.task->caseId;
    c["covered"] = r.covered;
    if (!r.covered) {
      c["skip_reason"] = r.skipReason;
    } else {
      c["limit_us"] = r.limit.hapS * kUs;
      c["limit_pessimistic_us"] = r.limit.pessimisticS * kUs;
      c["bottleneck"] = r.limit.hapUnits.bottleneck();
      if (r.task->hasFigures) {
        c["t_hw_us"] = r.task->tHwUs;
        c["limit_ratio"] = r.limitRatio;
      }
      c["eager_us"] = r.eager.deviceS * kUs;
      c["eager_with_host_us"] = r.eager.withHostS * kUs;
      if (r.task->hasFigures) c["baseline_us"] = r.task->baselineUs;
      c["baseline_kind"] = baselineKind(*r.task);
      if (r.task->hasFigures) c["eager_ratio"] = r.eagerRatio;
    }
    cases.push_back(std::move(c));
  }
  root["cases"] = std::move(cases);
  ordered_json ops = ordered_json::array();
  for (const OperatorSummary& op : report.operators) {
    ordered_json o;
    o["operator"] = op.op;
    o["level"] = op.level;
    o["cases"] = op.cases;
    o["limit_within_10pct"] = op.cases ? static_cast<double>(op.limitWithin10) / op.cases : 0.0;
    o["limit_geomean_ratio"] = op.limitGeomean;
    o["eager_measured_cases"] = op.eagerMeasured;
    o["eager_within_2x"] = op.eagerMeasured ? static_cast<double>(op.eagerWithin2x) / op.eagerMeasured : 0.0;
    o["eager_geomean_ratio"] = op.eagerGeomean;
    ops.push_back(std::move(o));
  }
  root["operators"] = std::move(ops);
  const CalibrationSummary& s = report.summary;
  ordered_json sum;
  sum["cases_total"] = s.casesTotal;
  sum["cases_covered"] = s.casesCovered;
  sum["cases_skipped"] = s.casesSkipped;
  sum["cases_malformed"] = s.casesMalformed;
  sum["limit_within_10pct"] = s.limitWithin10pct;
  sum["limit_geomean_ratio"] = s.limitGeomeanRatio;
  sum["eager_measured_cases"] = s.eagerMeasuredCases;
  sum["eager_within_2x"] = s.eagerWithin2x;
  sum["eager_geomean_ratio"] = s.eagerGeomeanRatio;
  root["summary"] = std::move(sum);
  // Cells come from a file: a byte that is not UTF-8 (a Latin-1 operator name) becomes U+FFFD rather than an
  // exception, so the JSON is always valid.
  return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace tilecraft::perf
