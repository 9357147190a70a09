// LayerNorm (classic overload with LayerNormTiling) and RmsNorm (ascendc_api.md §3.10) over [B, S, H] UB tensors,
// H padded to 32 bytes (hLength), the real length being originalHLength.
//
// Semantics chosen (per row of H, all in float; half widened exactly; each output rounded once to T):
//   LayerNorm: mean = treeSum(x) / H; var = treeSum((x - mean)^2) / H (population variance);
//              y = (x - mean) / sqrt(var + eps) * gamma + beta. outputMean/outputVariance hold [B*S] values.
//   RmsNorm:   rms = sqrt(treeSum(x^2) * reciprocalOfHLength + eps) (1/H when the tiling leaves it 0);
//              y = x / rms * gamma.
// Sums follow hl_common.h's treeSum order over the originalHLength values; padding columns of y are written as 0.
#pragma once

#include "emu/hl_common.h"
#include "kernel_tiling/kernel_tiling.h"

namespace tcemu::hl {

struct NormShape {
  uint64_t rows;
  uint32_t h, oriH;
};

template <typename T>
inline NormShape normShape(const char* api, uint32_t b, uint32_t s, uint32_t h, uint32_t oriH, const SrcLoc& loc) {
  if (b == 0 || s == 0 || h == 0) {
    fail(loc,
         "%s with an empty shape from the tiling: bLength = %u, sLength = %u, hLength = %u; hint: fill the tiling "
         "with the host function (%s)",
         api, b, s, h, std::strcmp(api, "LayerNorm") == 0 ? "GetLayerNormNDTilingInfo" : "GetRmsNormTilingInfo");
  }
  if (h * sizeof(T) % 32 != 0) {
    fail(loc,
         "%s hLength = %u %s elements is %u bytes, not a multiple of 32; hint: pad H to %u elements and pass the "
         "real length as originalHLength",
         api, h, dtypeName<T>(), static_cast<uint32_t>(h * sizeof(T)),
         static_cast<uint32_t>(roundUp(h, 32 / sizeof(T))));
  }
  if (oriH == 0) oriH = h;
  if (oriH > h) {
    fail(loc, "%s originalHLength = %u is larger than hLength = %u; hint: hLength is the padded length", api, oriH, h);
  }
  return {uint64_t{b} * s, h, oriH};
}

template <typename T>
inline void layerNorm(const AscendC::LocalTensor<T>& out, const AscendC::LocalTensor<T>& mean,
                      const AscendC::LocalTensor<T>& var, const AscendC::LocalTensor<T>& x,
                      const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<T>& beta,
                      const AscendC::LocalTensor<uint8_t>* tmp, T epsilon, const LayerNormTiling& tiling,
                      const SrcLoc& loc) {
  const char* api = "LayerNorm";
  checkDtype<T, half, float>(api, loc);
  NormShape sh = normShape<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength, loc);
  const uint64_t total = sh.rows * sh.h;
  checkUb(x.ref_, api, "inputX", loc);
  checkUb(gamma.ref_, api, "gamma", loc);
  checkUb(beta.ref_, api, "beta", loc);
  checkUb(out.ref_, api, "output", loc);
  checkUb(mean.ref_, api, "outputMean", loc);
  checkUb(var.ref_, api, "outputVariance", loc);
  checkCount(x, total, api, "inputX", loc);
  checkCount(out, total, api, "output", loc);
  checkCount(gamma, sh.h, api, "gamma", loc);
  checkCount(beta, sh.h, api, "beta", loc);
  checkCount(mean, sh.rows, api, "outputMean", loc);
  checkCount(var, sh.rows, api, "outputVariance", loc);
  uint32_t minTmp = rowTmpBytes(sh.h, sizeof(T));
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, minTmp, api, "GetLayerNormMaxMinTmpSize", loc);
    work = *tmp;
  } else {
    work = stackBuffer(minTmp, api, loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  seq.add("ReduceSum", 4, total);
  seq.add("Muls", 4, sh.rows * 8);
  seq.add("Sub", 4, total);
  seq.add("Mul", 4, total);
  seq.add("ReduceSum", 4, total);
  seq.add("Muls", 4, sh.rows * 8);
  seq.add("Adds", 4, sh.rows * 8);
  seq.add("Sqrt", 4, sh.rows * 8);
  seq.add("Div", 4, total);
  seq.add("Mul", 4, total);
  seq.add("Add", 4, total);
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  uint32_t workBytes = std::min<uint64_t>(work.GetSize(), sh.rows * minTmp);
  core.read(seq.firstIdx, x.ref_, 0, total * sizeof(T), "LayerNorm inputX", loc);
  core.read(seq.firstIdx, gamma.ref_, 0, uint64_t{sh.h} * sizeof(T), "LayerNorm gamma", loc);
  core.read(seq.firstIdx, beta.ref_, 0, uint64_t{sh.h} * sizeof(T), "LayerNorm beta", loc);
  core.write(seq.firstIdx, work.ref_, 0, workBytes, "LayerNorm sharedTmpBuffer", loc);
  core.read(seq.lastIdx, work.ref_, 0, workBytes, "LayerNorm sharedTmpBuffer", loc);
  core.write(seq.lastIdx, mean.ref_, 0, sh.rows * sizeof(T), "LayerNorm outputMean", loc);
  core.write(seq.lastIdx, var.ref_, 0, sh.rows * sizeof(T), "LayerNorm outputVariance", loc);
  core.write(seq.lastIdx, out.ref_, 0, total * sizeof(T), "LayerNorm output", loc);

  const T* px = x.GetPhyAddr();
  const T* pg = gamma.GetPhyAddr();
  const T* pb = beta.GetPhyAddr();
  const float eps = toFloat(epsilon);
  std::vector<float> y(total, 0.0f), means(sh.rows), vars(sh.rows), row(sh.oriH);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    const uint64_t base = r * sh.h;
    for (uint32_t j = 0; j < sh.oriH; ++j) row[j] = ld(px, base + j);
    float mu = treeSum(row.data(), sh.oriH) / static_cast<float>(sh.oriH);
    for (uint32_t j = 0; j < sh.oriH; ++j) row[j] = (row[j] - mu) * (row[j] - mu);
    float v = treeSum(row.data(), sh.oriH) / static_cast<float>(sh.oriH);
    float sd = std::sqrt(v + eps);
    for (uint32_t j = 0; j < sh.oriH; ++j) y[base + j] = (ld(px, base + j) - mu) / sd * ld(pg, j) + ld(pb, j);
    means[r] = mu;
    vars[r] = v;
  }
  T* po = out.GetPhyAddr();
  for (uint64_t i = 0; i < total; ++i) st(po, i, y[i]);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    st(mean.GetPhyAddr(), r, means[r]);
    st(var.GetPhyAddr(), r, vars[r]);
  }
}

template <typename T>
inline void rmsNorm(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                    const AscendC::LocalTensor<T>& gamma, const AscendC::LocalTensor<uint8_t>* tmp, T epsilon,
                    const RmsNormTiling& tiling, const SrcLoc& loc) {
  const char* api = "RmsNorm";
  checkDtype<T, half, float>(api, loc);
  NormShape sh = normShape<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength, loc);
  const uint64_t total = sh.rows * sh.h;
  checkUb(src.ref_, api, "src", loc);
  checkUb(gamma.ref_, api, "gamma", loc);
  checkUb(dst.ref_, api, "dst", loc);
  checkCount(src, total, api, "src", loc);
  checkCount(dst, total, api, "dst", loc);
  checkCount(gamma, sh.h, api, "gamma", loc);
  uint32_t minTmp = rowTmpBytes(sh.h, sizeof(T));
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, minTmp, api, "GetRmsNormMaxMinTmpSize", loc);
    work = *tmp;
  } else {
    work = stackBuffer(minTmp, api, loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  seq.add("Mul", 4, total);
  seq.add("ReduceSum", 4, total);
  seq.add("Muls", 4, sh.rows * 8);
  seq.add("Adds", 4, sh.rows * 8);
  seq.add("Sqrt", 4, sh.rows * 8);
  seq.add("Div", 4, total);
  seq.add("Mul", 4, total);
  if (sizeof(T) == 2) seq.add("Cast", 4, total);
  uint32_t workBytes = std::min<uint64_t>(work.GetSize(), sh.rows * minTmp);
  core.read(seq.firstIdx, src.ref_, 0, total * sizeof(T), "RmsNorm src", loc);
  core.read(seq.firstIdx, gamma.ref_, 0, uint64_t{sh.h} * sizeof(T), "RmsNorm gamma", loc);
  core.write(seq.firstIdx, work.ref_, 0, workBytes, "RmsNorm sharedTmpBuffer", loc);
  core.read(seq.lastIdx, work.ref_, 0, workBytes, "RmsNorm sharedTmpBuffer", loc);
  core.write(seq.lastIdx, dst.ref_, 0, total * sizeof(T), "RmsNorm dst", loc);

  const T* px = src.GetPhyAddr();
  const T* pg = gamma.GetPhyAddr();
  const float eps = toFloat(epsilon);
  const float recip =
      tiling.reciprocalOfHLength != 0.0f ? tiling.reciprocalOfHLength : 1.0f / static_cast<float>(sh.oriH);
  std::vector<float> y(total, 0.0f), row(sh.oriH);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    const uint64_t base = r * sh.h;
    for (uint32_t j = 0; j < sh.oriH; ++j) row[j] = ld(px, base + j) * ld(px, base + j);
    float rms = std::sqrt(treeSum(row.data(), sh.oriH) * recip + eps);
    for (uint32_t j = 0; j < sh.oriH; ++j) y[base + j] = ld(px, base + j) / rms * ld(pg, j);
  }
  T* pd = dst.GetPhyAddr();
  for (uint64_t i = 0; i < total; ++i) st(pd, i, y[i]);
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::layerNorm(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon, tiling, loc);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::layerNorm<T>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, epsilon, tiling, loc);
}

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const RmsNormTiling& tiling,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::rmsNorm(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling, loc);
}

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::rmsNorm<T>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling, loc);
}

}  // namespace AscendC
