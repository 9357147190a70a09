// The hardware limit of a task case (hardware.md §9): every unit at peak, perfect overlap, no launch cost,
// a 1 µs floor. Two variants: CANN-Bench-compatible (HAP: reads and writes on separate 1.92 TB/s channels,
// vector instructions at their conflict-free rate) and physically pessimistic (reads plus writes share HBM
// peak, binary vector ops at their measured, bank-conflicted rate).
#pragma once

#include <string>

#include "perf/arch.h"
#include "perf/work.h"

namespace tilecraft::perf {

// Per-unit times in seconds.
struct UnitTimes {
  double mte2 = 0, mte3 = 0, vector = 0, cube = 0, mte1 = 0, fix = 0;
  double max() const;
  std::string bottleneck() const;  // "mte2", "vector", ... the unit that sets max()
};

struct LimitResult {
  UnitTimes hapUnits;
  UnitTimes pessimisticUnits;
  double hapS = 0;  // max over units, floored
  double pessimisticS = 0;
};

// Seconds the vector unit needs for `items` at the given per-class costs, when the chip retires
// `repeatCyclesPerSecond` repeat-cycles per second (all AIV cores together).
double vectorSeconds(const std::vector<VecItem>& items, const VectorCosts& costs, const ArchSpec& arch,
                     double repeatCyclesPerSecond);
// The physical rate: every AIV core at its clock.
double physicalRepeatCyclesPerSecond(const ArchSpec& arch);
// CANN Bench's rate: its vector peak in 32-bit lane operations per second over the lanes of one repeat.
double hapRepeatCyclesPerSecond(const ArchSpec& arch);
double cubeSeconds(const OpWork& w, const ArchSpec& arch, double efficiency);

LimitResult computeLimit(const OpWork& work, const ArchSpec& arch);

}  // namespace tilecraft::perf
