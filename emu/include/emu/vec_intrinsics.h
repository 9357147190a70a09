// The CCE vector intrinsics that kernels call directly on raw UB addresses (LocalTensor::GetPhyAddr), with the
// forms of CANN 8.1's tikicpulib stub_fun.h: vcadd, the instruction WholeReduceSum is made of, and get_acc_val, the
// CPU-debug spelling of GetAccVal. An address is mapped back to the live TPipe buffer holding it, so the
// intrinsic gets the same bounds, liveness, written-data and hazard checks as the API call it stands for.
#pragma once

#include "emu/vec_reduce.h"

namespace tcemu {

// The LocalTensor a raw UB address points into: from it to the end of the allocated buffer that holds it.
template <typename T>
inline AscendC::LocalTensor<T> ubTensorAt(const T* p, const char* what, const SrcLoc& loc) {
  Core& core = cur();
  const Arena& ub = core.arena(Mem::UB);
  const auto* byte = reinterpret_cast<const uint8_t*>(p);
  if (p == nullptr || byte < ub.data.data() || byte >= ub.data.data() + ub.data.size()) {
    fail(loc, "%s is not a UB address; hint: pass a UB tensor's GetPhyAddr()", what);
  }
  uint32_t offset = static_cast<uint32_t>(byte - ub.data.data());
  for (size_t id = 0; id < core.buffers_.size(); ++id) {
    const BufferRec& b = core.buffers_[id];
    if (b.mem != Mem::UB || b.state == AscendC::TBufState::FREE || offset < b.start || offset >= b.start + b.len)
      continue;
    AscendC::LocalTensor<T> t;
    t.ref_ = TensorRef{
        Mem::UB, offset, b.start, b.start + b.len, static_cast<int32_t>(id), b.gen, AscendC::TPosition::VECCALC, true};
    t.SetSize((b.start + b.len - offset) / static_cast<uint32_t>(sizeof(T)));
    return t;
  }
  fail(loc,
       "%s points at UB byte %u, which no allocated TQue or TBuf buffer holds; hint: pass a live tensor's "
       "GetPhyAddr()",
       what, offset);
}

// mode false: WholeReduceSum with the mask register (one sum per repeat at dst + r * dstRepeatStride elements);
// mode true: the repeats' sums go to the ACC register (get_acc_val) and dst is not written (it may be nullptr).
template <typename T>
inline void vcaddImpl(T* dst, T* src, uint8_t repeat, uint16_t dstRepeatStride, uint16_t srcBlockStride,
                      uint16_t srcRepeatStride, bool mode, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  AscendC::LocalTensor<T> s = ubTensorAt<T>(src, "vcadd src", loc);
  AscendC::LocalTensor<T> d = mode ? AscendC::LocalTensor<T>() : ubTensorAt<T>(dst, "vcadd dst", loc);
  vec::wholeReduce("vcadd", vec::RedOp::Sum, d, s, vec::Mask::reg(), repeat, dstRepeatStride, srcBlockStride,
                   srcRepeatStride, AscendC::ReduceOrder::ORDER_VALUE_INDEX, loc, mode);
}

}  // namespace tcemu

#define TCEMU_VCADD(T)                                                                                                 \
  inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepeatStride,                        \
                    uint16_t srcBlockStride, uint16_t srcRepeatStride, bool mode,                                      \
                    tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                                    \
    tcemu::vcaddImpl<T>(dst, src, repeat, dstRepeatStride, srcBlockStride, srcRepeatStride, mode, loc);                \
  }                                                                                                                    \
  inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, uint8_t repeat, uint16_t dstRepeatStride,                        \
                    uint16_t srcBlockStride, uint16_t srcRepeatStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { \
    tcemu::vcaddImpl<T>(dst, src, repeat, dstRepeatStride, srcBlockStride, srcRepeatStride, false, loc);               \
  }
TCEMU_VCADD(half)
TCEMU_VCADD(float)
#undef TCEMU_VCADD

inline int64_t get_acc_val(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { return AscendC::GetAccVal(loc); }
