#include "perf/l2_residency.h"

#include <algorithm>
#include <cmath>

namespace tilecraft::perf {

bool hasFootprint(const TraceInstr& in) {
  return in.gmBlock != 0 && in.gmTouches > 0 && in.gmLen > 0 && !in.gmIrregular;
}

L2Residency::L2Residency(double capacityBytes, double lineBytes)
    : capacityLines_(static_cast<uint64_t>(capacityBytes / std::max(lineBytes, 1.0))),
      line_(static_cast<uint64_t>(std::max(lineBytes, 1.0))) {}

template <typename F>
void L2Residency::forEachAccess(const TraceInstr& in, F&& f) const {
  for (uint64_t t = 0; t < in.gmTouches; ++t) {
    uint64_t lo = in.gmOffset + t * in.gmStride;
    f(lo / line_, (lo + in.gmLen - 1) / line_ + 1);
  }
}

double L2Residency::touch(const TraceInstr& in) {
  if (!hasFootprint(in)) return 0;
  std::vector<uint64_t>& bits = held_[in.gmBlock];
  uint64_t total = 0, hits = 0;
  forEachAccess(in, [&](uint64_t first, uint64_t end) {
    if (bits.size() * 64 < end) bits.resize((end + 63) / 64, 0);
    for (uint64_t l = first; l < end; ++l) {
      uint64_t& word = bits[l / 64];
      uint64_t bit = uint64_t{1} << (l % 64);
      ++total;
      if (word & bit) {
        ++hits;
      } else if (heldLines_ < capacityLines_) {
        word |= bit;
        ++heldLines_;
      }
    }
  });
  return total == 0 ? 0 : static_cast<double>(hits) / static_cast<double>(total);
}

}  // namespace tilecraft::perf
