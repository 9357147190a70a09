// SoftMax (ascendc_api.md §3.10): row-wise softmax over the last axis of an [m, k] UB tensor, k padded to 32 bytes.
//
// Semantics chosen (per row, all in float; half inputs widened exactly):
//   max = max of the first oriSrcK values; e_j = exp(x_j - max); sum = treeSum(e) (hl_common.h order);
//   dst_j = e_j / sum rounded once to T for j < oriSrcK, and 0 for the padding columns j >= oriSrcK.
// maxTensor and sumTensor are [m, 32 bytes]: each row's value is replicated across one 32-byte block, rounded to
// their element type. The shape comes from softmaxShapeInfo when it is set, else from the tiling (srcM, srcK);
// the rest of the tiling describes CANN's own loop split and is not needed here.
#pragma once

#include <tuple>
#include <utility>
#include <vector>

#include "emu/hl_common.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
  constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
  constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
  constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                          const SoftmaxMode modeIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};

constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

struct SoftMaxShapeInfo {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
};

}  // namespace AscendC

namespace tcemu::hl {

struct SoftmaxShape {
  uint32_t m, k, oriK;
};

// The [m, k] shape of a row-wise softmax-family call (`api`): from softmaxShapeInfo when it is set, else from the
// tiling (`tilingFunc` fills it); k padded to 32 bytes, oriK the real row length.
template <typename T>
inline SoftmaxShape rowShape(const char* api, const char* tilingFunc, uint32_t tilingM, uint32_t tilingK,
                             const AscendC::SoftMaxShapeInfo& info, const SrcLoc& loc) {
  SoftmaxShape s{info.srcM, info.srcK, info.oriSrcK};
  if (s.m == 0 || s.k == 0) s = {tilingM, tilingK, 0};
  if (s.m == 0 || s.k == 0) {
    fail(loc,
         "%s with an empty shape: SoftMaxShapeInfo and the tiling both give srcM = %u, srcK = %u; hint: pass "
         "SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} or a tiling filled by %s",
         api, s.m, s.k, tilingFunc);
  }
  if (s.k * sizeof(T) % 32 != 0) {
    fail(loc,
         "%s srcK = %u %s elements is %u bytes, not a multiple of 32; hint: pad the last axis to %u elements "
         "and pass the real length as oriSrcK",
         api, s.k, dtypeName<T>(), static_cast<uint32_t>(s.k * sizeof(T)),
         static_cast<uint32_t>(roundUp(s.k, 32 / sizeof(T))));
  }
  if (s.oriK == 0) s.oriK = s.k;
  if (s.oriK > s.k) {
    fail(loc, "%s oriSrcK = %u is larger than srcK = %u; hint: srcK is the padded row length, oriSrcK the real one",
         api, s.oriK, s.k);
  }
  return s;
}

// One row of the softmax family: the max of its first oriK values, e[j] = exp(x[j] - max) for j < expCount, and
// the treeSum of the first oriK of them. Returns {max, sum}.
template <typename T>
inline std::pair<float, float> rowMaxExpSum(const T* s, uint64_t base, const SoftmaxShape& sh, uint32_t expCount,
                                            std::vector<float>& e) {
  float mx = ld(s, base);
  for (uint32_t j = 1; j < sh.oriK; ++j) mx = std::max(mx, ld(s, base + j));
  for (uint32_t j = 0; j < expCount; ++j) e[j] = std::exp(ld(s, base + j) - mx);
  return {mx, treeSum(e.data(), sh.oriK)};
}

// Writes each row's sum and max over its whole 32-byte stat block, rounded to U.
template <typename U>
inline void storeRowStats(U* ps, U* pm, const std::vector<float>& rowSum, const std::vector<float>& rowMax) {
  const uint32_t statK = 32 / sizeof(U);
  for (size_t r = 0; r < rowSum.size(); ++r) {
    for (uint32_t j = 0; j < statK; ++j) {
      st(ps, uint64_t{r} * statK + j, rowSum[r]);
      st(pm, uint64_t{r} * statK + j, rowMax[r]);
    }
  }
}

// T: src/dst type; U: sum/max type (T, or float for half input). stats == false: the overloads without sum/max.
template <typename T, typename U, bool isDataFormatNZ>
inline void softmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* sum,
                    const AscendC::LocalTensor<U>* max, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                    const AscendC::SoftMaxShapeInfo& info, const SrcLoc& loc) {
  checkDtype<T, half, float>("SoftMax", loc);
  if constexpr (isDataFormatNZ) {
    fail(loc,
         "SoftMax with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND data "
         "(isDataFormatNZ = false)");
  }
  SoftmaxShape sh = rowShape<T>("SoftMax", "SoftMaxTilingFunc", tiling.srcM, tiling.srcK, info, loc);
  checkUb(src.ref_, "SoftMax", "src", loc);
  checkUb(dst.ref_, "SoftMax", "dst", loc);
  uint64_t total = uint64_t{sh.m} * sh.k;
  checkCount(src, total, "SoftMax", "src", loc);
  checkCount(dst, total, "SoftMax", "dst", loc);
  const uint32_t statK = 32 / sizeof(U);
  if (sum) {
    checkUb(sum->ref_, "SoftMax", "sumTensor", loc);
    checkUb(max->ref_, "SoftMax", "maxTensor", loc);
    checkCount(*sum, uint64_t{sh.m} * statK, "SoftMax", "sumTensor", loc);
    checkCount(*max, uint64_t{sh.m} * statK, "SoftMax", "maxTensor", loc);
  }
  uint32_t minTmp = softmaxMinTmp(sh.k, sizeof(T));
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, minTmp, "SoftMax", "GetSoftMaxMinTmpSize", loc);
    work = *tmp;
  } else {
    work = stackBuffer(minTmp, "SoftMax", loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  seq.add("WholeReduceMax", 4, total);
  seq.add("Brcb", 4, uint64_t{sh.m} * 8);
  seq.add("Sub", 4, total);
  seq.add("Exp", 4, total);
  seq.add("WholeReduceSum", 4, total);
  seq.add("Brcb", 4, uint64_t{sh.m} * 8);
  seq.add("Div", 4, total);
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  uint32_t workBytes = std::min<uint32_t>(work.GetSize(), softmaxMaxTmp(sh.m, sh.k, sizeof(T)));
  core.read(seq.firstIdx, src.ref_, 0, total * sizeof(T), "SoftMax src", loc);
  core.write(seq.firstIdx, work.ref_, 0, workBytes, "SoftMax sharedTmpBuffer", loc);
  core.read(seq.lastIdx, work.ref_, 0, workBytes, "SoftMax sharedTmpBuffer", loc);
  if (sum) {
    core.write(seq.lastIdx, max->ref_, 0, uint64_t{sh.m} * 32, "SoftMax maxTensor", loc);
    core.write(seq.lastIdx, sum->ref_, 0, uint64_t{sh.m} * 32, "SoftMax sumTensor", loc);
  }
  core.write(seq.lastIdx, dst.ref_, 0, total * sizeof(T), "SoftMax dst", loc);

  const T* s = src.GetPhyAddr();
  std::vector<float> out(total, 0.0f), rowMax(sh.m), rowSum(sh.m);
  std::vector<float> e(sh.k);
  for (uint32_t r = 0; r < sh.m; ++r) {
    const uint64_t base = uint64_t{r} * sh.k;
    std::tie(rowMax[r], rowSum[r]) = rowMaxExpSum(s, base, sh, sh.oriK, e);
    for (uint32_t j = 0; j < sh.oriK; ++j) out[base + j] = e[j] / rowSum[r];
  }
  T* d = dst.GetPhyAddr();
  for (uint64_t i = 0; i < total; ++i) st(d, i, out[i]);
  if (sum) storeRowStats(sum->GetPhyAddr(), max->GetPhyAddr(), rowSum, rowMax);
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmax<T, T, isDataFormatNZ>(dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling,
                                           softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmax<half, float, isDataFormatNZ>(dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling,
                                                  softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmax<T, T, false>(dstTensor, nullptr, nullptr, srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmax<T, T, false>(dstTensor, nullptr, nullptr, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                                  loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmax<T, T, isDataFormatNZ>(dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling,
                                           softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmax<half, float, isDataFormatNZ>(dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer,
                                                  tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
