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
  std::vector<dsl::DType> dtypes;  // the i-th entry of every input and output forms the i-th dtype combination
  bool optional = false;           // may be null in a case
  bool isList = false;             // a tensor list (level-4 ForeachXxx style)
};

struct AttrDecl {
  std::string name;
  std::string type;         // as proto.yaml spells it: int, float, bool, str, list_int, list_float, ...
  std::string defaultJson;  // JSON text of the default; empty when the attribute is required
};

// One input of one case: absent (null), a tensor, or a list of tensors.
struct CaseTensor {
  bool present = true;
  bool isList = false;
  std::vector<std::vector<int64_t>> shapes;  // one shape for a tensor, n for a list
  dsl::DType dtype = dsl::DType::F32;
  // Inclusive bounds; may be +-inf; nan bounds mean "nan values included" (see docs/bench.md).
  std::optional<std::pair<double, double>> valueRange;
};

struct Case {
  std::string id;                 // case_id as written
  std::vector<CaseTensor> inputs; // in proto order
  std::string attrsJson = "{}";   // the case's attributes merged over proto defaults, JSON object text
  std::string note;
  std::string file;               // cases.csv / cases.yaml, for messages
  int line = 0;
};

// Figures of one dtype for the correctness rule; from proto.yaml precision_thresholds.
struct PrecisionThreshold {
  double meanRel = 0;  // tau
  double maxRel = 0;   // 10 tau unless given
};

struct Task {
  std::string name;      // the folder's name; golden.py defines a function of this name
  std::string op;        // proto.yaml `name` (the operator name, e.g. "RmsNorm")
  std::string category;
  int level = 1;
  std::filesystem::path dir;
  std::vector<TensorDecl> inputs, outputs;
  std::vector<AttrDecl> attrs;
  std::string schema;
  std::map<dsl::DType, PrecisionThreshold> precision;  // per-task overrides of the default rule
  std::vector<Case> cases;
  bool hasInputsPy = false;
  std::string desc;       // desc.md text

  // The output dtypes of a case: the dtype combination its inputs select (by each input's position in its
  // dtype list); throws nothing: falls back to the first input's dtype when the proto lists one combination.
  std::vector<dsl::DType> outputDtypes(const Case& c) const;
};

// One problem found in a task folder: "FILE:LINE: message" (line 0 when the file as a whole is wrong).
struct TaskError {
  std::string file;
  int line = 0;
  std::string message;
  std::string str() const;
};

struct TaskLoad {
  std::optional<Task> task;         // set when the folder is usable, possibly with some cases dropped
  std::vector<TaskError> errors;    // every problem found; a bad case row drops only that row
};

TaskLoad loadTask(const std::filesystem::path& dir);

// Every task folder under `root` (a folder holding proto.yaml), sorted by path; `root` itself may be one.
std::vector<std::filesystem::path> findTaskDirs(const std::filesystem::path& root);

}  // namespace tilecraft::harness
