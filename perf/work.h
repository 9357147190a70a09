// What an operator does, independent of how a kernel is written: compulsory GM bytes, vector work per
// instruction class, cube FLOPs, and the ATen-level kernels PyTorch eager launches for it. One work function
// per CANN Bench operator, grouped by family in work_<family>.cpp, looked up by operator name.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perf/arch.h"
#include "perf/cases.h"

namespace tilecraft::perf {

// `elements` elements processed by one instruction class on lanes of `laneBytes` bytes.
struct VecItem {
  VecClass cls;
  int laneBytes;
  double elements;
};

enum class CubeType { F16, Int8, F32 };

struct OpWork {
  double bytesRead = 0;     // compulsory GM reads of a fused kernel with the best tiling
  double bytesWritten = 0;  // compulsory GM writes
  // The part of bytesWritten that CANN Bench's limit does not count (Cummin's int64 indices): left out of the
  // CANN-Bench-compatible limit only; the pessimistic limit and eager write it.
  double hapUncountedBytesWritten = 0;
  std::vector<VecItem> vector;
  double cubeFlops = 0;
  CubeType cubeType = CubeType::F16;
  double l0aBytes = 0;  // L1 -> L0A traffic (MTE1) with the chosen tiling
  double l0bBytes = 0;  // L1 -> L0B traffic (MTE1)
  double fixBytes = 0;  // L0C -> GM traffic (FIXPIPE)
  // Elements one vector instruction covers when rows are short (a row op works row by row); 0: as many as
  // one instruction allows (255 repeats). Sets how often the per-instruction fixed cost is paid.
  double vecChunkElements = 0;
  // Bytes of the tensor an auxiliary eager kernel (Cast, Transpose, ...) reads and writes once.
  double auxTensorBytes = 0;
  // Bytes (read + written) per launch of named helper kernels whose size is known better than the default
  // round trip of auxTensorBytes.
  std::vector<std::pair<std::string, double>> helperBytes;

  // Adds `count` vector instructions of class `cls` over `elements` elements.
  void vec(VecClass cls, int laneBytes, double elements, double count = 1) {
    vector.push_back({cls, laneBytes, elements * count});
  }
};

// A work function fills `work`, or returns a reason why the case is not modelled.
struct WorkResult {
  bool ok = false;
  OpWork work;
  std::string skipReason;
};
using WorkFn = WorkResult (*)(const TaskCase&);

WorkResult modelled(OpWork work);
WorkResult notModelled(std::string reason);

// nullptr if the operator has no work function.
WorkFn findWork(std::string_view op);
// Why an operator without a work function is not modelled (for the calibration report).
std::string unmodelledReason(std::string_view op);
std::vector<std::string> modelledOperators();

// Shared recipe helpers.
// Lane width the vector unit computes in: fp16 natively when `f16Native`, fp32 otherwise
// (bf16 always, since 910B vector arithmetic has no bf16: it casts in and out).
int computeLaneBytes(DType t, bool f16Native);
// Adds the casts in and out that computing `t` in `laneBytes` lanes needs.
void addCasts(OpWork& w, DType t, int laneBytes, double inElements, double outElements);

// Family registries, called once by the lookup table.
struct WorkEntry {
  const char* op;
  WorkFn fn;
};
std::vector<WorkEntry> elementwiseWork();
std::vector<WorkEntry> normalizationWork();
std::vector<WorkEntry> indexWork();
std::vector<WorkEntry> matmulWork();

}  // namespace tilecraft::perf
