// Host queries of Broadcast, Pad and UnPad (CANN 8.1 highlevel_api/lib/pad/*_tiling.h) with CANN's signatures:
// GetBroadCastMaxMinTmpSize, GetPadMaxMinTmpSize + PadTilingFunc, GetUnPadMaxMinTmpSize + UnPadTilingFunc.
//
// The sizes are the emulator implementation's (emu/hl_sizes.h, emu/hl_broadcast_pad.h): Broadcast's minimum is one
// pass of its work, the maximum all rows at once; Pad and UnPad are emulated without temporary space (0, 0). The
// tiling functions fill the shape fields the kernel side reads (srcHeight, srcWidth, srcOriWidth) and the row
// geometry; the remaining fields describe CANN's own loop split and stay 0.
#pragma once

#include "tiling/hl_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

struct PadTiling : ::PadTiling {
  TCEMU_TILING_COMMON(PadTiling)
  TCEMU_TILING_FIELD(uint32_t, srcHeight)
  TCEMU_TILING_FIELD(uint32_t, srcWidth)
  TCEMU_TILING_FIELD(uint32_t, srcOriWidth)
  TCEMU_TILING_FIELD(uint32_t, widthWithoutLastBlock)
  TCEMU_TILING_FIELD(uint32_t, blocksPerRow)
};

struct UnPadTiling : ::UnPadTiling {
  TCEMU_TILING_COMMON(UnPadTiling)
  TCEMU_TILING_FIELD(uint32_t, srcHeight)
  TCEMU_TILING_FIELD(uint32_t, srcWidth)
};

}  // namespace optiling

namespace AscendC {

// srcShape and dstShape of the same rank (1 or 2); the broadcast axis is the one where the source has size 1.
inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                      const ge::Shape& srcShape, const ge::Shape& dstShape, uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  const size_t dim = dstShape.GetDimNum();
  const uint64_t srcSize = static_cast<uint64_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
  const uint64_t dstSize = static_cast<uint64_t>(std::max<int64_t>(dstShape.GetShapeSize(), 0));
  const bool twoDim = dim == 2 && srcSize != dstSize && srcSize != 1;
  const uint32_t rows = dim == 2 ? static_cast<uint32_t>(dstShape.GetDim(0)) : 1;
  const uint32_t cols = dim ? static_cast<uint32_t>(dstShape.GetDim(dim - 1)) : 0;
  const uint32_t axis = dim == 2 && srcShape.GetDim(1) == 1 && dstShape.GetDim(1) != 1 ? 1u : 0u;
  minValue = tcemu::hl::broadcastCoreTmp(twoDim, axis, srcSize, dstSize, rows, cols, typeSize, false);
  maxValue = tcemu::hl::broadcastCoreTmp(twoDim, axis, srcSize, dstSize, rows, cols, typeSize, true);
}

inline void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                uint32_t& minValue) {
  (void)srcShape;
  (void)typeSize;
  maxValue = 0;
  minValue = 0;
}

// srcShape: [height, width] as stored (width may already be 32-byte aligned); oriSrcShape: [height, real width].
inline void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                          const uint32_t typeSize, optiling::PadTiling& tiling) {
  (void)stackBufferSize;
  const size_t n = srcShape.GetDimNum();
  uint64_t height = 0;
  uint32_t width = 0;
  tcemu::hl::rowsAndLast(srcShape, height, width);
  const size_t on = oriSrcShape.GetDimNum();
  tiling.set_srcHeight(static_cast<uint32_t>(n ? height : 0));
  tiling.set_srcWidth(width);
  tiling.set_srcOriWidth(on ? static_cast<uint32_t>(oriSrcShape.GetDim(on - 1)) : 0);
  const uint32_t perBlock = typeSize ? 32 / typeSize : 0;
  tiling.set_blocksPerRow(perBlock ? static_cast<uint32_t>(tcemu::ceilDiv(width, perBlock)) : 0);
  tiling.set_widthWithoutLastBlock(width >= perBlock ? width - perBlock : 0);
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)srcShape;
  (void)typeSize;
  maxValue = 0;
  minValue = 0;
}

inline void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            optiling::UnPadTiling& tiling) {
  (void)stackBufferSize;
  (void)typeSize;
  uint64_t height = 0;
  uint32_t width = 0;
  tcemu::hl::rowsAndLast(srcShape, height, width);
  tiling.set_srcHeight(static_cast<uint32_t>(height));
  tiling.set_srcWidth(width);
}

}  // namespace AscendC
