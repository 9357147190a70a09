// Host queries of AscendQuant (CANN 8.1 highlevel_api/lib/quantization/ascend_quant_tiling.h) and DropOut
// (lib/filter/dropout_tiling.h). The sizes are the emulator implementation's: AscendQuant (emu/hl_quant.h) needs at
// least one block of 32 half values (64 bytes) and uses at most the whole input as half, rounded up to that block;
// DropOut (emu/hl_dropout.h) uses one fixed work area (emu/hl_sizes.h dropOutMinTmp) for any shape.
#pragma once

#include "tiling/hl_tiling.h"

namespace AscendC {

inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
  (void)typeSize;
  const uint64_t count = static_cast<uint64_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
  minValue = 64;
  maxValue = static_cast<uint32_t>(std::max<uint64_t>(64, tcemu::roundUp(count * 2, 64)));
}

inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
  (void)srcShape;
  (void)isReuseSource;
  return tcemu::hl::dropOutMinTmp(typeSize);
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
  return GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
  maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
