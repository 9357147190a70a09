// Elementwise vector APIs: binary (ascendc_api.md §3.2) and unary (§3.3), each with the real CANN 8.1
// overloads: bit mask `uint64_t mask[]`, continuous `uint64_t mask` (both with repeatTimes and the
// repeat-params struct, and `isSetMask=false` to use the mask register), and the count form `const int32_t&
// calCount`. The scalar, fill and axpy families are in emu/vec_scalar.h.
#pragma once

#include "emu/vec_lanes.h"

namespace tcemu::vec {

using BitTypes = Types<int16_t, uint16_t>;
// CANN's count-form And/Or accept 32-bit types too, but run the instruction on 16-bit lanes with calCount
// lanes (kernel_operator_vec_binary_impl.h: "all dtype reinterpret_cast to int16_t"): only the first half is
// computed.
using BitCountTypes = Types<int16_t, uint16_t, int32_t, uint32_t>;
using ReluArithTypes = Types<int16_t, half, float>;
using ReluTypes = Types<half, int32_t, float>;

// --- binary lane operations: apply(dst, src0, src1)
// ---------------------------------------------------------------

struct AddOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = lane2(
        a, b, [](float x, float y) { return x + y; }, [](int64_t x, int64_t y) { return x + y; });
  }
};
struct SubOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = lane2(
        a, b, [](float x, float y) { return x - y; }, [](int64_t x, int64_t y) { return x - y; });
  }
};
struct MulOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = lane2(
        a, b, [](float x, float y) { return x * y; }, [](int64_t x, int64_t y) { return x * y; });
  }
};
struct DivOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = fromFloat<T>(toFloat(a) / toFloat(b));
  }
};
// Max/Min: dst = src0 > src1 ? src0 : src1 (and the reverse), as the API documents it.
struct MaxOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = toFloat(a) > toFloat(b) ? a : b;
  }
};
struct MinOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = toFloat(a) < toFloat(b) ? a : b;
  }
};
struct AndOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = static_cast<T>(a & b);
  }
};
struct OrOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = static_cast<T>(a | b);
  }
};
struct AddReluOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    AddOp::apply(d, a, b);
    d = reluOf(d);
  }
};
struct SubReluOp {
  static constexpr bool kReadsDst = false;
  template <typename T>
  static void apply(T& d, T a, T b) {
    SubOp::apply(d, a, b);
    d = reluOf(d);
  }
};
// FusedMulAdd: dst = src0 * dst + src1.
struct FusedMulAddOp {
  static constexpr bool kReadsDst = true;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = mulAdd<T, T>(a, d, b);
  }
};
struct FusedMulAddReluOp {
  static constexpr bool kReadsDst = true;
  template <typename T>
  static void apply(T& d, T a, T b) {
    d = reluOf(mulAdd<T, T>(a, d, b));
  }
};

template <typename Op, typename Allowed, typename T>
inline void binaryLevel0(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                         const AscendC::LocalTensor<T>& src1, const Mask& mask, uint32_t repeatTimes,
                         const AscendC::BinaryRepeatParams& p, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  Allowed::template check<T>(api, loc);
  if constexpr (Allowed::template has<T>) {
    runBinary(
        api, dst, src0, src1, mask, repeatTimes, dstOf(p), src0Of(p), src1Of(p), Op::kReadsDst,
        [](T& d, T a, T b) { Op::apply(d, a, b); }, loc);
  }
}

template <typename Op, typename Allowed, typename T>
inline void binaryLevel2(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                         const AscendC::LocalTensor<T>& src1, int32_t calCount, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  Allowed::template check<T>(api, loc);
  if constexpr (Allowed::template has<T>) {
    if constexpr (std::is_same_v<Op, AndOp> || std::is_same_v<Op, OrOp>) {
      if constexpr (sizeof(T) == 4) {
        // See BitCountTypes: the instruction runs on calCount 16-bit lanes.
        binaryLevel2<Op, BitTypes>(api, dst.template ReinterpretCast<int16_t>(),
                                   src0.template ReinterpretCast<int16_t>(), src1.template ReinterpretCast<int16_t>(),
                                   calCount, loc);
        return;
      }
    }
    Stride c = countStride<T>(sizeof(T));
    runBinary(
        api, dst, src0, src1, Mask::count(calCount), 1, c, c, c, Op::kReadsDst,
        [](T& d, T a, T b) { Op::apply(d, a, b); }, loc);
  }
}

// --- unary lane operations: apply(dst, src)
// -----------------------------------------------------------------------

struct ReluOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = reluOf(a);
  }
};
struct ExpOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = fromFloat<T>(std::exp(toFloat(a)));
  }
};
struct LnOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = fromFloat<T>(std::log(toFloat(a)));
  }
};
struct AbsOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = fromFloat<T>(std::fabs(toFloat(a)));
  }
};
struct ReciprocalOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = fromFloat<T>(1.0f / toFloat(a));
  }
};
struct RsqrtOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = fromFloat<T>(1.0f / std::sqrt(toFloat(a)));
  }
};
struct SqrtOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = fromFloat<T>(std::sqrt(toFloat(a)));
  }
};
struct NotOp {
  template <typename T>
  static void apply(T& d, T a) {
    d = static_cast<T>(~a);
  }
};

template <typename Op, typename Allowed, typename T>
inline void unaryLevel0(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const Mask& mask, uint32_t repeatTimes, const AscendC::UnaryRepeatParams& p,
                        const SrcLoc& loc) {
  if (!onVectorCore()) return;
  Allowed::template check<T>(api, loc);
  if constexpr (Allowed::template has<T>) {
    runUnary(
        api, dst, src, mask, repeatTimes, dstOf(p), srcOf(p), false, [](T& d, T a) { Op::apply(d, a); }, loc);
  }
}

template <typename Op, typename Allowed, typename T>
inline void unaryLevel2(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        int32_t calCount, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  Allowed::template check<T>(api, loc);
  if constexpr (Allowed::template has<T>) {
    Stride c = countStride<T>(sizeof(T));
    runUnary(
        api, dst, src, Mask::count(calCount), 1, c, c, false, [](T& d, T a) { Op::apply(d, a); }, loc);
  }
}

}  // namespace tcemu::vec

// The three overloads of a binary API. Kept as a macro so that the twelve APIs cannot drift apart.
#define TCEMU_VEC_BINARY_API(NAME, OP, MASK_TYPES, COUNT_TYPES)                                                        \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                         \
                              const LocalTensor<T>& src1Local, uint64_t mask[], const uint8_t repeatTimes,             \
                              const BinaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {  \
    tcemu::vec::binaryLevel0<tcemu::vec::OP, tcemu::vec::MASK_TYPES>(                                                  \
        #NAME, dstLocal, src0Local, src1Local, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc); \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                         \
                              const LocalTensor<T>& src1Local, uint64_t mask, const uint8_t repeatTimes,               \
                              const BinaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {  \
    tcemu::vec::binaryLevel0<tcemu::vec::OP, tcemu::vec::MASK_TYPES>(                                                  \
        #NAME, dstLocal, src0Local, src1Local, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc); \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true, TCEMU_NO_LOC_PACK>                                                      \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                         \
                              const LocalTensor<T>& src1Local, uint64_t mask, const uint8_t repeatTimes,               \
                              const BinaryRepeatParams& repeatParams, NoLoc...) {                                      \
    NAME<T, isSetMask>(dstLocal, src0Local, src1Local, mask, repeatTimes, repeatParams, tcemu::SrcLoc::current());     \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                         \
                              const LocalTensor<T>& src1Local, const int32_t& calCount,                                \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                          \
    tcemu::vec::binaryLevel2<tcemu::vec::OP, tcemu::vec::COUNT_TYPES>(#NAME, dstLocal, src0Local, src1Local, calCount, \
                                                                      loc);                                            \
  }                                                                                                                    \
  template <typename T, TCEMU_NO_LOC_PACK>                                                                             \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,                         \
                              const LocalTensor<T>& src1Local, const int32_t& calCount, NoLoc...) {                    \
    NAME<T>(dstLocal, src0Local, src1Local, calCount, tcemu::SrcLoc::current());                                       \
  }

#define TCEMU_VEC_UNARY_API(NAME, OP, TYPES)                                                                           \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint64_t mask[],         \
                              const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,                        \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                          \
    tcemu::vec::unaryLevel0<tcemu::vec::OP, tcemu::vec::TYPES>(                                                        \
        #NAME, dstLocal, srcLocal, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);             \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint64_t mask,           \
                              const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,                        \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                          \
    tcemu::vec::unaryLevel0<tcemu::vec::OP, tcemu::vec::TYPES>(                                                        \
        #NAME, dstLocal, srcLocal, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);             \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t& calCount, \
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                          \
    tcemu::vec::unaryLevel2<tcemu::vec::OP, tcemu::vec::TYPES>(#NAME, dstLocal, srcLocal, calCount, loc);              \
  }                                                                                                                    \
  template <typename T, TCEMU_NO_LOC_PACK>                                                                             \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t& calCount, \
                              NoLoc...) {                                                                              \
    NAME<T>(dstLocal, srcLocal, calCount, tcemu::SrcLoc::current());                                                   \
  }

namespace AscendC {

TCEMU_VEC_BINARY_API(Add, AddOp, ArithTypes, ArithTypes)
TCEMU_VEC_BINARY_API(Sub, SubOp, ArithTypes, ArithTypes)
TCEMU_VEC_BINARY_API(Mul, MulOp, ArithTypes, ArithTypes)
TCEMU_VEC_BINARY_API(Div, DivOp, FloatTypes, FloatTypes)
TCEMU_VEC_BINARY_API(Max, MaxOp, ArithTypes, ArithTypes)
TCEMU_VEC_BINARY_API(Min, MinOp, ArithTypes, ArithTypes)
TCEMU_VEC_BINARY_API(And, AndOp, BitTypes, BitCountTypes)
TCEMU_VEC_BINARY_API(Or, OrOp, BitTypes, BitCountTypes)
TCEMU_VEC_BINARY_API(AddRelu, AddReluOp, ReluArithTypes, ReluArithTypes)
TCEMU_VEC_BINARY_API(SubRelu, SubReluOp, ReluArithTypes, ReluArithTypes)
TCEMU_VEC_BINARY_API(FusedMulAdd, FusedMulAddOp, FloatTypes, FloatTypes)
TCEMU_VEC_BINARY_API(FusedMulAddRelu, FusedMulAddReluOp, FloatTypes, FloatTypes)

TCEMU_VEC_UNARY_API(Relu, ReluOp, ReluTypes)
TCEMU_VEC_UNARY_API(Exp, ExpOp, FloatTypes)
TCEMU_VEC_UNARY_API(Ln, LnOp, FloatTypes)
TCEMU_VEC_UNARY_API(Abs, AbsOp, FloatTypes)
TCEMU_VEC_UNARY_API(Reciprocal, ReciprocalOp, FloatTypes)
TCEMU_VEC_UNARY_API(Rsqrt, RsqrtOp, FloatTypes)
TCEMU_VEC_UNARY_API(Sqrt, SqrtOp, FloatTypes)
TCEMU_VEC_UNARY_API(Not, NotOp, BitTypes)

}  // namespace AscendC

#undef TCEMU_VEC_BINARY_API
#undef TCEMU_VEC_UNARY_API

#include "emu/vec_scalar.h"
