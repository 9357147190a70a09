// Shared machinery of the high-level APIs (SoftMax, LayerNorm, RmsNorm, activations, Sum/Mean): operand checks,
// the temporary buffer (the caller's or the free UB), the summation order, and trace recording. Sizes: hl_sizes.h.
//
// How a high-level API is emulated: the values are computed in one pass on the CPU (in float for half inputs, rounded
// once on the final store), while the trace records the vector instructions the real library issues for the same
// work (reduce, sub, exp, ...) with their repeat counts, so the perf model can cost it. Operand reads are attributed
// to the first recorded instruction, output writes to the last, so cross-pipe hazards and unwritten reads are caught
// exactly as for a basic vector instruction.
#pragma once

#include "emu/hl_sizes.h"
#include "emu/tensor.h"

namespace tcemu::hl {

// ---- operand checks ------------------------------------------------------------------------------------------------

// High-level APIs compute on the vector unit: every operand is a live UB tensor aligned to 32 bytes.
inline void checkUb(const TensorRef& t, const char* api, const char* what, const SrcLoc& loc) {
  std::string name = std::string(api) + " " + what;
  cur().checkAlive(t, name.c_str(), loc);
  if (t.mem != Mem::UB) {
    fail(loc,
         "%s is a tensor in %s (position %s); %s works on UB tensors (VECIN, VECOUT, VECCALC); hint: copy the "
         "data to a VECIN/VECCALC buffer first",
         name.c_str(), memName(t.mem), positionName(t.pos), api);
  }
  cur().checkAlign(t, 32, name.c_str(), loc);
}

// The caller's sharedTmpBuffer must hold at least `minBytes` (the documented minimum the host query returns).
inline void checkTmp(const AscendC::LocalTensor<uint8_t>& tmp, uint32_t minBytes, const char* api,
                     const char* hostQuery, const SrcLoc& loc) {
  checkUb(tmp.ref_, api, "sharedTmpBuffer", loc);
  if (tmp.GetSize() < minBytes) {
    fail(loc,
         "%s sharedTmpBuffer has %u bytes; this call needs at least %u bytes; hint: size the buffer with %s "
         "(minimum %u bytes)",
         api, tmp.GetSize(), minBytes, hostQuery, minBytes);
  }
}

// The temporary space an API takes from the pipe when the kernel passes no sharedTmpBuffer (CANN's PopStackBuffer):
// the UB left after every TPipe::InitBuffer.
inline AscendC::LocalTensor<uint8_t> stackBuffer(uint32_t minBytes, const char* api, const SrcLoc& loc) {
  Core& core = cur();
  uint32_t used = core.pool_[static_cast<int>(Mem::UB)];
  uint32_t left = memSize(Mem::UB) - used;
  if (left < minBytes) {
    fail(loc,
         "%s without a sharedTmpBuffer takes its temporary space from the UB the TPipe left free: %u bytes are "
         "free (%u of %u used by InitBuffer), this call needs %u; hint: InitBuffer less, or pass a sharedTmpBuffer",
         api, left, used, memSize(Mem::UB), minBytes);
  }
  AscendC::LocalTensor<uint8_t> t;
  t.ref_ = TensorRef{Mem::UB, used, used, memSize(Mem::UB), -1, 0, AscendC::TPosition::VECCALC, true};
  t.size_ = left;
  return t;
}

// Checks that `count` elements of T starting at the tensor fit in it (a clearer message than the raw bounds check).
template <typename T>
inline void checkCount(const AscendC::LocalTensor<T>& t, uint64_t count, const char* api, const char* what,
                       const SrcLoc& loc) {
  if (count > t.GetSize()) {
    fail(loc,
         "%s %s needs %llu elements but the tensor holds %u; hint: pass a count of at most GetSize(), or "
         "allocate a larger buffer",
         api, what, static_cast<unsigned long long>(count), t.GetSize());
  }
}

// ---- trace ---------------------------------------------------------------------------------------------------------

// Records one vector instruction over `elements` elements of `dtypeBytes` bytes (256 bytes per repeat).
inline uint32_t vecInstr(Core& core, const char* name, const SrcLoc& loc, uint32_t dtypeBytes, uint64_t elements) {
  uint32_t ins = core.begin(Pipe::V, OpClass::Vector, name, loc);
  Instr& in = core.instr(ins);
  in.dtypeBytes = static_cast<uint8_t>(dtypeBytes);
  in.elements = elements;
  in.repeats = static_cast<uint32_t>(ceilDiv(elements * dtypeBytes, 256));
  in.src = Space::UB;
  in.dst = Space::UB;
  return ins;
}

// A sequence of vector instructions for one API call; `first()` takes the operand reads, `last()` the writes.
struct VecSeq {
  Core& core;
  const SrcLoc& loc;
  uint32_t firstIdx = 0, lastIdx = 0;
  bool any = false;
  uint32_t add(const char* name, uint32_t dtypeBytes, uint64_t elements) {
    uint32_t i = vecInstr(core, name, loc, dtypeBytes, elements);
    if (!any) firstIdx = i;
    lastIdx = i;
    any = true;
    return i;
  }
};

// The summation order every high-level reduction uses (Sum, Mean, SoftMax, LayerNorm, RmsNorm), modelled on the
// vector unit's per-repeat reduction: the values are cut into repeats of 64 floats; within a repeat, adjacent pairs are
// added, then adjacent pairs of those, ... (a binary tree, missing lanes count as 0); the per-repeat results are then
// added left to right. All in float.
inline float treeSum(const float* v, uint64_t n) {
  float total = 0.0f;
  for (uint64_t base = 0; base < n; base += 64) {
    float lane[64];
    uint64_t len = std::min<uint64_t>(64, n - base);
    for (uint64_t i = 0; i < 64; ++i) lane[i] = i < len ? v[base + i] : 0.0f;
    for (uint32_t width = 32; width >= 1; width /= 2)
      for (uint32_t i = 0; i < width; ++i) lane[i] = lane[2 * i] + lane[2 * i + 1];
    total = base == 0 ? lane[0] : total + lane[0];
  }
  return total;
}

template <typename T>
inline float ld(const T* p, uint64_t i) {
  return toFloat(p[i]);
}
template <typename T>
inline void st(T* p, uint64_t i, float v) {
  p[i] = fromFloat<T>(v);
}

}  // namespace tcemu::hl
