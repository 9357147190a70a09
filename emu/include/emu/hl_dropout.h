// DropOut (CANN 8.1 highlevel_api/lib/filter/dropout.h): src [firstAxis, srcLastAxis] times a keep mask, scaled by
// 1 / keepProb. The mode comes from the template argument or, with dropOutMode = 0, from the shape as CANN picks it:
// maskLastAxis > srcLastAxis: byte mask with padded rows (1); equal: byte mask (2); srcLastAxis = 8 x maskLastAxis:
// bit mask (3); otherwise bit mask with padded rows (4).
//
// Semantics of CANN's c220 library: div = T(1.0f / keepProb). Byte modes: dst = T(T(mask * x) * div) (the mask byte
// is widened to T and multiplied, so the library expects bytes 0 or 1); bit modes (bit j of byte j / 8, least
// significant first): dst = bit ? T(x * div) : +0. The padded-row modes first compact the mask rows in place
// (GatherMask), so the mask tensor is rewritten, as on the device. Temporary space: one 128-element repeat of the
// mask widened to half (256 bytes), and for float the float copy as well (512 more).
#pragma once

#include "emu/hl_common.h"

namespace AscendC {

struct DropOutShapeInfo {
  DropOutShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

}  // namespace AscendC

namespace tcemu::hl {

template <typename T, uint32_t dropOutMode>
inline void dropOut(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint8_t>& mask, const AscendC::LocalTensor<uint8_t>* tmp, float keepProb,
                    const AscendC::DropOutShapeInfo& info, const SrcLoc& loc) {
  checkDtype<T, half, float>("DropOut", loc);
  const uint32_t axes[3] = {info.firstAxis, info.srcLastAxis, info.maskLastAxis};
  const char* axisNames[3] = {"firstAxis", "srcLastAxis", "maskLastAxis"};
  for (int a = 0; a < 3; ++a) {
    if (axes[a] == 0) {
      fail(loc,
           "DropOut info.%s = 0; CANN requires firstAxis, srcLastAxis and maskLastAxis > 0; hint: fill "
           "DropOutShapeInfo with the row count, the src row length and the mask row length (bytes)",
           axisNames[a]);
    }
  }
  uint32_t mode = dropOutMode;
  if (mode == 0) {
    if (info.srcLastAxis < info.maskLastAxis) mode = AscendC::DROPOUT_MODE_BYTE_MISALIGN;
    else if (info.srcLastAxis == info.maskLastAxis) mode = AscendC::DROPOUT_MODE_BYTE_ALIGN;
    else if (info.srcLastAxis == info.maskLastAxis * 8) mode = AscendC::DROPOUT_MODE_BIT_ALIGN;
    else mode = AscendC::DROPOUT_MODE_BIT_MISALIGN;
  }
  if (mode < 1 || mode > 4) {
    fail(loc,
         "DropOut<T, isInitBitMode, dropOutMode = %u>: the modes are 0 (from the shape) and 1 to 4; hint: leave "
         "dropOutMode at 0",
         mode);
  }
  const bool bitMode = mode >= AscendC::DROPOUT_MODE_BIT_ALIGN;
  const bool padded = mode == AscendC::DROPOUT_MODE_BYTE_MISALIGN || mode == AscendC::DROPOUT_MODE_BIT_MISALIGN;
  const uint32_t unit = bitMode ? 16u : 2u;  // the compaction gathers uint16 words: 16 bits or 2 bytes
  if (padded && (info.maskLastAxis % 32 != 0 || info.srcLastAxis % unit != 0)) {
    fail(loc,
         "DropOut with padded %s mask rows: maskLastAxis = %u bytes must be a multiple of 32 and srcLastAxis = "
         "%u a multiple of %u (the rows are compacted as uint16 words); hint: pad the mask rows to 32 bytes and the "
         "src rows to %u elements",
         bitMode ? "bit" : "byte", info.maskLastAxis, info.srcLastAxis, unit, unit);
  }
  const uint64_t count = uint64_t{info.firstAxis} * info.srcLastAxis;
  const uint64_t maskBytes = uint64_t{info.firstAxis} *
                             (padded ? info.maskLastAxis : (bitMode ? ceilDiv(info.srcLastAxis, 8) : info.srcLastAxis));
  checkUb(src.ref_, "DropOut", "srcLocal", loc);
  checkUb(dst.ref_, "DropOut", "dstLocal", loc);
  checkUb(mask.ref_, "DropOut", "maskLocal", loc);
  checkCount(src, count, "DropOut", "srcLocal", loc);
  checkCount(dst, count, "DropOut", "dstLocal", loc);
  checkCount(mask, maskBytes, "DropOut", "maskLocal", loc);
  const uint32_t minTmp = dropOutMinTmp(sizeof(T));
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, minTmp, "DropOut", "GetDropOutMaxMinTmpSize", loc);
    work = *tmp;
  } else {
    work = stackBuffer(minTmp, "DropOut", loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (padded) seq.add("GatherMask", 2, maskBytes / 2);
  if (bitMode) {
    seq.add("Muls", 2, 128);
    seq.add("Select", sizeof(T), count);
  } else {
    seq.add("Cast", 2, count);
    if (sizeof(T) == 4) seq.add("Cast", 4, count);
    seq.add("Mul", sizeof(T), count);
  }
  seq.add("Muls", sizeof(T), count);
  core.read(seq.firstIdx, src.ref_, 0, count * sizeof(T), "DropOut srcLocal", loc);
  core.read(seq.firstIdx, mask.ref_, 0, maskBytes, "DropOut maskLocal", loc);
  if (padded) core.write(seq.firstIdx, mask.ref_, 0, maskBytes, "DropOut maskLocal", loc);
  core.write(seq.firstIdx, work.ref_, 0, minTmp, "DropOut sharedTmpBuffer", loc);
  core.read(seq.lastIdx, work.ref_, 0, minTmp, "DropOut sharedTmpBuffer", loc);
  core.write(seq.lastIdx, dst.ref_, 0, count * sizeof(T), "DropOut dstLocal", loc);

  uint8_t* m = mask.GetPhyAddr();
  const uint32_t rowBytes = padded ? info.maskLastAxis : 0;
  const uint32_t keptBytes = bitMode ? info.srcLastAxis / 8 : info.srcLastAxis;
  std::vector<uint8_t> bits;
  if (padded) {  // the in-place compaction: row r's first keptBytes bytes move to r * keptBytes
    std::vector<uint8_t> packed(uint64_t{info.firstAxis} * keptBytes);
    for (uint32_t r = 0; r < info.firstAxis; ++r)
      std::copy(m + uint64_t{r} * rowBytes, m + uint64_t{r} * rowBytes + keptBytes,
                packed.begin() + uint64_t{r} * keptBytes);
    std::copy(packed.begin(), packed.end(), m);
  }
  const float div = toFloat(fromFloat<T>(1.0f / keepProb));
  const T* s = src.GetPhyAddr();
  std::vector<T> out(count);
  for (uint64_t i = 0; i < count; ++i) {
    const float x = ld(s, i);
    if (bitMode) {
      const bool keep = (m[i / 8] >> (i % 8)) & 1u;
      out[i] = keep ? fromFloat<T>(x * div) : fromFloat<T>(0.0f);
    } else {
      const float prod = toFloat(fromFloat<T>(static_cast<float>(m[i]) * x));
      out[i] = fromFloat<T>(prod * div);
    }
  }
  std::copy(out.begin(), out.end(), dst.GetPhyAddr());
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb, const DropOutShapeInfo& info,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::dropOut<T, dropOutMode>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info, loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const float keepProb,
                               const DropOutShapeInfo& info, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::dropOut<T, dropOutMode>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info, loc);
}

}  // namespace AscendC
