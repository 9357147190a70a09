// The remaining unary high-level math APIs of CANN 8.1 highlevel_api/lib/math that LLM-written and ops-style
// kernels call: Ceil, Frac, Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Erfc, the Taylor-expanded
// Exp<T, taylorExpandLevel, isReuseSource>, and the bitwise Xor (int16_t/uint16_t).
//
// Semantics as hl_math.h: transcendentals are the float libm function of the widened input rounded once to T
// (the library's polynomials agree to within a few float ulps; Exp's Taylor level only trades speed for accuracy
// on the device, so every level gives the libm value here). Ceil and Frac (x - trunc(x), the sign of x) are exact;
// Xor is exact. Temporary space: as the other elementwise math APIs (hl_sizes.h).
#pragma once

#include "emu/hl_math.h"

namespace tcemu::hl {

inline constexpr Step kTanSteps[] = {{"Muls", 4}, {"Cast", 4}, {"Muls", 4}, {"Sub", 4}, {"Mul", 4}, {"Muls", 4},
                                     {"Adds", 4}, {"Mul", 4},  {"Adds", 4}, {"Mul", 4}, {"Div", 4}};
inline constexpr Step kAtanSteps[] = {{"Abs", 4},  {"Mins", 4}, {"Div", 4},  {"Mul", 4}, {"Muls", 4},
                                      {"Adds", 4}, {"Mul", 4},  {"Adds", 4}, {"Mul", 4}, {"Select", 4}};
inline constexpr Step kHypSteps[] = {{"Exp", 4}, {"Reciprocal", 4}, {"Sub", 4}, {"Muls", 4}};
inline constexpr Step kAreaSteps[] = {{"Mul", 4}, {"Adds", 4}, {"Sqrt", 4}, {"Add", 4}, {"Ln", 4}};
inline constexpr Step kExpSteps[] = {{"Cast", 4}, {"Sub", 4}, {"Exp", 4}, {"Muls", 4}, {"Adds", 4}, {"Mul", 4}};
inline constexpr Step kFracSteps[] = {{"Cast", 4}, {"Cast", 4}, {"Sub", 4}};
inline constexpr Step kXorSteps[] = {{"Or", 0}, {"And", 0}, {"Not", 0}, {"And", 0}};

inline float fracF(float x) { return std::isinf(x) ? 0.0f : x - std::trunc(x); }

template <typename T>
inline void xorTensors(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                       const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                       const SrcLoc& loc) {
  checkDtype<T, int16_t, uint16_t>("Xor", loc);
  if constexpr (std::is_integral_v<T>) {
    MapSpec spec{"Xor", "GetXorMaxMinTmpSize", 256u, false};
    mapElements<T>(
        spec, dst, src0, &src1, tmp, count, [](T a, T b) { return static_cast<T>(a ^ b); }, kXorSteps, loc);
  }
}

}  // namespace tcemu::hl

namespace AscendC {

TCEMU_HL_UNARY_MATH(
    Ceil, "GetCeilMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::ceil(x); },
    tcemu::hl::kRoundSteps)
TCEMU_HL_UNARY_MATH(Frac, "GetFracMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), tcemu::hl::fracF,
                    tcemu::hl::kFracSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Frac)
TCEMU_HL_UNARY_MATH(
    Tan, "GetTanMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::tan(x); },
    tcemu::hl::kTanSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Tan)
TCEMU_HL_UNARY_MATH(
    Asin, "GetAsinMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::asin(x); },
    tcemu::hl::kAtanSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Asin)
TCEMU_HL_UNARY_MATH(
    Acos, "GetAcosMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::acos(x); },
    tcemu::hl::kAtanSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Acos)
TCEMU_HL_UNARY_MATH(
    Atan, "GetAtanMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::atan(x); },
    tcemu::hl::kAtanSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Atan)
TCEMU_HL_UNARY_MATH(
    Sinh, "GetSinhMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::sinh(x); },
    tcemu::hl::kHypSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Sinh)
TCEMU_HL_UNARY_MATH(
    Cosh, "GetCoshMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::cosh(x); },
    tcemu::hl::kHypSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Cosh)
TCEMU_HL_UNARY_MATH(
    Asinh, "GetAsinhMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::asinh(x); },
    tcemu::hl::kAreaSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Asinh)
TCEMU_HL_UNARY_MATH(
    Acosh, "GetAcoshMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::acosh(x); },
    tcemu::hl::kAreaSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Acosh)
TCEMU_HL_UNARY_MATH(
    Atanh, "GetAtanhMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::atanh(x); },
    tcemu::hl::kAreaSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Atanh)
TCEMU_HL_UNARY_MATH(
    Erfc, "GetErfcMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::erfc(x); },
    tcemu::hl::kErfSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Erfc)

// Exp's first template parameter after T is the Taylor expansion level, so `Exp<half, 0>(dst, src, n)` (or
// `Exp<float, false>`) is this API, while `Exp(dst, src, n)` without template arguments is the basic vector Exp.
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::unaryMath(
      "Exp", "GetExpMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), dstTensor, srcTensor, &sharedTmpBuffer,
      calCount, [](float x) { return std::exp(x); }, tcemu::hl::kExpSteps, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::unaryMath(
      "Exp", "GetExpMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), dstTensor, srcTensor, nullptr, calCount,
      [](float x) { return std::exp(x); }, tcemu::hl::kExpSteps, loc);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::xorTensors(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::xorTensors(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const uint32_t calCount,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::xorTensors(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::xorTensors(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), loc);
}

}  // namespace AscendC

#undef TCEMU_HL_UNARY_MATH
#undef TCEMU_HL_UNARY_MATH_WHOLE
