#include "interp/random.h"

#include <cmath>

#include "interp/numeric.h"

namespace tilecraft::interp {

ValueRange defaultRange(dsl::DType dtype) {
  if (dsl::isFloat(dtype)) return {-1.0, 1.0};
  if (dtype == dsl::DType::U8) return {0, 8};
  if (dtype == dsl::DType::Bool) return {0, 1};
  return {-8, 8};
}

uint64_t streamSeed(uint64_t seed, size_t index) {
  SplitMix64 base(seed);
  return base.next() ^ (static_cast<uint64_t>(index) + 1) * 0x9E3779B97F4A7C15ull;
}

HostTensor randomTensor(dsl::DType dtype, std::vector<int64_t> shape, ValueRange range, uint64_t seed) {
  HostTensor t = HostTensor::zeros(dtype, std::move(shape));
  SplitMix64 rng(seed);
  bool isFloat = dsl::isFloat(dtype);
  auto lo = static_cast<int64_t>(std::ceil(range.lo));
  auto hi = static_cast<int64_t>(std::floor(range.hi));
  for (double& v : t.data) {
    if (isFloat) {
      v = roundTo(range.lo + (range.hi - range.lo) * rng.uniform(), dtype);
    } else {
      v = static_cast<double>(rng.uniformInt(lo, hi < lo ? lo : hi));
    }
  }
  return t;
}

}  // namespace tilecraft::interp
