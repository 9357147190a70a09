// Sum and Mean over the last axis (ascendc_api.md §3.10): src is [outter, inner] with inner the row length padded
// to 32 bytes and n <= inner the real one; dst[i] is the sum (mean) of the first n values of row i.
//
// Semantics chosen: summed in float in hl_common.h's treeSum order, the result (divided by n in float, for Mean)
// rounded once to T. Mean with accType = T = half also accumulates in float (CANN's half accumulation may differ in
// the last ulp on long rows).
#pragma once

#include "emu/hl_common.h"

namespace AscendC {

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;  // n rounded up to 32 bytes
  uint32_t n;      // real row length
};

struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};

}  // namespace AscendC

namespace tcemu::hl {

template <typename T, typename Acc>
inline void reduceRows(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LocalTensor<uint8_t>* tmp, uint32_t outter, uint32_t inner, uint32_t n, bool mean,
                       const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  if (outter == 0 || n == 0) {
    fail(loc,
         "%s with outter = %u, n = %u: nothing to reduce; hint: set outter (rows) and n (row length) to at "
         "least 1",
         api, outter, n);
  }
  if (inner * sizeof(T) % 32 != 0 || n > inner) {
    fail(loc, "%s inner = %u must be n = %u rounded up to 32 bytes (%u %s elements); hint: set inner = %u", api, inner,
         n, static_cast<uint32_t>(32 / sizeof(T)), dtypeName<T>(), static_cast<uint32_t>(roundUp(n, 32 / sizeof(T))));
  }
  checkUb(src.ref_, api, "src", loc);
  checkUb(dst.ref_, api, "dst", loc);
  const uint64_t total = uint64_t{outter} * inner;
  checkCount(src, total, api, "src", loc);
  checkCount(dst, outter, api, "dst", loc);
  uint32_t need = mean ? meanTmp(n, sizeof(T), sizeof(Acc)) : sumTmp(n, sizeof(T));
  AscendC::LocalTensor<uint8_t> work;
  const char* query = mean ? "GetMeanMaxMinTmpSize" : "GetSumMaxMinTmpSize";
  if (tmp) {
    checkTmp(*tmp, need, api, query, loc);
    work = *tmp;
  } else {
    work = stackBuffer(need, api, loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(Acc) != sizeof(T)) seq.add("Cast", sizeof(Acc), uint64_t{outter} * n);
  seq.add("WholeReduceSum", sizeof(Acc), uint64_t{outter} * n);
  seq.add("WholeReduceSum", sizeof(Acc), uint64_t{outter} * ceilDiv(n, 256 / sizeof(Acc)));
  if (mean) seq.add("Muls", sizeof(Acc), outter);
  if (sizeof(Acc) != sizeof(T)) seq.add("Cast", sizeof(Acc), outter);
  core.readStrided(seq.firstIdx, src.ref_, 0, uint64_t{n} * sizeof(T), uint64_t{inner} * sizeof(T), outter,
                   mean ? "Mean src" : "Sum src", loc);
  core.write(seq.firstIdx, work.ref_, 0, need, mean ? "Mean sharedTmpBuffer" : "Sum sharedTmpBuffer", loc);
  core.read(seq.lastIdx, work.ref_, 0, need, mean ? "Mean sharedTmpBuffer" : "Sum sharedTmpBuffer", loc);
  core.write(seq.lastIdx, dst.ref_, 0, uint64_t{outter} * sizeof(T), mean ? "Mean dst" : "Sum dst", loc);
  const T* s = src.GetPhyAddr();
  std::vector<float> row(n), out(outter);
  for (uint32_t r = 0; r < outter; ++r) {
    for (uint32_t j = 0; j < n; ++j) row[j] = ld(s, uint64_t{r} * inner + j);
    float v = treeSum(row.data(), n);
    out[r] = mean ? v / static_cast<float>(n) : v;
  }
  T* d = dst.GetPhyAddr();
  for (uint32_t r = 0; r < outter; ++r) st(d, r, out[r]);
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::reduceRows<T, T>("Sum", dstTensor, srcTensor, &sharedTmpBuffer, sumParams.outter, sumParams.inner,
                              sumParams.n, false, loc);
}

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::reduceRows<T, T>("Sum", dstTensor, srcTensor, nullptr, sumParams.outter, sumParams.inner, sumParams.n,
                              false, loc);
}

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  static_assert((std::is_same_v<T, half> && std::is_same_v<accType, half>) ||
                    (std::is_same_v<T, float> && std::is_same_v<accType, float>) ||
                    (std::is_same_v<T, half> && std::is_same_v<accType, float>),
                "Mean supports T = accType = half or float, or T = half with accType = float");
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::reduceRows<T, accType>("Mean", dstTensor, srcTensor, &sharedTmpBuffer, meanParams.outter, meanParams.inner,
                                    meanParams.n, true, loc);
}

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const MeanParams& meanParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  static_assert((std::is_same_v<T, half> && std::is_same_v<accType, half>) ||
                    (std::is_same_v<T, float> && std::is_same_v<accType, float>) ||
                    (std::is_same_v<T, half> && std::is_same_v<accType, float>),
                "Mean supports T = accType = half or float, or T = half with accType = float");
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::reduceRows<T, accType>("Mean", dstTensor, srcTensor, nullptr, meanParams.outter, meanParams.inner,
                                    meanParams.n, true, loc);
}

}  // namespace AscendC
