// Seeded input generation, deterministic across machines and compilers: SplitMix64 (Steele, Lea and Flood,
// "Fast splittable pseudorandom number generators", 2014) with integer-only arithmetic up to the final scaling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "interp/tensor.h"

namespace tilecraft::interp {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [lo, hi] (hi >= lo); the modulo bias is below 2^-32 for spans under 2^32.
  int64_t uniformInt(int64_t lo, int64_t hi) {
    auto span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(span == 0 ? next() : next() % span);
  }

 private:
  uint64_t state_;
};

/// The closed value range of a generated input: floats uniform in [lo, hi) then rounded to the dtype, integers
/// uniform in [lo, hi].
struct ValueRange {
  double lo = -1.0;
  double hi = 1.0;
};
/// [-1, 1) for floats, [-8, 8] for signed integers, [0, 8] for u8: small enough that chains of operations stay
/// finite and integer sums stay exact.
ValueRange defaultRange(dsl::DType dtype);

/// The stream seed of input number `index` (0-based, in parameter order) under the run's `seed`, so that adding a
/// tensor does not change the values of the others: SplitMix64(seed).next() xor (index + 1) * 2^64/phi.
uint64_t streamSeed(uint64_t seed, size_t index);

HostTensor randomTensor(dsl::DType dtype, std::vector<int64_t> shape, ValueRange range, uint64_t streamSeed);

}  // namespace tilecraft::interp
