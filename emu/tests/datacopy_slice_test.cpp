// DataCopy with SliceInfo (multi-dimensional GM <-> UB slices) and with Nz2NdParamsFull (UB NZ -> GM ND),
// emu/datacopy_slice.h: the elements each form moves, its trace fields, and its check messages.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;
using tcemu::testing::Gm;

namespace {

class SliceTest : public EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    pipe_.InitBuffer(buf_, 8192);
  }
  void mte2ToMte3() {
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
};

TEST_F(SliceTest, CopiesEveryOtherRowOfAColumnRangeAndBack) {
  Gm<float> x(8 * 64), y(8 * 64);
  for (int i = 0; i < 8 * 64; ++i) x[i] = static_cast<float>(i);
  LocalTensor<float> t = buf_.Get<float>();
  // Columns 8..23 (16 floats = 2 blocks) of rows 1, 3, 5 of an 8 x 64 matrix, packed as 3 x 16 in UB.
  SliceInfo src[] = {{8, 23, 0, 2, 64}, {1, 5, 1, 1, 8}};
  SliceInfo dst[] = {{0, 15, 0, 2, 16}, {0, 2, 0, 1, 3}};
  DataCopy(t, x.t_, dst, src, 2);
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::MTE2);
  EXPECT_EQ(in.bursts, 3u);
  EXPECT_EQ(in.burstBytes, 64u);
  EXPECT_EQ(in.gmAlign, (64u * 4 + 8 * 4) % 512);  // row 1, column 8
  mte2ToMte3();
  DataCopy(y.t_, t, src, dst, 2);
  EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::MTE3);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) {
      bool copied = (r == 1 || r == 3 || r == 5) && c >= 8 && c < 24;
      ASSERT_EQ(y[r * 64 + c], copied ? x[r * 64 + c] : 0.0f) << r << "," << c;
    }
}

TEST_F(SliceTest, ShapesComeFromShapeInfoWithoutShapeValues) {
  Gm<half> x(4 * 32);
  for (int i = 0; i < 4 * 32; ++i) x[i] = half(static_cast<float>(i));
  uint32_t gmShape[] = {32, 4}, ubShape[] = {16, 2};
  x.t_.SetShapeInfo(ShapeInfo(2, gmShape));
  LocalTensor<half> t = buf_.Get<half>();
  t.SetShapeInfo(ShapeInfo(2, ubShape));
  SliceInfo src[] = {{16, 31, 0, 1}, {2, 3, 0, 1}};
  SliceInfo dst[] = {{0, 15, 0, 1}, {0, 1, 0, 1}};
  DataCopy(t, x.t_, dst, src, 2);
  EXPECT_EQ(tcemu::toFloat(t.GetPhyAddr()[0]), 2 * 32 + 16.0f);
  EXPECT_EQ(tcemu::toFloat(t.GetPhyAddr()[31]), 3 * 32 + 31.0f);
}

TEST_F(SliceTest, Nz2NdWritesStripsAsRows) {
  Gm<half> y(4 * 64);
  LocalTensor<half> t = buf_.Get<half>();
  for (int i = 0; i < 128; ++i) t.SetValue(i, half(static_cast<float>(i)));
  SetFlag<HardEvent::S_MTE3>(0);
  WaitFlag<HardEvent::S_MTE3>(0);
  // 4 rows x 32 columns in NZ: strip b of 4 rows at element b * 4 * 16; GM rows 64 elements apart.
  DataCopy(y.t_, t, Nz2NdParamsFull(1, 4, 32, 0, 4, 64, 0));
  EXPECT_EQ(core().trace().back().bursts, 8u);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 32; ++c)
      ASSERT_EQ(tcemu::toFloat(y[r * 64 + c]), static_cast<float>((c / 16) * 64 + r * 16 + c % 16)) << r << "," << c;
}

TEST_F(SliceTest, Checks) {
  Gm<float> x(8 * 64);
  LocalTensor<float> t = buf_.Get<float>();
  SliceInfo src[] = {{8, 23, 0, 2, 64}, {1, 5, 1, 1, 8}};
  SliceInfo dst2[] = {{0, 15, 0, 2, 16}, {0, 1, 0, 1, 2}};
  EXPECT_EQ(checkMessage([&] { DataCopy(t, x.t_, dst2, src, 2); }),
            "DataCopy with SliceInfo selects 3 slices of the source but 2 of the destination; hint: give dimensions 1 "
            "and up the same number of indices on both sides");
  EXPECT_EQ(checkMessage([&] { DataCopy(t, x.t_, dst2, src, 9); }),
            "DataCopy with SliceInfo dimValue is 9, outside [1, 8]; hint: dimValue is the length of the SliceInfo "
            "arrays");
  SliceInfo noShape[] = {{0, 15, 0, 2}, {0, 1, 0, 1}};
  EXPECT_EQ(checkMessage([&] { DataCopy(t, x.t_, noShape, noShape, 2); }),
            "DataCopy with SliceInfo: dimension 0 has shape 0 (src) and 0 (dst); hint: set shapeValue in every "
            "SliceInfo, or SetShapeInfo on both tensors");
  SliceInfo oddDst[] = {{4, 19, 0, 2, 20}, {0, 2, 0, 1, 3}};
  EXPECT_EQ(checkMessage([&] { DataCopy(t, x.t_, oddDst, src, 2); }),
            "DataCopy with SliceInfo starts 16 bytes into the UB tensor, not a multiple of 32; hint: make the UB "
            "startIndex of dimension 0 (and the UB shape) a multiple of 8 elements");
  SliceInfo oddPitch[] = {{0, 15, 0, 2, 20}, {0, 2, 0, 1, 3}};
  EXPECT_EQ(checkMessage([&] { DataCopy(t, x.t_, oddPitch, src, 2); }),
            "DataCopy with SliceInfo slice 1 starts at UB element 20, not on a 32-byte block; hint: make the UB shape "
            "of dimension 0 a multiple of 8 elements");
  SliceInfo zeroBurst[] = {{8, 23, 0, 0, 64}, {1, 5, 1, 1, 8}};
  EXPECT_EQ(checkMessage([&] { DataCopy(t, x.t_, dst2, zeroBurst, 2); }),
            "DataCopy with SliceInfo srcSliceInfo[0].burstLen is 0; it counts 32-byte blocks");
  Gm<half> y(64);
  LocalTensor<half> h = buf_.Get<half>();
  EXPECT_EQ(checkMessage([&] { DataCopy(y.t_, h, Nz2NdParamsFull(1, 1, 24, 0, 1, 24, 0)); }),
            "DataCopy with Nz2NdParamsFull dValue 24 is not a multiple of 16; hint: copy whole 16-column strips and "
            "drop the padding columns on the host, or use DataCopyPad per row");
}

}  // namespace

namespace {

TEST_F(SliceTest, EnhancedParamsMoveAsThePlainForm) {
  Gm<float> x(64), y(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i) - 3.0f;
  LocalTensor<float> t = buf_.Get<float>();
  DataCopyEnhancedParams enh;
  enh.isRelu = true;                                   // a CO1 -> UB option: no effect on GM paths, as on 910B
  DataCopy(t, x.t_, DataCopyParams(2, 1, 1, 0), enh);  // blocks 0 and 2 of x into blocks 0 and 1
  EXPECT_EQ(core().trace().back().bursts, 2u);
  mte2ToMte3();
  DataCopy(y.t_, t, DataCopyParams(1, 2, 0, 0), enh);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[i], x[i]);
  for (int i = 8; i < 16; ++i) EXPECT_EQ(y[i], x[i + 8]);
  TBuf<TPosition::A1> l1;
  pipe_.InitBuffer(l1, 256);
  EXPECT_EQ(checkMessage([&] { DataCopy(t, l1.Get<float>(), DataCopyParams(1, 1, 0, 0), enh); }),
            "DataCopy from L1 (A1) to UB (VECCALC) is not supported on 910B (dav-c220); hint: copy to GM and back, or "
            "keep the data on the vector core");
}

}  // namespace
