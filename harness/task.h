// A benchmark task: a folder in CANN Bench's layout (proto.yaml, cases.csv or cases.yaml, golden.py, desc.md,
// optional inputs.py), read into one model every part of the harness uses. Errors name FILE:LINE.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/types.h"

namespace tilecraft::harness {

// A tensor of the operator's signature (proto.yaml inputs/outputs).
struct TensorDecl {
  std::string name;
  // The i-th entry of every input and output forms the i-th dtype combination.
  std::vector<dsl::DType> dtypes;
  bool optional = false;  // may be null in a case (`optional: true`, or `Tensor?` in the schema)
  bool isList = false;    // a tensor list (`is_list: true`, or `Tensor[]` in the schema)
  // Every dtype as written, canonical spelling (float16, bfloat16, float32, int8, ...). `dtypes` holds the
  // ones Tilecraft represents, in the same order; it is shorter when the proto lists float8_e4m3fn, int4 and
  // the like, so the combination index counts entries of dtypeNames.
  std::vector<std::string> dtypeNames = {};
  int line = 0;  // in proto.yaml
};

struct AttrDecl {
  std::string name;
  std::string type;         // as proto.yaml spells it: int, float, bool, str, list_int, list_float, ...
  std::string defaultJson;  // JSON text of the default; empty when the attribute is required
  bool required = false;    // `required: true`: every case must set it (unless it has a default)
  int line = 0;
};

// One input of one case: absent (null), a tensor, or a list of tensors.
struct CaseTensor {
  bool present = true;
  bool isList = false;
  std::vector<std::vector<int64_t>> shapes;  // one shape for a tensor, n for a list
  dsl::DType dtype = dsl::DType::F32;
  // Inclusive bounds; may be +-inf; nan bounds mean "nan values included" (docs/tasks.md "Input generation").
  std::optional<std::pair<double, double>> valueRange;
  // A list's per-element ranges (one per shape) when the case gives them; otherwise empty and valueRange
  // applies.
  std::vector<std::optional<std::pair<double, double>>> elementRanges;
  std::string dtypeName;  // as the case wrote it (canonical); set even when `dtype` cannot represent it
};

struct Case {
  std::string id;                  // case_id as written
  std::vector<CaseTensor> inputs;  // in proto order
  std::string attrsJson = "{}";    // the case's attributes merged over proto defaults, JSON object text
  std::string note;
  std::string file;  // cases.csv / cases.yaml, for messages
  int line = 0;
  // Why Tilecraft cannot evaluate this case although it is well-formed (a dtype such as float8_e4m3fn that
  // has no dsl::DType); empty when it can. The harness reports it as "not evaluable" instead of running it.
  std::string unsupported;
};

// Figures of one dtype for the correctness rule; from proto.yaml precision_thresholds.
struct PrecisionThreshold {
  double meanRel = 0;  // tau
  double maxRel = 0;   // 10 tau unless given
};

struct Task {
  std::string name;  // the folder's name; golden.py defines a function of this name
  std::string op;    // proto.yaml `name` (the operator name, e.g. "RmsNorm")
  std::string category;
  int level = 1;
  std::filesystem::path dir;
  std::vector<TensorDecl> inputs, outputs;
  std::vector<AttrDecl> attrs;
  std::string schema;
  std::map<dsl::DType, PrecisionThreshold> precision;  // per-task overrides of the default rule
  std::vector<Case> cases;
  bool hasInputsPy = false;
  std::string desc;  // desc.md text
  // The golden function, found as CANN Bench finds it: the schema's leading name (`rms_norm(Tensor x, ...)`), else
  // the folder's name, else the operator name in lower case; the first one golden.py defines with `def NAME(`.
  std::string goldenFunction;

  // The output dtypes of a case: the dtype combination its inputs select (by each input's position in its
  // dtype list); throws nothing: falls back to the first input's dtype when the proto lists one combination.
  // The rule in full (docs/tasks.md "Output dtypes"): combination k is the first index at which every present
  // input's dtype list either has one entry (a fixed dtype) or has the case's dtype at position k; each
  // output takes entry k of its list (its only entry when it has one). When no k fits, an output whose list
  // contains the first present input's dtype takes that dtype, else its first entry.
  std::vector<dsl::DType> outputDtypes(const Case& c) const;
  // The same, as dtype names (covers dtypes Tilecraft cannot represent).
  std::vector<std::string> outputDtypeNames(const Case& c) const;
};

// One problem found in a task folder: "FILE:LINE: message" (line 0 when the file as a whole is wrong).
struct TaskError {
  std::string file;
  int line = 0;
  std::string message;
  bool warning = false;  // "FILE:LINE: warning: ..." (see TaskLoad::warnings)
  std::string str() const;
};

struct TaskLoad {
  std::optional<Task> task;       // set when the folder is usable, possibly with some cases dropped
  std::vector<TaskError> errors;  // every problem found; a bad case row drops only that row
  // Inconsistencies that leave the case usable, so it is kept: a null shape for an input proto.yaml does not
  // mark optional (the input is taken as absent), a dtype proto.yaml does not list for that input.
  std::vector<TaskError> warnings;
};

// Which cases file to read. Auto follows CANN Bench: cases.yaml, then cases.yml, then cases.csv. `tilecraft
// task check --cases=csv` forces the CSV (CANN Bench checkouts ship both; its own loader reads only the
// YAML).
enum class CasesSource { Auto, Csv, Yaml };
struct LoadOptions {
  CasesSource cases = CasesSource::Auto;
};

// The names golden.py's function may have, in CANN Bench's order: goldenFunction once found, the schema's function
// name, the folder's name, the operator's name in lower case.
std::vector<std::string> goldenFunctionCandidates(const Task& task);

TaskLoad loadTask(const std::filesystem::path& dir, const LoadOptions& options = {});

// Every task folder under `root` (a folder holding proto.yaml), sorted by path; `root` itself may be one.
std::vector<std::filesystem::path> findTaskDirs(const std::filesystem::path& root);

}  // namespace tilecraft::harness
