#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "interp/numeric.h"

namespace tilecraft::interp {
namespace {

using dsl::DType;

TEST(Numeric, F16RoundsToNearestEvenAndOverflowsToInfinity) {
  EXPECT_EQ(roundTo(2049, DType::F16), 2048);  // tie between 2048 and 2050: even mantissa
  EXPECT_EQ(roundTo(2051, DType::F16), 2052);
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1, -11), DType::F16), 1.0);
  EXPECT_EQ(roundTo(1.0 + 3 * std::ldexp(1, -11), DType::F16), 1.0 + std::ldexp(1, -9));
  EXPECT_EQ(roundTo(65519, DType::F16), 65504);
  EXPECT_EQ(roundTo(65520, DType::F16), std::numeric_limits<double>::infinity());
  EXPECT_EQ(roundTo(-70000, DType::F16), -std::numeric_limits<double>::infinity());
  // Subnormals: the quantum is 2^-24; half a quantum ties to zero, one and a half to two quanta.
  EXPECT_EQ(roundTo(std::ldexp(1, -25), DType::F16), 0.0);
  EXPECT_EQ(roundTo(3 * std::ldexp(1, -25), DType::F16), std::ldexp(1, -23));
  EXPECT_TRUE(std::isnan(roundTo(NAN, DType::F16)));
}

TEST(Numeric, Bf16AndF32Round) {
  EXPECT_EQ(roundTo(1.0 + std::ldexp(1, -8), DType::BF16), 1.0);
  EXPECT_EQ(roundTo(1.0 + 3 * std::ldexp(1, -8), DType::BF16), 1.0 + std::ldexp(1, -6));
  EXPECT_EQ(roundTo(0.1, DType::F32), static_cast<double>(0.1f));
  EXPECT_EQ(roundTo(1e39, DType::F32), std::numeric_limits<double>::infinity());
}

TEST(Numeric, IntegersWrapAtTheirWidth) {
  EXPECT_EQ(roundTo(2147483648.0, DType::I32), -2147483648.0);
  EXPECT_EQ(roundTo(40000, DType::I16), -25536);
  EXPECT_EQ(roundTo(-1, DType::U8), 255);
  EXPECT_EQ(roundTo(130, DType::I8), -126);
  EXPECT_EQ(roundTo(5, DType::Bool), 1);
}

TEST(Numeric, CastsTruncateAndSaturateFloatToIntAndWrapIntToInt) {
  EXPECT_EQ(castValue(2.7, DType::F32, DType::I32), 2);
  EXPECT_EQ(castValue(-2.7, DType::F32, DType::I32), -2);
  EXPECT_EQ(castValue(1e10, DType::F32, DType::I32), 2147483647.0);
  EXPECT_EQ(castValue(-1e10, DType::F32, DType::I16), -32768);
  EXPECT_EQ(castValue(NAN, DType::F16, DType::I8), 0);
  EXPECT_EQ(castValue(300, DType::F16, DType::U8), 255);
  EXPECT_EQ(castValue(-5, DType::F16, DType::U8), 0);
  EXPECT_EQ(castValue(40000, DType::I32, DType::I16), -25536);
  EXPECT_EQ(castValue(16777217, DType::I32, DType::F32), 16777216);
  EXPECT_EQ(castValue(0.1, DType::F32, DType::F16), roundTo(0.1, DType::F16));
}

TEST(Numeric, F16AndBf16BitPatterns) {
  EXPECT_EQ(f16Bits(1.0), 0x3C00);
  EXPECT_EQ(f16Bits(-2.0), 0xC000);
  EXPECT_EQ(f16Bits(65504), 0x7BFF);
  EXPECT_EQ(f16Bits(std::ldexp(1, -24)), 0x0001);
  EXPECT_EQ(f16Bits(INFINITY), 0x7C00);
  EXPECT_EQ(f16FromBits(0x3555), roundTo(1.0 / 3, DType::F16));
  EXPECT_EQ(bf16Bits(1.0), 0x3F80);
  EXPECT_EQ(bf16Bits(-0.5), 0xBF00);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double v = f16FromBits(static_cast<uint16_t>(bits));
    if (!std::isnan(v)) {
      ASSERT_EQ(f16Bits(v), bits) << bits;
    }
    double w = bf16FromBits(static_cast<uint16_t>(bits));
    if (!std::isnan(w)) {
      ASSERT_EQ(bf16Bits(w), bits) << bits;
    }
  }
}

}  // namespace
}  // namespace tilecraft::interp
