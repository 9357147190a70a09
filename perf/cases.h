// Task cases of CANN Bench as CSV, in two layouts: the calibration format
// (data/calibration/cann_bench_910b2_public.csv: shapes, dtypes, attributes and value ranges as JSON columns, plus
// the measured figures) and CANN Bench's own tasks/*/cases.csv (operator, case_id, input_shape, dtype, attrs,
// value_range, note), which carries no figures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::perf {

enum class DType { F16, BF16, F32, I8, U8, I16, I32, I64, Bool };

int dtypeBytes(DType t);
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);
bool isFloat(DType t);

// One input: absent (null in the CSV), a tensor, or a tensor list (ForeachXxx operators).
struct TensorArg {
  bool present = false;
  bool isList = false;
  std::vector<std::vector<int64_t>> shapes;  // one shape for a tensor, n for a list
  DType dtype = DType::F32;
  std::optional<std::pair<double, double>> valueRange;

  double numel() const;  // summed over the list
  double bytes() const { return numel() * dtypeBytes(dtype); }
  const std::vector<int64_t>& shape() const { return shapes.front(); }
  // Dimension `i` of the (first) shape, negative from the end; 1 when the rank is too small or the dim is 0,
  // so per-row arithmetic stays finite for scalars and empty tensors.
  double dim(int i) const;
};

// A JSON attribute value, reduced to what work functions need.
struct AttrValue {
  enum class Kind { Null, Bool, Number, String, List } kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;
  std::vector<double> list;
};

struct KernelCount {
  std::string name;
  int count = 1;
};

struct TaskCase {
  std::string level, opDir, op, category;
  int caseId = 0;
  std::vector<TensorArg> inputs;
  std::map<std::string, AttrValue> attrs;
  std::vector<KernelCount> baselineKernels;  // empty when the CSV gives none
  double baselineUs = 0;
  bool baselineMeasured = false;
  double tHwUs = 0;
  bool hasFigures = true;  // false for a CANN Bench cases.csv row: no baseline_us, baseline_kind, t_hw_us
  int line = 0;            // line in the CSV file, for messages
  // Why the row could not be read ("column dtypes: unknown dtype 'float8'"); empty when it was. Such a case keeps
  // whatever identified it (op, case_id) and is reported as skipped, so one bad row never hides the others.
  std::string problem;

  // Attribute helpers: the default is used when the attribute is absent or null.
  double attrNumber(const std::string& name, double fallback) const;
  std::string attrString(const std::string& name, const std::string& fallback) const;
  std::vector<double> attrList(const std::string& name) const;
  const TensorArg* input(size_t i) const { return i < inputs.size() && inputs[i].present ? &inputs[i] : nullptr; }
};

// Parses CSV text; `fileName` only appears in messages. A malformed row becomes a case with `problem` set; only a
// file-wide fault (no header, a header lacking a column, an unterminated quote) is a PerfError "FILE:LINE: ...".
std::vector<TaskCase> parseCasesCsv(std::string_view text, const std::string& fileName);
// As parseCasesCsv; rows of a CANN Bench cases.csv without level/op_dir take them from the path
// (.../LEVEL/OP_DIR/cases.csv).
std::vector<TaskCase> loadCasesCsv(const std::filesystem::path& file);

// $TILECRAFT_SHARED/calibration/cann_bench_910b2_public.csv, else the repository's copy,
// <repo>/data/calibration/cann_bench_910b2_public.csv (see data/calibration/README.md).
std::filesystem::path defaultCalibrationCsv();

}  // namespace tilecraft::perf
