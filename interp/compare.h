// The comparison of a device result with the reference: CANN Bench's dtype-scaled rule (docs/language.md,
// "Reference semantics"). Integers and bools must match exactly.
#pragma once

#include <cstdint>
#include <string>

#include "interp/tensor.h"

namespace tilecraft::interp {

struct Tolerance {
  double tau = 0;  // 0: exact (integers, bool)
  /// Mean relative error < tau and max relative error < 10 tau; relative error |got - ref| / max(|ref|, 1).
  static Tolerance forDType(dsl::DType dtype);
};

struct CompareResult {
  bool pass = false;
  int64_t elements = 0;
  int64_t mismatches = 0;  // elements whose relative error is >= 10 tau (or differ, for exact dtypes)
  double meanRelError = 0;
  double maxRelError = 0;
  int64_t worstIndex = -1;  // flat index of the largest error
  std::string
      message;  // "max rel error 3.1e-2 at [2, 7] (got 1.5, want 1.47) > 10 tau = 9.8e-3", or the shape mismatch
};

CompareResult compare(const HostTensor& reference, const HostTensor& actual, Tolerance tolerance);

}  // namespace tilecraft::interp
