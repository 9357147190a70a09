// Cast, Compare / CompareScalar, Select and the CMPMASK register (ascendc_api.md §3.6, §3.8), for 910B
// (dav-c220).
//
// Cast follows the c220 table of CANN 8.1 (kernel_operator_vec_vconv_impl.h): which (src, dst) pairs exist
// and which RoundMode each accepts. Every value is converted exactly once from its real value: CAST_RINT ties
// to even, CAST_ROUND ties away from zero, CAST_ODD rounds an inexact result to the neighbour with an odd
// last bit, and CAST_NONE is CAST_RINT (it only matters where the conversion can lose precision). A value
// beyond the target's range saturates to its largest (or smallest) value in every mode, as asc-devkit's
// precision_conversion.md says overflow does by default; inf and NaN stay inf and NaN between float types,
// and NaN becomes 0 in an integer (assumed: the sources do not say). int32 -> half is vconv_deq: value * the
// SetDeqScale(half) scale, rounded once to nearest even (the mode is ignored, as CANN documents).
//
// Compare on A2 ignores its mask argument ("reserved") and compares every lane of each repeat; the bit vector
// is written contiguously, lanes/8 bytes per repeat, whatever dst strides are passed. NaN compares false
// except NE.
#pragma once

#include "emu/vec_engine.h"

namespace tcemu::vec {

using AscendC::CMPMODE;
using AscendC::RoundMode;
using AscendC::SELMODE;

inline const char* roundModeName(RoundMode m) {
  static const char* const names[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                      "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
  uint8_t i = static_cast<uint8_t>(m);
  return i < 7 ? names[i] : "invalid";
}
inline const char* cmpModeName(CMPMODE m) {
  static const char* const names[] = {"LT", "GT", "EQ", "LE", "GE", "NE"};
  uint8_t i = static_cast<uint8_t>(m);
  return i < 6 ? names[i] : "invalid";
}

// Bit i set: RoundMode i is accepted. 0: the pair does not exist on 910B.
constexpr uint8_t kModeNone = 1u << 0;
constexpr uint8_t kModesDirected = 0x3e;  // RINT, FLOOR, CEIL, ROUND, TRUNC
constexpr uint8_t kModesAll = 0x7f;

template <typename D, typename S>
constexpr uint8_t castModes() {
  using std::is_same_v;
  if constexpr (is_same_v<S, half>) {
    if constexpr (is_same_v<D, float>) return kModeNone;
    else if constexpr (is_same_v<D, int32_t> || is_same_v<D, int16_t>) return kModesDirected;
    else if constexpr (is_same_v<D, int8_t> || is_same_v<D, uint8_t>) return kModesDirected | kModeNone;
    else return 0;
  } else if constexpr (is_same_v<S, float>) {
    if constexpr (is_same_v<D, half>) return kModesAll;
    else if constexpr (is_same_v<D, float> || is_same_v<D, bfloat16_t> || is_same_v<D, int32_t> ||
                       is_same_v<D, int16_t> || is_same_v<D, int64_t>)
      return kModesDirected;
    else return 0;
  } else if constexpr (is_same_v<S, bfloat16_t>) {
    if constexpr (is_same_v<D, float>) return kModeNone;
    else if constexpr (is_same_v<D, int32_t>) return kModesDirected;
    else return 0;
  } else if constexpr (is_same_v<S, int32_t>) {
    if constexpr (is_same_v<D, float>) return kModesDirected | kModeNone;
    else if constexpr (is_same_v<D, half>) return kModesAll;  // vconv_deq ignores the mode
    else if constexpr (is_same_v<D, int16_t> || is_same_v<D, int64_t>) return kModeNone;
    else return 0;
  } else if constexpr (is_same_v<S, int16_t>) {
    if constexpr (is_same_v<D, half>) return kModesDirected | kModeNone;
    else if constexpr (is_same_v<D, float>) return kModeNone;
    else return 0;
  } else if constexpr (is_same_v<S, int8_t> || is_same_v<S, uint8_t>) {
    return is_same_v<D, half> ? kModeNone : 0;
  } else if constexpr (is_same_v<S, int64_t>) {
    if constexpr (is_same_v<D, float>) return kModesDirected;
    else if constexpr (is_same_v<D, int32_t>) return kModeNone;
    else return 0;
  } else {
    return 0;
  }
}

// "float, int32_t, ..." : the targets a source converts to, for the unsupported-pair message.
template <typename S>
inline std::string castTargets() {
  std::string s;
  auto add = [&](bool ok, const char* name) {
    if (ok) s += std::string(s.empty() ? "" : ", ") + name;
  };
  add(castModes<half, S>() != 0, "half");
  add(castModes<float, S>() != 0, "float");
  add(castModes<bfloat16_t, S>() != 0, "bfloat16_t");
  add(castModes<int8_t, S>() != 0, "int8_t");
  add(castModes<uint8_t, S>() != 0, "uint8_t");
  add(castModes<int16_t, S>() != 0, "int16_t");
  add(castModes<int32_t, S>() != 0, "int32_t");
  add(castModes<int64_t, S>() != 0, "int64_t");
  return s.empty() ? "nothing" : s;
}

template <typename D, typename S>
inline void checkCast(RoundMode mode, const SrcLoc& loc) {
  (void)mode;
  constexpr uint8_t modes = castModes<D, S>();
  if constexpr (modes == 0) {
    constexpr bool viaFloat = castModes<float, S>() != 0 && castModes<D, float>() != 0;
    fail(loc, "Cast from %s to %s is not supported on 910B (%s converts to: %s)%s", dtypeName<S>(), dtypeName<D>(),
         dtypeName<S>(), castTargets<S>().c_str(), viaFloat ? "; hint: Cast to float first, then from float" : "");
  } else {
    uint8_t m = static_cast<uint8_t>(mode);
    if (m > 6 || !((modes >> m) & 1u)) {
      std::string list;
      for (uint8_t i = 0; i < 7; ++i)
        if ((modes >> i) & 1u) list += std::string(list.empty() ? "" : ", ") + roundModeName(static_cast<RoundMode>(i));
      const char* hint = (modes & kModeNone) ? "RoundMode::CAST_NONE" : "RoundMode::CAST_RINT (nearest, ties to even)";
      fail(loc, "Cast from %s to %s does not support RoundMode::%s on 910B (supported: %s); hint: use %s",
           dtypeName<S>(), dtypeName<D>(), roundModeName(mode), list.c_str(), hint);
    }
  }
}

// --- exact conversion of one value -------------------------------------------------------------------------

template <typename S>
inline long double realOf(S v) {
  if constexpr (isHalfLike<S>) return static_cast<long double>(toFloat(v));
  else return static_cast<long double>(v);
}

// Rounds x to a binary format with p significand bits, minimum normal exponent emin and largest finite value
// maxv.
inline long double roundToFormat(long double x, RoundMode mode, int p, int emin, long double maxv) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const bool neg = std::signbit(x);
  const long double a = std::fabs(x);
  const int e = std::max(static_cast<int>(std::ilogb(a)), emin);
  const long double q = std::ldexp(1.0L, e - (p - 1));
  const long double m = a / q;  // exact: a power-of-two scaling
  long double lo = std::floor(m);
  const long double frac = m - lo;
  long double n = lo;
  switch (mode) {
    case RoundMode::CAST_NONE:
    case RoundMode::CAST_RINT:
      if (frac > 0.5L || (frac == 0.5L && std::fmod(lo, 2.0L) != 0)) n = lo + 1;
      break;
    case RoundMode::CAST_ROUND:
      if (frac >= 0.5L) n = lo + 1;
      break;
    case RoundMode::CAST_TRUNC: break;
    case RoundMode::CAST_FLOOR:
      if (neg && frac > 0) n = lo + 1;
      break;
    case RoundMode::CAST_CEIL:
      if (!neg && frac > 0) n = lo + 1;
      break;
    case RoundMode::CAST_ODD:
      if (frac > 0 && std::fmod(lo, 2.0L) == 0) n = lo + 1;
      break;
  }
  // Overflow saturates to the largest finite value in every mode (precision_conversion.md: "overflow is
  // handled in saturation mode by default"); inf and NaN inputs pass through above.
  const long double r = std::min(n * q, maxv);
  return neg ? -r : r;
}

inline long double roundToInteger(long double x, RoundMode mode) {
  switch (mode) {
    case RoundMode::CAST_FLOOR: return std::floor(x);
    case RoundMode::CAST_CEIL: return std::ceil(x);
    case RoundMode::CAST_ROUND: return std::round(x);
    case RoundMode::CAST_TRUNC: return std::trunc(x);
    default: return std::nearbyint(x);  // the default environment rounds to nearest even
  }
}

template <typename D>
inline D convertReal(long double x, RoundMode mode) {
  if constexpr (std::is_same_v<D, half>) {
    return fromFloat<half>(static_cast<float>(roundToFormat(x, mode, 11, -14, 65504.0L)));
  } else if constexpr (std::is_same_v<D, bfloat16_t>) {
    return fromFloat<bfloat16_t>(static_cast<float>(roundToFormat(x, mode, 8, -126, 0x1.fep127L)));
  } else if constexpr (std::is_same_v<D, float>) {
    return static_cast<float>(roundToFormat(x, mode, 24, -126, 0x1.fffffep127L));
  } else {
    if (std::isnan(x)) return D{0};
    long double r = roundToInteger(x, mode);
    if (r <= static_cast<long double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    if (r >= static_cast<long double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  }
}

template <typename D, typename S>
inline D castValue(S v, RoundMode mode, float deqScale) {
  if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) {
    // float -> float rounds to an integral value in place.
    long double x = v;
    if (std::isnan(x) || std::isinf(x)) return v;
    return static_cast<float>(std::copysign(roundToInteger(x, mode), x));
  } else if constexpr (std::is_same_v<D, half> && std::is_same_v<S, int32_t>) {
    return convertReal<half>(static_cast<long double>(v) * deqScale, RoundMode::CAST_RINT);
  } else {
    return convertReal<D>(realOf(v), mode);
  }
}

// A UB operand that is not addressed lane by lane (bit vectors, CMPMASK images): alive, in UB, aligned.
template <typename T>
inline void checkUb(const AscendC::LocalTensor<T>& t, uint32_t align, const char* what, const SrcLoc& loc) {
  Core& core = cur();
  core.checkAlive(t.ref_, what, loc);
  if (t.ref_.mem != Mem::UB) {
    fail(loc,
         "%s is in %s: vector instructions reach only UB (VECIN, VECOUT, VECCALC); hint: copy the data to a "
         "UB tensor first",
         what, memName(t.ref_.mem));
  }
  core.checkAlign(t.ref_, align, what, loc);
}

template <typename D, typename S>
inline void castRun(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<S>& src, RoundMode mode,
                    const Mask& mask, uint32_t repeatTimes, Stride dstStride, Stride srcStride, const SrcLoc& loc) {
  checkCast<D, S>(mode, loc);
  constexpr uint32_t widest = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  VecInstr vi("Cast", widest, mask, repeatTimes, loc);
  Operand s = vi.operand(src, srcStride, "Cast src");
  Operand d = vi.operand(dst, dstStride, "Cast dst");
  vi.read(s);
  vi.write(d);
  // Results are gathered before any store: a cast in place of a narrower or wider type must read its sources
  // first.
  std::vector<std::pair<D*, D>> out;
  float scale = vi.core().deqScale_;
  vi.forEach([&](uint32_t r, uint32_t lane) {
    S v;
    std::memcpy(static_cast<void*>(&v), vi.at<S>(s, r, lane), sizeof(S));
    out.emplace_back(vi.at<D>(d, r, lane), castValue<D>(v, mode, scale));
  });
  for (auto& [p, v] : out) std::memcpy(static_cast<void*>(p), &v, sizeof(D));
  vi.finish();
}

// --- comparisons -------------------------------------------------------------------------------------------

template <typename T>
inline bool compareValues(T a, T b, CMPMODE mode) {
  if constexpr (isHalfLike<T>) {
    return compareValues<float>(toFloat(a), toFloat(b), mode);
  } else {
    switch (mode) {
      case CMPMODE::LT: return a < b;
      case CMPMODE::GT: return a > b;
      case CMPMODE::EQ: return a == b;
      case CMPMODE::LE: return a <= b;
      case CMPMODE::GE: return a >= b;
      case CMPMODE::NE: return a != b;
    }
    return false;
  }
}

template <typename T, typename U>
inline void checkCompare(const char* api, CMPMODE mode, const SrcLoc& loc) {
  checkDtype<T, half, float, int32_t>(api, loc);
  if (std::string(api) == "CompareScalar") checkDtype<U, uint8_t>("CompareScalar dst", loc);
  else checkDtype<U, int8_t, uint8_t>("Compare dst", loc);
  if (static_cast<uint8_t>(mode) > 5)
    fail(loc, "%s with CMPMODE %d, which does not exist", api, static_cast<int>(mode));
  if (std::is_same_v<T, int32_t> && mode != CMPMODE::EQ) {
    fail(loc,
         "%s on int32_t supports only CMPMODE::EQ on 910B, not CMPMODE::%s; hint: Cast both sides to float "
         "first",
         api, cmpModeName(mode));
  }
}

// Runs `repeats` full repeats of a vector compare and writes lanes/8 bytes of bits per repeat, contiguously.
template <typename T, typename U, typename Src1>
inline void compareRun(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& src0,
                       Stride s0Stride, Src1 src1, Stride s1Stride, CMPMODE mode, uint32_t repeats, const SrcLoc& loc) {
  checkCompare<T, U>(api, mode, loc);
  if (repeats == 0) return;
  std::string w0 = std::string(api) + " src0", w1 = std::string(api) + " src1", wd = std::string(api) + " dst";
  checkUb(dst, kBlock, wd.c_str(), loc);
  constexpr uint32_t lanes = kRepeatBytes / sizeof(T);
  VecInstr vi(api, sizeof(T), Mask::count(uint64_t{repeats} * lanes), 0, loc);
  Operand a = vi.operand(src0, s0Stride, w0.c_str());
  vi.read(a);
  Operand b;
  constexpr bool tensorSrc1 = !std::is_same_v<Src1, T>;
  if constexpr (tensorSrc1) {
    b = vi.operand(src1, s1Stride, w1.c_str());
    vi.read(b);
  }
  const uint64_t bytes = uint64_t{repeats} * lanes / 8;
  vi.core().write(vi.index(), dst.ref_, 0, bytes, wd.c_str(), loc);
  std::vector<uint8_t> bits(bytes, 0);
  vi.forEach([&](uint32_t r, uint32_t lane) {
    T x = *vi.at<T>(a, r, lane);
    T y;
    if constexpr (tensorSrc1) y = *vi.at<T>(b, r, lane);
    else y = src1;
    if (compareValues(x, y, mode)) bits[(uint64_t{r} * lanes + lane) / 8] |= static_cast<uint8_t>(1u << (lane % 8));
  });
  std::memcpy(dst.GetPhyAddr(), bits.data(), bytes);
}

template <typename T>
inline uint32_t compareCountRepeats(const char* api, uint32_t calCount, const SrcLoc& loc) {
  uint64_t bytes = uint64_t{calCount} * sizeof(T);
  if (bytes % kRepeatBytes != 0) {
    uint32_t perRepeat = kRepeatBytes / sizeof(T);
    fail(loc,
         "%s count %u of %s is %llu bytes, not a multiple of 256: the hardware compares whole repeats only "
         "and would leave the last %u elements uncompared; hint: pad the count to %u elements and ignore the "
         "extra bits",
         api, calCount, dtypeName<T>(), static_cast<unsigned long long>(bytes), calCount % perRepeat,
         static_cast<uint32_t>(roundUp(calCount, perRepeat)));
  }
  return static_cast<uint32_t>(bytes / kRepeatBytes);
}

// --- select ------------------------------------------------------------------------------------------------

// Which bit of the selection chooses lane `lane` of repeat `r`: mode 0 reuses CMPMASK's bits every repeat,
// modes 1 and 2 walk the selMask tensor's bits across repeats.
template <typename T>
inline void selectRun(const AscendC::LocalTensor<T>& dst, const uint8_t* selBits, bool perRepeatBits,
                      const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1, T scalar, VecInstr& vi,
                      const AscendC::BinaryRepeatParams& p) {
  Operand a = vi.operand(src0, src0Of(p), "Select src0");
  vi.read(a);
  Operand b;
  if (src1) {
    b = vi.operand(*src1, src1Of(p), "Select src1");
    vi.read(b);
  }
  Operand d = vi.operand(dst, dstOf(p), "Select dst");
  vi.write(d);
  const uint32_t lanes = vi.lanes();
  std::vector<std::pair<T*, T>> out;
  vi.forEach([&](uint32_t r, uint32_t lane) {
    uint64_t bit = perRepeatBits ? uint64_t{r} * lanes + lane : lane;
    bool take0 = (selBits[bit / 8] >> (bit % 8)) & 1u;
    out.emplace_back(vi.at<T>(d, r, lane), take0 ? *vi.at<T>(a, r, lane) : (src1 ? *vi.at<T>(b, r, lane) : scalar));
  });
  for (auto& [ptr, v] : out) *ptr = v;
  vi.finish();
}

// Bytes of selMask a Select reads: 16 (the CMPMASK image) in mode 0, one bit per lane of every repeat
// otherwise.
inline uint64_t selectMaskBytes(SELMODE mode, const VecInstr& vi) {
  if (mode == SELMODE::VSEL_CMPMASK_SPR) return 16;
  return ceilDiv(uint64_t{vi.repeats()} * vi.lanes(), 8);
}

template <typename T, typename U>
inline void selectTensor(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& selMask,
                         const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1, T scalar,
                         SELMODE mode, const Mask& mask, uint32_t repeatTimes, const AscendC::BinaryRepeatParams& p,
                         const SrcLoc& loc) {
  checkDtype<T, half, float>("Select", loc);
  checkDtype<U, uint8_t, uint16_t, uint32_t, uint64_t>("Select selMask", loc);
  if (src1 && mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    fail(loc,
         "Select with a tensor src1 takes SELMODE::VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE, not "
         "VSEL_TENSOR_SCALAR_MODE; hint: pass src1 as a scalar of type %s for mode 1",
         dtypeName<T>());
  }
  if (!src1 && mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    fail(loc,
         "Select with a scalar src1 takes only SELMODE::VSEL_TENSOR_SCALAR_MODE, not mode %d; hint: pass "
         "SELMODE::VSEL_TENSOR_SCALAR_MODE",
         static_cast<int>(mode));
  }
  checkUb(selMask, kBlock, "Select selMask", loc);
  VecInstr vi("Select", sizeof(T), mask, repeatTimes, loc);
  if (vi.repeats() == 0) return;
  Core& core = vi.core();
  core.read(vi.index(), selMask.ref_, 0, selectMaskBytes(mode, vi), "Select selMask", loc);
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr());
  // What CANN's set_cmpmask leaves in CMPMASK: the selection bits (mode 0), the scalar repeated (mode 1), or
  // the selMask's UB address repeated (mode 2), which the register forms of Select then read.
  if (mode == SELMODE::VSEL_CMPMASK_SPR) {
    std::memcpy(core.cmpMask_, bits, 16);
  } else if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    for (uint32_t i = 0; i < 16 / sizeof(T); ++i)
      std::memcpy(reinterpret_cast<uint8_t*>(core.cmpMask_) + i * sizeof(T), &scalar, sizeof(T));
  } else {
    core.cmpMask_[0] = core.cmpMask_[1] = uint64_t{selMask.ref_.offset} * 0x100000001ULL;
  }
  selectRun(dst, mode == SELMODE::VSEL_CMPMASK_SPR ? reinterpret_cast<const uint8_t*>(core.cmpMask_) : bits,
            mode != SELMODE::VSEL_CMPMASK_SPR, src0, src1, scalar, vi, p);
}

}  // namespace tcemu::vec

namespace AscendC {

// --- Cast --------------------------------------------------------------------------------------------------

template <typename T1, typename T2, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal,
                            const RoundMode& round_mode, const uint64_t mask[], const uint8_t repeatTimes,
                            const UnaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::castRun(dstLocal, srcLocal, round_mode, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                      tcemu::vec::dstOf(repeatParams), tcemu::vec::srcOf(repeatParams), loc);
}

template <typename T1, typename T2, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal,
                            const RoundMode& round_mode, const uint64_t mask, const uint8_t repeatTimes,
                            const UnaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::castRun(dstLocal, srcLocal, round_mode, tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes,
                      tcemu::vec::dstOf(repeatParams), tcemu::vec::srcOf(repeatParams), loc);
}

// Count form: counter mode; the wider operand steps 8 blocks per repeat and the narrower proportionally
// fewer.
template <typename T1, typename T2>
__aicore__ inline void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal,
                            const RoundMode& round_mode, const uint32_t calCount,
                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  constexpr uint32_t widest = sizeof(T1) > sizeof(T2) ? sizeof(T1) : sizeof(T2);
  tcemu::vec::castRun(dstLocal, srcLocal, round_mode, tcemu::vec::Mask::count(calCount), 0,
                      {1, static_cast<uint32_t>(8 * sizeof(T1) / widest)},
                      {1, static_cast<uint32_t>(8 * sizeof(T2) / widest)}, loc);
}

// The scale of the int32 -> half Cast (vconv_deq).
__aicore__ inline void SetDeqScale(half scale) {
  if (!tcemu::onVectorCore()) return;
  tcemu::cur().deqScale_ = tcemu::toFloat(scale);
}

// --- Compare -----------------------------------------------------------------------------------------------

template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                               const LocalTensor<T>& src1Local, CMPMODE cmpMode, uint32_t calCount,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::checkCompare<T, U>("Compare", cmpMode, loc);
  uint32_t repeats = tcemu::vec::compareCountRepeats<T>("Compare", calCount, loc);
  tcemu::vec::compareRun("Compare", dstLocal, src0Local, {1, 8}, src1Local, {1, 8}, cmpMode, repeats, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                               const LocalTensor<T>& src1Local, CMPMODE cmpMode, const uint64_t mask[],
                               uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  (void)mask;  // reserved on 910B: every lane is compared
  tcemu::vec::compareRun("Compare", dstLocal, src0Local, tcemu::vec::src0Of(repeatParams), src1Local,
                         tcemu::vec::src1Of(repeatParams), cmpMode, repeatTimes, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                               const LocalTensor<T>& src1Local, CMPMODE cmpMode, const uint64_t mask,
                               uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  (void)mask;
  tcemu::vec::compareRun("Compare", dstLocal, src0Local, tcemu::vec::src0Of(repeatParams), src1Local,
                         tcemu::vec::src1Of(repeatParams), cmpMode, repeatTimes, loc);
}

// Register form: one repeat under the mask, the result bits go to CMPMASK (lanes the mask leaves out read 0).
template <typename T, bool isSetMask, typename M>
__aicore__ inline void compareToCmpMask(const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
                                        CMPMODE cmpMode, M mask, const BinaryRepeatParams& repeatParams,
                                        const tcemu::SrcLoc& loc) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Compare", loc);
  tcemu::vec::checkCompare<T, uint8_t>("Compare", cmpMode, loc);
  tcemu::vec::VecInstr vi("Compare", sizeof(T), tcemu::vec::Mask::of<isSetMask>(mask), 1, loc);
  tcemu::vec::Operand a = vi.operand(src0Local, tcemu::vec::src0Of(repeatParams), "Compare src0");
  tcemu::vec::Operand b = vi.operand(src1Local, tcemu::vec::src1Of(repeatParams), "Compare src1");
  vi.read(a);
  vi.read(b);
  uint64_t bits[2] = {0, 0};
  vi.forEach([&](uint32_t r, uint32_t lane) {
    if (tcemu::vec::compareValues(*vi.at<T>(a, r, lane), *vi.at<T>(b, r, lane), cmpMode))
      bits[lane / 64] |= 1ULL << (lane % 64);
  });
  vi.core().cmpMask_[0] = bits[0];
  vi.core().cmpMask_[1] = bits[1];
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams& repeatParams,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  compareToCmpMask<T, isSetMask>(src0Local, src1Local, cmpMode, mask, repeatParams, loc);
}

template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams& repeatParams,
                               tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  compareToCmpMask<T, isSetMask>(src0Local, src1Local, cmpMode, mask, repeatParams, loc);
}

// CMPMASK <-> UB: 16 bytes, 16-byte aligned.
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::checkUb(dst, 16, "GetCmpMask dst", loc);
  tcemu::Core& core = tcemu::cur();
  uint32_t ins = core.begin(tcemu::Pipe::V, tcemu::OpClass::Vector, "GetCmpMask", loc);
  core.instr(ins).bytes = 16;
  core.write(ins, dst.ref_, 0, 16, "GetCmpMask dst", loc);
  std::memcpy(dst.GetPhyAddr(), core.cmpMask_, 16);
}

template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::checkUb(src, 16, "SetCmpMask src", loc);
  tcemu::Core& core = tcemu::cur();
  uint32_t ins = core.begin(tcemu::Pipe::V, tcemu::OpClass::Vector, "SetCmpMask", loc);
  core.instr(ins).bytes = 16;
  core.read(ins, src.ref_, 0, 16, "SetCmpMask src", loc);
  std::memcpy(core.cmpMask_, src.GetPhyAddr(), 16);
}

// --- CompareScalar -----------------------------------------------------------------------------------------

template <typename T, typename U>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                                     const T src1Scalar, CMPMODE cmpMode, uint32_t calCount,
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::checkCompare<T, U>("CompareScalar", cmpMode, loc);
  uint32_t repeats = tcemu::vec::compareCountRepeats<T>("CompareScalar", calCount, loc);
  tcemu::vec::compareRun("CompareScalar", dstLocal, src0Local, {1, 8}, src1Scalar, {}, cmpMode, repeats, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                                     const T src1Scalar, CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes,
                                     const UnaryRepeatParams& repeatParams,
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  (void)mask;
  tcemu::vec::compareRun("CompareScalar", dstLocal, src0Local, tcemu::vec::srcOf(repeatParams), src1Scalar, {}, cmpMode,
                         repeatTimes, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local,
                                     const T src1Scalar, CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTimes,
                                     const UnaryRepeatParams& repeatParams,
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  (void)mask;
  tcemu::vec::compareRun("CompareScalar", dstLocal, src0Local, tcemu::vec::srcOf(repeatParams), src1Scalar, {}, cmpMode,
                         repeatTimes, loc);
}

// --- Select ------------------------------------------------------------------------------------------------

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, SELMODE selMode,
                              uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::selectTensor(dstLocal, selMask, src0Local, &src1Local, T{}, selMode, tcemu::vec::Mask::count(calCount), 0,
                           BinaryRepeatParams{}, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, SELMODE selMode,
                              uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::selectTensor(dstLocal, selMask, src0Local, &src1Local, T{}, selMode,
                           tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local, SELMODE selMode,
                              uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::selectTensor(dstLocal, selMask, src0Local, &src1Local, T{}, selMode,
                           tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, T src1Local, SELMODE selMode, uint32_t calCount,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::selectTensor<T, U>(dstLocal, selMask, src0Local, nullptr, src1Local, selMode,
                                 tcemu::vec::Mask::count(calCount), 0, BinaryRepeatParams{}, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, T src1Local, SELMODE selMode, uint64_t mask[],
                              uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::selectTensor<T, U>(dstLocal, selMask, src0Local, nullptr, src1Local, selMode,
                                 tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, T src1Local, SELMODE selMode, uint64_t mask,
                              uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::selectTensor<T, U>(dstLocal, selMask, src0Local, nullptr, src1Local, selMode,
                                 tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, repeatParams, loc);
}

// Register forms: the mask register chooses the lanes and CMPMASK holds the selection (mode 0) or the UB
// address of the selMask bits (mode 2, as CANN's VselIntrinsicsImplPre puts it there).
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,
                              const LocalTensor<T>& src1Local, uint8_t repeatTimes,
                              const BinaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Select", loc);
  static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE, "mode 1 register Select takes (dst, selMask, src0, ...)");
  tcemu::vec::VecInstr vi("Select", sizeof(T), tcemu::vec::Mask::reg(), repeatTimes, loc);
  tcemu::Core& core = vi.core();
  const uint8_t* bits = reinterpret_cast<const uint8_t*>(core.cmpMask_);
  if constexpr (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    uint32_t addr = static_cast<uint32_t>(core.cmpMask_[0]);
    tcemu::TensorRef sel{tcemu::Mem::UB, addr, 0, tcemu::memSize(tcemu::Mem::UB), -1, 0, TPosition::VECCALC, true};
    core.read(vi.index(), sel, 0, tcemu::vec::selectMaskBytes(selMode, vi), "Select selMask (CMPMASK address)", loc);
    bits = core.ptr(tcemu::Mem::UB, addr);
  }
  tcemu::vec::selectRun(dstLocal, bits, selMode != SELMODE::VSEL_CMPMASK_SPR, src0Local, &src1Local, T{}, vi,
                        repeatParams);
}

// Mode 1 register form: the scalar is the first element of CMPMASK (SetCmpMask of a tensor holding it).
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask,
                              const LocalTensor<T>& src0Local, uint8_t repeatTimes,
                              const BinaryRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, float>("Select", loc);
  tcemu::checkDtype<U, uint8_t, uint16_t, uint32_t, uint64_t>("Select selMask", loc);
  tcemu::vec::checkUb(selMask, tcemu::kBlock, "Select selMask", loc);
  tcemu::vec::VecInstr vi("Select", sizeof(T), tcemu::vec::Mask::reg(), repeatTimes, loc);
  tcemu::Core& core = vi.core();
  core.read(vi.index(), selMask.ref_, 0, tcemu::vec::selectMaskBytes(SELMODE::VSEL_TENSOR_SCALAR_MODE, vi),
            "Select selMask", loc);
  T scalar;
  std::memcpy(static_cast<void*>(&scalar), core.cmpMask_, sizeof(T));
  tcemu::vec::selectRun(dstLocal, reinterpret_cast<const uint8_t*>(selMask.GetPhyAddr()), true, src0Local,
                        static_cast<const LocalTensor<T>*>(nullptr), scalar, vi, repeatParams);
}

}  // namespace AscendC
