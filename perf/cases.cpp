#include "perf/cases.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perf/error.h"

namespace tilecraft::perf {

using nlohmann::json;

int dtypeBytes(DType t) {
  switch (t) {
    case DType::F16:
    case DType::BF16:
    case DType::I16: return 2;
    case DType::F32:
    case DType::I32: return 4;
    case DType::I64: return 8;
    case DType::I8:
    case DType::U8:
    case DType::Bool: return 1;
  }
  return 1;
}

std::string_view dtypeName(DType t) {
  switch (t) {
    case DType::F16: return "float16";
    case DType::BF16: return "bfloat16";
    case DType::F32: return "float32";
    case DType::I8: return "int8";
    case DType::U8: return "uint8";
    case DType::I16: return "int16";
    case DType::I32: return "int32";
    case DType::I64: return "int64";
    case DType::Bool: return "bool";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t :
       {DType::F16, DType::BF16, DType::F32, DType::I8, DType::U8, DType::I16, DType::I32, DType::I64, DType::Bool}) {
    if (dtypeName(t) == name) return t;
  }
  return std::nullopt;
}

bool isFloat(DType t) { return t == DType::F16 || t == DType::BF16 || t == DType::F32; }

double TensorArg::numel() const {
  if (!present) return 0;
  double total = 0;
  for (const auto& s : shapes) {
    double n = 1;
    for (int64_t d : s) n *= static_cast<double>(d);
    total += n;
  }
  return total;
}

double TensorArg::dim(int i) const {
  if (shapes.empty()) return 1;
  const std::vector<int64_t>& s = shapes.front();
  int n = static_cast<int>(s.size());
  int k = i < 0 ? i + n : i;
  if (k < 0 || k >= n || s[static_cast<size_t>(k)] <= 0) return 1;
  return static_cast<double>(s[static_cast<size_t>(k)]);
}

double TaskCase::attrNumber(const std::string& name, double fallback) const {
  auto it = attrs.find(name);
  if (it == attrs.end()) return fallback;
  if (it->second.kind == AttrValue::Kind::Number) return it->second.number;
  if (it->second.kind == AttrValue::Kind::Bool) return it->second.boolean ? 1 : 0;
  return fallback;
}

std::string TaskCase::attrString(const std::string& name, const std::string& fallback) const {
  auto it = attrs.find(name);
  return it != attrs.end() && it->second.kind == AttrValue::Kind::String ? it->second.text : fallback;
}

std::vector<double> TaskCase::attrList(const std::string& name) const {
  auto it = attrs.find(name);
  return it != attrs.end() && it->second.kind == AttrValue::Kind::List ? it->second.list : std::vector<double>{};
}

namespace {

struct Row {
  std::vector<std::string> fields;
  int line = 0;
  std::string problem;  // a fault local to this row; the row is kept so that it is reported
};

// RFC 4180: fields may be quoted, quotes inside doubled, newlines allowed inside quotes.
std::vector<Row> splitCsv(std::string_view text, const std::string& fileName) {
  std::vector<Row> rows;
  Row row;
  std::string field;
  bool quoted = false, fieldStarted = false;
  int line = 1;
  row.line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else quoted = false;
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"') {
      if (!field.empty()) {
        if (row.problem.empty()) row.problem = "a quote inside an unquoted field";
        field += c;
        continue;
      }
      quoted = true;
      fieldStarted = true;
    } else if (c == ',') {
      row.fields.push_back(std::move(field));
      field.clear();
      fieldStarted = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (fieldStarted || !field.empty()) {
        row.fields.push_back(std::move(field));
        rows.push_back(std::move(row));
      }
      field.clear();
      row = Row{};
      fieldStarted = false;
      ++line;
      row.line = line;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (quoted) throw PerfError(fmt::format("{}:{}: unterminated quoted field", fileName, row.line));
  if (fieldStarted || !field.empty()) {
    row.fields.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<int64_t> toShape(const json& j) {
  std::vector<int64_t> shape;
  for (const json& d : j) {
    if (!d.is_number_integer()) throw std::invalid_argument("a dimension is not an integer");
    if (d.is_number_unsigned() && d.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      throw std::invalid_argument(fmt::format("dimension {} is past int64", d.get<uint64_t>()));
    }
    if (d.get<int64_t>() < 0) throw std::invalid_argument(fmt::format("dimension {} is negative", d.get<int64_t>()));
    shape.push_back(d.get<int64_t>());
  }
  return shape;
}

AttrValue toAttr(const json& j) {
  AttrValue v;
  if (j.is_boolean()) {
    v.kind = AttrValue::Kind::Bool;
    v.boolean = j.get<bool>();
  } else if (j.is_number()) {
    v.kind = AttrValue::Kind::Number;
    v.number = j.get<double>();
  } else if (j.is_string()) {
    v.kind = AttrValue::Kind::String;
    v.text = j.get<std::string>();
    // Some attributes carry numbers as strings ("1e-08"); keep both readings.
    char* end = nullptr;
    double d = std::strtod(v.text.c_str(), &end);
    if (end != v.text.c_str() && *end == '\0') v.number = d;
  } else if (j.is_array()) {
    v.kind = AttrValue::Kind::List;
    for (const json& e : j)
      if (e.is_number()) v.list.push_back(e.get<double>());
  }
  return v;
}

// "SoftmaxV2×1 + Cast×2" -> {SoftmaxV2,1},{Cast,2}
std::vector<KernelCount> parseKernels(const std::string& text) {
  std::vector<KernelCount> kernels;
  std::string_view rest = text;
  const std::string_view times = "\xC3\x97";  // U+00D7 MULTIPLICATION SIGN in UTF-8
  while (!rest.empty()) {
    size_t plus = rest.find(" + ");
    std::string_view item = rest.substr(0, plus);
    rest = plus == std::string_view::npos ? std::string_view{} : rest.substr(plus + 3);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item.empty()) continue;
    KernelCount k;
    size_t x = item.rfind(times);
    if (x == std::string_view::npos) {
      k.name = std::string(item);
    } else {
      k.name = std::string(item.substr(0, x));
      std::string count(item.substr(x + times.size()));
      char* end = nullptr;
      long n = std::strtol(count.c_str(), &end, 10);
      if (end == count.c_str() || *end != '\0' || n < 1) throw std::invalid_argument("kernel count '" + count + "'");
      k.count = static_cast<int>(n);
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

// perf depends on no other Tilecraft library, so it reads its numbers itself (as strictly as support/numbers.h):
// the whole cell, finite ("nan", "inf" and "1e999" are refused).
double toNumber(const std::string& s, const char* column) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  bool plain = s.find_first_not_of("0123456789.eE+-") == std::string::npos;
  if (s.empty() || !plain || end != s.c_str() + s.size() || !std::isfinite(v)) {
    throw std::invalid_argument(fmt::format("column {}: '{}' is not a finite number", column, s));
  }
  return v;
}

// A measured time: a finite number of microseconds above zero (a ratio against 0, a negative or a nan one would
// poison every mean it joins).
double toMicroseconds(const std::string& s, const char* column) {
  double v = toNumber(s, column);
  if (!(v > 0))
    throw std::invalid_argument(fmt::format("column {}: {} is not a positive time in microseconds", column, s));
  return v;
}

std::optional<int> parseCaseId(const std::string& s) {
  int id = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id, 10);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || id < 0) return std::nullopt;
  return id;
}

int toCaseId(const std::string& s) {
  std::optional<int> id = parseCaseId(s);
  if (!id) throw std::invalid_argument(fmt::format("column case_id: '{}' is not a case number", s));
  return *id;
}

const std::vector<std::string> kCalibrationColumns = {
    "level", "op_dir",      "operator",         "category",    "case_id",       "input_shapes", "dtypes",
    "attrs", "value_range", "baseline_kernels", "baseline_us", "baseline_kind", "t_hw_us"};
// CANN Bench's tasks/*/cases.csv, under the calibration format's names for the shared columns (see kAliases).
const std::vector<std::string> kTaskColumns = {"operator", "case_id", "input_shapes", "dtypes", "attrs", "value_range"};
const std::map<std::string, std::string> kAliases = {{"input_shape", "input_shapes"}, {"dtype", "dtypes"}};

// The dtype of input `i`: a name, or for a tensor list a list of names, which must agree (TensorArg has one dtype).
DType toDType(const json& d, size_t i) {
  std::string name;
  if (d.is_string()) {
    name = d.get<std::string>();
  } else if (d.is_array() && !d.empty()) {
    for (const json& e : d) {
      if (!e.is_string()) throw std::invalid_argument(fmt::format("column dtypes: input {} has no dtype", i));
      if (!name.empty() && e.get<std::string>() != name) {
        throw std::invalid_argument(
            fmt::format("column dtypes: input {} is a tensor list mixing {} and {}", i, name, e.get<std::string>()));
      }
      name = e.get<std::string>();
    }
  } else {
    throw std::invalid_argument(fmt::format("column dtypes: input {} has no dtype", i));
  }
  std::optional<DType> t = parseDType(name);
  if (!t) throw std::invalid_argument(fmt::format("column dtypes: unknown dtype '{}'", name));
  return *t;
}

// A Python literal of lists, dicts, strings, numbers, True/False/None, rewritten as JSON text (no escapes inside
// single-quoted strings are needed by the files seen; a string holding a double quote is left invalid).
std::string pythonLiteralToJson(const std::string& text) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
      out += c == '\'' ? '"' : c;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += '"';
      continue;
    }
    bool wordStart = i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
    bool matched = false;
    for (auto [py, js] : {std::pair{"True", "true"}, {"False", "false"}, {"None", "null"}}) {
      std::string_view word(py);
      if (wordStart && text.compare(i, word.size(), word) == 0 &&
          (i + word.size() == text.size() || !std::isalnum(static_cast<unsigned char>(text[i + word.size()])))) {
        out += js;
        i += word.size() - 1;
        matched = true;
        break;
      }
    }
    if (!matched) out += c;
  }
  return out;
}

bool isRange(const json& r) { return r.is_array() && r.size() == 2 && r[0].is_number() && r[1].is_number(); }

// The kernels of a CANN Bench note: "S-float16-case1 | baseline_kernels: ZerosLike×3 + DynamicRNN×1".
std::string kernelsOfNote(const std::string& note) {
  const std::string key = "baseline_kernels:";
  size_t at = note.find(key);
  if (at == std::string::npos) return "";
  std::string kernels = note.substr(at + key.size());
  size_t bar = kernels.find('|');
  return bar == std::string::npos ? kernels : kernels.substr(0, bar);
}

TaskCase parseRow(const Row& row, const std::map<std::string, size_t>& col, bool hasFigures) {
  static const std::string kAbsent;
  auto get = [&](const std::string& name) -> const std::string& {
    auto it = col.find(name);
    return it == col.end() ? kAbsent : row.fields[it->second];
  };
  TaskCase c;
  c.line = row.line;
  c.level = get("level");
  c.opDir = get("op_dir");
  c.op = get("operator");
  c.category = get("category");
  c.hasFigures = hasFigures;
  c.caseId = toCaseId(get("case_id"));

  json shapes, dtypes, attrs, ranges;
  auto parseJson = [](const std::string& text, const char* column) {
    try {
      return json::parse(text);
    } catch (const json::out_of_range& e) {
      // A number past double ("1e999"): nlohmann reports it as out_of_range, not as a parse error.
      throw std::invalid_argument(fmt::format("column {}: a number is out of range (past a double)", column));
    } catch (const json::parse_error& e) {
      // Some CANN Bench tasks write Python literals (['float16'], {'k': True}); read those too.
      try {
        json j = json::parse(pythonLiteralToJson(text), nullptr, false);
        if (!j.is_discarded()) return j;
      } catch (const json::exception&) {
        throw std::invalid_argument(fmt::format("column {}: a number is out of range (past a double)", column));
      }
      throw std::invalid_argument(fmt::format("column {}: invalid JSON: {}", column, e.what()));
    }
  };
  shapes = parseJson(get("input_shapes"), "input_shapes");
  dtypes = parseJson(get("dtypes"), "dtypes");
  attrs = get("attrs").empty() ? json::object() : parseJson(get("attrs"), "attrs");
  ranges = get("value_range").empty() ? json() : parseJson(get("value_range"), "value_range");
  if (!shapes.is_array()) throw std::invalid_argument("column input_shapes: expected a JSON list");
  if (!dtypes.is_array() || dtypes.empty())
    throw std::invalid_argument("column dtypes: expected a non-empty JSON list");
  if (!attrs.is_object()) throw std::invalid_argument("column attrs: expected a JSON object");

  for (size_t i = 0; i < shapes.size(); ++i) {
    TensorArg arg;
    const json& s = shapes[i];
    // One dtype may stand for every input (ForeachXxx lists).
    const json& d = dtypes[std::min(i, dtypes.size() - 1)];
    if (!s.is_null()) {
      if (!s.is_array()) throw std::invalid_argument(fmt::format("column input_shapes: input {} is not a list", i));
      arg.present = true;
      arg.isList = !s.empty() && s[0].is_array();
      try {
        if (arg.isList)
          for (const json& e : s) arg.shapes.push_back(toShape(e));
        else arg.shapes.push_back(toShape(s));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("column input_shapes: input {}: {}", i, e.what()));
      }
      arg.dtype = toDType(d, i);
      // value_range is either one [lo, hi] for all inputs or one per input; a tensor list's is a list of one pair.
      const json* range = nullptr;
      if (isRange(ranges)) range = &ranges;
      else if (ranges.is_array() && i < ranges.size() && isRange(ranges[i])) range = &ranges[i];
      else if (ranges.is_array() && i < ranges.size() && ranges[i].is_array() && !ranges[i].empty() &&
               isRange(ranges[i][0]))
        range = &ranges[i][0];
      if (range) arg.valueRange = std::make_pair((*range)[0].get<double>(), (*range)[1].get<double>());
    }
    c.inputs.push_back(std::move(arg));
  }
  for (auto it = attrs.begin(); it != attrs.end(); ++it) c.attrs[it.key()] = toAttr(*it);
  c.baselineKernels = parseKernels(hasFigures ? get("baseline_kernels") : kernelsOfNote(get("note")));
  if (!hasFigures) return c;
  c.baselineUs = toMicroseconds(get("baseline_us"), "baseline_us");
  const std::string& kind = get("baseline_kind");
  if (kind != "measured" && kind != "capped") {
    throw std::invalid_argument(fmt::format("column baseline_kind: '{}' is neither 'measured' nor 'capped'", kind));
  }
  c.baselineMeasured = kind == "measured";
  c.tHwUs = toMicroseconds(get("t_hw_us"), "t_hw_us");
  return c;
}

}  // namespace

std::vector<TaskCase> parseCasesCsv(std::string_view text, const std::string& fileName) {
  std::vector<Row> rows = splitCsv(text, fileName);
  if (rows.empty()) throw PerfError(fmt::format("{}: empty file (expected a header line)", fileName));
  if (!rows[0].problem.empty()) throw PerfError(fmt::format("{}:1: {}", fileName, rows[0].problem));
  std::map<std::string, size_t> col;
  for (size_t i = 0; i < rows[0].fields.size(); ++i) {
    auto alias = kAliases.find(rows[0].fields[i]);
    col[alias == kAliases.end() ? rows[0].fields[i] : alias->second] = i;
  }
  // The calibration format names its shapes column `input_shapes`; CANN Bench's cases.csv names it `input_shape`.
  bool hasFigures = !(col.count("input_shapes") && rows[0].fields[col["input_shapes"]] == "input_shape");
  for (const std::string& name : hasFigures ? kCalibrationColumns : kTaskColumns) {
    if (!col.count(name)) throw PerfError(fmt::format("{}:1: header lacks the column '{}'", fileName, name));
  }
  std::vector<TaskCase> cases;
  for (size_t r = 1; r < rows.size(); ++r) {
    const Row& row = rows[r];
    // Keep what identifies a bad row (its operator and case), so the report can say which case it was.
    auto badRow = [&](std::string problem) {
      TaskCase c;
      c.line = row.line;
      c.hasFigures = hasFigures;
      c.problem = std::move(problem);
      auto field = [&](const char* name) {
        auto it = col.find(name);
        return it != col.end() && it->second < row.fields.size() ? row.fields[it->second] : std::string();
      };
      c.level = field("level");
      c.opDir = field("op_dir");
      c.op = field("operator");
      c.category = field("category");
      c.caseId = parseCaseId(field("case_id")).value_or(0);
      cases.push_back(std::move(c));
    };
    if (!row.problem.empty()) {
      badRow(row.problem);
    } else if (row.fields.size() != rows[0].fields.size()) {
      badRow(fmt::format("{} fields, the header has {}", row.fields.size(), rows[0].fields.size()));
    } else {
      try {
        cases.push_back(parseRow(row, col, hasFigures));
      } catch (const std::invalid_argument& e) {
        badRow(e.what());
      }
    }
  }
  return cases;
}

std::vector<TaskCase> loadCasesCsv(const std::filesystem::path& file) {
  // A folder or a device (/dev/zero) named as the cases file: refused, never read until memory runs out.
  constexpr uintmax_t kMaxCsvBytes = uintmax_t{256} << 20;
  std::error_code ec;
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec)) {
    throw PerfError(fmt::format("{}: not a regular file (a cases file is a CSV)", file.string()));
  }
  if (uintmax_t size = std::filesystem::file_size(file, ec); !ec && size > kMaxCsvBytes) {
    throw PerfError(
        fmt::format("{}: {} bytes, more than the {} a cases file may have", file.string(), size, kMaxCsvBytes));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw PerfError(fmt::format("{}: cannot open the cases file", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<TaskCase> cases = parseCasesCsv(text.str(), file.string());
  std::filesystem::path opDir = file.parent_path();
  for (TaskCase& c : cases) {
    if (c.hasFigures) continue;
    if (c.opDir.empty()) c.opDir = opDir.filename().string();
    if (c.level.empty()) c.level = opDir.parent_path().filename().string();
  }
  return cases;
}

std::filesystem::path defaultCalibrationCsv() {
  std::filesystem::path rel = std::filesystem::path("calibration") / "cann_bench_910b2_public.csv";
  if (const char* shared = std::getenv("TILECRAFT_SHARED"); shared != nullptr && *shared != '\0') {
    return std::filesystem::path(shared) / rel;
  }
  return std::filesystem::path(TILECRAFT_SOURCE_DIR) / "data" / rel;
}

}  // namespace tilecraft::perf
