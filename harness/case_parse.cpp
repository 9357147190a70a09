// The rules of one case row (docs/tasks.md "Cases"). They follow what CANN Bench's loader and data generator
// do with the same fields, and turn what they would silently misread into an error naming the input.
#include "harness/case_parse.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace tilecraft::harness {

using nlohmann::json;
using Range = std::pair<double, double>;

std::string canonicalDtypeName(std::string_view name) {
  std::string s;
  for (char c : name) {
    if (!std::isspace(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (s.rfind("torch.", 0) == 0) s = s.substr(6);
  if (s == "fp16" || s == "half" || s == "f16") return "float16";
  if (s == "bf16") return "bfloat16";
  if (s == "fp32" || s == "float" || s == "f32") return "float32";
  if (s == "fp64" || s == "double" || s == "f64") return "float64";
  if (s == "bool_" || s == "boolean") return "bool";
  if (s == "int" || s == "i32") return "int32";
  if (s == "long" || s == "i64") return "int64";
  return s;
}

namespace {
// One table: a Tilecraft dtype and the name CANN Bench (and torch) give it.
constexpr std::pair<const char*, dsl::DType> kCannNames[] = {
    {"float16", dsl::DType::F16}, {"bfloat16", dsl::DType::BF16}, {"float32", dsl::DType::F32},
    {"int8", dsl::DType::I8},     {"uint8", dsl::DType::U8},      {"int16", dsl::DType::I16},
    {"int32", dsl::DType::I32},   {"int64", dsl::DType::I64},     {"bool", dsl::DType::Bool}};
}  // namespace

std::optional<dsl::DType> dtypeFromCannName(std::string_view name) {
  for (const auto& [n, d] : kCannNames) {
    if (name == n) return d;
  }
  return std::nullopt;
}

const char* cannDtypeName(dsl::DType dtype) {
  for (const auto& [n, d] : kCannNames) {
    if (d == dtype) return n;
  }
  return "float32";
}

bool isKnownCannDtype(std::string_view name) {
  static const char* kOthers[] = {"float64",     "uint16",        "uint32",      "uint64",      "int4",
                                  "hifloat8",    "float8_e4m3fn", "float8_e5m2", "float8_e8m0", "float4_e2m1",
                                  "float4_e1m2", "complex64",     "complex128"};
  return std::any_of(std::begin(kOthers), std::end(kOthers), [&](const char* n) { return name == n; });
}

namespace {

struct RowError {
  std::string message;
};

[[noreturn]] void fail(std::string message) { throw RowError{std::move(message)}; }

std::string inputLabel(const Task& task, size_t i) {
  return i < task.inputs.size() ? fmt::format("input {} ({})", i + 1, task.inputs[i].name)
                                : fmt::format("input {}", i + 1);
}

bool isShape(const json& j) {
  return j.is_array() && std::all_of(j.begin(), j.end(), [](const json& d) { return d.is_number_integer(); });
}

std::vector<int64_t> toShape(const json& j, const std::string& what) {
  std::vector<int64_t> shape;
  uint64_t elements = 1;
  for (const json& d : j) {
    // nlohmann keeps a number past int64 as unsigned: read as int64 it would wrap to a negative (or any) size.
    if (d.is_number_unsigned() && d.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(fmt::format("{} has a dimension past int64 in {}", what, j.dump()));
    if (d.get<int64_t>() < 0) fail(fmt::format("{} has a negative dimension in {}", what, j.dump()));
    auto dim = static_cast<uint64_t>(d.get<int64_t>());
    if (dim != 0 && elements > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / dim)
      fail(fmt::format("{} has more elements than int64 counts in {}", what, j.dump()));
    elements *= dim;
    shape.push_back(d.get<int64_t>());
  }
  return shape;
}

// A bound: a number, true/false (1/0), or one of the non-finite spellings (already "inf"/"-inf"/"nan" after
// the CSV literal rewrite or the YAML scalar rules; "+inf" and "Infinity" accepted too).
double toBound(const json& j, const std::string& what) {
  if (j.is_boolean()) return j.get<bool>() ? 1.0 : 0.0;
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "inf" || s == "+inf" || s == "infinity" || s == ".inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf" || s == "-infinity" || s == "-.inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan" || s == ".nan") return std::numeric_limits<double>::quiet_NaN();
  }
  fail(fmt::format("value range of {}: bound {} is not a number, inf or nan", what, j.dump()));
}

bool isBound(const json& j) { return j.is_number() || j.is_boolean() || j.is_string(); }

// One range: [lo, hi], [v] (the constant v), or {mean: [a, b], std: [c, d]} (a normal distribution, read as
// the uniform range a - 3d .. b + 3d that holds nearly all of its values).
std::optional<Range> toRange(const json& j, const std::string& what) {
  if (j.is_null()) return std::nullopt;
  if (j.is_object() && j.contains("mean")) {
    auto span = [&](const char* key) -> Range {
      const json& v = j.contains(key) ? j[key] : json(0);
      if (isBound(v)) return {toBound(v, what), toBound(v, what)};
      if (v.is_array() && v.size() == 2) return {toBound(v[0], what), toBound(v[1], what)};
      fail(fmt::format("value range of {}: `{}` must be a number or [lo, hi]", what, key));
    };
    Range mean = span("mean"), sd = span("std");
    double spread = 3 * std::max(std::fabs(sd.first), std::fabs(sd.second));
    return Range{std::min(mean.first, mean.second) - spread, std::max(mean.first, mean.second) + spread};
  }
  if (!j.is_array() || j.empty() || j.size() > 2 || !std::all_of(j.begin(), j.end(), isBound))
    fail(fmt::format("value range of {} must be [lo, hi], not {}", what, j.dump()));
  double lo = toBound(j[0], what), hi = toBound(j.size() == 2 ? j[1] : j[0], what);
  if (!std::isnan(lo) && !std::isnan(hi) && lo > hi)
    fail(fmt::format("value range of {} is [{}, {}]: lo > hi", what, j[0].dump(), j[1].dump()));
  return Range{lo, hi};
}

bool isSingleRange(const json& j) { return j.is_array() && !j.empty() && isBound(j[0]); }

// The i-th entry of a per-input list that CANN Bench pads by repeating its last entry.
const json* entry(const json& list, size_t i) {
  if (!list.is_array() || list.empty()) return nullptr;
  return &list[std::min(i, list.size() - 1)];
}

void parseShapes(const Task& task, const json& shapes, Case& c, std::vector<std::string>& warnings) {
  if (!shapes.is_array() || shapes.empty()) fail("input_shape must be a non-empty list with one entry per input");
  json perInput = isShape(shapes) ? json::array({shapes}) : shapes;  // [2, 3] is the one input's shape
  if (perInput.size() > task.inputs.size())
    fail(fmt::format("input_shape has {} entries but proto.yaml declares {} inputs", perInput.size(),
                     task.inputs.size()));
  for (size_t i = 0; i < task.inputs.size(); ++i) {
    CaseTensor t;
    std::string what = inputLabel(task, i);
    const json& s = i < perInput.size() ? perInput[i] : json();
    if (s.is_null()) {
      if (!task.inputs[i].optional)
        warnings.push_back(
            fmt::format("{} has no shape (null or left out) but proto.yaml does not mark it optional; "
                        "taken as absent",
                        what));
      t.present = false;
    } else if (isShape(s)) {
      t.shapes.push_back(toShape(s, what));
    } else if (s.is_array() && !s.empty() && std::all_of(s.begin(), s.end(), isShape)) {
      t.isList = true;
      for (const json& e : s) t.shapes.push_back(toShape(e, what));
    } else {
      fail(fmt::format("shape of {} must be a list of dims or a list of shapes (a tensor list), not {}", what,
                       s.dump()));
    }
    c.inputs.push_back(std::move(t));
  }
}

void parseDtypes(const Task& task, const json& dtypes, Case& c, std::vector<std::string>& warnings) {
  json list = dtypes.is_string() ? json::array({dtypes}) : dtypes;
  if (!list.is_array() || list.empty()) fail("dtype must be a list with one dtype per input");
  if (list.size() > task.inputs.size())
    fail(fmt::format("dtype has {} entries but proto.yaml declares {} inputs", list.size(), task.inputs.size()));
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    CaseTensor& t = c.inputs[i];
    if (!t.present) continue;
    std::string what = inputLabel(task, i);
    const json* d = entry(list, i);
    std::vector<std::string> names;
    if (d->is_string()) {
      names.push_back(canonicalDtypeName(d->get<std::string>()));
    } else if (d->is_array() && !d->empty() &&
               std::all_of(d->begin(), d->end(), [](const json& x) { return x.is_string(); })) {
      for (const json& x : *d) names.push_back(canonicalDtypeName(x.get<std::string>()));
    } else {
      fail(fmt::format("{} has a shape but its dtype is {}", what, d->dump()));
    }
    if (std::any_of(names.begin(), names.end(), [&](const std::string& n) { return n != names[0]; }))
      fail(fmt::format("the tensors of list {} have different dtypes; Tilecraft needs one dtype per list", what));
    t.dtypeName = names[0];
    if (auto dt = dtypeFromCannName(t.dtypeName)) {
      t.dtype = *dt;
    } else if (isKnownCannDtype(t.dtypeName)) {
      if (c.unsupported.empty())
        c.unsupported = fmt::format("{} is {}, which Tilecraft does not represent", what, t.dtypeName);
    } else {
      fail(fmt::format("unknown dtype `{}` of {}", t.dtypeName, what));
    }
    const std::vector<std::string>& allowed = task.inputs[i].dtypeNames;
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), t.dtypeName) == allowed.end()) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      warnings.push_back(
          fmt::format("{} is {}, which proto.yaml does not list (it lists {})", what, t.dtypeName, list));
    }
  }
}

void parseRanges(const Task& task, const json& ranges, Case& c) {
  if (ranges.is_null() || (ranges.is_array() && ranges.empty())) return;
  std::vector<const json*> perInput(c.inputs.size(), nullptr);
  if (ranges.is_object() && !ranges.contains("mean")) {
    // {x1: [-1, 1], x2: [-5, 5]}: by input name.
    for (const auto& [name, value] : ranges.items()) {
      // `key`: clang 14 (the libFuzzer build, docs/fuzzing.md) cannot capture a structured binding.
      auto it = std::find_if(task.inputs.begin(), task.inputs.end(),
                             [&, &key = name](const TensorDecl& t) { return t.name == key; });
      if (it == task.inputs.end())
        fail(fmt::format("value_range names `{}`, which is not an input of proto.yaml", name));
      perInput[it - task.inputs.begin()] = &value;
    }
  } else if (ranges.is_object() || isSingleRange(ranges)) {
    // One range for every input (CANN Bench broadcasts [lo, hi] to all of them).
    std::fill(perInput.begin(), perInput.end(), &ranges);
  } else if (ranges.is_array() && ranges.size() > c.inputs.size()) {
    // More entries than inputs: one range per tensor with the lists flattened, as some CANN Bench files write
    // it.
    size_t tensors = 0;
    for (const CaseTensor& t : c.inputs) tensors += t.present ? t.shapes.size() : 1;
    if (ranges.size() != tensors)
      fail(fmt::format("value_range has {} entries but proto.yaml declares {} inputs (and the case has {} tensors)",
                       ranges.size(), c.inputs.size(), tensors));
    size_t k = 0;
    for (CaseTensor& t : c.inputs) {
      if (!t.present) {
        ++k;
        continue;
      }
      std::string what = fmt::format("tensor {} of the flattened list", k + 1);
      for (size_t j = 0; j < t.shapes.size(); ++j, ++k) {
        if (t.isList) t.elementRanges.push_back(toRange(ranges[k], what));
        else t.valueRange = toRange(ranges[k], what);
      }
    }
    return;
  } else if (ranges.is_array()) {
    for (size_t i = 0; i < perInput.size(); ++i) perInput[i] = entry(ranges, i);
  } else {
    fail(fmt::format("value_range must be [lo, hi] or a list with one range per input, not {}", ranges.dump()));
  }
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    CaseTensor& t = c.inputs[i];
    const json* r = perInput[i];
    if (!t.present || r == nullptr || r->is_null()) continue;
    std::string what = inputLabel(task, i);
    bool perElement = r->is_array() && !r->empty() && !isBound((*r)[0]);
    if (!perElement) {
      t.valueRange = toRange(*r, what);
      continue;
    }
    if (!t.isList) fail(fmt::format("value range of {} is a list of ranges but the input is one tensor", what));
    if (r->size() > t.shapes.size())
      fail(fmt::format("value range of list {} has {} entries for {} tensors", what, r->size(), t.shapes.size()));
    for (size_t j = 0; j < t.shapes.size(); ++j) t.elementRanges.push_back(toRange(*entry(*r, j), what));
    if (std::all_of(t.elementRanges.begin(), t.elementRanges.end(),
                    [&](const auto& e) { return e == t.elementRanges[0]; })) {
      t.valueRange = t.elementRanges[0];
      t.elementRanges.clear();
    }
  }
}

std::string parseAttrs(const Task& task, const json& attrs) {
  json merged = json::object();
  for (const AttrDecl& a : task.attrs) {
    if (!a.defaultJson.empty()) merged[a.name] = json::parse(a.defaultJson);
  }
  if (!attrs.is_null()) {
    if (!attrs.is_object())
      fail(fmt::format("attrs must be an object such as {{\"eps\": 1e-6}}, not {}", attrs.dump()));
    for (const auto& [k, v] : attrs.items()) merged[k] = v;
  }
  // A number written as a string ("1e-5": PyYAML reads 1e-5 without a dot as a string, and CANN Bench's CSVs
  // were written from that) becomes the number when proto.yaml declares a scalar int or float attribute.
  for (const AttrDecl& a : task.attrs) {
    if (!merged.contains(a.name) || !merged[a.name].is_string()) continue;
    std::string type = canonicalDtypeName(a.type);
    bool scalarNumber =
        (type.find("int") != std::string::npos || type.find("float") != std::string::npos || type == "double") &&
        type.find("list") == std::string::npos && type.find('[') == std::string::npos;
    const std::string text = merged[a.name].get<std::string>();
    json number = json::parse(text, nullptr, false);
    if (scalarNumber && number.is_number()) merged[a.name] = number;
    // "inf", "nan" (the CSV literal rewrite's spellings) or a number past double ("1e999") for a scalar number:
    // the golden would compute with a value the kernel's attribute cannot hold.
    if (scalarNumber && !number.is_number()) {
      std::string lower = text;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
      bool nonFinite = lower.find("inf") != std::string::npos || lower.find("nan") != std::string::npos ||
                       (!text.empty() && text.find_first_not_of("0123456789.eE+- ") == std::string::npos);
      if (nonFinite)
        fail(fmt::format("attribute `{}` is {}: a {} attribute must be a finite number", a.name, text, type));
    }
  }
  for (const AttrDecl& a : task.attrs) {
    if (a.required && !merged.contains(a.name))
      fail(fmt::format("attribute `{}` is required (proto.yaml) but the case does not set it", a.name));
  }
  return merged.dump();
}

}  // namespace

std::optional<Case> parseCase(const Task& task, const RawCase& raw, const std::string& file, std::string& error,
                              std::vector<std::string>& warnings) {
  std::vector<std::string> found;
  json fields = json::parse(raw.fields);
  Case c;
  c.file = file;
  c.line = raw.line;
  try {
    const json& id = fields.contains("case_id") ? fields["case_id"] : json();
    if (id.is_number_integer()) c.id = std::to_string(id.get<int64_t>());
    else if (id.is_string() && !id.get<std::string>().empty()) c.id = id.get<std::string>();
    else fail("missing case_id");
    if (fields.contains("note") && fields["note"].is_string()) c.note = fields["note"].get<std::string>();
    parseShapes(task, fields.contains("input_shape") ? fields["input_shape"] : json(), c, found);
    parseDtypes(task, fields.contains("dtype") ? fields["dtype"] : json(), c, found);
    parseRanges(task, fields.contains("value_range") ? fields["value_range"] : json(), c);
    c.attrsJson = parseAttrs(task, fields.contains("attrs") ? fields["attrs"] : json());
  } catch (const RowError& e) {
    error = fmt::format("case {}: {}", c.id.empty() ? "?" : c.id, e.message);
    return std::nullopt;
  }
  for (const std::string& w : found) warnings.push_back(fmt::format("case {}: {}", c.id, w));
  if (c.unsupported.empty()) {
    std::vector<std::string> outs = task.outputDtypeNames(c);
    for (size_t i = 0; i < outs.size(); ++i) {
      if (!dtypeFromCannName(outs[i])) {
        c.unsupported = fmt::format("output {} ({}) is {}, which Tilecraft does not represent", i + 1,
                                    task.outputs[i].name, outs[i]);
        break;
      }
    }
  }
  return c;
}

std::vector<std::string> Task::outputDtypeNames(const Case& c) const {
  // A task built in code may give only the dtypes: their canonical names stand in for the proto's spelling.
  auto namesOf = [](const TensorDecl& t) {
    if (!t.dtypeNames.empty() || t.dtypes.empty()) return t.dtypeNames;
    std::vector<std::string> names;
    for (dsl::DType d : t.dtypes) names.push_back(cannDtypeName(d));
    return names;
  };
  auto caseName = [](const CaseTensor& t) { return t.dtypeName.empty() ? cannDtypeName(t.dtype) : t.dtypeName; };
  std::vector<std::vector<std::string>> inNames, outNames;
  for (const TensorDecl& t : inputs) inNames.push_back(namesOf(t));
  for (const TensorDecl& t : outputs) outNames.push_back(namesOf(t));
  size_t combos = 0;
  for (const auto& n : inNames) combos = std::max(combos, n.size());
  for (const auto& n : outNames) combos = std::max(combos, n.size());
  std::optional<size_t> chosen;
  for (size_t k = 0; k < combos && !chosen; ++k) {
    bool fits = true;
    for (size_t i = 0; i < inputs.size() && i < c.inputs.size() && fits; ++i) {
      const std::vector<std::string>& names = inNames[i];
      if (!c.inputs[i].present || names.size() <= 1) continue;
      fits = k < names.size() && names[k] == caseName(c.inputs[i]);
    }
    if (fits) chosen = k;
  }
  std::string first;
  for (const CaseTensor& t : c.inputs) {
    if (t.present) {
      first = caseName(t);
      break;
    }
  }
  std::vector<std::string> out;
  for (const std::vector<std::string>& o : outNames) {
    if (o.empty()) {
      out.push_back(first.empty() ? "float32" : first);
    } else if (o.size() == 1) {
      out.push_back(o[0]);
    } else if (chosen && *chosen < o.size()) {
      out.push_back(o[*chosen]);
    } else if (std::find(o.begin(), o.end(), first) != o.end()) {
      out.push_back(first);
    } else {
      out.push_back(o[0]);
    }
  }
  return out;
}

std::vector<dsl::DType> Task::outputDtypes(const Case& c) const {
  std::vector<dsl::DType> out;
  for (const std::string& name : outputDtypeNames(c)) out.push_back(dtypeFromCannName(name).value_or(dsl::DType::F32));
  return out;
}

}  // namespace tilecraft::harness
