// Host queries of LogSoftMax (CANN 8.1 highlevel_api/lib/activation/logsoftmax_tiling.h): GetLogSoftMaxMaxTmpSize,
// GetLogSoftMaxMinTmpSize, LogSoftMaxTilingFunc. The sizes are SoftMax's (emu/hl_sizes.h rowTmpBytes), which the
// kernel side (emu/hl_softmax2.h) checks against; SimpleSoftMax uses SoftMax's own queries, as in CANN.
#pragma once

#include "tiling/hl_tiling.h"

namespace optiling {

struct LogSoftMaxTiling : ::LogSoftMaxTiling {
  TCEMU_TILING_COMMON(LogSoftMaxTiling)
  TCEMU_SOFTMAX_TILING_FIELDS(TCEMU_TILING_FIELD)
};

}  // namespace optiling

namespace AscendC {

inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}

inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}

// The split of SoftMaxTilingFunc; the stats blocks hold 32 bytes of the source type per row, as CANN's.
inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling) {
  optiling::SoftMaxTiling t;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
  static_cast<::LogSoftMaxTiling&>(softmaxTiling) = ::LogSoftMaxTiling{
      t.srcM,      t.srcK,    t.srcSize, t.outMaxM,    t.outMaxK, t.outMaxSize, t.splitM,        t.splitK,
      t.splitSize, t.reduceM, t.reduceK, t.reduceSize, t.rangeM,  t.tailM,      t.tailSplitSize, t.tailReduceSize};
}

}  // namespace AscendC
