// ArithProgression and CumSum (emu/hl_scan.h) and SelectWithBytesMask (emu/hl_select.h): values, what they write,
// and their checks.
#include <cmath>

#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;

namespace {

class ScanTest : public tcemu::testing::TBufTest {};

TEST_F(ScanTest, ArithProgressionFloatFillsBlocksThenRepeats) {
  LocalTensor<float> d = buffer<float>(1024 * 4);
  ArithProgression<float>(d, 1.0f, 0.5f, 150);  // 2 repeats of 64 + a tail of 22, written to 24 (3 blocks)
  for (uint32_t i = 0; i < 152; ++i) EXPECT_EQ(d.GetPhyAddr()[i], 1.0f + 0.5f * static_cast<float>(i)) << i;
}

TEST_F(ScanTest, ArithProgressionHalfChainsRoundedSteps) {
  LocalTensor<half> d = buffer<half>(512 * 2);
  ArithProgression<half>(d, half(0.0f), half(0.1f), 300);
  // The library: 16 scalar values in float rounded to half, then each block/repeat = previous + step rounded.
  const float diff = static_cast<float>(half(0.1f));
  std::vector<float> want(320);
  for (int i = 0; i < 16; ++i) want[i] = static_cast<float>(half(diff * static_cast<float>(i)));
  const float blockStep = static_cast<float>(half(diff * 16.0f)), repStep = static_cast<float>(half(diff * 128.0f));
  for (int i = 16; i < 128; ++i) want[i] = static_cast<float>(half(want[i - 16] + blockStep));
  for (int i = 128; i < 304; ++i) want[i] = static_cast<float>(half(want[i - 128] + repStep));
  for (int i = 0; i < 304; ++i) EXPECT_EQ(static_cast<float>(d.GetPhyAddr()[i]), want[i]) << i;
}

TEST_F(ScanTest, ArithProgressionOfOneBlockIsAScalarWrite) {
  LocalTensor<int32_t> d = buffer<int32_t>(256);
  LocalTensor<int32_t> e = buffer<int32_t>(256);
  ArithProgression<int32_t>(d, 5, 2, 8);
  EXPECT_EQ(d.GetPhyAddr()[7], 19);
  std::string msg = checkMessage([&] { Adds(e, d, 1, 8); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: Adds src on pipe V reads data that SetValue on pipe S wrote", 0), 0u) << msg;
}

TEST_F(ScanTest, ArithProgressionChecks) {
  LocalTensor<float> d = buffer<float>(256);
  EXPECT_EQ(checkMessage([&] { ArithProgression<float>(d, 0.0f, -1.0f, 16); }),
            "ArithProgression diffValue = -1; CANN requires a positive step; hint: build a decreasing sequence with "
            "a positive step and Muls by -1, or Adds/Sub afterwards");
  EXPECT_EQ(checkMessage([&] { ArithProgression<float>(d, 0.0f, 1.0f, 0); }),
            "ArithProgression with count = 0; hint: pass at least one element");
  EXPECT_EQ(checkMessage([&] { ArithProgression<float>(d, 0.0f, 1.0f, 65); }),
            "ArithProgression dst needs 65 elements but the tensor holds 64; hint: pass a count of at most GetSize(), "
            "or allocate a larger buffer");
}

TEST_F(ScanTest, CumSumLastAxisAddsLeftToRightAndOutputsTheLastRow) {
  std::vector<float> v(2 * 8);
  for (int i = 0; i < 16; ++i) v[i] = 0.1f * static_cast<float>(i + 1) - (i == 8 ? 5.0f : 0.0f);
  LocalTensor<float> src = filled<float>(v, 64);
  LocalTensor<float> dst = buffer<float>(64), last = buffer<float>(32);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(16 * 8 * 4 * 2);
  CumSum<float>(dst, last, src, tmp, {2, 8});  // the default config also writes lastRow
  for (int r = 0; r < 2; ++r) {
    float acc = 0.0f;
    for (int c = 0; c < 8; ++c) {
      acc = c == 0 ? v[r * 8] : acc + v[r * 8 + c];
      EXPECT_EQ(dst.GetPhyAddr()[r * 8 + c], acc) << r << "," << c;
      if (r == 1) {
        EXPECT_EQ(last.GetPhyAddr()[c], acc) << c;
      }
    }
  }
}

constexpr CumSumConfig kColumns = {false, false, true};

TEST_F(ScanTest, CumSumFirstAxisOfHalfRoundsOnce) {
  std::vector<float> v(4 * 16);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>(half(0.3f + 0.01f * static_cast<float>(i)));
  LocalTensor<half> src = filled<half>(v, 128);
  LocalTensor<half> dst = buffer<half>(128), last = buffer<half>(32);
  CumSum<half, kColumns>(dst, last, src, {4, 16});
  for (int c = 0; c < 16; ++c) {
    float acc = 0.0f;
    for (int r = 0; r < 4; ++r) {
      acc = r == 0 ? v[c] : acc + v[r * 16 + c];
      EXPECT_EQ(static_cast<float>(dst.GetPhyAddr()[r * 16 + c]), static_cast<float>(half(acc))) << r << "," << c;
    }
    EXPECT_EQ(static_cast<float>(last.GetPhyAddr()[c]), static_cast<float>(half(acc))) << c;
  }
}

TEST_F(ScanTest, CumSumChecks) {
  LocalTensor<float> src = filled<float>(std::vector<float>(64, 1.0f), 256);
  LocalTensor<float> dst = buffer<float>(256), last = buffer<float>(64);
  LocalTensor<uint8_t> small = buffer<uint8_t>(256);
  EXPECT_EQ(checkMessage([&] {
              CumSum<float>(dst, last, src, small, {4, 0});
            }),
            "CumSum with cumSumInfo.inner = 0; hint: set inner to the row length (a multiple of 8 float elements)");
  EXPECT_EQ(checkMessage([&] {
              CumSum<float>(dst, last, src, small, {4, 12});
            }),
            "CumSum cumSumInfo.inner = 12 float elements is 48 bytes, not a multiple of 32; hint: pad the rows to 16 "
            "elements");
  EXPECT_EQ(checkMessage([&] {
              CumSum<float>(dst, last, src, small, {4, 16});
            }),
            "CumSum sharedTmpBuffer has 256 bytes; this call needs at least 2048 bytes; hint: size the buffer with "
            "GetCumSumMaxMinTmpSize (minimum 2048 bytes)");
  EXPECT_EQ(checkMessage([&] {
              CumSum<float>(dst, last, src, small, {8, 16});
            }),
            "CumSum src needs 128 elements but the tensor holds 64; hint: pass a count of at most GetSize(), or "
            "allocate a larger buffer");
}

}  // namespace

namespace {

class SelectBytesTest : public ScanTest {};

TEST_F(SelectBytesTest, TrueSelectsTheSecondOperandAndPaddedMasksAreCompactedInPlace) {
  std::vector<float> maskVals(2 * 16, 0.0f);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 16; ++c) maskVals[r * 16 + c] = c < 8 ? static_cast<float>((r + c) % 3 == 0) : 7.0f;
  LocalTensor<uint8_t> mask = filled<uint8_t>(maskVals, 32);
  LocalTensor<float> src = filled<float>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, 64);
  LocalTensor<float> a = buffer<float>(64), b = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(1024);
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 8;
  info.maskLastAxis = 16;
  SelectWithBytesMask(a, src, -1.0f, mask, tmp, info);  // true -> the scalar
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 8; ++c) {
      const bool m = (r + c) % 3 == 0;
      EXPECT_EQ(a.GetPhyAddr()[r * 8 + c], m ? -1.0f : static_cast<float>(r * 8 + c + 1)) << r << "," << c;
      EXPECT_EQ(mask.GetPhyAddr()[r * 8 + c], m ? 1 : 0) << "compacted mask " << r << "," << c;
    }
  info.maskLastAxis = 8;  // the mask is now compact
  mask.SetSize(16);
  SelectWithBytesMask(b, 0.0f, src, mask, tmp, info);  // true -> the tensor
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b.GetPhyAddr()[i], mask.GetPhyAddr()[i] ? src.GetPhyAddr()[i] : 0.0f) << i;
}

TEST_F(SelectBytesTest, AFloatMaskOfMinusZeroIsFalse) {
  LocalTensor<float> mask = filled<float>({-0.0f, 1e-30f, 0.0f, -2.0f, 0, 0, 0, 0}, 32);
  LocalTensor<half> src = filled<half>(std::vector<float>(16, 3.0f), 32);
  LocalTensor<half> d = buffer<half>(32);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(1024);
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 1;
  info.srcLastAxis = 8;
  info.maskLastAxis = 8;
  src.SetSize(8);
  mask.SetSize(8);
  SelectWithBytesMask(d, src, half(5.0f), mask, tmp, info);
  const float want[4] = {3.0f, 5.0f, 3.0f, 5.0f};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(static_cast<float>(d.GetPhyAddr()[i]), want[i]) << i;
}

TEST_F(SelectBytesTest, Checks) {
  LocalTensor<uint8_t> mask = filled<uint8_t>(std::vector<float>(64, 1.0f), 64);
  LocalTensor<float> src = filled<float>(std::vector<float>(16, 1.0f), 64);
  LocalTensor<float> d = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(1024);
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 8;
  info.maskLastAxis = 16;
  EXPECT_EQ(checkMessage([&] { SelectWithBytesMask(d, src, 0.0f, mask, tmp, info); }),
            "SelectWithBytesMask mask holds 64 elements but the shape info gives firstAxis x maskLastAxis = 2 x 16 = "
            "32; hint: pass the mask tensor with SetSize(32) or fix the shape info");
  info.firstAxis = 4;
  EXPECT_EQ(checkMessage([&] { SelectWithBytesMask(d, src, 0.0f, mask, tmp, info); }),
            "SelectWithBytesMask src holds 16 elements but the shape info gives firstAxis x srcLastAxis = 4 x 8 = 32; "
            "hint: pass the src tensor with SetSize(32) or fix the shape info");
  info.firstAxis = 2;
  info.srcLastAxis = 8;
  info.maskLastAxis = 4;
  mask.SetSize(8);
  EXPECT_EQ(checkMessage([&] { SelectWithBytesMask(d, src, 0.0f, mask, tmp, info); }),
            "SelectWithBytesMask maskLastAxis = 4 is smaller than srcLastAxis = 8; hint: every mask row must cover "
            "its src row (pad the mask rows)");
  info.maskLastAxis = 32;
  mask.SetSize(64);
  EXPECT_EQ(checkMessage([&] { SelectWithBytesMask<float, uint8_t, false>(d, src, 0.0f, mask, tmp, info); }),
            "SelectWithBytesMask sharedTmpBuffer has 1024 bytes; this call needs at least 1056 bytes; hint: size the "
            "buffer with GetSelectWithBytesMaskMaxMinTmpSize (minimum 1056 bytes)");
}

}  // namespace
