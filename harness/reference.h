// The two reference figures of a case's speed, for any task: the hardware limit by CANN Bench's definition
// (every unit at peak, perfect overlap) from the case's bytes and the golden's FLOPs, and an eager-PyTorch
// estimate from the golden's own ATen ops (one kernel per op, priced by the calibrated eager model). Where a CANN
// Bench checkout carries measured 910B2 baselines (tasks/metadata/910b2.json) those are the eager reference.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/golden.h"
#include "harness/task.h"
#include "perf/arch.h"

namespace tilecraft::harness {

struct ReferenceFigures {
  bool ok = false;
  std::string why;  // when not ok: what could not be modelled
  double limitUs = 0;
  std::string bottleneck;  // the unit that sets the limit: "mte2", "vector", "cube", ...
  double eagerUs = 0;
  std::string eagerSource;  // "model" (from the ATen ops) or "measured" (910b2.json)
  int eagerKernels = 0;
  double modelEagerUs = 0;              // the ATen-op estimate, also when eagerUs is a measured baseline
  std::vector<std::string> unknownOps;  // ATen ops the table does not know, priced as one unary op each
};

ReferenceFigures estimateReference(const Task& task, const Case& c, const std::vector<NamedTensor>& inputs,
                                   const GoldenResult& golden, const perf::ArchSpec& arch);

// Measured baselines of a CANN Bench checkout: <checkout>/tasks/metadata/910b2.json, found by walking up from the
// task folder. nullopt when there is none or it has no entry for this case.
std::optional<double> measuredBaselineUs(const Task& task, const Case& c);

}  // namespace tilecraft::harness
