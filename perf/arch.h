// Architecture specs: one JSON file per chip in configs/arch/, every number with its unit and source.
// An override names its base ("base": "910b2") and replaces only what differs. A missing, ill-typed or
// unit-mismatched number is a PerfError naming the file and the JSON path; nothing has a silent default.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace tilecraft::perf {

// Vector instruction classes the models cost. Cycles are per 256 B repeat (128 x 16-bit or 64 x 32-bit lanes).
enum class VecClass { Cast, Unary, Binary, Exp, Sqrt, Div, Reduce, Gather, Sort };

struct VectorCosts {
  double cast = 0, unary = 0, binary = 0, expF32 = 0, expF16 = 0, sqrtF32 = 0, sqrtF16 = 0, divF32 = 0, divF16 = 0,
         reduce = 0, gather = 0, sort = 0;
  // Cycles per repeat of one class; `laneBytes` is the element size the instruction works on (2, 4 or 8).
  double cyclesPerRepeat(VecClass cls, int laneBytes) const;
};

// Values are converted to base units on load: Hz, bytes, bytes/cycle, cycles, bytes/second, seconds.
struct ArchSpec {
  std::string name;
  int aicCores = 0;
  int aivCores = 0;
  double clockHz = 0;

  double ubBytes = 0, l1Bytes = 0, l0aBytes = 0, l0bBytes = 0, l0cBytes = 0;
  double ubAlign = 0, l0Align = 0, l0cAlign = 0, gmBurstAlign = 0;

  // Per core DMA paths (bytes per cycle) and start-up per instruction (cycles).
  double mte2GmUbBw = 0, mte2GmL1Bw = 0, mte3UbGmBw = 0, mte1L0aBw = 0, mte1L0bBw = 0, fixBw = 0;
  double mte2Startup = 0, mte3Startup = 0, mte1Startup = 0, fixStartup = 0;
  double unalignedBurstFactor = 0;

  // Chip memory (bytes per second, bytes).
  double hbmPeakBw = 0, hbmStreamBw = 0, l2Bytes = 0, l2Bw = 0;
  double l2LineBytes = 0;           // the granularity L2 holds GM data in
  double l2AllocateReadFactor = 0;  // share of hbmStreamBw a read stream gets through the L2-allocating path

  double cubeMacPerCycleF16 = 0, cubeInt8Factor = 0, cubeF32Factor = 0, mmadIssueCycles = 0;

  double vectorRepeatBytes = 0, vectorInstrFixedCycles = 0;
  VectorCosts vectorPeak;          // every instruction at its best rate (the limit)
  double binaryAsBenchmarked = 0;  // binary ops with UB bank-group conflicts, as msKPP measured them

  double scalarIssueCycles = 0, scalarUbAccessCycles = 0;
  double setFlagCycles = 0, waitFlagCycles = 0, pipeBarrierCycles = 0;
  double kernelDeviceFloorS = 0, hostDispatchS = 0;
  double coreDispatchIntervalS = 0;  // block b of a launch starts b intervals after block 0

  double hapMte2Bw = 0, hapMte3Bw = 0, limitFloorS = 0;
  // CANN Bench's vector peak: 32-bit lane operations per second over the chip at one cycle per repeat.
  double hapVectorRate = 0;

  double eagerKernelFloorS = 0, eagerCubeKernelFloorS = 0, eagerGmBw = 0, eagerTransposeFactor = 0,
         eagerOverlapLoss = 0, eagerCubeEfficiency = 0;

  // Vector costs with binary ops at their measured (bank-conflicted) rate: used by the eager and
  // pessimistic models.
  VectorCosts vectorMeasured() const;
  double cubeFlopsPerSecond(double rateFactor) const {
    return 2.0 * cubeMacPerCycleF16 * rateFactor * aicCores * clockHz;
  }
};

// Reads a file's text, or nullopt if it does not exist. Injected so tests need no files on disk.
using ReadTextFn = std::function<std::optional<std::string>(const std::filesystem::path&)>;
ReadTextFn diskReader();

// Loads `file`, resolving its base chain (bases live in the same folder as `<base>.json`).
ArchSpec loadArchSpec(const std::filesystem::path& file, const ReadTextFn& read = diskReader());

// Loads `<dir>/<name>.json`.
ArchSpec loadArchByName(std::string_view name, const std::filesystem::path& dir, const ReadTextFn& read = diskReader());

// configs/arch of this source tree, or $TILECRAFT_ARCH_DIR when set.
std::filesystem::path defaultArchDir();

}  // namespace tilecraft::perf
