#include "perf/limit.h"

#include <algorithm>
#include <utility>

namespace tilecraft::perf {

double UnitTimes::max() const { return std::max({mte2, mte3, vector, cube, mte1, fix}); }

std::string UnitTimes::bottleneck() const {
  // Ties resolve in this fixed order so reports are deterministic.
  std::pair<const char*, double> units[] = {{"mte2", mte2}, {"mte3", mte3}, {"vector", vector},
                                            {"cube", cube}, {"mte1", mte1}, {"fix", fix}};
  const auto* best = &units[0];
  for (const auto& u : units) {
    if (u.second > best->second) best = &u;
  }
  return best->first;
}

double vectorSeconds(const std::vector<VecItem>& items, const VectorCosts& costs, const ArchSpec& arch,
                     double repeatCyclesPerSecond) {
  double cycles = 0;
  for (const VecItem& item : items) {
    double lanes = arch.vectorRepeatBytes / std::min(item.laneBytes, 4);
    cycles += item.elements / lanes * costs.cyclesPerRepeat(item.cls, item.laneBytes);
  }
  return cycles / repeatCyclesPerSecond;
}

double physicalRepeatCyclesPerSecond(const ArchSpec& arch) { return arch.aivCores * arch.clockHz; }

double hapRepeatCyclesPerSecond(const ArchSpec& arch) { return arch.hapVectorRate / (arch.vectorRepeatBytes / 4); }

double cubeSeconds(const OpWork& w, const ArchSpec& arch, double efficiency) {
  if (w.cubeFlops <= 0) return 0;
  double factor = w.cubeType == CubeType::Int8  ? arch.cubeInt8Factor
                  : w.cubeType == CubeType::F32 ? arch.cubeF32Factor
                                                : 1.0;
  return w.cubeFlops / (arch.cubeFlopsPerSecond(factor) * efficiency);
}

LimitResult computeLimit(const OpWork& work, const ArchSpec& arch) {
  LimitResult r;
  double coreHz = arch.aicCores * arch.clockHz;
  UnitTimes common;
  common.cube = cubeSeconds(work, arch, 1.0);
  common.mte1 = std::max(work.l0aBytes / (coreHz * arch.mte1L0aBw), work.l0bBytes / (coreHz * arch.mte1L0bBw));
  common.fix = work.fixBytes / (coreHz * arch.fixBw);

  r.hapUnits = common;
  r.hapUnits.mte2 = work.bytesRead / arch.hapMte2Bw;
  r.hapUnits.mte3 = (work.bytesWritten - work.hapUncountedBytesWritten) / arch.hapMte3Bw;
  r.hapUnits.vector = vectorSeconds(work.vector, arch.vectorPeak, arch, hapRepeatCyclesPerSecond(arch));
  r.hapS = std::max(r.hapUnits.max(), arch.limitFloorS);

  // Pessimistic: one shared HBM channel (reported as mte2, since reads dominate it), conflicted binary ops.
  r.pessimisticUnits = common;
  r.pessimisticUnits.mte2 = (work.bytesRead + work.bytesWritten) / arch.hbmPeakBw;
  r.pessimisticUnits.vector =
      vectorSeconds(work.vector, arch.vectorMeasured(), arch, physicalRepeatCyclesPerSecond(arch));
  r.pessimisticS = std::max(r.pessimisticUnits.max(), arch.limitFloorS);
  return r;
}

}  // namespace tilecraft::perf
