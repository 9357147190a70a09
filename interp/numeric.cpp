#include "interp/numeric.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tilecraft::interp {

namespace {

using dsl::DType;

// Rounds to a binary format with `mantissaBits` stored bits, normal exponents [minExp, maxExp], subnormals below.
// Dividing by the quantum (a power of two) is exact in double, so nearbyint (ties to even) is the only rounding.
double roundBinary(double v, int mantissaBits, int minExp, int maxExp) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  int e = 0;
  std::frexp(v, &e);  // v = m * 2^e, 0.5 <= |m| < 1, so the leading bit has weight 2^(e-1)
  int lead = e - 1;
  if (lead < minExp) lead = minExp;
  double quantum = std::ldexp(1.0, lead - mantissaBits);
  double r = std::nearbyint(v / quantum) * quantum;
  if (std::fabs(r) >= std::ldexp(1.0, maxExp + 1)) return std::copysign(std::numeric_limits<double>::infinity(), v);
  return r;
}

int64_t wrapInt(double v, DType dtype) {
  if (!std::isfinite(v)) return 0;
  double t = std::trunc(v);
  uint64_t bits = 0;
  if (std::fabs(t) < 9223372036854775808.0) {
    bits = static_cast<uint64_t>(static_cast<int64_t>(t));
  } else {
    // Beyond 2^63 a double is a multiple of 2^11, so reducing modulo 2^64 is exact.
    double m = std::fmod(t, 18446744073709551616.0);
    if (m < 0) m += 18446744073709551616.0;
    bits = m >= 9223372036854775808.0 ? static_cast<uint64_t>(m - 9223372036854775808.0) + (1ull << 63)
                                      : static_cast<uint64_t>(m);
  }
  switch (dtype) {
    case DType::I8: return static_cast<int8_t>(static_cast<uint8_t>(bits));
    case DType::U8: return static_cast<uint8_t>(bits);
    case DType::I16: return static_cast<int16_t>(static_cast<uint16_t>(bits));
    case DType::I32: return static_cast<int32_t>(static_cast<uint32_t>(bits));
    default: return static_cast<int64_t>(bits);
  }
}

}  // namespace

double roundTo(double value, DType dtype) {
  switch (dtype) {
    case DType::F32: return static_cast<double>(static_cast<float>(value));
    case DType::F16: return roundBinary(value, 10, -14, 15);
    case DType::BF16: return roundBinary(value, 7, -126, 127);
    case DType::Bool: return value != 0 ? 1.0 : 0.0;
    default: return static_cast<double>(wrapInt(value, dtype));
  }
}

double intMax(DType dtype) {
  switch (dtype) {
    case DType::I8: return 127;
    case DType::U8: return 255;
    case DType::I16: return 32767;
    case DType::I32: return 2147483647.0;
    case DType::I64: return 9223372036854775807.0;
    default: return std::numeric_limits<double>::infinity();
  }
}

double intMin(DType dtype) {
  switch (dtype) {
    case DType::I8: return -128;
    case DType::U8: return 0;
    case DType::I16: return -32768;
    case DType::I32: return -2147483648.0;
    case DType::I64: return -9223372036854775808.0;
    default: return -std::numeric_limits<double>::infinity();
  }
}

double castValue(double value, DType from, DType to) {
  if (dsl::isFloat(to)) return roundTo(value, to);
  if (dsl::isFloat(from)) {
    if (std::isnan(value)) return 0;
    double t = std::trunc(value);
    if (t > intMax(to)) return intMax(to);
    if (t < intMin(to)) return intMin(to);
    return t;
  }
  return roundTo(value, to);
}

uint16_t f16Bits(double value) {
  double r = roundTo(value, DType::F16);
  uint16_t sign = std::signbit(r) ? 0x8000 : 0;
  if (std::isnan(r)) return 0x7E00;
  double a = std::fabs(r);
  if (std::isinf(a)) return sign | 0x7C00;
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);
  int lead = e - 1;
  if (lead < -14) return sign | static_cast<uint16_t>(std::ldexp(a, 24));  // subnormal: units of 2^-24
  auto mant = static_cast<uint16_t>(std::ldexp(a, 10 - lead) - 1024);
  return sign | static_cast<uint16_t>((lead + 15) << 10) | mant;
}

double f16FromBits(uint16_t bits) {
  int exp = (bits >> 10) & 0x1F;
  int mant = bits & 0x3FF;
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exp == 0x1F)
    return mant ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (exp == 0) return sign * std::ldexp(mant, -24);
  return sign * std::ldexp(1024 + mant, exp - 25);
}

uint16_t bf16Bits(double value) {
  if (std::isnan(value)) return 0x7FC0;
  // bf16 is the top half of an f32; rounding to bf16 first makes the truncation exact.
  auto f = static_cast<float>(roundTo(value, DType::BF16));
  uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return static_cast<uint16_t>(u >> 16);
}

double bf16FromBits(uint16_t bits) {
  uint32_t u = static_cast<uint32_t>(bits) << 16;
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

}  // namespace tilecraft::interp
