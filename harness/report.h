// What a run prints and writes: the terminal table, the Markdown summary and the self-contained HTML report
// (works offline; the chart library is inlined from the pinned npm package).
#pragma once

#include <string>

#include "harness/metrics.h"

namespace tilecraft::harness {

struct ReportInfo {
  std::string title;      // e.g. "tilecraft bench --smoke tasks/"
  std::string suite;      // the tasks root as given
  std::string solutions;  // the solutions root as given
  std::string rule;       // "cann" or "allclose"
  std::string arch;       // "910b2"
};

std::string renderTable(const Summary& s, const ReportInfo& info);  // plain text for the terminal
std::string renderMarkdown(const Summary& s, const ReportInfo& info);
std::string renderHtml(const Summary& s, const ReportInfo& info);

}  // namespace tilecraft::harness
