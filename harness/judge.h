// Judging one case: the correctness rule (CANN Bench's dtype-scaled relative error by default, KernelBench's
// allclose on request), the anti-cheat checks (an output that is zeros, a constant or a copied input passes only
// when the golden is that too), and the failure taxonomy of compile and run messages.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness/inputs.h"
#include "harness/record.h"
#include "harness/task.h"
#include "interp/tensor.h"
#include "runner/service.h"

namespace tilecraft::harness {

enum class Rule { Cann, AllClose };
const char* ruleName(Rule rule);
std::optional<Rule> ruleFromName(const std::string& name);

// The rule's tolerance for a dtype: CANN's tau (2^-10 f16, 2^-7 bf16, 2^-13 f32, 0 for integers) with the task's
// precision_thresholds applied; for allclose, KernelBench's atol = rtol (1e-2 f16/bf16, 1e-4 f32).
double tolerance(Rule rule, const Task& task, dsl::DType dtype);

struct Comparison {
  bool pass = false;
  double meanRelError = 0, maxRelError = 0, tau = 0;
  std::string message;  // why it failed: the figures, the first wrong positions
};

// `actual` and `golden` must have the same number of elements (the caller checks shapes first).
Comparison compareOutput(const std::string& name, const interp::HostTensor& actual, const interp::HostTensor& golden,
                         Rule rule, const Task& task);

// Why an output that matched is still refused: it is all zeros, one constant, or a copy of an input while the golden
// is not. nullopt when it is none of these.
std::optional<std::string> trivialOutput(const std::string& name, const interp::HostTensor& actual,
                                         const interp::HostTensor& golden, const std::vector<NamedTensor>& inputs);

// The taxonomy class of a front-end or C++ compiler message (the first error line decides).
Failure classifyCompileError(const std::string& diagnostics);
// The taxonomy class of an emulator check message.
Failure classifyCheckFailure(const std::string& message);
// The taxonomy class of a program run that did not pass (a check's message decides among the checks).
Failure classifyRun(const runner::RunResult& result);

}  // namespace tilecraft::harness
