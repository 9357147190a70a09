// half and bfloat16_t as 2-byte software types, with the same shape as CANN's CPU-debug kernel_fp16.h /
// kernel_bf16.h (member operators, conversions to and from the arithmetic types), and IEEE round-to-nearest-even.
//
// Arithmetic on half is done in float and rounded once: float has 24 bits of significand, at least 2*11+2, so the
// double rounding is innocuous and +, -, *, / and sqrt come out correctly rounded, as the hardware's are.
#pragma once

#include <cstdint>
#include <cstring>
#include <cmath>
#include <type_traits>

namespace tcemu {

inline uint32_t floatBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
inline float bitsFloat(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

inline uint16_t floatToHalfBits(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t a = x & 0x7fffffffu;
  if (a >= 0x7f800000u) {  // inf or nan: keep a quiet nan's payload top bits
    return static_cast<uint16_t>(sign | 0x7c00u | (a > 0x7f800000u ? (0x200u | ((a >> 13) & 0x3ffu)) : 0u));
  }
  if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
  uint32_t e = a >> 23;
  if (e < 102) return sign;  // below 2^-25: rounds to zero
  if (e < 113) {             // half subnormal: value = mant * 2^(e-150), unit 2^-24
    uint32_t mant = (a & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126 - e;
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (a - 0x38000000u) >> 13;
  uint32_t rem = a & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

inline float halfBitsToFloatSlow(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu;
  uint32_t m = h & 0x3ffu;
  if (e == 0) {
    if (m == 0) return bitsFloat(sign);
    float v = static_cast<float>(m) * (1.0f / 16777216.0f);  // m * 2^-24, exact
    return sign ? -v : v;
  }
  if (e == 31) return bitsFloat(sign | 0x7f800000u | (m << 13));
  return bitsFloat(sign | ((e + 112) << 23) | (m << 13));
}

// Every vector op on half converts each operand to float: a 256 KiB table makes that one load.
struct HalfTable {
  float values[65536];
  HalfTable() {
    for (uint32_t h = 0; h < 65536; ++h) values[h] = halfBitsToFloatSlow(static_cast<uint16_t>(h));
  }
};
inline const HalfTable kHalfTable;

inline float halfBitsToFloat(uint16_t h) { return kHalfTable.values[h]; }

// double -> float rounding to odd, then float -> half to nearest even, is a correctly rounded double -> half.
inline float doubleToFloatRoundOdd(double d) {
  float f = static_cast<float>(d);
  if (std::isfinite(d) && static_cast<double>(f) != d) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    f = bitsFloat(floatBits(f) | 1u);
  }
  return f;
}

// double -> half correctly rounded (to nearest even) by arithmetic alone, for constant expressions
// (`constexpr half kOne = 1.0;`, which the device compiler's native half allows): scaling by 2 is exact in double,
// so the rounding happens once, at the integer significand. The runtime path uses the bit-level conversion above.
constexpr uint16_t constDoubleToHalfBits(double d) {
  if (d != d) return 0x7e00u;  // nan
  uint16_t sign = __builtin_signbit(d) ? 0x8000u : 0u;
  double a = d < 0 ? -d : d;
  if (a == 0) return sign;
  int e = 0;  // a = m * 2^e with m in [1, 2), or the least normal exponent for a subnormal
  while (a >= 2 && e <= 16) a /= 2, ++e;
  while (a < 1 && e > -14) a *= 2, --e;
  if (e > 15) return static_cast<uint16_t>(sign | 0x7c00u);
  double scaled = a * 1024;  // the significand in units of the last place: [1024, 2048), or [0, 1024) subnormal
  uint32_t q = static_cast<uint32_t>(scaled);
  double rest = scaled - q;
  if (rest > 0.5 || (rest == 0.5 && (q & 1u))) ++q;
  // A subnormal has no implicit bit (e = -14 stands for biased exponent 0); rounding up to 2048 carries into the
  // exponent, and the bit patterns add up either way.
  uint32_t bits = a >= 1 ? (static_cast<uint32_t>(e + 15) << 10) + (q - 1024) : q;
  if (bits >= 0x7c00u) return static_cast<uint16_t>(sign | 0x7c00u);
  return static_cast<uint16_t>(sign | bits);
}

inline uint16_t floatToBf16Bits(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}
inline float bf16BitsToFloat(uint16_t b) { return bitsFloat(static_cast<uint32_t>(b) << 16); }

}  // namespace tcemu

namespace float16 {

struct Fp16T {
  uint16_t val;

  constexpr Fp16T() : val(0) {}
  Fp16T(const Fp16T& fp) = default;
  // Literal type: a constant expression takes the arithmetic conversion, a run the fast one (same results).
  constexpr Fp16T(const float& f)
      : val(__builtin_is_constant_evaluated() ? tcemu::constDoubleToHalfBits(f) : tcemu::floatToHalfBits(f)) {}
  constexpr Fp16T(const double& d)
      : val(__builtin_is_constant_evaluated() ? tcemu::constDoubleToHalfBits(d)
                                              : tcemu::floatToHalfBits(tcemu::doubleToFloatRoundOdd(d))) {}
  constexpr Fp16T(const int8_t& i) : Fp16T(static_cast<float>(i)) {}
  constexpr Fp16T(const uint8_t& i) : Fp16T(static_cast<float>(i)) {}
  constexpr Fp16T(const int16_t& i) : Fp16T(static_cast<float>(i)) {}
  constexpr Fp16T(const uint16_t& i) : Fp16T(static_cast<float>(i)) {}
  // int32 -> float can round; go through double so the value is rounded once.
  constexpr Fp16T(const int32_t& i) : Fp16T(static_cast<double>(i)) {}
  constexpr Fp16T(const uint32_t& i) : Fp16T(static_cast<double>(i)) {}

  static Fp16T FromBits(uint16_t bits) {
    Fp16T h;
    h.val = bits;
    return h;
  }

  Fp16T operator+(const Fp16T fp) const { return Fp16T(ToFloat() + fp.ToFloat()); }
  Fp16T operator-(const Fp16T fp) const { return Fp16T(ToFloat() - fp.ToFloat()); }
  Fp16T operator*(const Fp16T fp) const { return Fp16T(ToFloat() * fp.ToFloat()); }
  Fp16T operator/(const Fp16T fp) const { return Fp16T(ToFloat() / fp.ToFloat()); }
  Fp16T operator-() const { return FromBits(static_cast<uint16_t>(val ^ 0x8000u)); }
  Fp16T operator+=(const Fp16T fp) { return *this = *this + fp; }
  Fp16T operator-=(const Fp16T fp) { return *this = *this - fp; }
  Fp16T operator*=(const Fp16T fp) { return *this = *this * fp; }
  Fp16T operator/=(const Fp16T fp) { return *this = *this / fp; }
  bool operator==(const Fp16T& fp) const { return ToFloat() == fp.ToFloat(); }
  bool operator!=(const Fp16T& fp) const { return ToFloat() != fp.ToFloat(); }
  bool operator>(const Fp16T& fp) const { return ToFloat() > fp.ToFloat(); }
  bool operator>=(const Fp16T& fp) const { return ToFloat() >= fp.ToFloat(); }
  bool operator<(const Fp16T& fp) const { return ToFloat() < fp.ToFloat(); }
  bool operator<=(const Fp16T& fp) const { return ToFloat() <= fp.ToFloat(); }
  Fp16T& operator=(const Fp16T& fp) = default;
  Fp16T& operator=(const float& f) { return *this = Fp16T(f); }
  Fp16T& operator=(const double& d) { return *this = Fp16T(d); }
  Fp16T& operator=(const int8_t& i) { return *this = Fp16T(i); }
  Fp16T& operator=(const uint8_t& i) { return *this = Fp16T(i); }
  Fp16T& operator=(const int16_t& i) { return *this = Fp16T(i); }
  Fp16T& operator=(const uint16_t& i) { return *this = Fp16T(i); }
  Fp16T& operator=(const int32_t& i) { return *this = Fp16T(i); }
  Fp16T& operator=(const uint32_t& i) { return *this = Fp16T(i); }
  operator float() const { return ToFloat(); }
  operator double() const { return ToDouble(); }
  operator int8_t() const { return ToInt8(); }
  operator uint8_t() const { return ToUInt8(); }
  operator int16_t() const { return ToInt16(); }
  operator uint16_t() const { return ToUInt16(); }
  operator int32_t() const { return ToInt32(); }
  operator uint32_t() const { return ToUInt32(); }
  int32_t IsInf() const {
    if ((val & 0x7fffu) != 0x7c00u) return 0;
    return (val & 0x8000u) ? -1 : 1;
  }
  float ToFloat() const { return tcemu::halfBitsToFloat(val); }
  double ToDouble() const { return static_cast<double>(ToFloat()); }
  int8_t ToInt8() const { return static_cast<int8_t>(ToFloat()); }
  uint8_t ToUInt8() const { return static_cast<uint8_t>(ToFloat()); }
  int16_t ToInt16() const { return static_cast<int16_t>(ToFloat()); }
  uint16_t ToUInt16() const { return static_cast<uint16_t>(ToFloat()); }
  int32_t ToInt32() const { return static_cast<int32_t>(ToFloat()); }
  uint32_t ToUInt32() const { return static_cast<uint32_t>(ToFloat()); }
};

}  // namespace float16

namespace bfloat16 {

struct Bf16T {
  uint16_t val;

  Bf16T() : val(0) {}
  Bf16T(const Bf16T& bf) = default;
  Bf16T(const float& f) : val(tcemu::floatToBf16Bits(f)) {}
  Bf16T(const double& d) : val(tcemu::floatToBf16Bits(tcemu::doubleToFloatRoundOdd(d))) {}
  // The device's bfloat16_t converts from every integer type and from half, as a float does.
  template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  Bf16T(const I& i) : Bf16T(static_cast<double>(i)) {}
  Bf16T(const float16::Fp16T& h) : Bf16T(h.ToFloat()) {}

  static Bf16T FromBits(uint16_t bits) {
    Bf16T b;
    b.val = bits;
    return b;
  }

  Bf16T& operator=(const Bf16T& bf) = default;
  Bf16T& operator=(const float& f) { return *this = Bf16T(f); }
  Bf16T operator+(const Bf16T bf) const { return Bf16T(ToFloat() + bf.ToFloat()); }
  Bf16T operator+=(const Bf16T bf) { return *this = *this + bf; }
  bool operator==(const Bf16T& bf) const { return ToFloat() == bf.ToFloat(); }
  bool operator!=(const Bf16T& bf) const { return ToFloat() != bf.ToFloat(); }
  operator float() const { return ToFloat(); }
  operator double() const { return static_cast<double>(ToFloat()); }
  float ToFloat() const { return tcemu::bf16BitsToFloat(val); }
};

}  // namespace bfloat16

using half = float16::Fp16T;
using bfloat16_t = bfloat16::Bf16T;

static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "half and bfloat16_t are 2-byte types");

namespace tcemu {

// Value conversions used by every vector op: compute in float (or the integer type), store back rounded.
template <typename T>
inline float toFloat(T v) {
  if constexpr (std::is_same_v<T, half>) {
    return tcemu::halfBitsToFloat(v.val);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return tcemu::bf16BitsToFloat(v.val);
  } else {
    return static_cast<float>(v);
  }
}

template <typename T>
inline T fromFloat(float f) {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(floatToHalfBits(f));
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return bfloat16_t::FromBits(floatToBf16Bits(f));
  } else {
    return static_cast<T>(f);
  }
}

template <typename T>
constexpr bool isHalfLike = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

template <typename T>
constexpr const char* dtypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  else if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else return "unknown";
}

}  // namespace tcemu
