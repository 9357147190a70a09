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
#include "support/process.h"

namespace tilecraft::harness {

// One ATen op the golden ran, as the dispatcher saw it.
struct AtenOp {
  std::string name;  // e.g. "aten::add.Tensor"
  std::vector<std::vector<int64_t>> inShapes, outShapes;
  std::vector<std::string> inDtypes, outDtypes;  // torch names: "float16", "float32", "bfloat16", "int64", ...
};

struct GoldenResult {
  bool ok = false;
  std::string error;                 // what went wrong, the Python exception's last lines included
  std::vector<NamedTensor> outputs;  // in proto output order, cast to the case's output dtypes
  std::vector<AtenOp> ops;           // the captured ops (one eager kernel each)
  bool cached = false;
  double seconds = 0;  // the golden's own Python time (0 when cached)
};

class GoldenRunner {
 public:
  virtual ~GoldenRunner() = default;
  // Runs task.name's golden on `inputs` (proto order, absent inputs passed as None) with the case's attributes.
  virtual GoldenResult run(const Task& task, const Case& c, const std::vector<NamedTensor>& inputs) = 0;
  // Runs the task's inputs.py for (case, seed); ok=false with error when it fails.
  virtual GoldenResult makeInputs(const Task& task, const Case& c, uint64_t seed) = 0;
  // CANN Bench's input hook: golden.py's get_input(inputs by proto name, attrs) reshapes generated inputs
  // (distinct scatter indices, valid boxes, ...) for the golden and the kernel alike. `outputs` holds the
  // inputs to use (proto order, named like `generated`): the hook's result, or `generated` unchanged when
  // golden.py has no get_input.
  virtual GoldenResult prepareInputs(const Task& task, const Case& c, const std::vector<NamedTensor>& generated) = 0;
};

// The first interpreter that imports torch: $TILECRAFT_PYTHON, then /usr/bin/python3, then python3 in PATH.
// nullopt with `why` saying which were tried and what each said.
std::optional<std::string> findTorchPython(std::string* why);

// The search over explicit candidates (findTorchPython's are defaultPythonCandidates()): `label` is how the
// message names a candidate ("$TILECRAFT_PYTHON", "python3 in PATH"), `path` the interpreter ("" when there
// is none, e.g. no python3 in PATH).
struct PythonCandidate {
  std::string label;
  std::string path;
};
std::vector<PythonCandidate> defaultPythonCandidates();
std::optional<std::string> findTorchPythonAmong(const std::vector<PythonCandidate>& candidates,
                                                support::ProcessRunner& runner, std::string* why);

struct PythonGoldenOptions {
  std::string python;               // from findTorchPython
  std::filesystem::path cacheDir;   // golden cache; empty: no cache
  std::filesystem::path workDir;    // scratch for .npy exchange
  double timeoutSeconds = 600;      // per request; the worker is restarted after a timeout or crash
  std::filesystem::path workerDir;  // golden_worker.py and torch_compat.py; empty: harness/python of this tree
};

std::unique_ptr<GoldenRunner> makePythonGoldenRunner(const PythonGoldenOptions& options);

}  // namespace tilecraft::harness
