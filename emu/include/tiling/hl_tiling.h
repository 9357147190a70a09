// Host-side tiling and temporary-size queries of the vector high-level APIs (CANN's tiling/tiling_api.h part for
// SoftMax, LayerNorm, RmsNorm, Sigmoid, Gelu, Tanh, Sum, Mean). The sizes are those of the emulator's
// implementation (emu/hl_common.h), which the kernel side checks against, so a size from here always passes there.
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

#include "emu/base.h"
#include "emu/hl_sizes.h"
#include "graph/shape.h"
#include "kernel_tiling/kernel_tiling.h"

namespace tcemu::hl {
// [rows, last] view of a shape: the last axis and the product of the others.
inline void rowsAndLast(const ge::Shape& s, uint64_t& rows, uint32_t& last) {
  size_t n = s.GetDimNum();
  last = n ? static_cast<uint32_t>(s.GetDim(n - 1)) : 0;
  rows = 1;
  for (size_t i = 0; i + 1 < n; ++i) rows *= static_cast<uint64_t>(s.GetDim(i));
  if (n == 0) rows = 0;
}
}  // namespace tcemu::hl

// Host tiling structs: the kernel struct's fields plus the set_x/get_x accessors of CANN's TILING_DATA_FIELD_DEF.
#define TCEMU_TILING_FIELD(type, name)  \
  void set_##name(type v) { name = v; } \
  type get_##name() const { return name; }
#define TCEMU_TILING_COMMON(Kernel)                                                               \
  size_t GetDataSize() const { return sizeof(::Kernel); }                                         \
  void SaveToBuffer(void* pData, size_t capacity) const {                                         \
    std::memcpy(pData, static_cast<const ::Kernel*>(this), std::min(capacity, sizeof(::Kernel))); \
  }

namespace optiling {

struct SoftMaxTiling : ::SoftMaxTiling {
  TCEMU_TILING_COMMON(SoftMaxTiling)
  TCEMU_SOFTMAX_TILING_FIELDS(TCEMU_TILING_FIELD)
};

struct LayerNormTiling : ::LayerNormTiling {
  TCEMU_TILING_COMMON(LayerNormTiling)
  TCEMU_TILING_FIELD(uint32_t, bLength)
  TCEMU_TILING_FIELD(uint32_t, sLength)
  TCEMU_TILING_FIELD(uint32_t, hLength)
  TCEMU_TILING_FIELD(uint32_t, originalHLength)
  TCEMU_TILING_FIELD(uint32_t, inputXSize)
  TCEMU_TILING_FIELD(uint32_t, meanVarSize)
  TCEMU_TILING_FIELD(uint32_t, numberOfTmpBuf)
  TCEMU_TILING_FIELD(uint32_t, meanTmpTensorPos)
  TCEMU_TILING_FIELD(uint32_t, meanTmpTensorSize)
  TCEMU_TILING_FIELD(uint32_t, varianceTmpTensorPos)
  TCEMU_TILING_FIELD(uint32_t, varianceTmpTensorSize)
  TCEMU_TILING_FIELD(uint32_t, tmpBufSize)
  TCEMU_TILING_FIELD(uint32_t, oneTmpSize)
  TCEMU_TILING_FIELD(uint32_t, firstTmpStartPos)
  TCEMU_TILING_FIELD(uint32_t, secondTmpStartPos)
  TCEMU_TILING_FIELD(uint32_t, thirdTmpStartPos)
  TCEMU_TILING_FIELD(uint32_t, loopRound)
  TCEMU_TILING_FIELD(uint32_t, inputRoundSize)
  TCEMU_TILING_FIELD(uint32_t, inputTailSize)
  TCEMU_TILING_FIELD(uint32_t, inputTailPos)
  TCEMU_TILING_FIELD(uint32_t, meanVarRoundSize)
  TCEMU_TILING_FIELD(uint32_t, meanVarTailSize)
  TCEMU_TILING_FIELD(uint32_t, meanVarTailPos)
  TCEMU_TILING_FIELD(uint32_t, bshCurLength)
  TCEMU_TILING_FIELD(uint32_t, bsCurLength)
  TCEMU_TILING_FIELD(float, lastDimValueBack)
};

struct RmsNormTiling : ::RmsNormTiling {
  TCEMU_TILING_COMMON(RmsNormTiling)
  TCEMU_TILING_FIELD(uint32_t, bLength)
  TCEMU_TILING_FIELD(uint32_t, sLength)
  TCEMU_TILING_FIELD(uint32_t, hLength)
  TCEMU_TILING_FIELD(uint32_t, originalHLength)
  TCEMU_TILING_FIELD(float, reciprocalOfHLength)
  TCEMU_TILING_FIELD(uint32_t, mainBshLength)
  TCEMU_TILING_FIELD(uint32_t, mainBsLength)
  TCEMU_TILING_FIELD(uint32_t, mainBsLengthAlign)
  TCEMU_TILING_FIELD(uint32_t, loopRound)
  TCEMU_TILING_FIELD(uint32_t, inputTailPos)
  TCEMU_TILING_FIELD(uint32_t, tailBshLength)
  TCEMU_TILING_FIELD(uint32_t, tailBsLength)
};

}  // namespace optiling

namespace tcemu::hl {
// The fields of a softmax-family tiling for [m, k] rows done splitM at a time: the stat blocks hold outMaxK
// elements per row, a loop's reduction reduceK.
inline void setSoftmaxSplit(optiling::SoftMaxTiling& t, uint32_t m, uint32_t k, uint32_t splitM, uint32_t outMaxK,
                            uint32_t reduceK) {
  t.set_srcM(m);
  t.set_srcK(k);
  t.set_srcSize(m * k);
  t.set_outMaxM(m);
  t.set_outMaxK(outMaxK);
  t.set_outMaxSize(m * outMaxK);
  t.set_splitM(splitM);
  t.set_splitK(k);
  t.set_splitSize(splitM * k);
  t.set_reduceM(splitM);
  t.set_reduceK(reduceK);
  t.set_reduceSize(splitM * reduceK);
  t.set_rangeM(splitM ? m / splitM : 0);
  t.set_tailM(splitM ? m % splitM : 0);
  t.set_tailSplitSize(t.tailM * k);
  t.set_tailReduceSize(t.tailM * reduceK);
}
}  // namespace tcemu::hl

namespace AscendC {

// ---- SoftMax: a float row (+ its widened copy for half) and two 32-byte stat blocks per row of work ------------------------------

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  uint64_t rows;
  uint32_t k;
  tcemu::hl::rowsAndLast(srcShape, rows, k);
  return static_cast<uint32_t>(rows * tcemu::hl::rowTmpBytes(k, dataTypeSize));
}

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  uint64_t rows;
  uint32_t k;
  tcemu::hl::rowsAndLast(srcShape, rows, k);
  return rows ? tcemu::hl::rowTmpBytes(k, dataTypeSize) : 0;
}

// Splits the rows into loops of splitM rows that fit localWorkSpaceSize bytes of temporary space (at least one row).
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
  uint64_t rows;
  uint32_t k;
  tcemu::hl::rowsAndLast(srcShape, rows, k);
  const uint32_t m = static_cast<uint32_t>(rows);
  const uint32_t perRow = tcemu::hl::rowTmpBytes(k, dataTypeSize);
  uint32_t splitM = std::min<uint32_t>(m, std::max<uint32_t>(1, localWorkSpaceSize / perRow));
  tcemu::hl::setSoftmaxSplit(softmaxTiling, m, k, splitM, 32 / dataTypeSize, 8);  // reduce: one float block per row
}

// ---- LayerNorm / RmsNorm: shapes [B, S, H] -------------------------------------------------------------------------

inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  uint64_t rows;
  uint32_t h;
  tcemu::hl::rowsAndLast(srcShape, rows, h);
  minValue = rows ? tcemu::hl::rowTmpBytes(h, typeSize) : 0;
  maxValue = static_cast<uint32_t>(rows * tcemu::hl::rowTmpBytes(h, typeSize));
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& tiling) {
  (void)isReuseSource;
  const uint32_t b = srcShape.GetDimNum() > 0 ? static_cast<uint32_t>(srcShape.GetDim(0)) : 0;
  const uint32_t s = srcShape.GetDimNum() > 1 ? static_cast<uint32_t>(srcShape.GetDim(1)) : 0;
  const uint32_t h = srcShape.GetDimNum() > 2 ? static_cast<uint32_t>(srcShape.GetDim(2)) : 0;
  const uint32_t rows = b * s;
  const uint32_t perRow = tcemu::hl::rowTmpBytes(h, typeSize);
  const uint32_t rowsPerLoop = rows ? std::min<uint32_t>(rows, std::max<uint32_t>(1, stackBufferSize / perRow)) : 0;
  tiling.set_bLength(b);
  tiling.set_sLength(s);
  tiling.set_hLength(h);
  tiling.set_originalHLength(h);
  tiling.set_inputXSize(rows * h);
  tiling.set_meanVarSize(rows);
  tiling.set_numberOfTmpBuf(typeSize == 2 ? 2 : 1);
  tiling.set_meanTmpTensorPos(0);
  tiling.set_meanTmpTensorSize(rowsPerLoop * 8);
  tiling.set_varianceTmpTensorPos(rowsPerLoop * 8);
  tiling.set_varianceTmpTensorSize(rowsPerLoop * 8);
  tiling.set_tmpBufSize(stackBufferSize / 4);
  tiling.set_oneTmpSize(rowsPerLoop * h);
  tiling.set_firstTmpStartPos(rowsPerLoop * 16);
  tiling.set_secondTmpStartPos(rowsPerLoop * (16 + h));
  tiling.set_thirdTmpStartPos(rowsPerLoop * (16 + 2 * h));
  tiling.set_loopRound(rowsPerLoop ? rows / rowsPerLoop : 0);
  tiling.set_inputRoundSize(rowsPerLoop * h);
  tiling.set_inputTailSize(rowsPerLoop ? rows % rowsPerLoop * h : 0);
  tiling.set_inputTailPos(tiling.loopRound * rowsPerLoop * h);
  tiling.set_meanVarRoundSize(rowsPerLoop);
  tiling.set_meanVarTailSize(rowsPerLoop ? rows % rowsPerLoop : 0);
  tiling.set_meanVarTailPos(tiling.loopRound * rowsPerLoop);
  tiling.set_bshCurLength(rowsPerLoop * h);
  tiling.set_bsCurLength(rowsPerLoop);
  tiling.set_lastDimValueBack(h ? 1.0f / static_cast<float>(h) : 0.0f);
}

// Returns false when the shape is not [B, S, H] with H a whole number of 32-byte blocks.
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  (void)isBasicBlock;
  if (srcShape.GetDimNum() != 3 || typeSize == 0 || srcShape.GetDim(2) * typeSize % 32 != 0) return false;
  uint64_t rows;
  uint32_t h;
  tcemu::hl::rowsAndLast(srcShape, rows, h);
  minValue = tcemu::hl::rowTmpBytes(h, typeSize);
  maxValue = static_cast<uint32_t>(rows * minValue);
  return true;
}

// Returns false for an invalid shape or a stack buffer below the minimum of GetRmsNormMaxMinTmpSize.
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  uint32_t maxV = 0, minV = 0;
  if (!GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxV, minV, isBasicBlock)) return false;
  if (originSrcShape.GetDimNum() != 3 || originSrcShape.GetDim(2) > srcShape.GetDim(2)) return false;
  if (stackBufferByteSize < minV) return false;
  const uint32_t b = static_cast<uint32_t>(srcShape.GetDim(0)), s = static_cast<uint32_t>(srcShape.GetDim(1));
  const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(2));
  const uint32_t oriH = static_cast<uint32_t>(originSrcShape.GetDim(2));
  const uint32_t rows = b * s;
  const uint32_t rowsPerLoop = std::min<uint32_t>(rows, stackBufferByteSize / minV);
  tiling.set_bLength(b);
  tiling.set_sLength(s);
  tiling.set_hLength(h);
  tiling.set_originalHLength(oriH);
  tiling.set_reciprocalOfHLength(1.0f / static_cast<float>(oriH));
  tiling.set_mainBshLength(rowsPerLoop * h);
  tiling.set_mainBsLength(rowsPerLoop);
  tiling.set_mainBsLengthAlign(static_cast<uint32_t>(tcemu::roundUp(rowsPerLoop, 8)));
  tiling.set_loopRound(rowsPerLoop ? rows / rowsPerLoop : 0);
  tiling.set_inputTailPos(tiling.loopRound * rowsPerLoop * h);
  tiling.set_tailBshLength(rowsPerLoop ? rows % rowsPerLoop * h : 0);
  tiling.set_tailBsLength(rowsPerLoop ? rows % rowsPerLoop : 0);
  return true;
}

// ---- elementwise activations: float work per element, doubled for half (the widened copy) --------------------------

inline void tcemuElementwiseSizes(const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                                  uint32_t& minValue) {
  uint64_t n = static_cast<uint64_t>(std::max<int64_t>(srcShape.GetShapeSize(), 0));
  minValue = tcemu::hl::elementwiseMinTmp(typeSize);
  maxValue = tcemu::hl::elementwiseMaxTmp(n, typeSize);
}

inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  tcemuElementwiseSizes(srcShape, typeSize, maxValue, minValue);
}
inline void GetTanhMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                 uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  tcemuElementwiseSizes(srcShape, typeSize, maxValue, minValue);
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  tcemuElementwiseSizes(srcShape, typeSize, maxValue, minValue);
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxV, minV;
  GetGeluMaxMinTmpSize(srcShape, typeSize, maxV, minV);
  return minV;
}
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxV, minV;
  GetGeluMaxMinTmpSize(srcShape, typeSize, maxV, minV);
  return maxV;
}

// ---- Sum / Mean: the per-repeat partial sums (plus the widened row for Mean with a wider accumulator) ----------------

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize) {
  (void)isReuseSource;
  minSize = maxSize = tcemu::hl::sumTmp(n, typeSize);
}

inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
  (void)isReuseSource;
  minSize = maxSize = tcemu::hl::meanTmp(n, srcTypeSize, accTypeSize);
}

}  // namespace AscendC
