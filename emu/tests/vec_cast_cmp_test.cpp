// Cast (every RoundMode on ties, saturation, overflow, the 910B pair table), Compare / CompareScalar (bit
// vectors, NaN and inf, the 256-byte rule) and Select (modes 0, 1, 2, CMPMASK).
#include <cmath>

#include "vec2_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::UbTest;

namespace {

class CastTest : public UbTest {
 protected:
  // One value through a Cast of any pair.
  template <typename D, typename S>
  D castOne(S v, RoundMode mode) {
    LocalTensor<S> src = ub<S>(32 / sizeof(S));
    LocalTensor<D> dst = ub<D>(32 / sizeof(D));
    src.SetValue(0, v);
    sToV();
    Cast(dst, src, mode, 1);
    vToS();
    return dst.GetValue(0);
  }
  // Casts one float to half with `mode` and returns the half's bits.
  uint16_t toHalf(float x, RoundMode mode) {
    LocalTensor<float> src = ub<float>(8);
    LocalTensor<half> dst = ub<half>(16);
    put(src, std::vector<float>{x});
    Cast(dst, src, mode, 1);
    vToS();
    return bits(dst.GetValue(0));
  }
  template <typename D>
  D fromFloat(float x, RoundMode mode) {
    LocalTensor<float> src = ub<float>(8);
    LocalTensor<D> dst = ub<D>(32 / sizeof(D));
    put(src, std::vector<float>{x});
    Cast(dst, src, mode, 1);
    vToS();
    return dst.GetValue(0);
  }
};

TEST_F(CastTest, FloatToHalfTieBetweenEvenAndOddNeighbours) {
  const float tie = 1.0f + std::ldexp(1.0f, -11);  // halfway between 1 (0x3c00) and 1 + 2^-10 (0x3c01)
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_RINT), 0x3c00);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_NONE), 0x3c00);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_ROUND), 0x3c01);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_FLOOR), 0x3c00);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_CEIL), 0x3c01);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_TRUNC), 0x3c00);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_ODD), 0x3c01);
}

TEST_F(CastTest, FloatToHalfNegativeTies) {
  const float tie = -(1.0f + 3 * std::ldexp(1.0f, -11));  // halfway between -0x3c01 (odd) and -0x3c02 (even)
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_RINT), 0xbc02);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_ROUND), 0xbc02);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_FLOOR), 0xbc02);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_CEIL), 0xbc01);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_TRUNC), 0xbc01);
  EXPECT_EQ(toHalf(tie, RoundMode::CAST_ODD), 0xbc01);
  EXPECT_EQ(toHalf(-1.0f, RoundMode::CAST_ODD), 0xbc00);  // exact values stay as they are
}

TEST_F(CastTest, FloatToHalfOverflowSaturatesInEveryMode) {
  EXPECT_EQ(toHalf(70000.0f, RoundMode::CAST_RINT), 0x7bff);
  EXPECT_EQ(toHalf(70000.0f, RoundMode::CAST_ROUND), 0x7bff);
  EXPECT_EQ(toHalf(70000.0f, RoundMode::CAST_CEIL), 0x7bff);
  EXPECT_EQ(toHalf(70000.0f, RoundMode::CAST_ODD), 0x7bff);
  EXPECT_EQ(toHalf(-70000.0f, RoundMode::CAST_FLOOR), 0xfbff);
  EXPECT_EQ(toHalf(-70000.0f, RoundMode::CAST_TRUNC), 0xfbff);
  EXPECT_EQ(toHalf(INFINITY, RoundMode::CAST_RINT), 0x7c00);  // inf is not an overflow
  EXPECT_EQ(toHalf(65519.0f, RoundMode::CAST_RINT), 0x7bff);
  EXPECT_EQ(toHalf(65520.0f, RoundMode::CAST_RINT), 0x7bff);
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -25), RoundMode::CAST_RINT), 0x0000);  // tie with 0 rounds to even 0
  EXPECT_EQ(toHalf(std::ldexp(1.0f, -25), RoundMode::CAST_ROUND), 0x0001);
  EXPECT_EQ(toHalf(std::nanf(""), RoundMode::CAST_RINT) & 0x7c00, 0x7c00);
  EXPECT_NE(toHalf(std::nanf(""), RoundMode::CAST_RINT) & 0x03ff, 0);
}

TEST_F(CastTest, FloatToInt32EveryModeOnTies) {
  const std::vector<float> in = {2.5f, -2.5f, 3.5f, -0.5f};
  const std::vector<std::pair<RoundMode, std::vector<int32_t>>> want = {{RoundMode::CAST_RINT, {2, -2, 4, 0}},
                                                                        {RoundMode::CAST_ROUND, {3, -3, 4, -1}},
                                                                        {RoundMode::CAST_FLOOR, {2, -3, 3, -1}},
                                                                        {RoundMode::CAST_CEIL, {3, -2, 4, 0}},
                                                                        {RoundMode::CAST_TRUNC, {2, -2, 3, 0}}};
  for (const auto& [mode, expect] : want) {
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_EQ(fromFloat<int32_t>(in[i], mode), expect[i]) << tcemu::vec::roundModeName(mode) << " " << in[i];
    }
  }
}

TEST_F(CastTest, FloatToIntegerSaturatesAndNanIsZero) {
  EXPECT_EQ(fromFloat<int32_t>(3e9f, RoundMode::CAST_RINT), INT32_MAX);
  EXPECT_EQ(fromFloat<int32_t>(-3e9f, RoundMode::CAST_RINT), INT32_MIN);
  EXPECT_EQ(fromFloat<int32_t>(std::nanf(""), RoundMode::CAST_RINT), 0);
  EXPECT_EQ(fromFloat<int16_t>(40000.0f, RoundMode::CAST_TRUNC), INT16_MAX);
  EXPECT_EQ(fromFloat<int64_t>(-1e19f, RoundMode::CAST_FLOOR), INT64_MIN);
  EXPECT_EQ(fromFloat<int64_t>(1e12f + 0.0f, RoundMode::CAST_RINT), int64_t{999999995904});
}

TEST_F(CastTest, HalfToInt8AndUint8Saturate) {
  LocalTensor<half> src = ub<half>(16);
  LocalTensor<int8_t> s8 = ub<int8_t>(32);
  LocalTensor<uint8_t> u8 = ub<uint8_t>(32);
  put(src, std::vector<float>{300.0f, -300.0f, 2.5f, -5.0f});
  Cast(s8, src, RoundMode::CAST_NONE, 4);
  Cast(u8, src, RoundMode::CAST_ROUND, 4);
  vToS();
  EXPECT_EQ(s8.GetValue(0), 127);
  EXPECT_EQ(s8.GetValue(1), -128);
  EXPECT_EQ(s8.GetValue(2), 2);  // CAST_NONE rounds like CAST_RINT
  EXPECT_EQ(u8.GetValue(0), 255);
  EXPECT_EQ(u8.GetValue(2), 3);
  EXPECT_EQ(u8.GetValue(3), 0);
}

TEST_F(CastTest, FloatToBf16AndBackRoundsToNearestEven) {
  const float tie = 1.0f + std::ldexp(1.0f, -8);  // halfway between bf16 1.0 (0x3f80) and 0x3f81
  EXPECT_EQ(bits(fromFloat<bfloat16_t>(tie, RoundMode::CAST_RINT)), 0x3f80);
  EXPECT_EQ(bits(fromFloat<bfloat16_t>(tie, RoundMode::CAST_ROUND)), 0x3f81);
  EXPECT_EQ(bits(fromFloat<bfloat16_t>(-tie, RoundMode::CAST_FLOOR)), 0xbf81);
  LocalTensor<bfloat16_t> b = ub<bfloat16_t>(16);
  LocalTensor<float> back = ub<float>(8);
  b.SetValue(0, bfloat16_t::FromBits(0x3fc0));  // 1.5
  sToV();
  Cast(back, b, RoundMode::CAST_NONE, 1);
  vToS();
  EXPECT_EQ(back.GetValue(0), 1.5f);
}

TEST_F(CastTest, FloatToFloatRoundsToIntegralValues) {
  EXPECT_EQ(fromFloat<float>(-1.5f, RoundMode::CAST_FLOOR), -2.0f);
  EXPECT_EQ(fromFloat<float>(2.5f, RoundMode::CAST_RINT), 2.0f);
  EXPECT_EQ(fromFloat<float>(2.5f, RoundMode::CAST_ROUND), 3.0f);
  float z = fromFloat<float>(-0.3f, RoundMode::CAST_TRUNC);
  EXPECT_EQ(z, 0.0f);
  EXPECT_TRUE(std::signbit(z));
}

TEST_F(CastTest, IntegerToFloatRoundsLargeValues) {
  LocalTensor<int32_t> src = ub<int32_t>(8);
  LocalTensor<float> dst = ub<float>(8);
  put(src, std::vector<int32_t>{16777217, -16777219});  // 2^24 + 1 and -(2^24 + 3): ties
  const std::vector<std::pair<RoundMode, std::vector<float>>> want = {
      {RoundMode::CAST_RINT, {16777216.0f, -16777220.0f}},
      {RoundMode::CAST_ROUND, {16777218.0f, -16777220.0f}},
      {RoundMode::CAST_TRUNC, {16777216.0f, -16777218.0f}},
      {RoundMode::CAST_CEIL, {16777218.0f, -16777218.0f}}};
  for (const auto& [mode, expect] : want) {
    Cast(dst, src, mode, 2);
    vToS();
    EXPECT_EQ(dst.GetValue(0), expect[0]) << tcemu::vec::roundModeName(mode);
    EXPECT_EQ(dst.GetValue(1), expect[1]) << tcemu::vec::roundModeName(mode);
    sToV();
  }
}

TEST_F(CastTest, Int16ToHalfAndInt32ToHalfThroughDeqScale) {
  LocalTensor<int16_t> s16 = ub<int16_t>(16);
  LocalTensor<half> h = ub<half>(16);
  put(s16, std::vector<int16_t>{2049, 2051, -7});
  Cast(h, s16, RoundMode::CAST_NONE, 3);
  vToS();
  EXPECT_EQ(f(h.GetValue(0)), 2048.0f);  // tie: 2048 has the even significand
  EXPECT_EQ(f(h.GetValue(1)), 2052.0f);
  EXPECT_EQ(f(h.GetValue(2)), -7.0f);
  LocalTensor<int32_t> s32 = ub<int32_t>(8);
  put(s32, std::vector<int32_t>{3, -1000, 100000});
  SetDeqScale(half(0.5f));
  Cast(h, s32, RoundMode::CAST_NONE, 3);
  vToS();
  EXPECT_EQ(f(h.GetValue(0)), 1.5f);
  EXPECT_EQ(f(h.GetValue(1)), -500.0f);
  EXPECT_EQ(f(h.GetValue(2)), 49984.0f);  // 50000 is a tie between 49984 and 50016: even wins
}

// One value through every pair of the 910B table the other tests do not cover.
TEST_F(CastTest, EveryOtherPairOfTheTable) {
  EXPECT_EQ((castOne<int32_t, half>(half(-2.5f), RoundMode::CAST_FLOOR)), -3);
  EXPECT_EQ((castOne<int16_t, half>(half(2.5f), RoundMode::CAST_RINT)), 2);
  EXPECT_EQ((castOne<int16_t, half>(half(-60000.0f), RoundMode::CAST_TRUNC)), INT16_MIN);
  EXPECT_EQ((castOne<int32_t, bfloat16_t>(bfloat16_t::FromBits(0xc020), RoundMode::CAST_CEIL)),
            -2);  // -2.5
  EXPECT_EQ((castOne<int16_t, int32_t>(70000, RoundMode::CAST_NONE)), INT16_MAX);
  EXPECT_EQ((castOne<int16_t, int32_t>(-1234, RoundMode::CAST_NONE)), -1234);
  EXPECT_EQ((castOne<int64_t, int32_t>(-5, RoundMode::CAST_NONE)), -5);
  EXPECT_EQ((castOne<int32_t, int64_t>(int64_t{1} << 40, RoundMode::CAST_NONE)), INT32_MAX);
  EXPECT_EQ((castOne<float, int64_t>((int64_t{1} << 53) + 1, RoundMode::CAST_RINT)), 9007199254740992.0f);
  EXPECT_EQ((castOne<float, int16_t>(int16_t{-300}, RoundMode::CAST_NONE)), -300.0f);
  EXPECT_EQ(f(castOne<half, int8_t>(int8_t{-128}, RoundMode::CAST_NONE)), -128.0f);
  EXPECT_EQ(f(castOne<half, uint8_t>(uint8_t{255}, RoundMode::CAST_NONE)), 255.0f);
}

TEST_F(CastTest, CountFormConvertsOnlyCountAndRecordsTheWiderType) {
  LocalTensor<half> src = ub<half>(80);
  LocalTensor<float> dst = ub<float>(80);
  std::vector<float> v(80);
  for (int i = 0; i < 80; ++i) v[i] = static_cast<float>(i) * 0.25f;
  put(src, v);
  fill(dst, 80, -1.0f);
  Cast(dst, src, RoundMode::CAST_NONE, 70);
  const tcemu::Instr& in = core().trace().back();
  EXPECT_STREQ(in.name, "Cast");
  EXPECT_EQ(in.repeats, 2u);
  EXPECT_EQ(in.elements, 70u);
  EXPECT_EQ(in.dtypeBytes, 4);
  vToS();
  EXPECT_EQ(dst.GetValue(69), 17.25f);
  EXPECT_EQ(dst.GetValue(70), -1.0f);
}

TEST_F(CastTest, MaskFormUsesTheWiderTypesLanesAndStrides) {
  LocalTensor<half> src = ub<half>(128);
  LocalTensor<float> dst = ub<float>(128);
  std::vector<float> v(128);
  for (int i = 0; i < 128; ++i) v[i] = static_cast<float>(i);
  put(src, v);
  fill(dst, 128, -1.0f);
  Cast(dst, src, RoundMode::CAST_NONE, uint64_t{10}, 2, {1, 1, 8, 4});  // 64 lanes a repeat, src steps 4 blocks
  vToS();
  EXPECT_EQ(dst.GetValue(9), 9.0f);
  EXPECT_EQ(dst.GetValue(10), -1.0f);
  EXPECT_EQ(dst.GetValue(64), 64.0f);
  EXPECT_EQ(dst.GetValue(73), 73.0f);
  EXPECT_EQ(dst.GetValue(74), -1.0f);
}

TEST_F(CastTest, UnsupportedPairNamesThePairAndTheWayAround) {
  LocalTensor<half> h = ub<half>(16);
  LocalTensor<bfloat16_t> b = ub<bfloat16_t>(16);
  LocalTensor<int8_t> s8 = ub<int8_t>(32);
  LocalTensor<float> fl = ub<float>(8);
  fill(h, 16, half(1.0f));
  EXPECT_EQ(checkMessage([&] { Cast(b, h, RoundMode::CAST_RINT, 16); }),
            "Cast from half to bfloat16_t is not supported on 910B (half converts to: float, int8_t, "
            "uint8_t, int16_t, int32_t); hint: Cast to float first, then from float");
  EXPECT_EQ(checkMessage([&] { Cast(fl, s8, RoundMode::CAST_NONE, 8); }),
            "Cast from int8_t to float is not supported on 910B (int8_t converts to: half)");
}

TEST_F(CastTest, UnsupportedRoundModeListsTheSupportedOnes) {
  LocalTensor<float> src = ub<float>(8);
  LocalTensor<int32_t> dst = ub<int32_t>(8);
  LocalTensor<half> h = ub<half>(16);
  fill(src, 8, 1.0f);
  int line = 0;
  tcemu::CheckError err;
  try {
    line = TCEMU_LINE_OF_NEXT();
    Cast(dst, src, RoundMode::CAST_NONE, 8);
  } catch (const tcemu::CheckError& e) {
    err = e;
  }
  EXPECT_EQ(err.message,
            "Cast from float to int32_t does not support RoundMode::CAST_NONE on 910B (supported: CAST_RINT, "
            "CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC); hint: use RoundMode::CAST_RINT (nearest, ties "
            "to even)");
  EXPECT_EQ(err.loc.line, line);
  EXPECT_EQ(checkMessage([&] { Cast(src, h, RoundMode::CAST_RINT, 8); }),
            "Cast from half to float does not support RoundMode::CAST_RINT on 910B (supported: CAST_NONE); "
            "hint: use RoundMode::CAST_NONE");
}

class CompareTest : public UbTest {};

TEST_F(CompareTest, EveryModeWithNanAndInfinity) {
  const float inf = INFINITY, nan = std::nanf("");
  LocalTensor<float> a = ub<float>(64);
  LocalTensor<float> b = ub<float>(64);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  std::vector<float> va(64, 0.0f), vb(64, 0.0f);
  // lanes: 1<2, 2==2, nan vs nan, inf==inf, -inf<0, 0 vs -0, 3>1, nan vs 1
  const float x[8] = {1, 2, nan, inf, -inf, 0.0f, 3, nan};
  const float y[8] = {2, 2, nan, inf, 0, -0.0f, 1, 1};
  for (int i = 0; i < 8; ++i) va[i] = x[i], vb[i] = y[i];
  va[63] = 5.0f;
  put(a, va);
  put(b, vb);
  const std::vector<std::pair<CMPMODE, uint8_t>> want = {{CMPMODE::LT, 0x11}, {CMPMODE::GT, 0x40}, {CMPMODE::EQ, 0x2a},
                                                         {CMPMODE::LE, 0x3b}, {CMPMODE::GE, 0x6a}, {CMPMODE::NE, 0xd5}};
  for (const auto& [mode, byte0] : want) {
    Compare(dst, a, b, mode, 64);
    vToS();
    EXPECT_EQ(dst.GetValue(0), byte0) << tcemu::vec::cmpModeName(mode);
    // lane 63: 5 vs 0
    bool gt = mode == CMPMODE::GT || mode == CMPMODE::GE || mode == CMPMODE::NE;
    EXPECT_EQ(dst.GetValue(7) >> 7, gt ? 1 : 0) << tcemu::vec::cmpModeName(mode);
    sToV();
  }
}

TEST_F(CompareTest, HalfBitVectorIsLsbFirstOverTwoRepeats) {
  LocalTensor<half> a = ub<half>(256);
  LocalTensor<half> b = ub<half>(256);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  std::vector<float> va(256), vb(256, 10.0f);
  for (int i = 0; i < 256; ++i) va[i] = static_cast<float>(i % 20);
  put(a, va);
  put(b, vb);
  Compare(dst, a, b, CMPMODE::LT, 256);
  vToS();
  for (int i = 0; i < 256; ++i) {
    EXPECT_EQ((dst.GetValue(i / 8) >> (i % 8)) & 1, (i % 20) < 10 ? 1 : 0) << i;
  }
}

TEST_F(CompareTest, Int32SupportsOnlyEqual) {
  LocalTensor<int32_t> a = ub<int32_t>(64);
  LocalTensor<int32_t> b = ub<int32_t>(64);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  std::vector<int32_t> va(64, 7), vb(64, 7);
  vb[1] = 8;
  put(a, va);
  put(b, vb);
  Compare(dst, a, b, CMPMODE::EQ, 64);
  vToS();
  EXPECT_EQ(dst.GetValue(0), 0xfd);
  EXPECT_EQ(checkMessage([&] { Compare(dst, a, b, CMPMODE::LT, 64); }),
            "Compare on int32_t supports only CMPMODE::EQ on 910B, not CMPMODE::LT; hint: Cast both sides to "
            "float first");
}

TEST_F(CompareTest, CountMustFillWholeRepeats) {
  LocalTensor<float> a = ub<float>(128);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  fill(a, 128, 1.0f);
  EXPECT_EQ(checkMessage([&] { Compare(dst, a, a, CMPMODE::EQ, 100); }),
            "Compare count 100 of float is 400 bytes, not a multiple of 256: the hardware compares whole "
            "repeats only and would leave the last 36 elements uncompared; hint: pad the count to 128 "
            "elements and ignore the extra bits");
  EXPECT_EQ(checkMessage([&] { CompareScalar(dst, a, 1.0f, CMPMODE::EQ, 8); }),
            "CompareScalar count 8 of float is 32 bytes, not a multiple of 256: the hardware compares whole "
            "repeats only and would leave the last 8 elements uncompared; hint: pad the count to 64 elements "
            "and ignore the extra bits");
}

TEST_F(CompareTest, UnsupportedDtypes) {
  LocalTensor<int16_t> a = ub<int16_t>(128);
  LocalTensor<half> h = ub<half>(128);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  LocalTensor<int8_t> sdst = ub<int8_t>(32);
  EXPECT_EQ(checkMessage([&] { Compare(dst, a, a, CMPMODE::EQ, 128); }),
            "Compare does not support int16_t on 910B (supported: half, float, int32_t)");
  EXPECT_EQ(checkMessage([&] { CompareScalar(sdst, h, half(1.0f), CMPMODE::EQ, 128); }),
            "CompareScalar dst does not support int8_t on 910B (supported: uint8_t)");
}

TEST_F(CompareTest, CompareScalarMaskFormComparesEveryLane) {
  LocalTensor<half> a = ub<half>(256);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  std::vector<float> va(256);
  for (int i = 0; i < 256; ++i) va[i] = static_cast<float>(i);
  put(a, va);
  // The mask is reserved on 910B: a mask of 1 still compares all 128 lanes of each repeat.
  CompareScalar(dst, a, half(200.0f), CMPMODE::GE, uint64_t{1}, 2, {1, 1, 8, 8});
  vToS();
  EXPECT_EQ(dst.GetValue(0), 0);
  EXPECT_EQ(dst.GetValue(24), 0);  // elements 192..199 are < 200
  EXPECT_EQ(dst.GetValue(25), 0xff);
  EXPECT_EQ(dst.GetValue(31), 0xff);
}

TEST_F(CompareTest, RegisterFormFeedsSelectModeZero) {
  LocalTensor<float> a = ub<float>(128);
  LocalTensor<float> b = ub<float>(128);
  LocalTensor<float> dst = ub<float>(128);
  LocalTensor<uint8_t> img = ub<uint8_t>(32);
  std::vector<float> va(128), vb(128, 0.0f);
  for (int i = 0; i < 128; ++i) va[i] = (i % 3 == 0) ? 1.0f : -1.0f;
  put(a, va);
  put(b, vb);
  Compare(a, b, CMPMODE::GT, uint64_t{64}, BinaryRepeatParams{});
  GetCmpMask(img);
  vToS();
  EXPECT_EQ(img.GetValue(0), 0x49);  // lanes 0, 3, 6
  sToV();
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(dst, a, b, 2, BinaryRepeatParams{});
  vToS();
  EXPECT_EQ(dst.GetValue(3), 1.0f);
  EXPECT_EQ(dst.GetValue(4), 0.0f);
  // Mode 0 reuses the first repeat's bits: element 66 (a = 1) takes b because lane 2's bit is clear, element
  // 67 (a = -1) takes a because lane 3's bit is set.
  EXPECT_EQ(dst.GetValue(66), 0.0f);
  EXPECT_EQ(dst.GetValue(67), -1.0f);
}

TEST_F(CompareTest, ModeAndPositionChecks) {
  LocalTensor<float> a = ub<float>(64);
  LocalTensor<uint8_t> dst = ub<uint8_t>(32);
  fill(a, 64, 1.0f);
  EXPECT_EQ(checkMessage([&] { Compare(dst, a, a, static_cast<CMPMODE>(9), 64); }),
            "Compare with CMPMODE 9, which does not exist");
  TBuf<TPosition::A1> l1;
  pipe_->InitBuffer(l1, 64);
  LocalTensor<uint8_t> far = l1.Get<uint8_t>();
  EXPECT_EQ(checkMessage([&] { Compare(far, a, a, CMPMODE::EQ, 64); }),
            "Compare dst is in L1: vector instructions reach only UB (VECIN, VECOUT, VECCALC); hint: copy "
            "the data to a UB tensor first");
}

class SelectTest : public UbTest {};

TEST_F(SelectTest, TensorTensorModeWalksMaskBitsAcrossRepeats) {
  LocalTensor<float> a = ub<float>(128);
  LocalTensor<float> b = ub<float>(128);
  LocalTensor<float> dst = ub<float>(128);
  LocalTensor<uint8_t> sel = ub<uint8_t>(32);
  std::vector<float> va(128), vb(128);
  std::vector<uint8_t> vs(32, 0);
  for (int i = 0; i < 128; ++i) va[i] = static_cast<float>(i), vb[i] = -static_cast<float>(i);
  vs[0] = 0x3c;  // elements 2..5 take src0
  vs[8] = 0x01;  // element 64 takes src0
  put(a, va);
  put(b, vb);
  put(sel, vs);
  Select(dst, sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 100);
  vToS();
  EXPECT_EQ(dst.GetValue(1), -1.0f);
  EXPECT_EQ(dst.GetValue(2), 2.0f);
  EXPECT_EQ(dst.GetValue(5), 5.0f);
  EXPECT_EQ(dst.GetValue(6), -6.0f);
  EXPECT_EQ(dst.GetValue(64), 64.0f);
  EXPECT_EQ(dst.GetValue(99), -99.0f);
}

TEST_F(SelectTest, ModeZeroCountFormReusesTheFirstLanesBits) {
  LocalTensor<half> a = ub<half>(256);
  LocalTensor<half> b = ub<half>(256);
  LocalTensor<half> dst = ub<half>(256);
  LocalTensor<uint8_t> sel = ub<uint8_t>(32);
  fill(a, 256, half(1.0f));
  fill(b, 256, half(2.0f));
  std::vector<uint8_t> vs(32, 0);
  vs[0] = 0x01;
  vs[16] = 0xff;  // beyond the 128 CMPMASK bits: never used in mode 0
  put(sel, vs);
  Select(dst, sel, a, b, SELMODE::VSEL_CMPMASK_SPR, 256);
  vToS();
  EXPECT_EQ(f(dst.GetValue(0)), 1.0f);
  EXPECT_EQ(f(dst.GetValue(1)), 2.0f);
  EXPECT_EQ(f(dst.GetValue(128)), 1.0f);
  EXPECT_EQ(f(dst.GetValue(129)), 2.0f);
}

TEST_F(SelectTest, ScalarModeAndMaskedLanesKeepTheirValues) {
  LocalTensor<float> a = ub<float>(64);
  LocalTensor<float> dst = ub<float>(64);
  LocalTensor<uint8_t> sel = ub<uint8_t>(32);
  fill(a, 64, 3.0f);
  fill(dst, 64, -9.0f);
  std::vector<uint8_t> vs(32, 0xaa);
  put(sel, vs);
  Select(dst, sel, a, 7.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{4}, 1, BinaryRepeatParams{});
  LocalTensor<float> img = ub<float>(8);
  GetCmpMask(img);  // mode 1 leaves the scalar in CMPMASK
  vToS();
  EXPECT_EQ(img.GetValue(0), 7.0f);
  EXPECT_EQ(img.GetValue(3), 7.0f);
  EXPECT_EQ(dst.GetValue(0), 7.0f);
  EXPECT_EQ(dst.GetValue(1), 3.0f);
  EXPECT_EQ(dst.GetValue(3), 3.0f);
  EXPECT_EQ(dst.GetValue(4), -9.0f);
}

TEST_F(SelectTest, ModeTwoRegisterFormReadsTheSelMaskAddressFromCmpMask) {
  LocalTensor<float> a = ub<float>(64);
  LocalTensor<float> b = ub<float>(64);
  LocalTensor<float> d1 = ub<float>(64);
  LocalTensor<float> d2 = ub<float>(64);
  LocalTensor<uint8_t> sel = ub<uint8_t>(32);
  fill(a, 64, 1.0f);
  fill(b, 64, 2.0f);
  std::vector<uint8_t> bits(32, 0);
  bits[0] = 0x05, bits[1] = 0x80;
  put(sel, bits);
  Select(d1, sel, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, uint64_t{64}, 1, BinaryRepeatParams{});
  Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(d2, a, b, 1, BinaryRepeatParams{});
  vToS();
  for (uint32_t i : {0u, 1u, 2u, 15u, 16u}) EXPECT_EQ(d2.GetValue(i), d1.GetValue(i)) << i;
  EXPECT_EQ(d2.GetValue(2), 1.0f);
  EXPECT_EQ(d2.GetValue(15), 1.0f);
  EXPECT_EQ(d2.GetValue(16), 2.0f);
}

TEST_F(SelectTest, WrongModeForTheOperands) {
  LocalTensor<float> a = ub<float>(64);
  LocalTensor<uint8_t> sel = ub<uint8_t>(32);
  EXPECT_EQ(checkMessage([&] { Select(a, sel, a, a, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64); }),
            "Select with a tensor src1 takes SELMODE::VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE, not "
            "VSEL_TENSOR_SCALAR_MODE; hint: pass src1 as a scalar of type float for mode 1");
  EXPECT_EQ(checkMessage([&] { Select(a, sel, a, 1.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64); }),
            "Select with a scalar src1 takes only SELMODE::VSEL_TENSOR_SCALAR_MODE, not mode 2; hint: pass "
            "SELMODE::VSEL_TENSOR_SCALAR_MODE");
}

TEST_F(SelectTest, SetCmpMaskSuppliesTheModeOneScalar) {
  LocalTensor<float> a = ub<float>(64);
  LocalTensor<float> dst = ub<float>(64);
  LocalTensor<uint8_t> sel = ub<uint8_t>(32);
  LocalTensor<float> scalar = ub<float>(8);
  fill(a, 64, 3.0f);
  fill(scalar, 8, 42.0f);
  put(sel, std::vector<uint8_t>(32, 0x0f));
  SetCmpMask(scalar);
  Select(dst, sel, a, 1, BinaryRepeatParams{});  // full mask register after the count forms
  vToS();
  EXPECT_EQ(dst.GetValue(0), 3.0f);
  EXPECT_EQ(dst.GetValue(4), 42.0f);
}

}  // namespace
