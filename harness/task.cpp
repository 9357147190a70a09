// Reads a task folder in CANN Bench's layout. docs/tasks.md is the spec of every key and rule used here.
#include "harness/task.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string_view>

#include <fmt/core.h>
#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include "harness/case_parse.h"
#include "harness/csv.h"
#include "support/files.h"

namespace tilecraft::harness {

using nlohmann::json;

std::string TaskError::str() const {
  const char* kind = warning ? "warning" : "error";
  if (line > 0) return fmt::format("{}:{}: {}: {}", file, line, kind, message);
  return fmt::format("{}: {}: {}", file, kind, message);
}

namespace {

bool readInto(const std::filesystem::path& path, std::string& text) {
  std::optional<std::string> bytes = support::readFile(path);
  if (bytes) text = std::move(*bytes);
  return bytes.has_value();
}

// YAML scalars are untyped in yaml-cpp; resolve them as YAML 1.2's core schema does (PyYAML, which CANN Bench
// uses, agrees on every spelling accepted here). Quoted scalars stay strings.
// A file's cells as JSON text. A byte that is not UTF-8 (a Latin-1 note) becomes U+FFFD: nlohmann's dump would
// throw on it, and no field Tilecraft reads is anything but ASCII.
std::string dumpCells(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

json scalarToJson(const YAML::Node& node) {
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") return s;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf") return "inf";
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return "-inf";
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return "nan";
  static const std::regex kInt("[-+]?[0-9]+");
  static const std::regex kFloat("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (std::regex_match(s, kInt)) {
    try {
      return std::stoll(s);
    } catch (const std::out_of_range&) {
      return std::stod(s);
    }
  }
  if (std::regex_match(s, kFloat)) return std::stod(s);
  return s;
}

json yamlToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return scalarToJson(node);
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const auto& item : node) out.push_back(yamlToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) out[kv.first.Scalar()] = yamlToJson(kv.second);
      return out;
    }
    default: return nullptr;
  }
}

int lineOf(const YAML::Node& node) { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }

class ProtoReader {
 public:
  ProtoReader(std::string file, std::vector<TaskError>& errors) : file_(std::move(file)), errors_(errors) {}

  void error(const YAML::Node& at, std::string message) { errors_.push_back({file_, lineOf(at), std::move(message)}); }

  std::optional<std::string> str(const YAML::Node& map, const char* key, bool required) {
    YAML::Node v = map[key];
    if (!v) {
      if (required) error(map, fmt::format("missing `{}`", key));
      return std::nullopt;
    }
    if (!v.IsScalar()) {
      error(v, fmt::format("`{}` must be a string", key));
      return std::nullopt;
    }
    return v.Scalar();
  }

  bool flag(const YAML::Node& map, const char* key) {
    YAML::Node v = map[key];
    if (!v) return false;
    json j = v.IsScalar() ? scalarToJson(v) : json();
    // 'false' in quotes is a string to YAML; CANN Bench files write it so (and mean the boolean).
    if (j.is_string() && (j == "true" || j == "false")) j = j == "true";
    if (!j.is_boolean()) {
      error(v, fmt::format("`{}` must be true or false", key));
      return false;
    }
    return j.get<bool>();
  }

  std::vector<TensorDecl> tensors(const YAML::Node& op, const char* key) {
    std::vector<TensorDecl> out;
    YAML::Node list = op[key];
    if (!list || !list.IsSequence()) {
      error(list ? list : op, fmt::format("`{}` must be a list of tensors", key));
      return out;
    }
    for (const auto& item : list) {
      if (!item.IsMap()) {
        error(item, fmt::format("each entry of `{}` must be a mapping with `name` and `dtype`", key));
        continue;
      }
      TensorDecl t;
      t.line = lineOf(item);
      t.name = str(item, "name", true).value_or("");
      YAML::Node dt = item["dtype"];
      if (!dt) {
        error(item, fmt::format("{} `{}` has no `dtype`", key == std::string("inputs") ? "input" : "output", t.name));
      } else if (dt.IsScalar()) {
        t.dtypeNames.push_back(canonicalDtypeName(dt.Scalar()));
      } else if (dt.IsSequence()) {
        for (const auto& d : dt) {
          if (d.IsScalar()) t.dtypeNames.push_back(canonicalDtypeName(d.Scalar()));
          else error(d, fmt::format("a dtype of `{}` must be a name such as float16", t.name));
        }
      } else {
        error(dt, fmt::format("`dtype` of `{}` must be a name or a list of names", t.name));
      }
      for (const std::string& name : t.dtypeNames) {
        if (auto d = dtypeFromCannName(name)) t.dtypes.push_back(*d);
        else if (!isKnownCannDtype(name)) error(dt, fmt::format("unknown dtype `{}` of `{}`", name, t.name));
      }
      t.optional = flag(item, "optional");
      t.isList = flag(item, "is_list");
      out.push_back(std::move(t));
    }
    return out;
  }

  std::vector<AttrDecl> attrs(const YAML::Node& op) {
    std::vector<AttrDecl> out;
    YAML::Node list = op["attrs"];
    if (!list || list.IsNull()) return out;
    if (!list.IsSequence()) {
      error(list, "`attrs` must be a list of attributes");
      return out;
    }
    for (const auto& item : list) {
      if (!item.IsMap()) {
        error(item, "each entry of `attrs` must be a mapping with `name` and `type`");
        continue;
      }
      AttrDecl a;
      a.line = lineOf(item);
      a.name = str(item, "name", true).value_or("");
      a.type = str(item, "type", false).value_or("");
      a.required = flag(item, "required");
      if (YAML::Node d = item["default"]) a.defaultJson = dumpCells(yamlToJson(d));
      out.push_back(std::move(a));
    }
    return out;
  }

  std::map<dsl::DType, PrecisionThreshold> precision(const YAML::Node& op) {
    std::map<dsl::DType, PrecisionThreshold> out;
    YAML::Node map = op["precision_thresholds"];
    if (!map || map.IsNull()) return out;
    if (!map.IsMap()) {
      error(map, "`precision_thresholds` must map dtype names to numbers, e.g. {float16: 0.002}");
      return out;
    }
    for (const auto& kv : map) {
      std::string name = canonicalDtypeName(kv.first.Scalar());
      json v = kv.second.IsScalar() ? scalarToJson(kv.second) : json();
      if (!v.is_number() || v.get<double>() < 0) {
        error(kv.second, fmt::format("precision threshold of {} must be a number >= 0", name));
        continue;
      }
      if (auto d = dtypeFromCannName(name)) {
        double tau = v.get<double>();
        out[*d] = {tau, 10 * tau};
      } else if (!isKnownCannDtype(name)) {
        error(kv.first, fmt::format("unknown dtype `{}` in precision_thresholds", name));
      }
    }
    return out;
  }

 private:
  std::string file_;
  std::vector<TaskError>& errors_;
};

// `Tensor?`, `Tensor x=None` and `Tensor[]` in the schema mark optional inputs and tensor lists when the
// entry itself does not.
void applySchemaMarkers(const std::string& schema, std::vector<TensorDecl>& inputs) {
  static const std::regex kParam("Tensor(\\[\\])?(\\?)?\\s+([A-Za-z_][A-Za-z0-9_]*)(\\s*=\\s*None)?");
  for (auto it = std::sregex_iterator(schema.begin(), schema.end(), kParam); it != std::sregex_iterator(); ++it) {
    for (TensorDecl& t : inputs) {
      if (t.name != (*it)[3].str()) continue;
      if ((*it)[1].matched) t.isList = true;
      if ((*it)[2].matched || (*it)[4].matched) t.optional = true;
    }
  }
}

int parseLevel(ProtoReader& reader, const YAML::Node& op, const std::filesystem::path& dir) {
  if (YAML::Node d = op["difficulty"]) {
    std::string s = d.IsScalar() ? d.Scalar() : "";
    if (s.size() == 2 && (s[0] == 'L' || s[0] == 'l') && s[1] >= '1' && s[1] <= '9') return s[1] - '0';
    reader.error(d, fmt::format("`difficulty` must be L1, L2, L3, L4 or L5, not `{}`", s));
    return 1;
  }
  // No difficulty: the parent folder's name says it (tasks/level2/<task>).
  std::string parent = dir.parent_path().filename().string();
  if (parent.size() == 6 && parent.rfind("level", 0) == 0 && std::isdigit(static_cast<unsigned char>(parent[5])))
    return parent[5] - '0';
  return 1;
}

void loadProto(const std::filesystem::path& dir, Task& task, std::vector<TaskError>& errors) {
  std::string file = (dir / "proto.yaml").string();
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    errors.push_back({file, 0, "cannot read proto.yaml (every task folder needs one)"});
    return;
  } catch (const YAML::Exception& e) {
    errors.push_back({file, e.mark.line + 1, fmt::format("invalid YAML: {}", e.msg)});
    return;
  }
  ProtoReader reader(file, errors);
  YAML::Node op = root["operator"];
  if (!op || !op.IsMap()) {
    errors.push_back({file, 1, "proto.yaml must have an `operator:` mapping at its root (CANN Bench layout)"});
    return;
  }
  task.op = reader.str(op, "name", true).value_or("");
  task.category = reader.str(op, "category", false).value_or("");
  task.level = parseLevel(reader, op, dir);
  task.schema = reader.str(op, "schema", false).value_or("");
  task.inputs = reader.tensors(op, "inputs");
  task.outputs = reader.tensors(op, "outputs");
  task.attrs = reader.attrs(op);
  task.precision = reader.precision(op);
  applySchemaMarkers(task.schema, task.inputs);
}

std::vector<RawCase> readCasesYaml(const std::string& file, std::vector<TaskError>& errors) {
  std::vector<RawCase> out;
  YAML::Node root;
  try {
    root = YAML::LoadFile(file);
  } catch (const YAML::Exception& e) {
    errors.push_back({file, e.mark.line + 1, fmt::format("invalid YAML: {}", e.msg)});
    return out;
  }
  YAML::Node cases = root["cases"];
  if (!cases || !cases.IsSequence()) {
    errors.push_back({file, 1, "cases.yaml must have a `cases:` list at its root"});
    return out;
  }
  for (const auto& item : cases) {
    RawCase raw{lineOf(item), {}};
    if (!item.IsMap()) {
      errors.push_back({file, raw.line, "each case must be a mapping (operator, case_id, input_shape, ...)"});
      continue;
    }
    raw.fields = dumpCells(yamlToJson(item));
    out.push_back(std::move(raw));
  }
  return out;
}

// The offset of the first byte of `text` that does not belong to a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points past U+10FFFF included), or nullopt. Cells become JSON strings, which must be UTF-8.
std::optional<size_t> invalidUtf8At(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char c = byte(i);
    size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > text.size()) return i;
    uint32_t cp = length == 1 ? c : c & (0x7F >> length);
    for (size_t k = 1; k < length; ++k) {
      if ((byte(i + k) & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    static const uint32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMinimum[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += length;
  }
  return std::nullopt;
}

std::vector<RawCase> readCasesCsv(const std::string& file, const std::string& text, std::vector<TaskError>& errors) {
  std::vector<RawCase> out;
  std::vector<CsvError> csvErrors;
  std::vector<CsvRecord> records = readCsv(text, csvErrors);
  for (const CsvError& e : csvErrors) errors.push_back({file, e.line, e.message});
  if (records.empty()) {
    errors.push_back({file, 1, "cases.csv is empty; it needs a header line and one line per case"});
    return out;
  }
  const std::vector<std::string>& header = records[0].cells;
  for (size_t c = 0; c < header.size(); ++c) {
    if (std::optional<size_t> at = invalidUtf8At(header[c])) {
      errors.push_back({file, records[0].line,
                        fmt::format("header column {}: not UTF-8 text (byte 0x{:02X} at offset {}); save cases.csv "
                                    "as UTF-8",
                                    c + 1, static_cast<unsigned char>(header[c][*at]), *at)});
      return out;
    }
  }
  static const char* kRequired[] = {"case_id", "input_shape", "dtype"};
  for (const char* column : kRequired) {
    if (std::find(header.begin(), header.end(), column) == header.end()) {
      errors.push_back({file, records[0].line,
                        fmt::format("header has no `{}` column (expected: operator,case_id,input_shape,dtype,attrs,"
                                    "value_range,note)",
                                    column)});
      return out;
    }
  }
  static const std::set<std::string> kLiteralColumns = {"input_shape", "dtype", "attrs", "value_range"};
  for (size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& rec = records[r];
    if (rec.cells.size() != header.size()) {
      errors.push_back(
          {file, rec.line, fmt::format("row has {} cells, the header has {}", rec.cells.size(), header.size())});
      continue;
    }
    json fields = json::object();
    bool ok = true;
    for (size_t c = 0; c < header.size() && ok; ++c) {
      const std::string& cell = rec.cells[c];
      if (std::optional<size_t> at = invalidUtf8At(cell)) {
        errors.push_back({file, rec.line,
                          fmt::format("column {}: not UTF-8 text (byte 0x{:02X} at offset {} of the cell); save "
                                      "cases.csv as UTF-8",
                                      header[c], static_cast<unsigned char>(cell[*at]), *at)});
        ok = false;
        continue;
      }
      if (!kLiteralColumns.count(header[c])) {
        fields[header[c]] = cell;
        continue;
      }
      if (std::all_of(cell.begin(), cell.end(), [](unsigned char ch) { return std::isspace(ch); })) {
        fields[header[c]] = nullptr;
        continue;
      }
      std::string jsonText, why;
      json value;
      if (literalToJson(cell, jsonText, why)) {
        value = json::parse(jsonText, nullptr, false);
        if (value.is_discarded()) why = "not a JSON list or object";
      }
      if (!why.empty() || value.is_discarded()) {
        errors.push_back({file, rec.line, fmt::format("column {}: {}: {}", header[c], why, cell)});
        ok = false;
        continue;
      }
      fields[header[c]] = std::move(value);
    }
    if (ok) out.push_back({rec.line, dumpCells(fields)});
  }
  return out;
}

std::string findGoldenFunction(const Task& task, const std::string& golden) {
  for (const std::string& name : goldenFunctionCandidates(task)) {
    std::regex def("(^|\\n)def " + name + "\\s*\\(");
    if (std::regex_search(golden, def)) return name;
  }
  return {};
}

}  // namespace

std::vector<std::string> goldenFunctionCandidates(const Task& task) {
  std::vector<std::string> names;
  auto add = [&](std::string n) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
  };
  if (!task.goldenFunction.empty()) add(task.goldenFunction);
  static const std::regex kSchemaName("^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\(");
  std::smatch m;
  if (std::regex_search(task.schema, m, kSchemaName)) add(m[1].str());
  add(task.name);
  std::string lower = task.op;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  add(lower);
  return names;
}

TaskLoad loadTask(const std::filesystem::path& dir, const LoadOptions& options) {
  TaskLoad load;
  Task task;
  task.dir = dir;
  task.name = dir.filename().string();
  if (task.name.empty()) task.name = dir.parent_path().filename().string();
  loadProto(dir, task, load.errors);
  size_t protoErrors = load.errors.size();

  // CANN Bench's own order: cases.yaml, then cases.yml, then cases.csv.
  std::vector<std::string> candidates = {"cases.yaml", "cases.yml", "cases.csv"};
  if (options.cases == CasesSource::Csv) candidates = {"cases.csv"};
  if (options.cases == CasesSource::Yaml) candidates = {"cases.yaml", "cases.yml"};
  std::string casesFile;
  for (const std::string& c : candidates) {
    if (std::filesystem::exists(dir / c)) {
      casesFile = (dir / c).string();
      break;
    }
  }
  std::vector<RawCase> raw;
  std::vector<TaskError> caseErrors;  // reported in line order, whichever stage found them
  if (casesFile.empty()) {
    load.errors.push_back({(dir / candidates.back()).string(), 0,
                           options.cases == CasesSource::Auto
                               ? "no cases.yaml or cases.csv in the task folder"
                               : fmt::format("no {} in the task folder", candidates[0])});
  } else if (casesFile.size() > 4 && casesFile.substr(casesFile.size() - 4) == ".csv") {
    std::string text;
    if (!readInto(casesFile, text)) caseErrors.push_back({casesFile, 0, "cannot read the file"});
    else raw = readCasesCsv(casesFile, text, caseErrors);
  } else {
    raw = readCasesYaml(casesFile, caseErrors);
  }
  std::set<std::string> ids;
  for (const RawCase& r : raw) {
    std::string error;
    std::vector<std::string> warnings;
    std::optional<Case> c = parseCase(task, r, casesFile, error, warnings);
    for (std::string& w : warnings) load.warnings.push_back({casesFile, r.line, std::move(w), true});
    if (!c) {
      caseErrors.push_back({casesFile, r.line, error});
      continue;
    }
    if (!ids.insert(c->id).second) {
      caseErrors.push_back({casesFile, r.line, fmt::format("case_id {} appears twice", c->id)});
      continue;
    }
    task.cases.push_back(std::move(*c));
  }
  if (!casesFile.empty() && raw.empty() && caseErrors.empty())
    caseErrors.push_back({casesFile, 0, "the file holds no cases"});
  std::stable_sort(caseErrors.begin(), caseErrors.end(),
                   [](const TaskError& a, const TaskError& b) { return a.line < b.line; });
  load.errors.insert(load.errors.end(), caseErrors.begin(), caseErrors.end());

  std::string golden;
  if (!readInto(dir / "golden.py", golden)) {
    load.errors.push_back({(dir / "golden.py").string(), 0,
                           fmt::format("no golden.py (it must define a PyTorch function `{}`)", task.name)});
  } else {
    task.goldenFunction = findGoldenFunction(task, golden);
    if (task.goldenFunction.empty()) {
      load.errors.push_back({(dir / "golden.py").string(), 0,
                             fmt::format("golden.py defines no function `{}` (def {}(...) is what the harness calls)",
                                         task.name, task.name)});
    }
  }
  if (!readInto(dir / "desc.md", task.desc)) {
    load.errors.push_back({(dir / "desc.md").string(), 0, "no desc.md (the task's description for generators)"});
  }
  task.hasInputsPy = std::filesystem::exists(dir / "inputs.py");
  if (protoErrors == 0 && !task.cases.empty() && !casesFile.empty()) load.task = std::move(task);
  return load;
}

std::vector<std::filesystem::path> findTaskDirs(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (std::filesystem::exists(root / "proto.yaml", ec)) out.push_back(root);
  auto options = std::filesystem::directory_options::skip_permission_denied;
  for (auto it = std::filesystem::recursive_directory_iterator(root, options, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_directory(ec) && std::filesystem::exists(it->path() / "proto.yaml", ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tilecraft::harness
