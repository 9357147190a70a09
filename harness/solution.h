// A task's solution as the harness finds it (SOLUTIONS/TASK/, or SOLUTIONS/TASK/<k>/ for sample k), and how a case
// is bound to it: which kernel runs the case (the file and instantiation whose tensor dtypes are the case's, const
// parameters bound from the case's attributes of the same name), the kernel's dims
// from the case's shapes, its attributes from the case's, and the view each tensor is passed as.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/types.h"
#include "harness/inputs.h"
#include "harness/record.h"
#include "harness/task.h"

namespace tilecraft::harness {

// One parameter of a DSL kernel, from the front end.
struct KernelParam {
  std::string name;
  bool isTensor = false;
  dsl::DType dtype = dsl::DType::F32;
  // Per dimension: a constant extent, or the name of a module-level dim().
  struct Extent {
    int64_t value = 0;
    std::string dim;  // empty for a constant
  };
  std::vector<Extent> shape;
  bool stored = false;  // an output
};

// One instantiation of a .tile file (a file without dtype or const parameters has one).
struct DslKernel {
  std::filesystem::path file;
  std::string instantiation;              // "T=f16, K=3"; empty without parameters
  std::vector<std::string> bindings;      // the same as --param NAME=VALUE flags
  std::map<std::string, int64_t> consts;  // the const parameters and their values here
  std::string name;
  std::vector<KernelParam> params;
  std::string error;  // the front end's diagnostics when the file does not compile
  Failure failure = Failure::None;
};

// SOLUTIONS/TASK/binding.yaml: overrides of the default binding (docs/bench.md, "Binding a case").
struct Binding {
  std::map<std::string, std::string> dims;   // kernel dim -> expression over the case's tensors
  std::map<std::string, std::string> attrs;  // kernel attribute -> the case's attribute name
};

struct Solution {
  std::string kind;  // "dsl", "ascendc", or "none"
  std::filesystem::path dir;
  std::filesystem::path snippet;  // ascendc: a MultiKernelBench submission in dir (six strings) instead of a project
  int sample = 0;
  std::vector<DslKernel> kernels;  // DSL: every instantiation of every .tile file, files sorted by name
  Binding binding;
  std::string error;  // a binding.yaml that cannot be read
};

// The samples of `task` under `root`: TASK/ itself, or its numbered subfolders 0/, 1/, ... when it has them.
// A missing TASK/ gives one Solution of kind "none".
std::vector<Solution> findSolutions(const std::filesystem::path& root, const std::string& task);

// How one case runs on a solution.
struct CaseBinding {
  bool ok = false;
  Failure failure = Failure::None;  // when not ok
  std::string message;
  const DslKernel* kernel = nullptr;
  std::shared_ptr<const DslKernel> instantiated;      // `kernel` when a case attribute rebinds a const parameter
  std::vector<std::string> args;                      // NAME=VALUE for dims and attributes
  std::map<std::string, std::vector<int64_t>> views;  // tensor -> the shape the kernel sees it as
};

// `outputShapes`: the golden's output shapes, in proto output order.
CaseBinding bindCase(const Solution& solution, const Task& task, const Case& c,
                     const std::vector<std::vector<int64_t>>& inputShapes,
                     const std::vector<std::vector<int64_t>>& outputShapes);

}  // namespace tilecraft::harness
