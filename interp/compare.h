// The comparison of a device result with the reference: CANN Bench's dtype-scaled rule (docs/language.md,
// "Reference semantics"). Integers and bools must match exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interp/tensor.h"

namespace tilecraft::interp {

struct Tolerance {
  double tau = 0;  // 0: exact (integers, bool)
  /// Mean relative error < tau and max relative error < 10 tau; relative error |got - ref| / max(|ref|, 1).
  static Tolerance forDType(dsl::DType dtype);
};

/// An element out of tolerance: its flat index and both values.
struct WrongElement {
  int64_t index = 0;
  double got = 0;
  double want = 0;
};

/// How many of the first wrong elements a CompareResult keeps.
inline constexpr size_t kFirstWrongKept = 5;

struct CompareResult {
  bool pass = false;
  int64_t elements = 0;
  int64_t mismatches = 0;  // elements whose relative error is >= 10 tau (or differ, for exact dtypes)
  double meanRelError = 0;
  double maxRelError = 0;
  double maxAbsError = 0;                // |got - want| at its largest (infinity where a NaN or an infinity differs)
  int64_t worstIndex = -1;               // flat index of the largest error
  std::vector<WrongElement> firstWrong;  // the first kFirstWrongKept mismatches, in index order
  std::string
      message;  // "max rel error 3.1e-2 at [2, 7] (got 1.5, want 1.47) > 10 tau = 9.8e-3", or the shape mismatch
};

CompareResult compare(const HostTensor& reference, const HostTensor& actual, Tolerance tolerance);

/// A flat index of a tensor of `shape` as its position, "[2, 7]".
std::string positionText(const std::vector<int64_t>& shape, int64_t flat);

}  // namespace tilecraft::interp
