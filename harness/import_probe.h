// Running harness/python/import_probe.py on upstream tasks (KernelBench, MultiKernelBench, NPUKernelBench files),
// always inside the sandbox: importing a stranger's file executes it. One Python process probes a batch of
// tasks; when it dies on one (a crash, the memory limit, a hang), that task fails with the reason and the rest of
// the batch runs in a fresh process. Behind an interface, so the importer is tested without Python.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "runner/service.h"

namespace tilecraft::runner {
class Sandbox;
}

namespace tilecraft::harness {

enum class ImportKind { KernelBench, NpuKernelBench };

struct ProbeItem {
  std::string id;                // unique in one call
  std::filesystem::path source;  // the .py file (KernelBench) or the task folder (NPUKernelBench)
};

struct ProbeResult {
  std::string id;
  bool ok = false;
  std::string error;  // when not ok: why, in words
  std::string json;   // when ok: the probe's result object (docs/import.md, "What the probe reports")
};

class ImportProbe {
 public:
  virtual ~ImportProbe() = default;
  // One result per item, in the items' order.
  virtual std::vector<ProbeResult> probe(ImportKind kind, const std::vector<ProbeItem>& items) = 0;
};

struct SandboxProbeOptions {
  std::string python;                 // an interpreter that imports torch (findTorchPython)
  std::filesystem::path script;       // import_probe.py; empty: harness/python of this tree
  std::filesystem::path workDir;      // scratch (request and result files); must exist
  double itemSeconds = 120;           // per task, enforced inside the probe (SIGALRM)
  uint64_t budgetElements = 1 << 26;  // the largest real run the probe makes to measure value ranges
  size_t batchSize = 64;              // tasks per Python process
  runner::Limits limits{0, 0, 16ull << 30, 64, 1ull << 30, 1ull << 20};  // wall time: set per batch
};

std::unique_ptr<ImportProbe> makeSandboxProbe(std::shared_ptr<runner::Sandbox> sandbox,
                                              const SandboxProbeOptions& options);

}  // namespace tilecraft::harness
