// PyTorch-eager baseline: one device kernel per ATen-level kernel torch_npu launches (the case's
// baseline_kernels, or one fused kernel when it names none). Each kernel pays a launch floor and a GM round trip of
// what it touches; the operator's main kernel also does the operator's vector and cube work at library
// efficiency. Device time only, as CANN Bench measures it; host dispatch per kernel on request.
#pragma once

#include <string>
#include <vector>

#include "perf/arch.h"
#include "perf/work.h"

namespace tilecraft::perf {

struct EagerKernelTime {
  std::string name;
  int count = 1;
  bool main = false;   // carries the operator's work
  double seconds = 0;  // all `count` launches
};

struct EagerResult {
  std::vector<EagerKernelTime> kernels;
  double deviceS = 0;
  double withHostS = 0;  // sum over launches of max(host dispatch, device time): the host-bound view
};

EagerResult computeEager(const OpWork& work, const std::vector<KernelCount>& kernels, const ArchSpec& arch);

}  // namespace tilecraft::perf
