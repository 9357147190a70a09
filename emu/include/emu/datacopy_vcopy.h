// Copy: the masked UB -> UB copy on PIPE_V (ascendc_api.md §2.1), with CopyRepeatParams. It runs on the vector
// engine of emu/vec_engine.h, so masks, repeats, counter mode and the address formula are those of every other
// vector instruction: lane l of repeat r sits at r * repeatSize * 32 + (l / perBlock) * stride * 32 bytes.
#pragma once

#include "emu/datacopy.h"
#include "emu/vec_engine.h"

namespace AscendC {

struct CopyRepeatParams {
  CopyRepeatParams() {}
  CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                   uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;  // block stride, in 32-byte blocks
  uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;  // repeat stride, in 32-byte blocks
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace tcemu {

template <typename T>
inline void vcopy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const vec::Mask& mask,
                  uint32_t repeatTimes, const AscendC::CopyRepeatParams& p, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  checkDtype<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>("Copy", loc);
  if constexpr (sizeof(T) == 2 || sizeof(T) == 4) {
    checkRange("Copy", "srcRepeatSize", p.srcRepeatSize, 0, 4095, "use a repeat stride below 4096 blocks", loc);
    checkRange("Copy", "dstRepeatSize", p.dstRepeatSize, 0, 4095, "use a repeat stride below 4096 blocks", loc);
    vec::VecInstr vi("Copy", sizeof(T), mask, repeatTimes, loc);
    vec::Operand s = vi.operand(src, {p.srcStride, p.srcRepeatSize}, "Copy src");
    vec::Operand d = vi.operand(dst, {p.dstStride, p.dstRepeatSize}, "Copy dst");
    vi.read(s);
    vi.write(d);
    vi.forEachRun([&](uint32_t r, uint32_t first, uint32_t n) {
      std::memmove(static_cast<void*>(vi.at<T>(d, r, first)), vi.at<T>(s, r, first), n * sizeof(T));
    });
    vi.finish();
  }
}

}  // namespace tcemu

namespace AscendC {

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint64_t mask[],
                 const uint8_t repeatTimes, const CopyRepeatParams& repeatParams,
                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vcopy(dstLocal, srcLocal, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);
}

template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint64_t mask,
                 const uint8_t repeatTimes, const CopyRepeatParams& repeatParams,
                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vcopy(dstLocal, srcLocal, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);
}

}  // namespace AscendC
