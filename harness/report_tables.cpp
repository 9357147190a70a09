#include "harness/report_tables.h"

#include <cmath>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tilecraft::harness::report_detail {
namespace {

constexpr size_t kMessageChars = 100;

const char* const kFastP[] = {"0", "0.8", "1", "2"};

// -0.0 would print as "-0.0": a figure that rounds to zero prints as zero.
std::string fixed(double v, int digits) {
  std::string text = fmt::format("{:.{}f}", v, digits);
  if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
  return text;
}

// The Comp@k and Pass@k columns beyond k = 1: every k the overall scores have.
std::vector<int> extraKs(const std::map<int, double>& atK) {
  std::vector<int> ks;
  for (const auto& [k, value] : atK) {
    if (k > 1) ks.push_back(k);
  }
  return ks;
}

struct KColumns {
  std::vector<int> comp, pass;
};

std::string atK(const std::map<int, double>& values, int k) {
  auto it = values.find(k);
  return it == values.end() ? "-" : formatRate(it->second);
}

Table scoresTable(std::string title, const KColumns& ks) {
  Table t;
  t.title = std::move(title);
  t.header = {"scope", "tasks", "cases", "samples", "Comp@1"};
  for (int k : ks.comp) t.header.push_back(fmt::format("Comp@{}", k));
  t.header.push_back("Pass@1");
  for (int k : ks.pass) t.header.push_back(fmt::format("Pass@{}", k));
  for (const char* p : kFastP) t.header.push_back(fmt::format("fast_{}", p));
  t.header.insert(t.header.end(), {"speedup", "limit score", "CANN score"});
  t.numeric.assign(t.header.size(), true);
  t.numeric[0] = false;
  return t;
}

std::vector<std::string> scoresRow(std::string scope, const Scores& s, const KColumns& ks) {
  std::vector<std::string> row = {std::move(scope), std::to_string(s.tasks), std::to_string(s.cases),
                                  std::to_string(s.samples), formatRate(s.compAt1)};
  for (int k : ks.comp) row.push_back(atK(s.compAtK, k));
  row.push_back(formatRate(s.passAt1));
  for (int k : ks.pass) row.push_back(atK(s.passAtK, k));
  for (const char* p : kFastP) {
    auto it = s.fastP.find(p);
    row.push_back(it == s.fastP.end() ? "-" : formatRate(it->second));
  }
  row.push_back(formatSpeedup(s.geomeanSpeedup));
  row.push_back(formatScore(s.limitScore));
  row.push_back(formatCannScore(s.cannScore));
  return row;
}

Table tasksTable(const Summary& s) {
  Table t;
  t.title = "Tasks";
  t.header = {"task",    "level",     "category",    "cases",      "compiled",     "correct",
              "speedup", "eager ref", "limit score", "CANN score", "first failure"};
  t.numeric = {false, true, false, true, true, true, true, false, true, true, false};
  for (const TaskScore& task : s.tasks) {
    t.rows.push_back({clip(task.task, kMessageChars), std::to_string(task.level), clip(task.category, kMessageChars),
                      std::to_string(task.cases), std::to_string(task.compiled), std::to_string(task.correct),
                      formatSpeedup(task.geomeanSpeedup), task.eagerSource.empty() ? "-" : task.eagerSource,
                      formatScore(task.limitScore), formatCannScore(task.cannScore),
                      task.firstFailure.empty() ? "-" : clip(task.firstFailure, kMessageChars)});
  }
  return t;
}

Table failuresTable(const Summary& s) {
  Table t;
  t.title = "Failures";
  t.header = {"failure", "rows", "share of rows"};
  t.numeric = {false, true, true};
  double total = static_cast<double>(s.rows.size());
  for (const auto& [name, count] : orderedFailures(s.overall.failures)) {
    t.rows.push_back({name, std::to_string(count), formatRate(total > 0 ? count / total : 0)});
  }
  return t;
}

}  // namespace

std::vector<std::pair<std::string, int>> orderedFailures(const std::map<std::string, int>& failures) {
  std::vector<std::pair<std::string, int>> ordered;
  std::set<std::string> known;
  for (int i = static_cast<int>(Failure::None) + 1; i <= static_cast<int>(Failure::NoSolution); ++i) {
    std::string name = failureName(static_cast<Failure>(i));
    known.insert(name);
    auto it = failures.find(name);
    if (it != failures.end() && it->second > 0) ordered.emplace_back(name, it->second);
  }
  for (const auto& [name, count] : failures) {
    if (!known.count(name) && name != failureName(Failure::None) && count > 0) ordered.emplace_back(name, count);
  }
  return ordered;
}

std::vector<Table> reportTables(const Summary& s) {
  KColumns ks{extraKs(s.overall.compAtK), extraKs(s.overall.passAtK)};
  std::vector<Table> tables;
  Table overall = scoresTable("Overall", ks);
  overall.rows.push_back(scoresRow("all", s.overall, ks));
  tables.push_back(std::move(overall));
  Table levels = scoresTable("By level", ks);
  for (const auto& [level, scores] : s.byLevel)
    levels.rows.push_back(scoresRow(fmt::format("level {}", level), scores, ks));
  tables.push_back(std::move(levels));
  Table categories = scoresTable("By category", ks);
  for (const auto& [category, scores] : s.byCategory) {
    categories.rows.push_back(scoresRow(clip(category.empty() ? "(none)" : category, kMessageChars), scores, ks));
  }
  tables.push_back(std::move(categories));
  tables.push_back(tasksTable(s));
  tables.push_back(failuresTable(s));
  return tables;
}

std::string formatRate(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  return fixed(100 * fraction, 1) + "%";
}

std::string formatSpeedup(double speedup) {
  if (!std::isfinite(speedup) || speedup <= 0) return "-";
  return fixed(speedup, 2) + "x";
}

std::string formatScore(double score) {
  if (!std::isfinite(score)) return "-";
  return fixed(score, 3);
}

std::string formatCannScore(double score) {
  if (!std::isfinite(score)) return "-";
  return fixed(score, 1);
}

std::string formatMicros(double us) {
  if (!std::isfinite(us) || us <= 0) return "-";
  return fixed(us, us < 10 ? 2 : 1);
}

std::string infoLine(const ReportInfo& info) {
  std::vector<std::string> parts;
  if (!info.suite.empty()) parts.push_back("suite: " + info.suite);
  if (!info.solutions.empty()) parts.push_back("solutions: " + info.solutions);
  if (!info.rule.empty()) parts.push_back("rule: " + info.rule);
  if (!info.arch.empty()) parts.push_back("arch: " + info.arch);
  return fmt::format("{}", fmt::join(parts, "  "));
}

std::string clip(const std::string& text, size_t maxChars) {
  std::string out;
  size_t chars = 0;
  for (size_t i = 0; i < text.size();) {
    auto lead = static_cast<unsigned char>(text[i]);
    size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 1;
    if (i + len > text.size()) len = text.size() - i;
    if (chars == maxChars) {
      out += "...";
      return out;
    }
    char c = text[i];
    if (len == 1 && (c == '\n' || c == '\r' || c == '\t')) {
      out += ' ';
    } else {
      out.append(text, i, len);
    }
    i += len;
    ++chars;
  }
  return out;
}

size_t displayWidth(const std::string& text) {
  size_t width = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++width;
  }
  return width;
}

}  // namespace tilecraft::harness::report_detail
