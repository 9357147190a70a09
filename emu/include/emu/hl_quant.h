// AscendQuant (CANN 8.1 highlevel_api/lib/quantization/ascend_quant.h): float/half to int8, per tensor (scalar scale
// and offset), per channel with a scalar offset, or per channel with an offset tensor.
//
// Semantics of CANN's c220 library, every step a half instruction: x = half(src) (Cast CAST_NONE, i.e. nearest
// even), y = half(x * half(scale)) (Muls, or Mul with the scale tensor), y = half(y + half(offset)) (Adds, or Add
// with the offset tensor), dst = int8(y) (Cast CAST_NONE: nearest even, saturating, as emu/vec_cast_cmp.h).
// Per channel, src is [calCount / scaleCount, scaleCount] and element i takes scale[i % scaleCount].
// Temporary space: the library works in half blocks of 32 elements through the sharedTmpBuffer (or the free UB),
// so it needs at least 64 bytes; GetAscendQuantMaxMinTmpSize returns that minimum and the whole input as half.
#pragma once

#include "emu/hl_common.h"
#include "emu/vec_cast_cmp.h"

namespace AscendC {

struct AscendQuantConfig {
  constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn, const uint32_t scaleCountIn,
                              const uint32_t workLocalSizeIn)
      : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn), workLocalSize(workLocalSizeIn) {}
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};

constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

}  // namespace AscendC

namespace tcemu::hl {

inline constexpr uint32_t kQuantMinTmp = 64;  // one block of 32 half values

inline int8_t quantValue(float x, float scale, float offset) {
  const float xh = toFloat(vec::castValue<half>(x, AscendC::RoundMode::CAST_NONE, 0.0f));
  const float sh = toFloat(fromFloat<half>(scale)), oh = toFloat(fromFloat<half>(offset));
  const float y = toFloat(fromFloat<half>(toFloat(fromFloat<half>(xh * sh)) + oh));
  return vec::castValue<int8_t>(fromFloat<half>(y), AscendC::RoundMode::CAST_NONE, 0.0f);
}

// scale/offset: per-tensor scalars when the tensors are null; per channel otherwise (offsetTensor may be null: then
// the scalar offset applies to every channel).
template <typename T>
inline void ascendQuant(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>* tmp, float scale, float offset,
                        const AscendC::LocalTensor<T>* scaleTensor, const AscendC::LocalTensor<T>* offsetTensor,
                        uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount, const SrcLoc& loc) {
  checkDtype<T, half, float>("AscendQuant", loc);
  checkUb(src.ref_, "AscendQuant", "srcTensor", loc);
  checkUb(dst.ref_, "AscendQuant", "dstTensor", loc);
  checkCount(src, calCount, "AscendQuant", "srcTensor", loc);
  checkCount(dst, calCount, "AscendQuant", "dstTensor", loc);
  if (scaleTensor) {
    checkUb(scaleTensor->ref_, "AscendQuant", "scaleTensor", loc);
    checkCount(*scaleTensor, scaleCount, "AscendQuant", "scaleTensor", loc);
    if (offsetTensor) {
      checkUb(offsetTensor->ref_, "AscendQuant", "offsetTensor", loc);
      checkCount(*offsetTensor, offsetCount, "AscendQuant", "offsetTensor", loc);
      if (scaleCount != offsetCount) {
        fail(loc,
             "AscendQuant per channel: scaleCount = %u and offsetCount = %u must be equal; hint: pass one "
             "offset per scale",
             scaleCount, offsetCount);
      }
    }
    if (scaleCount == 0 || calCount == 0 || calCount % scaleCount != 0) {
      fail(loc,
           "AscendQuant per channel: calCount = %u must be a non-zero multiple of scaleCount = %u (src is "
           "[calCount / scaleCount, scaleCount]); hint: pass whole rows of scaleCount channels",
           calCount, scaleCount);
    }
  }
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, kQuantMinTmp, "AscendQuant", "GetAscendQuantMaxMinTmpSize", loc);
    work = *tmp;
  } else {
    work = stackBuffer(kQuantMinTmp, "AscendQuant", loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 4) seq.add("Cast", 4, calCount);
  if (scaleTensor && sizeof(T) == 4) seq.add("Cast", 4, scaleCount);
  seq.add(scaleTensor ? "Mul" : "Muls", 2, calCount);
  seq.add(offsetTensor ? "Add" : "Adds", 2, calCount);
  seq.add("Cast", 2, calCount);
  const uint32_t used = std::min<uint32_t>(work.GetSize(), static_cast<uint32_t>(roundUp(uint64_t{calCount} * 2, 64)));
  core.read(seq.firstIdx, src.ref_, 0, uint64_t{calCount} * sizeof(T), "AscendQuant srcTensor", loc);
  if (scaleTensor) {
    core.read(seq.firstIdx, scaleTensor->ref_, 0, uint64_t{scaleCount} * sizeof(T), "AscendQuant scaleTensor", loc);
  }
  if (offsetTensor) {
    core.read(seq.firstIdx, offsetTensor->ref_, 0, uint64_t{offsetCount} * sizeof(T), "AscendQuant offsetTensor", loc);
  }
  core.write(seq.firstIdx, work.ref_, 0, used, "AscendQuant sharedTmpBuffer", loc);
  core.read(seq.lastIdx, work.ref_, 0, used, "AscendQuant sharedTmpBuffer", loc);
  core.write(seq.lastIdx, dst.ref_, 0, calCount, "AscendQuant dstTensor", loc);

  const T* s = src.GetPhyAddr();
  std::vector<int8_t> out(calCount);
  for (uint32_t i = 0; i < calCount; ++i) {
    float sc = scaleTensor ? ld(scaleTensor->GetPhyAddr(), i % scaleCount) : scale;
    float of = offsetTensor ? ld(offsetTensor->GetPhyAddr(), i % scaleCount) : offset;
    out[i] = quantValue(ld(s, i), sc, of);
  }
  std::copy(out.begin(), out.end(), dst.GetPhyAddr());
}

}  // namespace tcemu::hl

namespace AscendC {

// Per tensor.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, nullptr, nullptr, 0, 0, calCount,
                            loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset, const uint32_t calCount,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, nullptr, scale, offset, nullptr, nullptr, 0, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, nullptr, nullptr, 0, 0,
                            srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, nullptr, scale, offset, nullptr, nullptr, 0, 0, srcTensor.GetSize(),
                            loc);
}

// Per channel, scalar offset.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount, const uint32_t calCount,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, &sharedTmpBuffer, 0.0f, tcemu::toFloat(offset), &scaleTensor, nullptr,
                            scaleCount, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, nullptr, 0.0f, tcemu::toFloat(offset), &scaleTensor, nullptr,
                            scaleCount, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, &sharedTmpBuffer, 0.0f, tcemu::toFloat(offset), &scaleTensor, nullptr,
                            scaleTensor.GetSize(), 0, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, nullptr, 0.0f, tcemu::toFloat(offset), &scaleTensor, nullptr,
                            scaleTensor.GetSize(), 0, srcTensor.GetSize(), loc);
}

// Per channel, offset tensor.
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                   const uint32_t offsetCount, const uint32_t calCount,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, &sharedTmpBuffer, 0.0f, 0.0f, &scaleTensor, &offsetTensor, scaleCount,
                            offsetCount, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                   const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, nullptr, 0.0f, 0.0f, &scaleTensor, &offsetTensor, scaleCount,
                            offsetCount, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, &sharedTmpBuffer, 0.0f, 0.0f, &scaleTensor, &offsetTensor,
                            scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::ascendQuant<T>(dstTensor, srcTensor, nullptr, 0.0f, 0.0f, &scaleTensor, &offsetTensor,
                            scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}

}  // namespace AscendC
