// The AscendC solution kind: a CANN custom-operator project (op_host/ + op_kernel/) in a solution folder, run on
// one case's inputs by the code of `tilecraft project run` (project/project_run.h), in the same sandbox and limits
// as a DSL kernel. The harness then judges its outputs exactly as it judges a DSL kernel's (bench.cpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "harness/inputs.h"
#include "harness/record.h"
#include "harness/solution.h"
#include "harness/task.h"
#include "runner/service.h"

namespace tilecraft::harness {

struct ProjectCaseRun {
  bool compiled = false;  // host and kernel both built
  Failure failure = Failure::None;
  std::string message;     // one line, the project's files named from the solution folder (op_kernel/x.cpp:12:5: ...)
  std::string kernelFile;  // op_kernel's source, for the record's instantiation
  std::vector<NamedTensor> outputs;  // named as the task's outputs (by position in the OpDef; list elements NAME.k)
  std::string tracePath;             // the kernel run's trace, when asked
  double seconds = 0;                // building and running
};

// Runs `solution` (kind "ascendc") on one seed of a case: the task's inputs and outputs are the OpDef's in order
// (an absent optional input left out), the case's attributes go to the OpDef's attributes of the same name, the
// golden's shapes stand in for a missing InferShape. `workDir` is kept between calls so that the builds of every
// case and seed of a (task, sample) are the service's cached ones.
ProjectCaseRun runProjectCase(const Solution& solution, const Task& task, const Case& c,
                              const std::vector<NamedTensor>& inputs, const std::vector<NamedTensor>& golden,
                              const std::filesystem::path& workDir, bool trace, double timeoutSeconds,
                              runner::BuildRunService& service);

}  // namespace tilecraft::harness
