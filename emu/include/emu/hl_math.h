// High-level math APIs (CANN 8.1 highlevel_api/lib/math): Sin, Cos, Erf, Log, Log2, Log10, Floor, Round, Trunc,
// Sign, ClampMax, ClampMin, Power; half and float (Power also int32_t).
//
// Semantics: transcendentals are the float libm functions of the widened input, rounded once to T (the library's
// polynomial approximations agree to within a few float ulps). Floor, Round (ties to even, as the library's
// CAST_RINT), Trunc, Sign and Clamp are exact. Sign(NaN) = 0 and Clamp(NaN) = scalar, because the library builds
// both from compares, which are false for NaN. Power on int32_t is exact integer exponentiation modulo 2^32; a
// negative exponent gives 0 except for bases 1 and -1 (our choice: 1 / base^n truncated toward zero).
#pragma once

#include "emu/hl_map.h"

namespace tcemu::hl {

inline constexpr Step kSinSteps[] = {{"Muls", 4}, {"Cast", 4}, {"Muls", 4}, {"Sub", 4}, {"Mul", 4},  {"Muls", 4},
                                     {"Adds", 4}, {"Mul", 4},  {"Adds", 4}, {"Mul", 4}, {"Adds", 4}, {"Mul", 4}};
inline constexpr Step kErfSteps[] = {{"Mins", 4}, {"Maxs", 4}, {"Mul", 4},  {"Muls", 4}, {"Adds", 4}, {"Mul", 4},
                                     {"Adds", 4}, {"Mul", 4},  {"Adds", 4}, {"Mul", 4},  {"Div", 4}};
inline constexpr Step kLnSteps[] = {{"Ln", 0}};
inline constexpr Step kLog2Steps[] = {{"Ln", 4}, {"Muls", 4}};
inline constexpr Step kLog10Steps[] = {{"Ln", 0}, {"Muls", 0}};
inline constexpr Step kRoundSteps[] = {{"Cast", 4}, {"Cast", 4}};
inline constexpr Step kSignSteps[] = {
    {"Duplicate", 0}, {"CompareScalar", 0}, {"Select", 0}, {"CompareScalar", 0}, {"Select", 0}};
inline constexpr Step kClampSteps[] = {{"CompareScalar", 0}, {"Select", 0}};
inline constexpr Step kPowerSteps[] = {{"Abs", 4},  {"Ln", 4},      {"Mul", 4},   {"Exp", 4},
                                       {"Cast", 4}, {"Compare", 4}, {"Select", 4}};

// A unary half/float math API: `g` maps the float input to the float result.
template <typename T, typename G, size_t N>
inline void unaryMath(const char* api, const char* query, uint32_t minTmp, const AscendC::LocalTensor<T>& dst,
                      const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, G g,
                      const Step (&steps)[N], const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  MapSpec spec{api, query, minTmp, true};
  mapElements<T>(spec, dst, src, nullptr, tmp, count, viaFloat<T>([g](float x, float) { return g(x); }), steps, loc);
}

inline float signF(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); }

inline int32_t powInt(int32_t base, int32_t e) {
  if (e < 0) return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  uint32_t r = 1, b = static_cast<uint32_t>(base);
  for (uint32_t n = static_cast<uint32_t>(e); n; n >>= 1, b *= b)
    if (n & 1) r *= b;
  return static_cast<int32_t>(r);
}

// Power in its three forms; a null tensor pointer means that operand is the scalar.
template <typename T>
inline void power(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* base, const T* baseScalar,
                  const AscendC::LocalTensor<T>* exponent, const T* expScalar, const AscendC::LocalTensor<uint8_t>* tmp,
                  uint32_t count, const SrcLoc& loc) {
  checkDtype<T, half, float, int32_t>("Power", loc);
  MapSpec spec{"Power", "GetPowerMaxMinTmpSize", elementwiseMinTmp(sizeof(T)), true};
  auto f = [&](T a, T b) -> T {
    T x = base ? a : *baseScalar;
    T y = exponent ? (base ? b : a) : *expScalar;
    if constexpr (std::is_same_v<T, int32_t>) {
      return powInt(x, y);
    } else {
      return fromFloat<T>(std::pow(toFloat(x), toFloat(y)));
    }
  };
  const AscendC::LocalTensor<T>& first = base ? *base : *exponent;
  const AscendC::LocalTensor<T>* second = base && exponent ? exponent : nullptr;
  mapElements<T>(spec, dst, first, second, tmp, count, f, kPowerSteps, loc);
}

}  // namespace tcemu::hl

// The overload sets: (dst, src, sharedTmpBuffer, calCount), (dst, src, sharedTmpBuffer), (dst, src, calCount),
// (dst, src), each with the real template parameters <T, isReuseSource>.
#define TCEMU_HL_UNARY_MATH(Api, query, minTmp, fn, steps)                                                       \
  template <typename T, bool isReuseSource = false>                                                              \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                   \
                             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,               \
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                     \
    if (!tcemu::onVectorCore()) return;                                                                          \
    tcemu::hl::unaryMath(#Api, query, minTmp, dstTensor, srcTensor, &sharedTmpBuffer, calCount, fn, steps, loc); \
  }                                                                                                              \
  template <typename T, bool isReuseSource = false>                                                              \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                   \
                             const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {            \
    if (!tcemu::onVectorCore()) return;                                                                          \
    tcemu::hl::unaryMath(#Api, query, minTmp, dstTensor, srcTensor, nullptr, calCount, fn, steps, loc);          \
  }                                                                                                              \
  template <typename T, bool isReuseSource = false, TCEMU_NO_LOC_PACK>                                           \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                   \
                             const uint32_t calCount, NoLoc...) {                                                \
    Api<T, isReuseSource>(dstTensor, srcTensor, calCount, tcemu::SrcLoc::current());                             \
  }
#define TCEMU_HL_UNARY_MATH_WHOLE(Api)                                                         \
  template <typename T, bool isReuseSource = false>                                            \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, \
                             const LocalTensor<uint8_t>& sharedTmpBuffer,                      \
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                   \
    Api<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize(), loc);    \
  }                                                                                            \
  template <typename T, bool isReuseSource = false>                                            \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, \
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                   \
    Api<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);                     \
  }

namespace AscendC {

TCEMU_HL_UNARY_MATH(
    Sin, "GetSinMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::sin(x); },
    tcemu::hl::kSinSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Sin)
TCEMU_HL_UNARY_MATH(
    Cos, "GetCosMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::cos(x); },
    tcemu::hl::kSinSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Cos)
TCEMU_HL_UNARY_MATH(
    Erf, "GetErfMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::erf(x); },
    tcemu::hl::kErfSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Erf)
TCEMU_HL_UNARY_MATH(
    Log2, "GetLog2MaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::log2(x); },
    tcemu::hl::kLog2Steps)
TCEMU_HL_UNARY_MATH_WHOLE(Log2)
TCEMU_HL_UNARY_MATH(
    Floor, "GetFloorMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::floor(x); },
    tcemu::hl::kRoundSteps)
TCEMU_HL_UNARY_MATH(
    Round, "GetRoundMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::nearbyint(x); },
    tcemu::hl::kRoundSteps)
TCEMU_HL_UNARY_MATH(
    Trunc, "GetTruncMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), [](float x) { return std::trunc(x); },
    tcemu::hl::kRoundSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Trunc)
TCEMU_HL_UNARY_MATH(Sign, "GetSignMaxMinTmpSize", tcemu::hl::elementwiseMinTmp(sizeof(T)), tcemu::hl::signF,
                    tcemu::hl::kSignSteps)
TCEMU_HL_UNARY_MATH_WHOLE(Sign)

// Log and Log10 take no temporary buffer.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::unaryMath(
      "Log", "", 0, dstTensor, srcTensor, nullptr, calCount, [](float x) { return std::log(x); }, tcemu::hl::kLnSteps,
      loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Log<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::unaryMath(
      "Log10", "", 0, dstTensor, srcTensor, nullptr, calCount, [](float x) { return std::log10(x); },
      tcemu::hl::kLog10Steps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Log10<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize(), loc);
}

// ClampMax: dst = src < scalar ? src : scalar; ClampMin: dst = src > scalar ? src : scalar (CompareScalar + Select).
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,
                                tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  float s = tcemu::toFloat(scalar);
  tcemu::hl::unaryMath(
      "ClampMax", "GetClampMaxMinTmpSize", tcemu::hl::clampMinTmp(), dstTensor, srcTensor, &sharedTmpBuffer, calCount,
      [s](float x) { return x < s ? x : s; }, tcemu::hl::kClampSteps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  float s = tcemu::toFloat(scalar);
  tcemu::hl::unaryMath(
      "ClampMax", "GetClampMaxMinTmpSize", tcemu::hl::clampMinTmp(), dstTensor, srcTensor, nullptr, calCount,
      [s](float x) { return x < s ? x : s; }, tcemu::hl::kClampSteps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,
                                tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  float s = tcemu::toFloat(scalar);
  tcemu::hl::unaryMath(
      "ClampMin", "GetClampMaxMinTmpSize", tcemu::hl::clampMinTmp(), dstTensor, srcTensor, &sharedTmpBuffer, calCount,
      [s](float x) { return x > s ? x : s; }, tcemu::hl::kClampSteps, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  float s = tcemu::toFloat(scalar);
  tcemu::hl::unaryMath(
      "ClampMin", "GetClampMaxMinTmpSize", tcemu::hl::clampMinTmp(), dstTensor, srcTensor, nullptr, calCount,
      [s](float x) { return x > s ? x : s; }, tcemu::hl::kClampSteps, loc);
}

// Power: tensor ^ tensor, tensor ^ scalar, scalar ^ tensor; each with and without sharedTmpBuffer and calCount.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::power<T>(dstTensor, &src0Tensor, nullptr, &src1Tensor, nullptr, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, uint32_t calCount,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::power<T>(dstTensor, &src0Tensor, nullptr, &src1Tensor, nullptr, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::power<T>(dstTensor, &src0Tensor, nullptr, nullptr, &src1Scalar, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::power<T>(dstTensor, &src0Tensor, nullptr, nullptr, &src1Scalar, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, sharedTmpBuffer, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Power<T, isReuseSource>(dstTensor, src0Tensor, src1Scalar, src0Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::power<T>(dstTensor, nullptr, &src0Scalar, &src1Tensor, nullptr, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::power<T>(dstTensor, nullptr, &src0Scalar, &src1Tensor, nullptr, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, sharedTmpBuffer, src1Tensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Power<T, isReuseSource>(dstTensor, src0Scalar, src1Tensor, src1Tensor.GetSize(), loc);
}

}  // namespace AscendC

// TCEMU_HL_UNARY_MATH and TCEMU_HL_UNARY_MATH_WHOLE stay defined for hl_math2.h, which undefines them.
