// Host temporary-size queries of the math and gated-activation high-level APIs the emulator implements (CANN 8.1
// highlevel_api/lib/math/*_tiling.h, lib/activation/*_tiling.h, lib/reduce/mean_tiling.h), with CANN's signatures:
// Get<Api>MaxMinTmpSize and Get<Api>TmpBufferFactorSize for Sin, Cos, Erf, Log, Log2, Log10, Floor, Round, Trunc,
// Sign, Clamp, Power, Tanh, SwiGLU, GeGLU, ReGlu and Mean.
//
// The sizes are the emulator implementation's (emu/hl_sizes.h), which the kernel-side checks use: the minimum is
// what one call needs (a 256-byte float repeat per live copy), the maximum what it uses for the whole input at
// once. The factor form describes the maximum as bytes = maxLiveNodeCnt * count * typeSize + extraBuf: the
// implementations keep `nodes` float copies of the data (2 for half: the widened input and the result; 1 for
// float), so maxLiveNodeCnt = nodes * 4 / typeSize, and extraBuf covers rounding each copy up to 256 bytes.
#pragma once

#include "tiling/hl_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace tcemu::hl {

inline uint64_t shapeCount(const ge::Shape& s) { return static_cast<uint64_t>(std::max<int64_t>(s.GetShapeSize(), 0)); }

// Factor form of `nodes` float copies per element.
inline void floatCopiesFactor(uint32_t nodes, uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  maxLiveNodeCnt = typeSize == 0 ? 0 : nodes * 4 / typeSize;
  extraBuf = nodes * 256;
}

// Gated activations: half keeps three float copies (both inputs and the result), float none (ReGlu one).
inline uint32_t gluNodes(uint32_t typeSize, bool floatNeedsTmp) {
  return typeSize == 2 ? 3u : (floatNeedsTmp ? 1u : 0u);
}
inline void gluSizes(const ge::Shape& s, uint32_t typeSize, bool floatNeedsTmp, uint32_t& maxValue,
                     uint32_t& minValue) {
  minValue = gluMinTmp(typeSize, floatNeedsTmp);
  uint64_t perNode = std::max<uint64_t>(roundUp(shapeCount(s) * 4, 256), 256);
  maxValue = static_cast<uint32_t>(gluNodes(typeSize, floatNeedsTmp) * perNode);
}

}  // namespace tcemu::hl

namespace AscendC {

#define TCEMU_HL_ELEMENTWISE_QUERIES(Api)                                                                            \
  inline void Get##Api##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,  \
                                      uint32_t& maxValue, uint32_t& minValue) {                                      \
    (void)isReuseSource;                                                                                             \
    tcemuElementwiseSizes(srcShape, typeSize, maxValue, minValue);                                                   \
  }                                                                                                                  \
  inline void Get##Api##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) { \
    tcemu::hl::floatCopiesFactor(tcemu::hl::elementwiseLiveNodes(typeSize), typeSize, maxLiveNodeCnt, extraBuf);     \
  }

TCEMU_HL_ELEMENTWISE_QUERIES(Sin)
TCEMU_HL_ELEMENTWISE_QUERIES(Cos)
TCEMU_HL_ELEMENTWISE_QUERIES(Erf)
TCEMU_HL_ELEMENTWISE_QUERIES(Log)
TCEMU_HL_ELEMENTWISE_QUERIES(Log2)
TCEMU_HL_ELEMENTWISE_QUERIES(Log10)
TCEMU_HL_ELEMENTWISE_QUERIES(Floor)
TCEMU_HL_ELEMENTWISE_QUERIES(Trunc)
TCEMU_HL_ELEMENTWISE_QUERIES(Sign)
#undef TCEMU_HL_ELEMENTWISE_QUERIES

inline void GetTanhTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  tcemu::hl::floatCopiesFactor(tcemu::hl::elementwiseLiveNodes(typeSize), typeSize, maxLiveNodeCnt, extraBuf);
}

// Round takes the platform first (CANN: the rounding path differs by SoC); the sizes do not depend on it here.
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  tcemuElementwiseSizes(srcShape, typeSize, maxValue, minValue);
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  (void)ascendcPlatform;
  tcemu::hl::floatCopiesFactor(tcemu::hl::elementwiseLiveNodes(typeSize), typeSize, maxLiveNodeCnt, extraBuf);
}

// ClampMax/ClampMin keep one compare bit mask of a repeat, whatever the size.
inline void GetClampMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
  (void)srcShape;
  (void)typeSize;
  (void)isReuseSource;
  minValue = maxValue = tcemu::hl::clampMinTmp();
}
inline void GetClampTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  (void)typeSize;
  maxLiveNodeCnt = 0;
  extraBuf = tcemu::hl::clampMinTmp();
}

// Power: as the elementwise APIs over the larger operand (a scalar base or exponent has shape {1}).
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)typeIsInt;
  (void)isReuseSource;
  const ge::Shape& s = srcShape1.GetShapeSize() >= srcShape2.GetShapeSize() ? srcShape1 : srcShape2;
  tcemuElementwiseSizes(s, typeSize, maxValue, minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  (void)baseIsTensor;
  (void)expIsTensor;
  (void)typeIsInt;
  tcemu::hl::floatCopiesFactor(tcemu::hl::elementwiseLiveNodes(typeSize), typeSize, maxLiveNodeCount, extraBuffer);
}

inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource = false) {
  (void)isReuseSource;
  tcemu::hl::gluSizes(srcShape, typeSize, false, maxValue, minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  tcemu::hl::floatCopiesFactor(tcemu::hl::gluNodes(typeSize, false), typeSize, maxLiveNodeCount, extraBuffer);
}
inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  tcemu::hl::gluSizes(srcShape, typeSize, false, maxValue, minValue);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  tcemu::hl::floatCopiesFactor(tcemu::hl::gluNodes(typeSize, false), typeSize, maxLiveNodeCnt, extraBuf);
}
inline void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  tcemu::hl::gluSizes(srcShape, typeSize, true, maxValue, minValue);
}

// Mean: the Sum partials (well under one element per element, plus a block) and, for half, the float row of the
// widened accumulation: 3 x 2 bytes per half element (1 x 4 per float) plus 64 bytes cover both.
inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  maxLiveNodeCount = typeSize == 2 ? 3 : 1;
  extraBuffer = 64;
}

}  // namespace AscendC
