// Per-lane arithmetic of the elementwise vector instructions, and the drivers that run one instruction over
// the active lanes of the vector engine (emu/vec_engine.h).
//
// Numerics, chosen to match the hardware's "compute wide, round once per instruction":
// - half and bfloat16_t are computed in float and rounded once to nearest-even. float has 24 significand
// bits,
//   at least 2*11+2, so the double rounding of +, -, *, /, sqrt and of an exact product plus a value is
//   innocuous.
// - float is computed in float; multiply-add forms (FusedMulAdd, MulAddDst, Axpy) are computed in double (the
//   product of two floats is exact there, 53 >= 2*24+2) and rounded once, i.e. as a fused multiply-add.
// - Integers wrap (two's complement) on overflow: the vector unit's integer add/sub/mul keep the low bits.
// - Transcendentals (Exp, Ln, Sqrt, Rsqrt, Reciprocal) use the C library in float and then round; the
// hardware's
//   own approximations may differ from these in the last bit for float.
#pragma once

#include <string>

#include "emu/vec_engine.h"

namespace tcemu::vec {

template <typename T, typename... A>
constexpr bool kOneOf = (std::is_same_v<T, A> || ...);

// A list of dtypes an API accepts (ascendc_api.md §7).
template <typename... A>
struct Types {
  template <typename T>
  static constexpr bool has = kOneOf<T, A...>;
  template <typename T>
  static void check(const char* api, const SrcLoc& loc) {
    checkDtype<T, A...>(api, loc);
  }
};

using FloatTypes = Types<half, float>;
using ArithTypes = Types<int16_t, half, int32_t, float>;

// f on the float value for floating types (rounded once to T), fi on int64 for integers (wrapped to T).
template <typename T, typename FF, typename FI>
inline T lane1(T a, FF ff, FI fi) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(fi(static_cast<int64_t>(a)));
  } else {
    return fromFloat<T>(ff(toFloat(a)));
  }
}
template <typename T, typename FF, typename FI>
inline T lane2(T a, T b, FF ff, FI fi) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(fi(static_cast<int64_t>(a), static_cast<int64_t>(b)));
  } else {
    return fromFloat<T>(ff(toFloat(a), toFloat(b)));
  }
}

// a * b + c rounded once to D (a and b may be narrower than D: the mixed-precision forms).
template <typename D, typename S>
inline D mulAdd(S a, S b, D c) {
  if constexpr (std::is_same_v<D, float>) {
    return static_cast<float>(static_cast<double>(toFloat(a)) * static_cast<double>(toFloat(b)) +
                              static_cast<double>(c));
  } else {
    return fromFloat<D>(toFloat(a) * toFloat(b) + toFloat(c));
  }
}

template <typename T>
inline T reluOf(T v) {
  if constexpr (std::is_integral_v<T>) {
    return v > 0 ? v : T(0);
  } else {
    return toFloat(v) > 0.0f ? v : fromFloat<T>(0.0f);
  }
}

// Operand names for the check messages ("Add dst", "Add src0").
struct OperandNames {
  std::string dst, src0, src1;
  explicit OperandNames(const char* api, bool unary = false)
      : dst(std::string(api) + " dst"),
        src0(std::string(api) + (unary ? " src" : " src0")),
        src1(std::string(api) + " src1") {}
};

// Count forms run in counter mode with default strides: blocks of one repeat are contiguous, and each operand
// advances by its own share of a repeat (a half operand of a float-wide instruction advances 4 blocks).
template <typename T>
inline Stride countStride(uint32_t widestBytes) {
  return {1, static_cast<uint32_t>(kRepeatBytes / widestBytes * sizeof(T) / kBlock)};
}

// dst, src0, src1 lane by lane: f(D& dst, S a, S b). `readsDst` when the instruction also reads dst.
template <typename D, typename S, typename F>
inline void runBinary(const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src0,
                      const AscendC::LocalTensor<S>& src1, const Mask& mask, uint32_t repeatTimes, Stride sd, Stride s0,
                      Stride s1, bool readsDst, F f, const SrcLoc& loc) {
  OperandNames names(api);
  VecInstr vi(api, static_cast<uint32_t>(std::max(sizeof(D), sizeof(S))), mask, repeatTimes, loc);
  vi.lanewise();
  Operand a = vi.operand(src0, s0, names.src0.c_str());
  Operand b = vi.operand(src1, s1, names.src1.c_str());
  Operand d = vi.operand(dst, sd, names.dst.c_str());
  vi.read(a);
  vi.read(b);
  if (readsDst) vi.read(d);
  vi.write(d);
  vi.forEachRun([&](uint32_t r, uint32_t first, uint32_t n) {
    D* pd = vi.at<D>(d, r, first);
    const S* pa = vi.at<S>(a, r, first);
    const S* pb = vi.at<S>(b, r, first);
    for (uint32_t i = 0; i < n; ++i) f(pd[i], pa[i], pb[i]);
  });
  vi.finish();
}

// dst, src lane by lane: f(D& dst, S a).
template <typename D, typename S, typename F>
inline void runUnary(const char* api, const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src,
                     const Mask& mask, uint32_t repeatTimes, Stride sd, Stride ss, bool readsDst, F f,
                     const SrcLoc& loc) {
  OperandNames names(api, true);
  VecInstr vi(api, static_cast<uint32_t>(std::max(sizeof(D), sizeof(S))), mask, repeatTimes, loc);
  vi.lanewise();
  Operand a = vi.operand(src, ss, names.src0.c_str());
  Operand d = vi.operand(dst, sd, names.dst.c_str());
  vi.read(a);
  if (readsDst) vi.read(d);
  vi.write(d);
  vi.forEachRun([&](uint32_t r, uint32_t first, uint32_t n) {
    D* pd = vi.at<D>(d, r, first);
    const S* pa = vi.at<S>(a, r, first);
    for (uint32_t i = 0; i < n; ++i) f(pd[i], pa[i]);
  });
  vi.finish();
}

// dst only: f(D& dst, repeat, lane).
template <typename D, typename F>
inline void runFill(const char* api, const AscendC::LocalTensor<D>& dst, const Mask& mask, uint32_t repeatTimes,
                    Stride sd, F f, const SrcLoc& loc) {
  OperandNames names(api);
  VecInstr vi(api, sizeof(D), mask, repeatTimes, loc);
  Operand d = vi.operand(dst, sd, names.dst.c_str());
  vi.write(d);
  vi.forEachRun([&](uint32_t r, uint32_t first, uint32_t n) {
    D* pd = vi.at<D>(d, r, first);
    for (uint32_t i = 0; i < n; ++i) f(pd[i], r, first + i);
  });
  vi.finish();
}

}  // namespace tcemu::vec
