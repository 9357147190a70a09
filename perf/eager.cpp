#include "perf/eager.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "perf/limit.h"

namespace tilecraft::perf {
namespace {

// Layout and elementwise helpers torch_npu inserts around the main kernel: each reads and writes the
// operator's main tensor once.
const std::set<std::string, std::less<>> kRoundTrip = {"Cast",    "Transpose",   "TransData",  "Slice",
                                                       "ConcatD", "BroadcastTo", "TensorMove", "RepeatInterleaveV2",
                                                       "Mul",     "Muls",        "Add"};
// Layout changes move data in short strided bursts.
const std::set<std::string, std::less<>> kLayout = {"Transpose", "TransData"};
// Fills write the output once.
const std::set<std::string, std::less<>> kFill = {"MemSet", "ZerosLike", "OnesLike"};
// Index preparation works on the index tensors (everything read but the main tensor).
const std::set<std::string, std::less<>> kIndex = {"LinearIndex", "Sort"};

bool isHelper(const std::string& name) { return kRoundTrip.count(name) || kFill.count(name) || kIndex.count(name); }

// Library vector code: instructions at their measured (bank-conflicted) cost, plus the fixed cost every
// instruction pays, with one instruction per chunk (a row, or 255 repeats).
double libraryVectorSeconds(const OpWork& work, const ArchSpec& arch) {
  VectorCosts costs = arch.vectorMeasured();
  double cycles = 0;
  for (const VecItem& item : work.vector) {
    double lanes = arch.vectorRepeatBytes / std::min(item.laneBytes, 4);
    double chunk = 255 * lanes;
    if (work.vecChunkElements > 0) chunk = std::min(chunk, work.vecChunkElements);
    double instructions = std::ceil(item.elements / chunk);
    cycles += item.elements / lanes * costs.cyclesPerRepeat(item.cls, item.laneBytes) +
              instructions * arch.vectorInstrFixedCycles;
  }
  return cycles / (arch.aivCores * arch.clockHz);
}

}  // namespace

EagerResult computeEager(const OpWork& work, const std::vector<KernelCount>& listed, const ArchSpec& arch) {
  // A case that names no kernels is taken as one fused kernel doing the operator.
  std::vector<KernelCount> kernels = listed;
  if (kernels.empty()) kernels.push_back({"Fused", 1});

  // The main kernel is the first that is not a helper; if all are helpers, the last one does the op.
  size_t mainIndex = kernels.size() - 1;
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!isHelper(kernels[i].name)) {
      mainIndex = i;
      break;
    }
  }

  EagerResult r;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelCount& k = kernels[i];
    EagerKernelTime t{k.name, k.count, i == mainIndex, 0};
    double bandwidth = kLayout.count(k.name) ? arch.eagerGmBw * arch.eagerTransposeFactor : arch.eagerGmBw;
    double perLaunch = 0;
    if (t.main) {
      double memory = (work.bytesRead + work.bytesWritten) / bandwidth;
      double vector = libraryVectorSeconds(work, arch);
      double cube = cubeSeconds(work, arch, arch.eagerCubeEfficiency);
      double compute = std::max(vector, cube);
      double floor = work.cubeFlops > 0 ? arch.eagerCubeKernelFloorS : arch.eagerKernelFloorS;
      double busy = std::max(memory, compute) + arch.eagerOverlapLoss * std::min(memory, compute);
      // The work splits over the launches (LpNormV2x3 handles one tensor each).
      perLaunch = floor + busy / k.count;
    } else {
      double bytes = 2 * work.auxTensorBytes;
      if (kFill.count(k.name)) bytes = work.bytesWritten;
      if (kIndex.count(k.name)) bytes = 2 * std::max(0.0, work.bytesRead - work.auxTensorBytes);
      for (const auto& [name, b] : work.helperBytes) {
        if (name == k.name) bytes = b;
      }
      perLaunch = arch.eagerKernelFloorS + bytes / bandwidth;
    }
    t.seconds = perLaunch * k.count;
    r.deviceS += t.seconds;
    r.withHostS += std::max(arch.hostDispatchS, perLaunch) * k.count;
    r.kernels.push_back(std::move(t));
  }
  return r;
}

}  // namespace tilecraft::perf
