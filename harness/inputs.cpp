// Case inputs from (seed, task, case). The rule is docs/tasks.md "Input generation"; it follows CANN Bench's
// data generator where that is well defined (default ranges, dtype clamping, bool ranges) and uses the
// interpreter's SplitMix64 and rounding, so the bytes do not depend on the standard library.
#include "harness/inputs.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/numeric.h"
#include "interp/random.h"

namespace tilecraft::harness {
namespace {

using Range = std::pair<double, double>;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// FNV-1a, so the stream of a case depends on the task and case names, not on their order in a file.
uint64_t hashText(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return (h ^ 0xFF) * 0x100000001B3ull;
}

double finiteMax(dsl::DType dtype) {
  switch (dtype) {
    case dsl::DType::F16: return interp::f16FromBits(0x7BFF);
    case dsl::DType::BF16: return interp::bf16FromBits(0x7F7F);
    default: return static_cast<double>(std::numeric_limits<float>::max());
  }
}

// CANN Bench's defaults when a case gives no range: floats [0, 1), integers [0, 100], bool {0, 1}.
Range defaultRange(dsl::DType dtype) {
  if (dsl::isFloat(dtype)) return {0.0, 1.0};
  if (dtype == dsl::DType::Bool) return {0.0, 1.0};
  return {0.0, 100.0};
}

// Writes special values at distinct positions, so that each one's count is exact: a drawn position already
// taken moves to the next free one.
class Placer {
 public:
  Placer(std::vector<double>& data, interp::SplitMix64& rng) : data_(data), rng_(rng), used_(data.size(), false) {}
  void place(size_t count, double value) {
    for (size_t i = 0; i < count && taken_ < data_.size(); ++i) {
      size_t p = rng_.next() % data_.size();
      while (used_[p]) p = (p + 1) % data_.size();
      used_[p] = true;
      ++taken_;
      data_[p] = value;
    }
  }

 private:
  std::vector<double>& data_;
  interp::SplitMix64& rng_;
  std::vector<bool> used_;
  size_t taken_ = 0;
};

interp::HostTensor floatTensor(dsl::DType dtype, std::vector<int64_t> shape, Range range, uint64_t seed) {
  interp::HostTensor t = interp::HostTensor::zeros(dtype, std::move(shape));
  interp::SplitMix64 rng(seed);
  auto [lo, hi] = range;
  bool withNan = std::isnan(lo) || std::isnan(hi);
  if (withNan) {
    // [nan, nan] or [nan, x]: finite values from the finite bound(s), else [-1, 1).
    if (std::isnan(lo)) lo = std::isnan(hi) ? -1.0 : std::min(hi, 0.0) - 1.0;
    if (std::isnan(hi)) hi = std::max(lo, 0.0) + 1.0;
  }
  bool withNegInf = lo == -kInf, withPosInf = hi == kInf;
  if (withNegInf && withPosInf) {
    lo = -1.0;
    hi = 1.0;
  } else if (withNegInf) {
    lo = std::min(hi, 0.0) - 1.0;
  } else if (withPosInf) {
    hi = std::max(lo, 0.0) + 1.0;
  }
  double limit = finiteMax(dtype);
  lo = std::clamp(lo, -limit, limit);
  hi = std::clamp(hi, -limit, limit);
  for (double& v : t.data) v = interp::roundTo(lo + (hi - lo) * rng.uniform(), dtype);
  size_t n = t.data.size();
  Placer placer(t.data, rng);
  if (lo < hi && n >= 8) {
    // The bounds themselves and exact zeros, which uniform draws almost never hit.
    placer.place(1, interp::roundTo(lo, dtype));
    placer.place(1, interp::roundTo(hi, dtype));
    if (lo <= 0 && 0 <= hi) placer.place(std::max<size_t>(1, n / 64), 0.0);
  }
  size_t specials = std::max<size_t>(1, n / 32);
  if (withNegInf) placer.place(specials, -kInf);
  if (withPosInf) placer.place(specials, kInf);
  if (withNan) placer.place(std::max<size_t>(1, n / 8), kNan);
  return t;
}

interp::HostTensor intTensor(dsl::DType dtype, std::vector<int64_t> shape, Range range, uint64_t seed) {
  interp::HostTensor t = interp::HostTensor::zeros(dtype, std::move(shape));
  interp::SplitMix64 rng(seed);
  double dmin = interp::intMin(dtype), dmax = interp::intMax(dtype);
  if (dtype == dsl::DType::I64) {
    dmin = -0x1.0p53;  // HostTensor holds i64 exactly only within +-2^53
    dmax = 0x1.0p53;
  }
  if (dtype == dsl::DType::Bool) {
    dmin = 0;
    dmax = 1;
  }
  auto bound = [&](double v, double fallback) {
    if (std::isnan(v)) return fallback;
    return std::trunc(std::clamp(v, dmin, dmax));  // Python's int(): toward zero
  };
  Range def = defaultRange(dtype);
  auto lo = static_cast<int64_t>(bound(range.first, def.first));
  auto hi = static_cast<int64_t>(bound(range.second, def.second));
  if (hi < lo) std::swap(lo, hi);
  for (double& v : t.data) v = static_cast<double>(rng.uniformInt(lo, hi));
  if (lo < hi && t.data.size() >= 8 && lo <= 0 && 0 <= hi) {
    Placer(t.data, rng).place(std::max<size_t>(1, t.data.size() / 64), 0.0);
  }
  return t;
}

interp::HostTensor generate(dsl::DType dtype, const std::vector<int64_t>& shape, const std::optional<Range>& range,
                            uint64_t seed) {
  Range r = range.value_or(defaultRange(dtype));
  if (dsl::isFloat(dtype)) return floatTensor(dtype, shape, r, seed);
  return intTensor(dtype, shape, r, seed);
}

}  // namespace

std::vector<NamedTensor> generateInputs(const Task& task, const Case& c, uint64_t seed) {
  uint64_t base = hashText(hashText(0xCBF29CE484222325ull ^ seed, task.name), c.id);
  std::vector<NamedTensor> out;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const CaseTensor& input = c.inputs[i];
    if (!input.present) continue;
    std::string name = i < task.inputs.size() ? task.inputs[i].name : "input" + std::to_string(i);
    uint64_t stream = interp::streamSeed(base, i);
    if (!input.isList) {
      out.push_back({name, generate(input.dtype, input.shapes.at(0), input.valueRange, stream)});
      continue;
    }
    for (size_t j = 0; j < input.shapes.size(); ++j) {
      const std::optional<Range>& range = j < input.elementRanges.size() ? input.elementRanges[j] : input.valueRange;
      out.push_back({name + "." + std::to_string(j),
                     generate(input.dtype, input.shapes[j], range, interp::streamSeed(stream, j))});
    }
  }
  return out;
}

}  // namespace tilecraft::harness
