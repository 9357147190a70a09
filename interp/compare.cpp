#include "interp/compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

namespace tilecraft::interp {

Tolerance Tolerance::forDType(dsl::DType dtype) {
  switch (dtype) {
    case dsl::DType::F16: return {std::ldexp(1.0, -10)};
    case dsl::DType::BF16: return {std::ldexp(1.0, -7)};
    case dsl::DType::F32: return {std::ldexp(1.0, -13)};
    default: return {0};
  }
}

std::string positionText(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return fmt::format("[{}]", fmt::join(idx, ", "));
}

CompareResult compare(const HostTensor& reference, const HostTensor& actual, Tolerance tolerance) {
  CompareResult r;
  r.elements = reference.numel();
  if (reference.dtype != actual.dtype || reference.shape != actual.shape) {
    r.message = fmt::format("got {} but the reference is {}", describe(actual), describe(reference));
    return r;
  }
  double sum = 0;
  for (size_t i = 0; i < reference.data.size(); ++i) {
    double want = reference.data[i];
    double got = actual.data[i];
    double err = 0, abs = 0;
    if (std::isnan(want) || std::isnan(got)) {
      err = std::isnan(want) && std::isnan(got) ? 0 : INFINITY;  // NaN positions must match
      abs = err;
    } else if (std::isinf(want) || std::isinf(got)) {
      err = want == got ? 0 : INFINITY;
      abs = err;
    } else {
      abs = std::fabs(got - want);
      err = abs / std::max(std::fabs(want), 1.0);
    }
    bool bad = tolerance.tau == 0 ? err != 0 : err >= 10 * tolerance.tau;
    if (bad && r.firstWrong.size() < kFirstWrongKept) r.firstWrong.push_back({static_cast<int64_t>(i), got, want});
    if (bad) ++r.mismatches;
    r.maxAbsError = std::max(r.maxAbsError, abs);
    sum += std::isinf(err) ? 0 : err;
    if (err > r.maxRelError || (r.worstIndex < 0 && err > 0)) {
      r.maxRelError = err;
      r.worstIndex = static_cast<int64_t>(i);
    }
  }
  r.meanRelError = r.elements ? sum / static_cast<double>(r.elements) : 0;
  bool meanOk = tolerance.tau == 0 ? true : r.meanRelError < tolerance.tau;
  r.pass = r.mismatches == 0 && meanOk;
  if (r.worstIndex >= 0) {
    auto w = static_cast<size_t>(r.worstIndex);
    r.message = fmt::format(
        "{} of {} elements out of tolerance; mean rel error {:.3g} (limit {:.3g}), max {:.3g} at {} "
        "(got {}, want {})",
        r.mismatches, r.elements, r.meanRelError, tolerance.tau, r.maxRelError,
        positionText(reference.shape, r.worstIndex), actual.data[w], reference.data[w]);
  } else {
    r.message = fmt::format("all {} elements equal", r.elements);
  }
  return r;
}

}  // namespace tilecraft::interp
