// The two text formats of cases.csv: RFC 4180 records (quoted cells may span lines, "" escapes a quote, a
// UTF-8 BOM and CRLF line ends are accepted) and the cells' list literals, which CANN Bench writes as JSON
// but a few of its files write as Python literals. Kept apart from task.cpp so each can be tested on its own.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::harness {

struct CsvRecord {
  int line = 0;  // 1-based line where the record starts
  std::vector<std::string> cells;
};

struct CsvError {
  int line = 0;
  std::string message;
};

// Splits `text` into records; blank lines are skipped. An unterminated quote ends the file with an error at
// the line where that quote opened (the records before it are kept).
std::vector<CsvRecord> readCsv(std::string_view text, std::vector<CsvError>& errors);

// Rewrites a cell literal as strict JSON text. Accepted beyond JSON (docs/tasks.md "Cell literals"):
// 'single-quoted' strings, True/False/None, and the bare tokens inf, -inf, +inf, nan, Infinity, -Infinity,
// NaN (with or without a leading minus), which become the JSON strings "inf", "-inf", "nan". Returns false
// with `error` set when the text is not a literal (an unterminated string, a stray character).
bool literalToJson(std::string_view text, std::string& json, std::string& error);

}  // namespace tilecraft::harness
