// SoftmaxGrad and SoftmaxGradFront against a reference written from the documented semantics
// (emu/hl_softmax_grad.h), and the host queries against the kernel's check.
#include <cmath>

#include "emu_test_util.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using tcemu::testing::checkMessage;

namespace {

class SoftmaxGradTest : public tcemu::testing::TBufTest {};

// The documented tree over one 16-value row: adjacent pairs, then pairs of those (hl_common.h treeSum).
float tree16(const float* p) {
  float lane[16];
  for (int j = 0; j < 16; ++j) lane[j] = p[j];
  for (int w = 8; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) lane[j] = lane[2 * j] + lane[2 * j + 1];
  return lane[0];
}

TEST_F(SoftmaxGradTest, FloatIsXTimesGradMinusTheRowSumOverTheRealColumns) {
  // Two rows of 16 columns, 12 real: the sum runs over 12, the result over all 16.
  std::vector<float> x(32), g(32);
  for (int i = 0; i < 32; ++i) {
    x[i] = 0.03125f * static_cast<float>(i % 9 + 1);
    g[i] = 0.5f * static_cast<float>(i % 5) - 1.0f;
  }
  LocalTensor<float> src = filled<float>(x, 128), grad = filled<float>(g, 128), dst = buffer<float>(128);
  const uint32_t minTmp = GetSoftMaxGradMinTmpSize(ge::Shape({2, 16}), 4, false, false);
  EXPECT_EQ(minTmp, (16u + 16u + 64u) * 4u);
  EXPECT_EQ(GetSoftMaxGradMaxTmpSize(ge::Shape({2, 16}), 4, false, false), 2 * minTmp);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(minTmp);
  optiling::SoftMaxTiling tiling;
  SoftMaxGradTilingFunc(ge::Shape({2, 16}), 4, minTmp, tiling, false);
  SoftmaxGrad<float>(dst, grad, src, tmp, tiling, false, {2, 16, 2, 12});
  for (int r = 0; r < 2; ++r) {
    float p[16] = {};
    for (int j = 0; j < 12; ++j) p[j] = g[16 * r + j] * x[16 * r + j];
    const float sum = tree16(p);
    for (int j = 0; j < 16; ++j) {
      const int i = 16 * r + j;
      EXPECT_EQ(dst.GetPhyAddr()[i], x[i] * (g[i] - sum)) << r << "," << j;
    }
  }
}

TEST_F(SoftmaxGradTest, TheFrontFormsWriteTheRowSumOverA32ByteBlockRoundedAwayFromZero) {
  std::vector<float> x(32), g(32);
  for (int i = 0; i < 32; ++i) {
    x[i] = 0.0625f * static_cast<float>(i % 7);
    g[i] = 1.0f + 0.001f * static_cast<float>(i);
  }
  LocalTensor<half> src = filled<half>(x, 64), grad = filled<half>(g, 64);
  LocalTensor<half> front = buffer<half>(64), viaFlag = buffer<half>(64);
  optiling::SoftMaxTiling tiling;
  SoftMaxGradTilingFunc(ge::Shape({2, 16}), 2, 4096, tiling, true);
  EXPECT_EQ(tiling.get_reduceK(), 16u);  // one 32-byte block of half per row
  SoftmaxGradFront<half>(front, grad, src, tiling);
  SoftmaxGrad<half>(viaFlag, grad, src, tiling, true);
  for (int r = 0; r < 2; ++r) {
    float p[16];
    for (int j = 0; j < 16; ++j) {
      p[j] = static_cast<float>(half(g[16 * r + j])) * static_cast<float>(half(x[16 * r + j]));
    }
    const half want = tcemu::vec::convertReal<half>(tree16(p), RoundMode::CAST_ROUND);
    for (int j = 0; j < 16; ++j) {
      EXPECT_EQ(front.GetPhyAddr()[16 * r + j].val, want.val) << r << "," << j;
      EXPECT_EQ(viaFlag.GetPhyAddr()[16 * r + j].val, want.val) << r << "," << j;
    }
  }
  // Ties go away from zero: 1 + 2^-11 is halfway between two halves.
  EXPECT_EQ(static_cast<float>(tcemu::vec::convertReal<half>(1.0f + 0x1p-11f, RoundMode::CAST_ROUND)), 1.0f + 0x1p-10f);
}

TEST_F(SoftmaxGradTest, Checks) {
  LocalTensor<float> src = filled<float>(std::vector<float>(32, 1.0f), 128);
  LocalTensor<float> grad = filled<float>(std::vector<float>(32, 1.0f), 128), full = buffer<float>(128);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> small = buffer<uint8_t>(64);
  SoftMaxTiling tiling;
  EXPECT_EQ(checkMessage([&] {
              SoftmaxGrad<float>(full, grad, src, small, tiling, false, {2, 16, 2, 16});
            }),
            "SoftmaxGrad sharedTmpBuffer has 64 bytes; this call needs at least 384 bytes; hint: size the buffer "
            "with GetSoftMaxGradMinTmpSize (minimum 384 bytes)");
  EXPECT_EQ(checkMessage([&] {
              SoftmaxGrad<float>(dst, grad, src, tiling, false, {2, 16, 2, 16});
            }),
            "SoftmaxGrad dst needs 32 elements but the tensor holds 16; hint: pass a count of at most GetSize(), or "
            "allocate a larger buffer");
  EXPECT_EQ(checkMessage([&] { SoftmaxGradFront<float>(dst, grad, src, tiling); }),
            "SoftmaxGradFront with an empty shape: SoftMaxShapeInfo and the tiling both give srcM = 0, srcK = 0; "
            "hint: pass SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} or a tiling filled by SoftMaxGradTilingFunc");
  EXPECT_EQ(checkMessage([&] {
              SoftmaxGrad<float, false, true>(dst, grad, src, tiling, false, {2, 16, 2, 16});
            }),
            "SoftmaxGrad with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND data "
            "(isDataFormatNZ = false)");
}

// Project runs (poison on): the padding columns past oriSrcK may hold nothing written; the lanes computed from them
// stay unwritten, while the sum, a reduction, must not reach one.
class SoftmaxGradPoisonTest : public tcemu::testing::TBufTest {
 protected:
  void SetUp() override {
    tcemu::setPoisonUnwritten(true);
    TBufTest::SetUp();
    tcemu::setPoisonUnwritten(false);
  }
};

TEST_F(SoftmaxGradPoisonTest, PaddingColumnsNothingWroteStayUnwrittenInDst) {
  std::vector<float> x(12, 0.25f), g(12, 2.0f);
  LocalTensor<float> src = filled<float>(x, 64), grad = filled<float>(g, 64), dst = buffer<float>(64);
  SoftMaxTiling tiling;
  SoftmaxGrad<float>(dst, grad, src, tiling, false, {1, 16, 1, 12});
  PipeBarrier<PIPE_ALL>();
  const float sum = 12 * (2.0f * 0.25f);
  EXPECT_EQ(dst.GetValue(11), 0.25f * (2.0f - sum));
  EXPECT_EQ(checkMessage([&] { dst.GetValue(12); }),
            "GetValue reads UB bytes [176, 180) that nothing wrote: byte 176 (0 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
  EXPECT_EQ(checkMessage([&] {
              SoftmaxGrad<float>(dst, grad, src, tiling, false, {1, 16, 1, 16});
            }),
            "SoftmaxGrad src reads UB bytes [0, 64) that nothing wrote: byte 48 (48 into the operand) was never "
            "written; hint: copy data in or Duplicate a value before reading");
}

TEST_F(SoftmaxGradTest, TheHostSplitTakesWholeGroupsOfEightRowsAndTheBasicBlockDivides) {
  optiling::SoftMaxTiling t;
  const uint32_t row = (64u + 16u + 64u) * 4u;  // float, not front, k = 64
  SoftMaxGradTilingFunc(ge::Shape({64, 64}), 4, 12 * row, t, false);
  EXPECT_EQ(t.get_splitM(), 8u);  // 12 rows fit; a multiple of 8 that divides 64
  EXPECT_EQ(t.get_rangeM(), 8u);
  EXPECT_EQ(t.get_tailM(), 0u);
  SoftMaxGradTilingFunc(ge::Shape({20, 24}), 2, GetSoftMaxGradMinTmpSize(ge::Shape({20, 24}), 2, false, false), t,
                        false);
  EXPECT_EQ(t.get_splitM(), 1u);
  EXPECT_EQ(t.get_rangeM(), 20u);
  EXPECT_EQ(t.get_splitSize(), 24u);
  SoftMaxGradTilingFunc(ge::Shape({20, 24}), 2, 11 * (3u * 24u + 32u + 64u) * 4u, t, false);
  EXPECT_EQ(t.get_splitM(), 8u);  // 11 rows fit, fewer than 20: down to 8
  EXPECT_EQ(t.get_rangeM(), 2u);
  EXPECT_EQ(t.get_tailM(), 4u);
  EXPECT_EQ(t.get_tailReduceSize(), 4u * 16u);
}

}  // namespace
