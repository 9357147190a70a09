// bfloat16_t's scalar conversions as the device has them: from every integer type and from half (round to
// nearest even, as from float), and CANN's ToBfloat16 (truncating) / ToFloat.
#include "emu_test_util.h"

using namespace AscendC;

namespace {

TEST(Bf16Scalar, ConvertsFromIntegersAndHalfLikeFromFloat) {
  EXPECT_EQ(bfloat16_t(0).val, 0u);
  EXPECT_EQ(bfloat16_t(3).ToFloat(), 3.0f);
  EXPECT_EQ(bfloat16_t(int64_t{-257}).ToFloat(), -256.0f);  // 8 significant bits: -257 rounds to even
  EXPECT_EQ(bfloat16_t(uint8_t{200}).ToFloat(), 200.0f);
  EXPECT_EQ(bfloat16_t(half(1.5f)).ToFloat(), 1.5f);
  EXPECT_EQ(bfloat16_t(half(0.1f)).val, bfloat16_t(half(0.1f).ToFloat()).val);
  DataCopyPadExtParams<bfloat16_t> pad{false, 0, 0, 0};  // an int pad value, as CANN kernels write it
  EXPECT_EQ(pad.paddingValue.val, 0u);
}

TEST(Bf16Scalar, ToBfloat16TruncatesAndToFloatIsExact) {
  // 1 + 2^-8 + 2^-9 lies above the midpoint of two bfloat16 values: rounding goes up, CANN's ToBfloat16 does not.
  float f = 1.0f + 1.0f / 256 + 1.0f / 512;
  EXPECT_EQ(ToBfloat16(f).ToFloat(), 1.0f);
  EXPECT_EQ(bfloat16_t(f).ToFloat(), 1.0f + 1.0f / 128);
  EXPECT_EQ(ToBfloat16(-2.5f).ToFloat(), -2.5f);
  EXPECT_EQ(ToFloat(bfloat16_t::FromBits(0x3f80)), 1.0f);
  EXPECT_EQ(ToFloat(bfloat16_t::FromBits(0xc0a0)), -5.0f);
}

}  // namespace
