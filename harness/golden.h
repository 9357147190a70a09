// Goldens: a task's golden.py run under a Python with PyTorch (Debian's python3-torch 1.13), in float64 and
// cast to the output dtypes, in one long-lived worker process fed over a pipe; tensors travel as .npy files.
// The worker also captures the golden's ATen ops (dispatch-mode tracing) for the eager estimate and the limit,
// and runs a task's inputs.py when it has one. Results are cached on disk by content hash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/inputs.h"
#include "harness/task.h"

namespace tilecraft::harness {

// One ATen op the golden ran, as the dispatcher saw it.
struct AtenOp {
  std::string name;  // e.g. "aten::add.Tensor"
  std::vector<std::vector<int64_t>> inShapes, outShapes;
  std::vector<std::string> inDtypes, outDtypes;  // torch names: "float16", "float32", "bfloat16", "int64", ...
};

struct GoldenResult {
  bool ok = false;
  std::string error;              // what went wrong, the Python exception's last lines included
  std::vector<NamedTensor> outputs;  // in proto output order, cast to the case's output dtypes
  std::vector<AtenOp> ops;        // the captured ops (one eager kernel each)
  bool cached = false;
};

class GoldenRunner {
 public:
  virtual ~GoldenRunner() = default;
  // Runs task.name's golden on `inputs` (proto order, absent inputs passed as None) with the case's attributes.
  virtual GoldenResult run(const Task& task, const Case& c, const std::vector<NamedTensor>& inputs) = 0;
  // Runs the task's inputs.py for (case, seed); ok=false with error when it fails.
  virtual GoldenResult makeInputs(const Task& task, const Case& c, uint64_t seed) = 0;
};

// The first interpreter that imports torch: $TILECRAFT_PYTHON, then /usr/bin/python3, then python3 in PATH.
// nullopt with `why` saying which were tried and what each said.
std::optional<std::string> findTorchPython(std::string* why);

struct PythonGoldenOptions {
  std::string python;                 // from findTorchPython
  std::filesystem::path cacheDir;     // golden cache; empty: no cache
  std::filesystem::path workDir;      // scratch for .npy exchange
  double timeoutSeconds = 600;        // per request; the worker is restarted after a timeout or crash
};

std::unique_ptr<GoldenRunner> makePythonGoldenRunner(const PythonGoldenOptions& options);

}  // namespace tilecraft::harness
