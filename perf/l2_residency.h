// Which GM bytes L2 holds during a launch, for the timeline's read path: a read of bytes already in L2 (read
// before through the allocating path, or written and absorbed there) is served by L2 at its bandwidth instead of
// HBM. hardware.md §3.3 [S17] measured both ends: a cached read of an 8 MB footprint streams at 4.6 TB/s, one far
// beyond L2 at the allocating path's 920 GB/s. Lines are allocated in the order transfers start and never
// evicted: once the launch has touched the arch's L2 size, nothing more is kept (a simplification; eviction
// order is not published).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "perf/trace.h"

namespace tilecraft::perf {

class L2Residency {
 public:
  L2Residency(double capacityBytes, double lineBytes);

  // The share (0 to 1) of the transfer's GM lines L2 already holds; marks its lines as held while capacity
  // lasts. A transfer without a usable footprint (no buffer, irregular accesses) holds nothing and hits nothing.
  double touch(const TraceInstr& in);

  double heldBytes() const { return static_cast<double>(heldLines_) * line_; }

 private:
  // Calls f(first, end) with each access's line range.
  template <typename F>
  void forEachAccess(const TraceInstr& in, F&& f) const;

  uint64_t capacityLines_;
  uint64_t line_;
  uint64_t heldLines_ = 0;
  std::unordered_map<uint32_t, std::vector<uint64_t>> held_;  // GM buffer -> bit per line
};

// Whether an instruction's GM footprint can be tracked (the emulator recorded one and it is evenly spaced).
bool hasFootprint(const TraceInstr& in);

}  // namespace tilecraft::perf
