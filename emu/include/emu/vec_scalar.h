// Vector APIs with a scalar operand (ascendc_api.md §3.4: Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft,
// ShiftRight), fills (§3.5: Duplicate, CreateVecIndex), and the mixed-precision multiply-adds Axpy and
// MulAddDst.
#pragma once

#include "emu/vec_lanes.h"

namespace tcemu::vec {

using ShiftTypes = Types<int16_t, uint16_t, int32_t, uint32_t>;
using DuplicateTypes = Types<half, bfloat16_t, int16_t, uint16_t, int32_t, uint32_t, float>;
using IndexTypes = Types<half, int16_t, int32_t, float>;

// --- scalar lane operations: apply(dst, src, scalar, roundEn)
// -----------------------------------------------------

struct AddsOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool) {
    d = lane2(
        a, s, [](float x, float y) { return x + y; }, [](int64_t x, int64_t y) { return x + y; });
  }
};
struct MulsOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool) {
    d = lane2(
        a, s, [](float x, float y) { return x * y; }, [](int64_t x, int64_t y) { return x * y; });
  }
};
struct MaxsOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool) {
    d = toFloat(a) > toFloat(s) ? a : s;
  }
};
struct MinsOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool) {
    d = toFloat(a) < toFloat(s) ? a : s;
  }
};
// LeakyRelu: dst = x >= 0 ? x : x * scalar.
struct LeakyReluOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool) {
    float x = toFloat(a);
    d = x >= 0.0f ? a : fromFloat<T>(x * toFloat(s));
  }
};
// Shifts work on the element's bits; a count equal to the width shifts everything out.
struct ShiftLeftOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool) {
    using U = std::make_unsigned_t<T>;
    uint64_t bits = static_cast<U>(a);
    d = static_cast<T>(static_cast<U>(bits << static_cast<uint32_t>(s)));
  }
};
// Signed types shift arithmetically, unsigned logically; roundEn adds half of the last bit shifted out first.
struct ShiftRightOp {
  template <typename T>
  static void apply(T& d, T a, T s, bool roundEn) {
    uint32_t n = static_cast<uint32_t>(s);
    if constexpr (std::is_signed_v<T>) {
      int64_t v = a;
      if (roundEn && n > 0) v += int64_t{1} << (n - 1);
      d = static_cast<T>(v >> n);
    } else {
      uint64_t v = a;
      if (roundEn && n > 0) v += uint64_t{1} << (n - 1);
      d = static_cast<T>(v >> n);
    }
  }
};

template <typename Op, typename T>
inline void checkShift(const char* api, T s, const SrcLoc& loc) {
  if constexpr (std::is_same_v<Op, ShiftLeftOp> || std::is_same_v<Op, ShiftRightOp>) {
    constexpr int64_t width = sizeof(T) * 8;
    if (static_cast<int64_t>(s) < 0 || static_cast<int64_t>(s) > width) {
      fail(loc,
           "%s scalarValue %lld is out of range [0, %lld] for %s (the shift count); hint: shift %s "
           "elements by at most %lld bits",
           api, static_cast<long long>(s), static_cast<long long>(width), dtypeName<T>(), dtypeName<T>(),
           static_cast<long long>(width));
    }
  }
}

template <typename Op, typename Allowed, typename T>
inline void scalarLevel0(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T s,
                         const Mask& mask, uint32_t repeatTimes, const AscendC::UnaryRepeatParams& p, bool roundEn,
                         const SrcLoc& loc) {
  if (!onVectorCore()) return;
  Allowed::template check<T>(api, loc);
  if constexpr (Allowed::template has<T>) {
    checkShift<Op>(api, s, loc);
    runUnary(
        api, dst, src, mask, repeatTimes, dstOf(p), srcOf(p), false,
        [s, roundEn](T& d, T a) { Op::apply(d, a, s, roundEn); }, loc);
  }
}

template <typename Op, typename Allowed, typename T>
inline void scalarLevel2(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T s,
                         int32_t calCount, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  Allowed::template check<T>(api, loc);
  if constexpr (Allowed::template has<T>) {
    checkShift<Op>(api, s, loc);
    Stride c = countStride<T>(sizeof(T));
    runUnary(
        api, dst, src, Mask::count(calCount), 1, c, c, false, [s](T& d, T a) { Op::apply(d, a, s, false); }, loc);
  }
}

// Axpy (dst += src * scalar) and MulAddDst (dst += src0 * src1): half/half, float/float, or float dst with
// half sources; a repeat holds as many lanes as the wider type allows.
using MixedTypes = Types<half, float>;
template <typename T, typename U>
inline bool checkMixed(const char* api, const SrcLoc& loc) {
  constexpr bool ok =
      (std::is_same_v<T, U> && kOneOf<T, half, float>) || (std::is_same_v<T, float> && std::is_same_v<U, half>);
  if constexpr (!ok) {
    fail(loc,
         "%s does not support dst %s with src %s on 910B (supported: half/half, float/float, float dst with "
         "half src)",
         api, dtypeName<T>(), dtypeName<U>());
  }
  return ok;
}

template <typename T, typename U>
inline void axpy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src, U s, const Mask& mask,
                 uint32_t repeatTimes, Stride sd, Stride ss, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half>) {
    if (!checkMixed<T, U>("Axpy", loc)) return;
    if constexpr (std::is_same_v<U, float> || std::is_same_v<U, half>) {
      runUnary(
          "Axpy", dst, src, mask, repeatTimes, sd, ss, true, [s](T& d, U a) { d = mulAdd<T, U>(a, s, d); }, loc);
    }
  } else {
    checkMixed<T, U>("Axpy", loc);
  }
}

template <typename T, typename U>
inline void mulAddDst(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src0,
                      const AscendC::LocalTensor<U>& src1, const Mask& mask, uint32_t repeatTimes, Stride sd, Stride s0,
                      Stride s1, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half>) {
    if (!checkMixed<T, U>("MulAddDst", loc)) return;
    if constexpr (std::is_same_v<U, float> || std::is_same_v<U, half>) {
      runBinary(
          "MulAddDst", dst, src0, src1, mask, repeatTimes, sd, s0, s1, true,
          [](T& d, U a, U b) { d = mulAdd<T, U>(a, b, d); }, loc);
    }
  } else {
    checkMixed<T, U>("MulAddDst", loc);
  }
}

// Duplicate: every active lane of dst becomes the scalar.
template <typename T>
inline void duplicate(const AscendC::LocalTensor<T>& dst, T s, const Mask& mask, uint32_t repeatTimes, Stride sd,
                      const SrcLoc& loc) {
  if (!onVectorCore()) return;
  DuplicateTypes::check<T>("Duplicate", loc);
  if constexpr (DuplicateTypes::has<T>)
    runFill(
        "Duplicate", dst, mask, repeatTimes, sd, [s](T& d, uint32_t, uint32_t) { d = s; }, loc);
}

// CreateVecIndex: lane `lane` of repeat r holds firstValue + r * (256 / sizeof(T)) + lane, whatever the
// strides (CANN builds it from one block of scalars and Adds of a block's or a repeat's element count).
// Floating values are computed as firstValue + index rounded once; CANN's chain of Adds matches this while
// the indices are exact.
template <typename T>
inline void createVecIndex(const AscendC::LocalTensor<T>& dst, T first, const Mask& mask, uint32_t repeatTimes,
                           Stride sd, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  IndexTypes::check<T>("CreateVecIndex", loc);
  if constexpr (IndexTypes::has<T>) {
    constexpr uint32_t perRepeat = kRepeatBytes / sizeof(T);
    runFill(
        "CreateVecIndex", dst, mask, repeatTimes, sd,
        [first](T& d, uint32_t r, uint32_t lane) {
          uint64_t index = uint64_t{r} * perRepeat + lane;
          if constexpr (std::is_integral_v<T>) {
            d = static_cast<T>(static_cast<int64_t>(first) + static_cast<int64_t>(index));
          } else {
            d = fromFloat<T>(toFloat(first) + static_cast<float>(index));
          }
        },
        loc);
  }
}

}  // namespace tcemu::vec

// The six overloads of a tensor-scalar API: (mask[] | mask | calCount) x (const T& | const U& with U == T).
#define TCEMU_VEC_SCALAR_API(NAME, OP, TYPES)                                                                       \
  template <typename T, bool isSetMask = true>                                                                      \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue, \
                              uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,    \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                       \
    tcemu::vec::scalarLevel0<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, scalarValue,             \
                                                                tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, \
                                                                repeatParams, false, loc);                          \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true,                                                          \
            typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>                           \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const U& scalarValue, \
                              uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,    \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                       \
    tcemu::vec::scalarLevel0<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, scalarValue,             \
                                                                tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, \
                                                                repeatParams, false, loc);                          \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue, \
                              uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,      \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                       \
    tcemu::vec::scalarLevel0<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, scalarValue,             \
                                                                tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, \
                                                                repeatParams, false, loc);                          \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true,                                                          \
            typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>                           \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const U& scalarValue, \
                              uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,      \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                       \
    tcemu::vec::scalarLevel0<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, scalarValue,             \
                                                                tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, \
                                                                repeatParams, false, loc);                          \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue, \
                              const int32_t& calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {              \
    tcemu::vec::scalarLevel2<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, scalarValue, calCount,   \
                                                                loc);                                               \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, TCEMU_NO_LOC_PACK>                                                   \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue, \
                              const int32_t& calCount, NoLoc...) {                                                  \
    NAME<T, isSetMask>(dstLocal, srcLocal, scalarValue, calCount, tcemu::SrcLoc::current());                        \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true,                                                          \
            typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>                           \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const U& scalarValue, \
                              const int32_t& calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {              \
    tcemu::vec::scalarLevel2<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, scalarValue, calCount,   \
                                                                loc);                                               \
  }

namespace AscendC {

TCEMU_VEC_SCALAR_API(Adds, AddsOp, ArithTypes)
TCEMU_VEC_SCALAR_API(Muls, MulsOp, ArithTypes)
TCEMU_VEC_SCALAR_API(Maxs, MaxsOp, ArithTypes)
TCEMU_VEC_SCALAR_API(Mins, MinsOp, ArithTypes)
TCEMU_VEC_SCALAR_API(LeakyRelu, LeakyReluOp, FloatTypes)
TCEMU_VEC_SCALAR_API(ShiftLeft, ShiftLeftOp, ShiftTypes)

// ShiftRight's mask forms take a trailing `bool roundEn` (defaulted only in the `const T&` forms, as in
// CANN).
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue,
                                  uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                                  bool roundEn = false, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::scalarLevel0<tcemu::vec::ShiftRightOp, tcemu::vec::ShiftTypes>(
      "ShiftRight", dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams,
      roundEn, loc);
}
template <typename T, typename U, bool isSetMask = true,
          typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const U& scalarValue,
                                  uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                                  bool roundEn, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::scalarLevel0<tcemu::vec::ShiftRightOp, tcemu::vec::ShiftTypes>(
      "ShiftRight", dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams,
      roundEn, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue,
                                  uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                                  bool roundEn = false, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::scalarLevel0<tcemu::vec::ShiftRightOp, tcemu::vec::ShiftTypes>(
      "ShiftRight", dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams,
      roundEn, loc);
}
template <typename T, typename U, bool isSetMask = true,
          typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const U& scalarValue,
                                  uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                                  bool roundEn, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::scalarLevel0<tcemu::vec::ShiftRightOp, tcemu::vec::ShiftTypes>(
      "ShiftRight", dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams,
      roundEn, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const T& scalarValue,
                                  const int32_t& calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::scalarLevel2<tcemu::vec::ShiftRightOp, tcemu::vec::ShiftTypes>("ShiftRight", dstLocal, srcLocal,
                                                                             scalarValue, calCount, loc);
}
template <typename T, typename U, bool isSetMask = true,
          typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const U& scalarValue,
                                  const int32_t& calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::scalarLevel2<tcemu::vec::ShiftRightOp, tcemu::vec::ShiftTypes>("ShiftRight", dstLocal, srcLocal,
                                                                             scalarValue, calCount, loc);
}

// --- Duplicate
// ----------------------------------------------------------------------------------------------------

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dstLocal, const T& scalarValue, uint64_t mask,
                                 const uint8_t repeatTimes, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::duplicate(dstLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                        {dstBlockStride, dstRepeatStride}, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dstLocal, const T& scalarValue, uint64_t mask[],
                                 const uint8_t repeatTimes, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::duplicate(dstLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                        {dstBlockStride, dstRepeatStride}, loc);
}
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dstLocal, const T& scalarValue, const int32_t& calCount,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::duplicate(dstLocal, scalarValue, tcemu::vec::Mask::count(calCount), 1,
                        tcemu::vec::countStride<T>(sizeof(T)), loc);
}

// --- CreateVecIndex (no isSetMask parameter in CANN 8.1)
// ----------------------------------------------------------

template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dstLocal, const T& firstValue, uint64_t mask, uint8_t repeatTimes,
                                      uint16_t dstBlkStride, uint8_t dstRepStride,
                                      tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::createVecIndex(dstLocal, firstValue, tcemu::vec::Mask::continuous(mask), repeatTimes,
                             {dstBlkStride, dstRepStride}, loc);
}
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dstLocal, const T& firstValue, uint64_t mask[],
                                      uint8_t repeatTimes, uint16_t dstBlkStride, uint8_t dstRepStride,
                                      tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::createVecIndex(dstLocal, firstValue, tcemu::vec::Mask::bitwise(mask), repeatTimes,
                             {dstBlkStride, dstRepStride}, loc);
}
// CANN writes a whole first block of indices even when calCount is smaller, so at least 32 bytes are written.
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dstLocal, const T& firstValue, uint32_t calCount,
                                      tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  int64_t perBlock = static_cast<int64_t>(tcemu::kBlock / sizeof(T));
  tcemu::vec::createVecIndex(dstLocal, firstValue, tcemu::vec::Mask::count(std::max<int64_t>(calCount, perBlock)), 1,
                             tcemu::vec::countStride<T>(sizeof(T)), loc);
}

// --- Axpy and MulAddDst
// -------------------------------------------------------------------------------------------

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal, const U& scalarValue,
                            uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::axpy(dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                   tcemu::vec::dstOf(repeatParams), tcemu::vec::srcOf(repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal, const U& scalarValue,
                            uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::axpy(dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                   tcemu::vec::dstOf(repeatParams), tcemu::vec::srcOf(repeatParams), loc);
}
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal, const U& scalarValue,
                            const int32_t& calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  constexpr uint32_t widest = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  tcemu::vec::axpy(dstLocal, srcLocal, scalarValue, tcemu::vec::Mask::count(calCount), 1,
                   tcemu::vec::countStride<T>(widest), tcemu::vec::countStride<U>(widest), loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local,
                                 const LocalTensor<U>& src1Local, const uint64_t mask[], const uint8_t repeatTimes,
                                 const BinaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::mulAddDst(dstLocal, src0Local, src1Local, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                        tcemu::vec::dstOf(repeatParams), tcemu::vec::src0Of(repeatParams),
                        tcemu::vec::src1Of(repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local,
                                 const LocalTensor<U>& src1Local, uint64_t mask, const uint8_t repeatTimes,
                                 const BinaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::vec::mulAddDst(dstLocal, src0Local, src1Local, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                        tcemu::vec::dstOf(repeatParams), tcemu::vec::src0Of(repeatParams),
                        tcemu::vec::src1Of(repeatParams), loc);
}
template <typename T, typename U>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dstLocal, const LocalTensor<U>& src0Local,
                                 const LocalTensor<U>& src1Local, const int32_t& calCount,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  constexpr uint32_t widest = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  tcemu::vec::Stride s = tcemu::vec::countStride<U>(widest);
  tcemu::vec::mulAddDst(dstLocal, src0Local, src1Local, tcemu::vec::Mask::count(calCount), 1,
                        tcemu::vec::countStride<T>(widest), s, s, loc);
}

}  // namespace AscendC

#undef TCEMU_VEC_SCALAR_API
