#include "harness/csv.h"

#include <cctype>

#include <fmt/core.h>

namespace tilecraft::harness {

std::vector<CsvRecord> readCsv(std::string_view text, std::vector<CsvError>& errors) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string cell;
  int line = 1;
  bool inRecord = false;  // something (even an empty cell before a comma) was read on this record
  bool quoted = false;
  int quoteLine = 0;
  auto endRecord = [&] {
    if (inRecord) {
      record.cells.push_back(std::move(cell));
      records.push_back(std::move(record));
    }
    record = CsvRecord{};
    cell.clear();
    inRecord = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char ch = text[i];
    if (!inRecord) {
      record.line = line;
    }
    if (quoted) {
      if (ch == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          cell += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (ch == '\n') ++line;
        // A CRLF inside a quoted cell is one line end of the cell's text.
        if (!(ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) cell += ch;
      }
      continue;
    }
    switch (ch) {
      case '"':
        quoted = true;
        quoteLine = line;
        inRecord = true;
        break;
      case ',':
        record.cells.push_back(std::move(cell));
        cell.clear();
        inRecord = true;
        break;
      case '\r':
        if (i + 1 < text.size() && text[i + 1] == '\n') break;  // the '\n' ends the record
        [[fallthrough]];
      case '\n':
        endRecord();
        ++line;
        break;
      default: cell += ch; inRecord = true;
    }
  }
  if (quoted) {
    errors.push_back({quoteLine, "unterminated quoted cell (a '\"' opened here is never closed)"});
    record = CsvRecord{};
    cell.clear();
    inRecord = false;
  }
  endRecord();
  return records;
}

namespace {

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      out += c;
    }
  }
  out += '"';
}

// The non-finite spellings, as the JSON string they become; empty when `word` is none of them.
std::string nonFinite(std::string_view word) {
  if (word == "inf" || word == "Infinity" || word == "infinity" || word == "Inf") return "inf";
  if (word == "nan" || word == "NaN" || word == "NAN" || word == "Nan") return "nan";
  return {};
}

}  // namespace

bool literalToJson(std::string_view text, std::string& json, std::string& error) {
  json.clear();
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      // A string in either quote style; backslash escapes are kept as JSON escapes, \' becomes '.
      std::string value;
      size_t j = i + 1;
      bool closed = false;
      for (; j < text.size(); ++j) {
        if (text[j] == '\\' && j + 1 < text.size()) {
          char e = text[j + 1];
          value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          ++j;
        } else if (text[j] == c) {
          closed = true;
          break;
        } else {
          value += text[j];
        }
      }
      if (!closed) {
        error = fmt::format("unterminated string starting at column {}", i + 1);
        return false;
      }
      appendJsonString(json, value);
      i = j + 1;
      continue;
    }
    if ((c == '-' || c == '+') && i + 1 < text.size() && std::isalpha(static_cast<unsigned char>(text[i + 1]))) {
      size_t j = i + 1;
      while (j < text.size() && isIdentChar(text[j])) ++j;
      std::string word = nonFinite(text.substr(i + 1, j - i - 1));
      if (word.empty()) {
        error = fmt::format("unexpected '{}' at column {}", text.substr(i, j - i), i + 1);
        return false;
      }
      appendJsonString(json, c == '-' && word == "inf" ? "-inf" : word);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      // A number, exponent included (so the 'e' of 1e-5 is not read as a word).
      size_t j = i;
      while (j < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == 'e' || text[j] == 'E' ||
              ((text[j] == '-' || text[j] == '+') && (text[j - 1] == 'e' || text[j - 1] == 'E'))))
        ++j;
      json.append(text.substr(i, j - i));
      i = j;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < text.size() && isIdentChar(text[j])) ++j;
      std::string_view word = text.substr(i, j - i);
      if (word == "true" || word == "True") {
        json += "true";
      } else if (word == "false" || word == "False") {
        json += "false";
      } else if (word == "null" || word == "None") {
        json += "null";
      } else if (std::string nf = nonFinite(word); !nf.empty()) {
        appendJsonString(json, nf);
      } else {
        error = fmt::format("unexpected word '{}' at column {} (strings need quotes)", word, i + 1);
        return false;
      }
      i = j;
      continue;
    }
    json += c;
    ++i;
  }
  return true;
}

}  // namespace tilecraft::harness
