// The terminal table and the Markdown summary: the same tables (report_tables.h), aligned text or GFM.
#include "harness/report.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "harness/report_tables.h"

namespace tilecraft::harness {
namespace {

using report_detail::Table;

void appendAligned(std::string& out, const Table& t) {
  std::vector<size_t> widths(t.header.size(), 0);
  for (size_t c = 0; c < t.header.size(); ++c) widths[c] = report_detail::displayWidth(t.header[c]);
  for (const auto& row : t.rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], report_detail::displayWidth(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text = " ";
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(widths[c] - report_detail::displayWidth(cells[c]), ' ');
      text += ' ';
      text += t.numeric[c] ? pad + cells[c] : cells[c] + (c + 1 == cells.size() ? "" : pad);
      if (c + 1 < cells.size()) text += ' ';
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  out += t.title + "\n";
  if (t.rows.empty()) {
    out += "  (none)\n";
    return;
  }
  line(t.header);
  std::vector<std::string> rules;
  for (size_t w : widths) rules.emplace_back(w, '-');
  line(rules);
  for (const auto& row : t.rows) line(row);
}

// GFM: a cell is one line; characters Markdown would read as markup are backslash-escaped, so a task called
// "<script>" or "a|b" stays text.
std::string markdownCell(const std::string& text) {
  constexpr std::string_view kMarkup = "\\|`*[]<>&#";
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
      continue;
    }
    if (kMarkup.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

void appendMarkdown(std::string& out, const Table& t) {
  out += "## " + t.title + "\n\n";
  if (t.rows.empty()) {
    out += "(none)\n\n";
    return;
  }
  auto line = [&](const std::vector<std::string>& cells) {
    out += "|";
    for (const std::string& cell : cells) out += " " + markdownCell(cell) + " |";
    out += "\n";
  };
  line(t.header);
  out += "|";
  for (bool numeric : t.numeric) out += numeric ? "--:|" : "---|";
  out += "\n";
  for (const auto& row : t.rows) line(row);
  out += "\n";
}

}  // namespace

std::string renderTable(const Summary& s, const ReportInfo& info) {
  std::string out;
  if (!info.title.empty()) out += info.title + "\n";
  if (std::string line = report_detail::infoLine(info); !line.empty()) out += line + "\n";
  for (const Table& t : report_detail::reportTables(s)) {
    if (!out.empty()) out += "\n";
    appendAligned(out, t);
  }
  return out;
}

std::string renderMarkdown(const Summary& s, const ReportInfo& info) {
  std::string out = "# " + markdownCell(info.title.empty() ? "tilecraft bench" : info.title) + "\n\n";
  if (std::string line = report_detail::infoLine(info); !line.empty()) out += markdownCell(line) + "\n\n";
  for (const Table& t : report_detail::reportTables(s)) appendMarkdown(out, t);
  // One trailing newline, not a blank line.
  while (out.size() > 1 && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

}  // namespace tilecraft::harness
