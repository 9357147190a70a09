// Case inputs, generated on the C++ side from (seed, task, case): reproducible without Python, within each
// input's value range, special values (inf, nan, zeros, extremes) included where the range asks for them.
// A task's inputs.py overrides this (the golden worker runs it; see golden.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/task.h"
#include "interp/tensor.h"

namespace tilecraft::harness {

struct NamedTensor {
  std::string name;  // the proto name; list elements are "NAME.0", "NAME.1", ...
  interp::HostTensor tensor;
};

// Absent (null) inputs are left out. Same (seed, task.name, case.id) -> same bytes, on any machine.
std::vector<NamedTensor> generateInputs(const Task& task, const Case& c, uint64_t seed);

}  // namespace tilecraft::harness
