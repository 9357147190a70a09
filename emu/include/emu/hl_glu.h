// Silu, Swish and the gated activations SwiGLU, GeGLU, ReGlu (CANN 8.1 highlevel_api/lib/activation).
//
// Semantics: silu(x) = x / (1 + exp(-x)); swish(x, b) = x / (1 + exp(-b x)); SwiGLU = src0 * swish(src1, beta);
// GeGLU = src0 * gelu(src1) (tanh form, as Gelu); ReGlu = src0 * max(src1, 0). Every element is computed in float
// and rounded once to T. The real Silu and Swish run their four vector steps in T itself, so half results can differ
// from the device by an ulp or two; SwiGLU, GeGLU and ReGlu cast half to float as the library does.
#pragma once

#include "emu/hl_map.h"

namespace tcemu::hl {

inline constexpr Step kSiluSteps[] = {{"Muls", 0}, {"Exp", 0}, {"Adds", 0}, {"Div", 0}};
inline constexpr Step kSwiGluSteps[] = {{"Muls", 4}, {"Exp", 4}, {"Adds", 4}, {"Div", 4}, {"Mul", 4}};
inline constexpr Step kGeGluSteps[] = {{"Mul", 4}, {"Adds", 4}, {"Mul", 4}, {"Muls", 4},
                                       {"Exp", 4}, {"Adds", 4}, {"Div", 4}, {"Mul", 4}};
inline constexpr Step kReGluSteps[] = {{"Maxs", 4}, {"Mul", 4}};

inline float swishF(float x, float beta) { return x / (1.0f + std::exp(-beta * x)); }

// SwiGLU and GeGLU take two inputs of one shape (CANN asserts their GetSize() are equal).
template <typename T>
inline void checkSameSize(const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b, const char* api,
                          const SrcLoc& loc) {
  if (a.GetSize() != b.GetSize()) {
    fail(loc,
         "%s src0 holds %u elements and src1 %u; the two inputs must have the same size; hint: pass tensors of "
         "equal GetSize(), e.g. two slices of equal length",
         api, a.GetSize(), b.GetSize());
  }
}

template <typename T>
inline void swiGlu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                   const AscendC::LocalTensor<T>& src1, float beta, const AscendC::LocalTensor<uint8_t>* tmp,
                   uint32_t count, const SrcLoc& loc) {
  checkDtype<T, half, float>("SwiGLU", loc);
  checkSameSize(src0, src1, "SwiGLU", loc);
  if (count == 0 || count * sizeof(T) % 32 != 0) {
    fail(loc,
         "SwiGLU calCount %u is %u bytes of %s; it must be non-zero and a multiple of 32 bytes (%u elements); "
         "hint: pad the row to a multiple of %u elements",
         count, static_cast<uint32_t>(count * sizeof(T)), dtypeName<T>(), static_cast<uint32_t>(32 / sizeof(T)),
         static_cast<uint32_t>(32 / sizeof(T)));
  }
  if (tmp && tmp->GetSize() % 32 != 0) {
    fail(loc,
         "SwiGLU sharedTmpBuffer has %u bytes; its size must be a multiple of 32 bytes; hint: round the buffer "
         "up to %u bytes",
         tmp->GetSize(), static_cast<uint32_t>(roundUp(tmp->GetSize(), 32)));
  }
  MapSpec spec{"SwiGLU", "GetSwiGLUMaxMinTmpSize", gluMinTmp(sizeof(T), false), true};
  mapElements<T>(spec, dst, src0, &src1, tmp, count,
                 viaFloat<T>([beta](float a, float b) { return a * swishF(b, beta); }), kSwiGluSteps, loc);
}

template <typename T>
inline void geGlu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                  const SrcLoc& loc) {
  checkDtype<T, half, float>("GeGLU", loc);
  checkSameSize(src0, src1, "GeGLU", loc);
  MapSpec spec{"GeGLU", "GetGeGLUMaxMinTmpSize", gluMinTmp(sizeof(T), false), true};
  mapElements<T>(spec, dst, src0, &src1, tmp, count, viaFloat<T>([](float a, float b) { return a * geluF(b); }),
                 kGeGluSteps, loc);
}

template <typename T, bool isReuseSource>
inline void reGlu(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                  const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                  const SrcLoc& loc) {
  checkDtype<T, half, bfloat16_t, float>("ReGlu", loc);
  if (isReuseSource) {
    fail(loc,
         "ReGlu<T, isReuseSource = true>: CANN supports only isReuseSource = false; hint: drop the second "
         "template argument");
  }
  MapSpec spec{"ReGlu", "GetReGluMaxMinTmpSize", gluMinTmp(sizeof(T), true), true};
  mapElements<T>(spec, dst, src0, &src1, tmp, count,
                 viaFloat<T>([](float a, float b) { return a * (b > 0.0f ? b : 0.0f); }), kReGluSteps, loc);
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Silu", loc);
  tcemu::hl::MapSpec spec{"Silu", "", 0, false};
  tcemu::hl::mapElements<T>(spec, dstLocal, srcLocal, nullptr, nullptr, dataSize,
                            tcemu::hl::viaFloat<T>([](float x, float) { return tcemu::hl::swishF(x, 1.0f); }),
                            tcemu::hl::kSiluSteps, loc);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const T scalarValue, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Swish", loc);
  if (dataSize == 0) {
    tcemu::fail(loc, "Swish dataSize is 0; CANN requires at least one element; hint: skip the call for empty tiles");
  }
  float beta = tcemu::toFloat(scalarValue);
  tcemu::hl::MapSpec spec{"Swish", "", 0, false};
  tcemu::hl::mapElements<T>(spec, dstLocal, srcLocal, nullptr, nullptr, dataSize,
                            tcemu::hl::viaFloat<T>([beta](float x, float) { return tcemu::hl::swishF(x, beta); }),
                            tcemu::hl::kSiluSteps, loc);
}

// SwiGLU: dst = src0 * swish(src1, beta). The first overload takes non-const sources, as CANN's does.
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
                              const float& scalarValue, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::swiGlu(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::swiGlu(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::swiGlu(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::swiGlu(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, calCount, loc);
}

// GeGLU: dst = src0 * gelu(src1).
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::geGlu(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, uint32_t calCount,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::geGlu(dstTensor, srcTensor0, srcTensor1, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, sharedTmpBuffer, srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  GeGLU<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, srcTensor0.GetSize(), loc);
}

// ReGlu: dst = src0 * max(src1, 0).
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::reGlu<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const uint32_t calCount,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::reGlu<T, isReuseSource>(dstTensor, srcTensor0, srcTensor1, nullptr, calCount, loc);
}

}  // namespace AscendC
