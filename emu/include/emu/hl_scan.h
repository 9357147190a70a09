// Sequences and scans of the high-level library: ArithProgression (lib/index) and CumSum (lib/math), as CANN 8.1
// declares them.
//
// ArithProgression builds the sequence the way the library does, so the values match it bit for bit: the first
// 32-byte block on the scalar unit (first + diff * i, in float for half, in T otherwise), an S -> V hand-over, then
// vector Adds that extend it block by block (+ diff * elementsPerBlock) up to one repeat and repeat by repeat
// (+ diff * elementsPerRepeat), the last repeat over whole blocks, so up to one block past `count` is written (as on
// the device). Counts of at most one block are written by the scalar unit only: a vector read of them needs an
// S_V flag. The mask register is left as after ResetMask.
//
// CumSum: prefix sums along the last axis (isLastAxis = true: within each of `outter` rows of `inner` elements) or
// along the first (isLastAxis = false: down each column), accumulated left to right in float (each add rounded to
// float) and rounded once to T, which is what the library's float adds and final Cast compute for half; float adds
// in float throughout. outputLastRow copies the last result row (as x + 0, so -0 becomes +0).
#pragma once

#include "emu/hl_common.h"
#include "emu/tpipe.h"
#include "emu/vec_scalar.h"

namespace AscendC {

struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};  // elements per row, 32-byte aligned
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

}  // namespace AscendC

namespace tcemu::hl {

// The temporary bytes CumSum needs (CANN's checks): the last axis goes through two 16-row transposes of T (plus a
// half copy for half); the first axis needs a float copy of the data for half only.
template <typename T>
inline uint32_t cumSumMinTmp(bool lastAxis, const AscendC::CumSumInfo& info) {
  if (lastAxis) return (sizeof(T) == 2 ? info.inner * 16u * 2u : 0u) + 16u * info.inner * sizeof(T) * 2u;
  return sizeof(T) == 2 ? info.outter * info.inner * 4u : 0u;
}

template <typename T, bool lastAxis, bool outputLastRow>
inline void cumSum(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& lastRow,
                   const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                   const AscendC::CumSumInfo& info, const SrcLoc& loc) {
  checkDtype<T, half, float>("CumSum", loc);
  checkUb(src.ref_, "CumSum", "src", loc);
  checkUb(dst.ref_, "CumSum", "dst", loc);
  if (outputLastRow) checkUb(lastRow.ref_, "CumSum", "lastRowTensor", loc);
  constexpr uint32_t perBlock = 32 / sizeof(T);
  if (info.inner == 0) {
    fail(loc, "CumSum with cumSumInfo.inner = 0; hint: set inner to the row length (a multiple of %u %s elements)",
         perBlock, dtypeName<T>());
  }
  if (info.inner % perBlock != 0) {
    fail(loc,
         "CumSum cumSumInfo.inner = %u %s elements is %u bytes, not a multiple of 32; hint: pad the rows to %u "
         "elements",
         info.inner, dtypeName<T>(), static_cast<uint32_t>(info.inner * sizeof(T)),
         static_cast<uint32_t>(roundUp(info.inner, perBlock)));
  }
  const uint64_t n = uint64_t{info.outter} * info.inner;
  checkCount(src, n, "CumSum", "src", loc);
  checkCount(dst, n, "CumSum", "dst", loc);
  if (outputLastRow) checkCount(lastRow, info.inner, "CumSum", "lastRowTensor", loc);
  const uint32_t minTmp = cumSumMinTmp<T>(lastAxis, info);
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    checkTmp(*tmp, minTmp, "CumSum", "GetCumSumMaxMinTmpSize", loc);
    work = *tmp;
  } else if (minTmp > 0) {
    work = stackBuffer(minTmp, "CumSum", loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  // The library's instructions: transposes around the scan for the last axis, one Add of a row per step.
  const uint32_t steps = lastAxis ? info.inner : info.outter;
  const uint32_t stepLen = lastAxis ? info.outter : info.inner;
  if (lastAxis) seq.add("TransDataTo5HD", sizeof(T), n);
  if (sizeof(T) == 2) seq.add("Cast", 4, n);
  for (uint32_t s = 1; s < steps; ++s) seq.add("Add", 4, stepLen);
  if (sizeof(T) == 2) seq.add("Cast", 4, n);
  if (lastAxis) seq.add("TransDataTo5HD", sizeof(T), n);
  if (outputLastRow) seq.add("Adds", sizeof(T), info.inner);
  if (!seq.any) seq.add("Adds", sizeof(T), n);  // one float row, first axis: a copy
  if (n == 0) return;
  const uint64_t bytes = n * sizeof(T);
  core.read(seq.firstIdx, src.ref_, 0, bytes, "CumSum src", loc);
  if (work.ref_.valid && minTmp > 0) {
    core.write(seq.firstIdx, work.ref_, 0, minTmp, "CumSum sharedTmpBuffer", loc);
    core.read(seq.lastIdx, work.ref_, 0, minTmp, "CumSum sharedTmpBuffer", loc);
  }
  core.write(seq.lastIdx, dst.ref_, 0, bytes, "CumSum dst", loc);
  if (outputLastRow) core.write(seq.lastIdx, lastRow.ref_, 0, uint64_t{info.inner} * sizeof(T), "CumSum lastRow", loc);
  std::vector<float> in(n);
  for (uint64_t i = 0; i < n; ++i) in[i] = ld(src.GetPhyAddr(), i);
  std::vector<float> acc(n);
  for (uint32_t r = 0; r < info.outter; ++r) {
    for (uint32_t c = 0; c < info.inner; ++c) {
      const uint64_t i = uint64_t{r} * info.inner + c;
      const bool first = lastAxis ? c == 0 : r == 0;
      acc[i] = first ? in[i] : acc[lastAxis ? i - 1 : i - info.inner] + in[i];
    }
  }
  T* d = dst.GetPhyAddr();
  for (uint64_t i = 0; i < n; ++i) st(d, i, acc[i]);
  if (outputLastRow) {
    T* l = lastRow.GetPhyAddr();
    const uint64_t base = uint64_t{info.outter - 1} * info.inner;
    for (uint32_t c = 0; c < info.inner && info.outter > 0; ++c) st(l, c, ld(d, base + c) + 0.0f);
  }
}

template <typename T>
inline T arithBase(T first, T diff, int32_t i) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(first) + static_cast<U>(static_cast<U>(diff) * static_cast<U>(i)));
  } else if constexpr (sizeof(T) == 2) {
    return fromFloat<T>(toFloat(first) + toFloat(diff) * static_cast<float>(i));
  } else {
    return first + diff * static_cast<T>(i);
  }
}

// The step added to extend the sequence by `k` elements: computed in float and converted to T, as the library does.
template <typename T>
inline T arithStep(T diff, int32_t k) {
  const float f = toFloat(diff) * static_cast<float>(k);
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(f);
  } else {
    return fromFloat<T>(f);
  }
}

template <typename T>
inline void arithProgression(const AscendC::LocalTensor<T>& dst, T first, T diff, int32_t count, const SrcLoc& loc) {
  checkDtype<T, half, float, int16_t, int32_t>("ArithProgression", loc);
  checkUb(dst.ref_, "ArithProgression", "dst", loc);
  if (count <= 0) fail(loc, "ArithProgression with count = %d; hint: pass at least one element", count);
  checkCount(dst, static_cast<uint64_t>(count), "ArithProgression", "dst", loc);
  if (!(toFloat(diff) > 0.0f)) {
    fail(loc,
         "ArithProgression diffValue = %g; CANN requires a positive step; hint: build a decreasing sequence "
         "with a positive step and Muls by -1, or Adds/Sub afterwards",
         static_cast<double>(toFloat(diff)));
  }
  constexpr int32_t block = 32 / sizeof(T), repeat = 256 / sizeof(T);
  const int32_t base = count < block ? count : block;
  for (int32_t i = 0; i < base; ++i) dst.SetValue(static_cast<uint32_t>(i), arithBase(first, diff, i), loc);
  if (count <= block) return;
  Core& core = cur();
  std::array<uint32_t, kPipeCount> know{};
  uint32_t tok = syncSet(core, AscendC::HardEvent::S_V, "ArithProgression", loc, know);
  syncWait(core, AscendC::HardEvent::S_V, "ArithProgression", loc, know, tok);
  const AscendC::UnaryRepeatParams blockStep(1, 1, 1, 1), repeatStep(1, 1, 8, 8);
  const int32_t blocksInFirst = count > repeat ? 8 : static_cast<int32_t>(ceilDiv(count, block));
  for (int32_t b = 1; b < blocksInFirst; ++b)
    AscendC::Adds(dst[b * block], dst[(b - 1) * block], arithStep(diff, block), static_cast<uint64_t>(block), 1,
                  blockStep, loc);
  if (count > repeat) {
    const int32_t full = count / repeat, tail = count % repeat;
    for (int32_t r = 1; r < full; ++r)
      AscendC::Adds(dst[r * repeat], dst[(r - 1) * repeat], arithStep(diff, repeat), static_cast<uint64_t>(repeat), 1,
                    repeatStep, loc);
    if (tail > 0)
      AscendC::Adds(dst[full * repeat], dst[(full - 1) * repeat], arithStep(diff, repeat),
                    static_cast<uint64_t>(roundUp(tail, block)), 1, repeatStep, loc);
  }
  AscendC::ResetMask();
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                                        const int32_t count, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::arithProgression(dstLocal, firstValue, diffValue, count, loc);
}

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::cumSum<T, config.isLastAxis, config.outputLastRow>(dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer,
                                                                cumSumInfo, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::cumSum<T, config.isLastAxis, config.outputLastRow>(dstTensor, lastRowTensor, srcTensor, nullptr,
                                                                cumSumInfo, loc);
}

}  // namespace AscendC
