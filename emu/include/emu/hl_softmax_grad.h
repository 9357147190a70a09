// SoftmaxGrad and SoftmaxGradFront (CANN 8.1 highlevel_api/lib/activation/softmaxgrad.h): row-wise over the last axis
// of [m, k] UB tensors, k padded to 32 bytes, the shape from softmaxShapeInfo when it is set, else from the tiling.
//
// Per row, in float (half widened exactly), as CANN's ND implementation computes it:
//   sum = treeSum(grad_j * x_j) over the first oriSrcK columns (hl_common.h order, the order of SoftMax's sums);
//   SoftmaxGrad, isFront = false: dst_j = x_j * (grad_j - sum) for every column j < k, rounded once to T;
//   SoftmaxGrad, isFront = true, and SoftmaxGradFront: dst is [m, 32 bytes], each row's block holding sum rounded
//   to T.
// Half results are rounded as CANN's library casts them back (FLOAT2HALF_ROUND_MODE, CAST_ROUND on 220: ties away
// from zero). The temporary space is CANN's: per row, in floats, 3k + 2 * 16 + 64 for half, k + 8 + 64 for float
// with isFront, k + 2 * 8 + 64 for float without (emu/hl_sizes.h softmaxGradRowFloats, which the host queries in
// tiling/hl_tiling_softmax2.h return).
#pragma once

#include <vector>

#include "emu/hl_softmax.h"
#include "emu/vec_cast_cmp.h"

namespace tcemu::hl {

template <typename T>
inline void storeRounded(T* d, uint64_t i, float v) {
  if constexpr (sizeof(T) == 2) {
    d[i] = vec::convertReal<T>(v, AscendC::RoundMode::CAST_ROUND);
  } else {
    st(d, i, v);
  }
}

template <typename T, bool isDataFormatNZ>
inline void softmaxGrad(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                        const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                        const SoftMaxTiling& tiling, bool isFront, const AscendC::SoftMaxShapeInfo& info,
                        const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  if constexpr (isDataFormatNZ) {
    fail(loc,
         "%s with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND data "
         "(isDataFormatNZ = false)",
         api);
  }
  SoftmaxShape sh = rowShape<T>(api, "SoftMaxGradTilingFunc", tiling.srcM, tiling.srcK, info, loc);
  checkUb(src.ref_, api, "src", loc);
  checkUb(grad.ref_, api, "grad", loc);
  checkUb(dst.ref_, api, "dst", loc);
  const uint64_t total = uint64_t{sh.m} * sh.k;
  const uint32_t blockK = 32 / sizeof(T);
  const uint64_t dstCount = isFront ? uint64_t{sh.m} * blockK : total;
  checkCount(src, total, api, "src", loc);
  checkCount(grad, total, api, "grad", loc);
  checkCount(dst, dstCount, api, "dst", loc);
  const uint32_t minTmp = softmaxGradRowFloats(sh.k, sizeof(T), isFront) * 4;
  AscendC::LocalTensor<uint8_t> work = tmp ? *tmp : stackBuffer(minTmp, api, loc);
  if (tmp) checkTmp(*tmp, minTmp, api, "GetSoftMaxGradMinTmpSize", loc);
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 2) seq.add("Cast", 4, 2 * total);
  seq.add("Mul", 4, total);
  seq.add("WholeReduceSum", 4, total);
  if (!isFront) {
    seq.add("Brcb", 4, uint64_t{sh.m} * 8);
    seq.add("Sub", 4, total);
    seq.add("Mul", 4, total);
  }
  if (sizeof(T) == 2) seq.add("Cast", 4, dstCount);
  const uint32_t used = std::min<uint32_t>(work.GetSize(), sh.m * minTmp);
  const std::string name = std::string(api) + " ";
  // The sum reads each row's first oriSrcK values; the lane-wise steps read the padding columns too, which may hold
  // nothing written (Poison, in project runs): the dst lanes computed from them stay unwritten.
  const std::string srcName = name + "src", gradName = name + "grad";
  const Core::Unwritten padRule = core.poisonsUnwritten() ? Core::Unwritten::Poison : Core::Unwritten::Byte;
  std::vector<bool> padPoisoned(sh.m, false);
  for (uint32_t r = 0; r < sh.m; ++r) {
    const uint64_t row = uint64_t{r} * sh.k * sizeof(T), real = uint64_t{sh.oriK} * sizeof(T);
    const uint64_t pad = uint64_t{sh.k - sh.oriK} * sizeof(T);
    core.read(seq.firstIdx, src.ref_, row, real, srcName.c_str(), loc);
    core.read(seq.firstIdx, grad.ref_, row, real, gradName.c_str(), loc);
    if (pad == 0 || isFront) continue;
    padPoisoned[r] = core.read(seq.firstIdx, src.ref_, row + real, pad, srcName.c_str(), loc, padRule);
    padPoisoned[r] =
        core.read(seq.firstIdx, grad.ref_, row + real, pad, gradName.c_str(), loc, padRule) || padPoisoned[r];
  }
  core.write(seq.firstIdx, work.ref_, 0, used, (name + "sharedTmpBuffer").c_str(), loc);
  core.read(seq.lastIdx, work.ref_, 0, used, (name + "sharedTmpBuffer").c_str(), loc);
  for (uint32_t r = 0; r < sh.m; ++r) {
    const uint64_t rowLen = (isFront ? blockK : (padPoisoned[r] ? sh.oriK : sh.k)) * sizeof(T);
    core.write(seq.lastIdx, dst.ref_, uint64_t{r} * (isFront ? blockK : sh.k) * sizeof(T), rowLen,
               (name + "dst").c_str(), loc);
  }

  const T* s = src.GetPhyAddr();
  const T* g = grad.GetPhyAddr();
  std::vector<float> out(dstCount), product(sh.k);
  for (uint32_t r = 0; r < sh.m; ++r) {
    const uint64_t base = uint64_t{r} * sh.k;
    for (uint32_t j = 0; j < sh.k; ++j) product[j] = ld(g, base + j) * ld(s, base + j);
    const float sum = treeSum(product.data(), sh.oriK);
    if (isFront) {
      for (uint32_t j = 0; j < blockK; ++j) out[uint64_t{r} * blockK + j] = sum;
    } else {
      for (uint32_t j = 0; j < sh.k; ++j) out[base + j] = ld(s, base + j) * (ld(g, base + j) - sum);
    }
  }
  T* d = dst.GetPhyAddr();
  for (uint64_t i = 0; i < dstCount; ++i) storeRounded(d, i, out[i]);
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmaxGrad<T, isDataFormatNZ>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, nullptr, tiling, isFront,
                                            softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                   tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmaxGrad<T, isDataFormatNZ>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling,
                                            isFront, softmaxShapeInfo, loc);
}

// isBasicBlock only picks CANN's faster loop for m % 8 == 0 and k % 64 == 0; the result is the same.
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                        tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmaxGrad<T, isDataFormatNZ>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, nullptr, tiling, true,
                                            softmaxShapeInfo, loc);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                                        tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::softmaxGrad<T, isDataFormatNZ>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                                            tiling, true, softmaxShapeInfo, loc);
}

}  // namespace AscendC
