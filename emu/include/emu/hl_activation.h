// Elementwise high-level activations (ascendc_api.md §3.10): Sigmoid, Tanh, Gelu, FasterGelu, on half and float.
//
// Semantics chosen: every element is computed in float (half inputs are widened exactly) with the float libm
// functions, and the result is rounded once (RNE) to T. The real library evaluates the same formulas with vector
// Exp/Div sequences; results agree to within an ulp of T. isReuseSource, highPrecision and highPerformance change
// only how CANN schedules the work and are accepted and ignored.
#pragma once

#include "emu/hl_common.h"

namespace tcemu::hl {

// One recorded vector step of an activation (name, element bytes it works on).
struct Step {
  const char* name;
  uint32_t bytes;
};

// Applies `f` (float -> float) to `count` elements; `steps` is the instruction sequence recorded in the trace.
template <typename T, typename F, size_t N>
inline void elementwise(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, F f, const Step (&steps)[N],
                        const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  checkUb(src.ref_, api, "src", loc);
  checkUb(dst.ref_, api, "dst", loc);
  checkCount(src, count, api, "src", loc);
  checkCount(dst, count, api, "dst", loc);
  uint32_t minTmp = elementwiseMinTmp(sizeof(T));
  AscendC::LocalTensor<uint8_t> work;
  if (tmp) {
    std::string query = std::string("Get") + api + "MaxMinTmpSize";
    if (std::strcmp(api, "FasterGelu") == 0) query = "GetGeluMaxMinTmpSize";
    checkTmp(*tmp, minTmp, api, query.c_str(), loc);
    work = *tmp;
  } else {
    work = stackBuffer(minTmp, api, loc);
  }
  Core& core = cur();
  VecSeq seq{core, loc};
  if (sizeof(T) == 2) seq.add("Cast", 4, count);
  for (const Step& s : steps) seq.add(s.name, s.bytes, count);
  if (sizeof(T) == 2) seq.add("Cast", 4, count);
  if (count == 0) return;
  uint32_t workBytes = std::min<uint32_t>(work.GetSize(), elementwiseMaxTmp(count, sizeof(T)));
  core.read(seq.firstIdx, src.ref_, 0, uint64_t{count} * sizeof(T), (std::string(api) + " src").c_str(), loc);
  core.write(seq.firstIdx, work.ref_, 0, workBytes, (std::string(api) + " sharedTmpBuffer").c_str(), loc);
  core.read(seq.lastIdx, work.ref_, 0, workBytes, (std::string(api) + " sharedTmpBuffer").c_str(), loc);
  core.write(seq.lastIdx, dst.ref_, 0, uint64_t{count} * sizeof(T), (std::string(api) + " dst").c_str(), loc);
  const T* s = src.GetPhyAddr();
  T* d = dst.GetPhyAddr();
  std::vector<float> out(count);  // src may alias dst: read everything first
  for (uint32_t i = 0; i < count; ++i) out[i] = f(ld(s, i));
  for (uint32_t i = 0; i < count; ++i) st(d, i, out[i]);
}

inline float sigmoidF(float x) { return 1.0f / (1.0f + std::exp(-x)); }
inline float tanhF(float x) { return std::tanh(x); }
// Gelu, tanh approximation: 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) = x / (1 + exp(-sqrt(8/pi)(x + 0.044715x^3))).
inline float geluF(float x) {
  float inner = 1.5957691216057308f * (x + 0.044715f * x * x * x);
  return x / (1.0f + std::exp(-inner));
}
// FasterGelu: x / (1 + exp(-1.702x)), evaluated as x * exp(0.851(x - |x|)) / (1 + exp(-1.702|x|)) so that no
// intermediate overflows for large |x|.
inline float fasterGeluF(float x) {
  float a = std::fabs(x);
  return x * std::exp(0.851f * (x - a)) / (1.0f + std::exp(-1.702f * a));
}

inline constexpr Step kSigmoidSteps[] = {{"Muls", 4}, {"Exp", 4}, {"Adds", 4}, {"Div", 4}};
inline constexpr Step kTanhSteps[] = {{"Mins", 4}, {"Maxs", 4}, {"Muls", 4}, {"Exp", 4},
                                      {"Adds", 4}, {"Adds", 4}, {"Div", 4}};
inline constexpr Step kGeluSteps[] = {{"Mul", 4},  {"Mul", 4}, {"Muls", 4}, {"Add", 4},
                                      {"Muls", 4}, {"Exp", 4}, {"Adds", 4}, {"Div", 4}};
inline constexpr Step kFasterGeluSteps[] = {{"Abs", 4},  {"Muls", 4}, {"Exp", 4}, {"Adds", 4}, {"Sub", 4},
                                            {"Muls", 4}, {"Exp", 4},  {"Mul", 4}, {"Div", 4}};

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise("Sigmoid", dstTensor, srcTensor, &sharedTmpBuffer, calCount, tcemu::hl::sigmoidF,
                         tcemu::hl::kSigmoidSteps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise<T>("Sigmoid", dstTensor, srcTensor, nullptr, calCount, tcemu::hl::sigmoidF,
                            tcemu::hl::kSigmoidSteps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Sigmoid<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise("Tanh", dstTensor, srcTensor, &sharedTmpBuffer, calCount, tcemu::hl::tanhF,
                         tcemu::hl::kTanhSteps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise<T>("Tanh", dstTensor, srcTensor, nullptr, calCount, tcemu::hl::tanhF, tcemu::hl::kTanhSteps,
                            loc);
}
template <typename T, bool isReuseSource = false, TCEMU_NO_LOC_PACK>
__aicore__ inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
                            NoLoc...) {
  Tanh<T, isReuseSource>(dstTensor, srcTensor, calCount, tcemu::SrcLoc::current());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Tanh<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Tanh(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Tanh<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise("Gelu", dstLocal, srcLocal, &sharedTmpBuffer, dataSize, tcemu::hl::geluF,
                         tcemu::hl::kGeluSteps, loc);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise<T>("Gelu", dstLocal, srcLocal, nullptr, dataSize, tcemu::hl::geluF, tcemu::hl::kGeluSteps,
                            loc);
}

template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise("FasterGelu", dstLocal, srcLocal, &sharedTmpBuffer, dataSize, tcemu::hl::fasterGeluF,
                         tcemu::hl::kFasterGeluSteps, loc);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const uint32_t dataSize, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::elementwise<T>("FasterGelu", dstLocal, srcLocal, nullptr, dataSize, tcemu::hl::fasterGeluF,
                            tcemu::hl::kFasterGeluSteps, loc);
}

}  // namespace AscendC
