// The tables every report shows, built once from a Summary so the terminal table, the Markdown summary and
// the HTML report cannot disagree on a figure. Internal to the harness's report renderers.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/metrics.h"
#include "harness/report.h"

namespace tilecraft::harness::report_detail {

struct Table {
  std::string title;
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column: right-aligned figures
  std::vector<std::vector<std::string>> rows;
};

// Overall, by level, by category, per task and the failure taxonomy, in that order.
std::vector<Table> reportTables(const Summary& s);

// The taxonomy in report order: (failure name, rows), only names with rows, unknown names last by name.
std::vector<std::pair<std::string, int>> orderedFailures(const std::map<std::string, int>& failures);

// Figures as every report prints them; "-" for a figure that does not exist (e.g. no correct case).
std::string formatRate(double fraction);    // "75.0%"
std::string formatSpeedup(double speedup);  // "1.23x"
std::string formatScore(double score);      // "0.512"
std::string formatCannScore(double score);  // "62.5" (0..100)
std::string formatMicros(double us);        // "12.3"

// The line under the title: suite, solutions, rule, arch (the fields that are set).
std::string infoLine(const ReportInfo& info);

// At most `maxChars` code points of one line of `text` (newlines become spaces), with "..." when cut.
std::string clip(const std::string& text, size_t maxChars);

// Code points in `text` (what a terminal column counts, near enough).
size_t displayWidth(const std::string& text);

}  // namespace tilecraft::harness::report_detail
