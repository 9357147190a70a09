// SimpleSoftMax and LogSoftMax (CANN 8.1 highlevel_api/lib/activation/simplesoftmax.h, logsoftmax.h): row-wise over
// the last axis of an [m, k] UB tensor, k padded to 32 bytes, with the [m, 32 bytes] max/sum blocks of SoftMax.
//
// SimpleSoftMax takes max and sum from the caller (element 0 of each row's block, widened to float):
//   dst_j = exp(x_j - max) / sum rounded once to T, for every column j < k (the library runs over whole rows).
// LogSoftMax computes max over the first oriSrcK values, e_j = exp(x_j - max), sum = treeSum(e) (hl_common.h order),
// writes both blocks (rounded to T), then dst_j = ln(e_j / sum) * 0.4342944819 for every column j < k: CANN's
// library multiplies the natural log by log10(e) (logsoftmax_base_impl.h, SCALAR_NATURE_LOG_10), so its result is
// the base-10 log of the softmax; we reproduce that, each step a float operation, rounded once to T.
// The shape comes from softmaxShapeInfo when it is set, else from the tiling (srcM, srcK), as for SoftMax.
#pragma once

#include "emu/hl_softmax.h"

namespace tcemu::hl {

// Checks and trace shared by both: src/dst [m, k], the two stat blocks, the temporary space; returns the shape.
template <typename T, typename U>
inline SoftmaxShape rowSoftmaxPrologue(const char* api, const char* tilingFunc, const char* sizeQuery,
                                       const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
                                       const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
                                       const AscendC::LocalTensor<uint8_t>* tmp, uint32_t tilingM, uint32_t tilingK,
                                       const AscendC::SoftMaxShapeInfo& info, bool statsOut,
                                       std::initializer_list<const char*> steps, const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  SoftmaxShape sh = rowShape<T>(api, tilingFunc, tilingM, tilingK, info, loc);
  checkUb(src.ref_, api, "src", loc);
  checkUb(dst.ref_, api, "dst", loc);
  checkUb(sum.ref_, api, "sumTensor", loc);
  checkUb(max.ref_, api, "maxTensor", loc);
  const uint64_t total = uint64_t{sh.m} * sh.k, statCount = uint64_t{sh.m} * (32 / sizeof(U));
  checkCount(src, total, api, "src", loc);
  checkCount(dst, total, api, "dst", loc);
  checkCount(sum, statCount, api, "sumTensor", loc);
  checkCount(max, statCount, api, "maxTensor", loc);
  const uint32_t minTmp = softmaxMinTmp(sh.k, sizeof(T));
  AscendC::LocalTensor<uint8_t> work = tmp ? *tmp : stackBuffer(minTmp, api, loc);
  if (tmp) checkTmp(*tmp, minTmp, api, sizeQuery, loc);
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  for (const char* step : steps) {
    bool perRow = std::strcmp(step, "Brcb") == 0;
    seq.add(step, 4, perRow ? uint64_t{sh.m} * 8 : total);
  }
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  const uint32_t used = std::min<uint32_t>(work.GetSize(), softmaxMaxTmp(sh.m, sh.k, sizeof(T)));
  std::string name = std::string(api) + " ";
  core.read(seq.firstIdx, src.ref_, 0, total * sizeof(T), (name + "src").c_str(), loc);
  if (!statsOut) {
    core.read(seq.firstIdx, max.ref_, 0, statCount * sizeof(U), (name + "maxTensor").c_str(), loc);
    core.read(seq.firstIdx, sum.ref_, 0, statCount * sizeof(U), (name + "sumTensor").c_str(), loc);
  }
  core.write(seq.firstIdx, work.ref_, 0, used, (name + "sharedTmpBuffer").c_str(), loc);
  core.read(seq.lastIdx, work.ref_, 0, used, (name + "sharedTmpBuffer").c_str(), loc);
  if (statsOut) {
    core.write(seq.lastIdx, max.ref_, 0, statCount * sizeof(U), (name + "maxTensor").c_str(), loc);
    core.write(seq.lastIdx, sum.ref_, 0, statCount * sizeof(U), (name + "sumTensor").c_str(), loc);
  }
  core.write(seq.lastIdx, dst.ref_, 0, total * sizeof(T), (name + "dst").c_str(), loc);
  return sh;
}

template <typename T, typename U, bool isDataFormatNZ>
inline void simpleSoftmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
                          const AscendC::LocalTensor<U>& max, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                          const AscendC::SoftMaxShapeInfo& info, const SrcLoc& loc) {
  if constexpr (isDataFormatNZ) {
    fail(loc,
         "SimpleSoftMax with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND "
         "data (isDataFormatNZ = false)");
  }
  SoftmaxShape sh = rowSoftmaxPrologue("SimpleSoftMax", "SoftMaxTilingFunc", "GetSoftMaxMinTmpSize", dst, sum, max, src,
                                       tmp, tiling.srcM, tiling.srcK, info, false, {"Sub", "Exp", "Div"}, loc);
  const T* s = src.GetPhyAddr();
  const U* ps = sum.GetPhyAddr();
  const U* pm = max.GetPhyAddr();
  const uint32_t statK = 32 / sizeof(U);
  std::vector<float> out(uint64_t{sh.m} * sh.k);
  for (uint32_t r = 0; r < sh.m; ++r) {
    const float mx = ld(pm, uint64_t{r} * statK), total = ld(ps, uint64_t{r} * statK);
    for (uint32_t j = 0; j < sh.k; ++j) {
      const uint64_t i = uint64_t{r} * sh.k + j;
      out[i] = std::exp(ld(s, i) - mx) / total;
    }
  }
  T* d = dst.GetPhyAddr();
  for (uint64_t i = 0; i < out.size(); ++i) st(d, i, out[i]);
}

inline constexpr float kLog10E = 0.4342944819f;  // CANN's SCALAR_NATURE_LOG_10

template <typename T, bool isDataFormatNZ>
inline void logSoftmax(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& sum,
                       const AscendC::LocalTensor<T>& max, const AscendC::LocalTensor<T>& src,
                       const AscendC::LocalTensor<uint8_t>& tmp, const LogSoftMaxTiling& tiling,
                       const AscendC::SoftMaxShapeInfo& info, const SrcLoc& loc) {
  if constexpr (isDataFormatNZ) {
    fail(loc,
         "LogSoftMax with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND "
         "data (isDataFormatNZ = false)");
  }
  SoftmaxShape sh = rowSoftmaxPrologue("LogSoftMax", "LogSoftMaxTilingFunc", "GetLogSoftMaxMinTmpSize", dst, sum, max,
                                       src, &tmp, tiling.srcM, tiling.srcK, info, true,
                                       {"WholeReduceMax", "Sub", "Exp", "WholeReduceSum", "Div", "Ln", "Muls"}, loc);
  const T* s = src.GetPhyAddr();
  std::vector<float> out(uint64_t{sh.m} * sh.k), e(sh.k), rowMax(sh.m), rowSum(sh.m);
  for (uint32_t r = 0; r < sh.m; ++r) {
    const uint64_t base = uint64_t{r} * sh.k;
    std::tie(rowMax[r], rowSum[r]) = rowMaxExpSum(s, base, sh, sh.k, e);
    for (uint32_t j = 0; j < sh.k; ++j) out[base + j] = std::log(e[j] / rowSum[r]) * kLog10E;
  }
  T* d = dst.GetPhyAddr();
  for (uint64_t i = 0; i < out.size(); ++i) st(d, i, out[i]);
  storeRowStats(sum.GetPhyAddr(), max.GetPhyAddr(), rowSum, rowMax);
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::simpleSoftmax<T, T, isDataFormatNZ>(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling,
                                                 softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::simpleSoftmax<half, float, isDataFormatNZ>(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling,
                                                        softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::simpleSoftmax<T, T, isDataFormatNZ>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer,
                                                 tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::simpleSoftmax<half, float, isDataFormatNZ>(dstTensor, inSumTensor, inMaxTensor, srcTensor,
                                                        &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                                  const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::logSoftmax<T, isDataFormatNZ>(dst, sumTensor, maxTensor, src, sharedTmpBuffer, tiling, softmaxShapeInfo,
                                           loc);
}

}  // namespace AscendC
