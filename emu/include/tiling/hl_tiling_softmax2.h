// Host queries of LogSoftMax (CANN 8.1 highlevel_api/lib/activation/logsoftmax_tiling.h): GetLogSoftMaxMaxTmpSize,
// GetLogSoftMaxMinTmpSize, LogSoftMaxTilingFunc. The sizes are SoftMax's (emu/hl_sizes.h rowTmpBytes), which the
// kernel side (emu/hl_softmax2.h) checks against; SimpleSoftMax uses SoftMax's own queries, as in CANN. And those of
// SoftmaxGrad (softmax_tiling.h): GetSoftMaxGradMaxTmpSize, GetSoftMaxGradMinTmpSize, SoftMaxGradTilingFunc, with
// CANN's per-row need (emu/hl_sizes.h softmaxGradRowFloats) and CANN's split of the rows.
#pragma once

#include "tiling/hl_tiling.h"

namespace optiling {

struct LogSoftMaxTiling : ::LogSoftMaxTiling {
  TCEMU_TILING_COMMON(LogSoftMaxTiling)
  TCEMU_SOFTMAX_TILING_FIELDS(TCEMU_TILING_FIELD)
};

}  // namespace optiling

namespace tcemu::hl {
// SoftmaxGrad's temporary bytes for one row of srcShape, and its rows: the two queries are these, per row or for all.
inline uint32_t softmaxGradRowBytes(const ge::Shape& srcShape, uint32_t dataTypeSize, bool isFront, uint64_t& rows) {
  uint32_t k;
  rowsAndLast(srcShape, rows, k);
  return softmaxGradRowFloats(k, dataTypeSize, isFront) * 4;
}
}  // namespace tcemu::hl

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

inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isReuseSource;
  uint64_t rows;
  const uint32_t perRow = tcemu::hl::softmaxGradRowBytes(srcShape, dataTypeSize, isFront, rows);
  return static_cast<uint32_t>(rows * perRow);
}

inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isReuseSource;
  uint64_t rows;
  const uint32_t perRow = tcemu::hl::softmaxGradRowBytes(srcShape, dataTypeSize, isFront, rows);
  return rows ? perRow : 0;
}

// Rows per loop: as many as localWorkSpaceSize holds, a multiple of 8 when that is fewer than all of them; for rows
// in whole groups of 8 with k a multiple of 64 (CANN's basic block), a divisor of the row count that keeps one loop
// under 255 repeats of 64 floats.
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
  uint64_t rows;
  uint32_t k;
  tcemu::hl::rowsAndLast(srcShape, rows, k);
  const uint32_t m = static_cast<uint32_t>(rows), blockK = 32 / dataTypeSize;
  uint32_t baseM = std::min(localWorkSpaceSize / 4 / tcemu::hl::softmaxGradRowFloats(k, dataTypeSize, isFront), m);
  if (baseM < m && baseM > 8) baseM = baseM / 8 * 8;
  if (baseM > 8 && m % 8 == 0 && k % 64 == 0) {
    baseM = baseM / 8 * 8;
    while (m % baseM != 0) baseM -= 8;
    while (baseM * k >= 64u * 256u) baseM /= 2;
  }
  tcemu::hl::setSoftmaxSplit(softmaxGradTiling, m, k, baseM, blockK, blockK);
}

}  // namespace AscendC
