// img2col (LoadData with LoadData3DParamsV2) and LoadDataWithTranspose: small hand-checked convolutions, the
// trace fields the perf model reads, and every check message.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::CubeTest;

namespace {

// A conv geometry: C channels (a multiple of 16) of an H x W map, fh x fw filter, padList {left, right, top,
// bottom}.
struct Geo {
  uint32_t c, h, w, fh, fw, stride, dil;
  uint8_t pad[4];
  uint32_t wo() const { return (w + pad[0] + pad[1] - ((fw - 1) * dil + 1)) / stride + 1; }
  uint32_t ho() const { return (h + pad[2] + pad[3] - ((fh - 1) * dil + 1)) / stride + 1; }
  uint32_t k() const { return c * fh * fw; }
};

// Channel ch of pixel (y, x): distinct small integers, exact in half.
float fmapValue(uint32_t ch, uint32_t y, uint32_t x) { return static_cast<float>(ch + 32 * (y * 8 + x)) / 4.0f; }

// The img2col element (m, k) computed from the convolution's definition: output pixel m, filter tap (kh, kw)
// and channel c of column k in (c1, kh, kw, c0) order.
float expected(const Geo& g, uint32_t m, uint32_t k, float pad) {
  uint32_t c = (k / (16 * g.fh * g.fw)) * 16 + k % 16, kw = (k / 16) % g.fw, kh = (k / (16 * g.fw)) % g.fh;
  int y = int(m / g.wo() * g.stride + kh * g.dil) - g.pad[2];
  int x = int(m % g.wo() * g.stride + kw * g.dil) - g.pad[0];
  if (y < 0 || x < 0 || y >= int(g.h) || x >= int(g.w)) return pad;
  return fmapValue(c, y, x);
}

class Load3dTest : public CubeTest {
 protected:
  // Fills A1 with the C1 x H x W x C0 map of `g` through GM (MTE2) and waits for it.
  LocalTensor<half> loadMap(const Geo& g) {
    uint32_t n = g.c * g.h * g.w;
    gm_ = static_cast<half*>(GmAlloc(n * sizeof(half)));
    for (uint32_t ch = 0; ch < g.c; ++ch)
      for (uint32_t y = 0; y < g.h; ++y)
        for (uint32_t x = 0; x < g.w; ++x)
          gm_[((ch / 16 * g.h + y) * g.w + x) * 16 + ch % 16] = half(fmapValue(ch, y, x));
    GlobalTensor<half> src;
    src.SetGlobalBuffer(gm_, n);
    pipe_.InitBuffer(a1_, n * sizeof(half));
    pipe_.InitBuffer(a2_, 16 * 1024);
    pipe_.InitBuffer(b2_, 8 * 1024);
    LocalTensor<half> l1 = a1_.Get<half>();
    DataCopy(l1, src, DataCopyParams(1, static_cast<uint16_t>(n * 2 / 32), 0, 0));
    PipeBarrier<PIPE_ALL>();
    return l1;
  }
  void TearDown() override {
    if (gm_) GmFree(gm_);
    CubeTest::TearDown();
  }
  static LoadData3DParamsV2<half> params(const Geo& g, uint16_t mExt, uint16_t kExt, uint16_t mStart, uint16_t kStart,
                                         float pad) {
    return LoadData3DParamsV2<half>(g.pad, g.h, g.w, g.c, kExt, mExt, kStart, mStart, g.stride, g.stride, g.fw, g.fh,
                                    g.dil, g.dil, false, false, half(pad));
  }
  // The Zz element (i, kk) of an mExt x kExt window in A2.
  float a2At(uint32_t i, uint32_t kk, uint32_t kExt) {
    const half* p = a2_.Get<half>().GetPhyAddr();
    return tcemu::toFloat(p[((i / 16) * (kExt / 16) + kk / 16) * 256 + (i % 16) * 16 + kk % 16]);
  }
  void expectWindow(const Geo& g, uint32_t mExt, uint32_t kExt, uint32_t mStart, uint32_t kStart, uint32_t rows,
                    float pad) {
    for (uint32_t i = 0; i < rows; ++i)
      for (uint32_t kk = 0; kk < kExt; ++kk)
        ASSERT_EQ(a2At(i, kk, kExt), expected(g, mStart + i, kStart + kk, pad)) << "row " << i << " col " << kk;
    (void)mExt;
  }
  TPipe pipe_;
  TBuf<TPosition::A1> a1_;
  TBuf<TPosition::A2> a2_;
  TBuf<TPosition::B2> b2_;
  half* gm_ = nullptr;
};

TEST_F(Load3dTest, ThreeByThreeStrideOnePaddingOne) {
  Geo g{16, 4, 4, 3, 3, 1, 1, {1, 1, 1, 1}};
  LocalTensor<half> l1 = loadMap(g);
  ASSERT_EQ(g.wo() * g.ho(), 16u);
  LoadData(a2_.Get<half>(), l1, params(g, 16, 144, 0, 0, -3.0f));
  // Hand-checked: output (0,0), tap (0,0) is the top-left padding corner; output (1,1), tap (1,1) is pixel
  // (1,1).
  EXPECT_EQ(a2At(0, 0, 144), -3.0f);
  EXPECT_EQ(a2At(5, 4 * 16 + 3, 144), fmapValue(3, 1, 1));
  EXPECT_EQ(a2At(5, 4 * 16 + 3, 144), (3 + 32 * 9) / 4.0f);
  // Output (3,3), tap (2,2) is pixel (4,4): bottom-right padding; tap (0,0) is pixel (2,2).
  EXPECT_EQ(a2At(15, 8 * 16 + 7, 144), -3.0f);
  EXPECT_EQ(a2At(15, 7, 144), fmapValue(7, 2, 2));
  expectWindow(g, 16, 144, 0, 0, 16, -3.0f);
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::MTE1);
  EXPECT_EQ(in.cls, tcemu::OpClass::DmaLocal);
  EXPECT_EQ(in.bytes, 16u * 144 * 2);
  EXPECT_EQ(in.bursts, 9u);
  EXPECT_EQ(in.src, tcemu::Space::L1);
  EXPECT_EQ(in.dst, tcemu::Space::L0A);
}

TEST_F(Load3dTest, ThreeByThreeStrideTwoNoPadding) {
  Geo g{16, 5, 5, 3, 3, 2, 1, {0, 0, 0, 0}};
  LocalTensor<half> l1 = loadMap(g);
  ASSERT_EQ(g.wo(), 2u);
  LoadData(a2_.Get<half>(), l1, params(g, 16, 144, 0, 0, 0.0f));
  // Output (1,0) starts at pixel (2,0); its tap (2,1) is pixel (4,1).
  EXPECT_EQ(a2At(2, 0, 144), fmapValue(0, 2, 0));
  EXPECT_EQ(a2At(2, 7 * 16 + 9, 144), fmapValue(9, 4, 1));
  expectWindow(g, 16, 144, 0, 0, g.wo() * g.ho(), 0.0f);
}

TEST_F(Load3dTest, WindowOfTwoChannelBlocksWithAsymmetricPaddingAndDilation) {
  Geo g{32, 6, 6, 3, 3, 1, 2, {2, 0, 1, 2}};  // Wo = (6 + 2 - 5) + 1 = 4, Ho = (6 + 3 - 5) + 1 = 5
  LocalTensor<half> l1 = loadMap(g);
  // Rows 4..35 (32 outputs) and columns 112..175: taps 7, 8 of channel block 0 and 0..1 of block 1.
  LoadData(a2_.Get<half>(), l1, params(g, 32, 64, 4, 112, 1.5f));
  // Row 4 is output (1,0); column 112 + 16 + 5 is block 0, tap 8 = (2,2), channel 5: pixel (1 - 1 + 4, 0 - 2
  // + 4).
  EXPECT_EQ(a2At(0, 16 + 5, 64), fmapValue(5, 4, 2));
  expectWindow(g, 32, 64, 4, 112, 16, 1.5f);  // the 20 real outputs from row 4 cover the first 16 rows
  EXPECT_EQ(core().trace().back().bursts, 2u * 4);
}

// float has C0 = 8: a 3x3 conv of 8 channels on a 3x3 map with padding 1 gives a 9 x 72 matrix of 16 x 8
// fractals.
TEST_F(Load3dTest, FloatUsesEightChannelBlocks) {
  constexpr uint32_t C = 8, HW = 3, KK = 72;
  float* gm = static_cast<float*>(GmAlloc(C * HW * HW * sizeof(float)));
  for (uint32_t i = 0; i < C * HW * HW; ++i)
    gm[i] = static_cast<float>(i) + 0.5f;  // pixel (y, x), channel c: (y * 3 + x) * 8 + c
  GlobalTensor<float> src;
  src.SetGlobalBuffer(gm, C * HW * HW);
  pipe_.InitBuffer(a1_, C * HW * HW * sizeof(float));
  pipe_.InitBuffer(a2_, 16 * KK * sizeof(float));
  LocalTensor<float> l1 = a1_.Get<float>(), a2 = a2_.Get<float>();
  DataCopy(l1, src, DataCopyParams(1, C * HW * HW * 4 / 32, 0, 0));
  PipeBarrier<PIPE_ALL>();
  uint8_t pad[4] = {1, 1, 1, 1};
  LoadData(a2, l1, LoadData3DParamsV2<float>(pad, HW, HW, C, KK, 16, 0, 0, 1, 1, 3, 3, 1, 1, false, false, -1.0f));
  const float* p = a2.GetPhyAddr();
  auto at = [&](uint32_t i, uint32_t k) { return p[((i / 16) * (KK / 8) + k / 8) * 128 + (i % 16) * 8 + k % 8]; };
  EXPECT_EQ(at(0, 0), -1.0f);                     // output (0,0), tap (0,0): padding
  EXPECT_EQ(at(4, 4 * 8 + 3), 4 * 8 + 3 + 0.5f);  // output (1,1), tap (1,1): pixel (1,1), channel 3
  EXPECT_EQ(at(8, 8), (1 * 3 + 2) * 8 + 0.5f);    // output (2,2), tap (0,1): pixel (1,2), channel 0
  EXPECT_EQ(at(8, 8 * 8 + 1), -1.0f);             // output (2,2), tap (2,2): pixel (3,3) is padding
  EXPECT_EQ(at(0, 8 * 8 + 7), 4 * 8 + 7 + 0.5f);  // output (0,0), tap (2,2): pixel (1,1), channel 7
  EXPECT_EQ(core().trace().back().bursts, 9u);
  GmFree(gm);
}

// int8 has C0 = 32: one 16 x 32 fractal per tap of a 1x1 map with 32 channels.
TEST_F(Load3dTest, Int8UsesThirtyTwoChannelBlocks) {
  int8_t* gm = static_cast<int8_t*>(GmAlloc(32));
  for (int i = 0; i < 32; ++i) gm[i] = static_cast<int8_t>(i - 16);
  GlobalTensor<int8_t> src;
  src.SetGlobalBuffer(gm, 32);
  pipe_.InitBuffer(a1_, 32);
  pipe_.InitBuffer(a2_, 1024);
  LocalTensor<int8_t> l1 = a1_.Get<int8_t>(), a2 = a2_.Get<int8_t>();
  DataCopy(l1, src, DataCopyParams(1, 1, 0, 0));
  PipeBarrier<PIPE_ALL>();
  uint8_t pad[4] = {0, 0, 0, 0};
  // 1x1 map, 1x1 filter: output 0 is the pixel, rows 1..15 lie past the map and read the pad value 7.
  LoadData(a2, l1, LoadData3DParamsV2<int8_t>(pad, 1, 1, 32, 32, 16, 0, 0, 1, 1, 1, 1, 1, 1, false, false, 7));
  const int8_t* p = a2.GetPhyAddr();
  for (int c = 0; c < 32; ++c) EXPECT_EQ(p[c], c - 16);
  for (int i = 1; i < 16; ++i) EXPECT_EQ(p[i * 32 + 5], 7) << i;
  GmFree(gm);
}

// isSetFMatrix/isSetPadding = false: the map size, padding and pad value come from SetFmatrix and
// SetLoadDataPaddingValue, not from the params.
TEST_F(Load3dTest, RegistersSetSeparately) {
  Geo g{16, 4, 4, 3, 3, 1, 1, {1, 1, 1, 1}};
  LocalTensor<half> l1 = loadMap(g);
  SetFmatrix(g.h, g.w, g.pad, FmatrixMode::FMATRIX_LEFT);
  SetLoadDataPaddingValue(half(9.0f));
  SetLoadDataRepeat(LoadDataRepeatParam(0, 1, 0));
  SetLoadDataBoundary(0);
  Geo wrong{16, 1, 1, 3, 3, 1, 1, {0, 0, 0, 0}};
  static constexpr IsResetLoad3dConfig kKeep = {false, false};
  LoadData<half, kKeep>(a2_.Get<half>(), l1, params(wrong, 16, 144, 0, 0, 0.0f));
  EXPECT_EQ(a2At(0, 0, 144), 9.0f);
  expectWindow(g, 16, 144, 0, 0, 16, 9.0f);
}

TEST_F(Load3dTest, ReadsOfTheMapAreHazardChecked) {
  Geo g{16, 4, 4, 3, 3, 1, 1, {1, 1, 1, 1}};
  uint32_t n = g.c * g.h * g.w;
  gm_ = static_cast<half*>(GmAlloc(n * sizeof(half)));
  GlobalTensor<half> src;
  src.SetGlobalBuffer(gm_, n);
  pipe_.InitBuffer(a1_, n * sizeof(half));
  pipe_.InitBuffer(a2_, 16 * 1024);
  LocalTensor<half> l1 = a1_.Get<half>();
  DataCopy(l1, src, DataCopyParams(1, static_cast<uint16_t>(n * 2 / 32), 0, 0));
  std::string msg = checkMessage([&] { LoadData(a2_.Get<half>(), l1, params(g, 16, 144, 0, 0, 0.0f)); });
  EXPECT_EQ(msg,
            "cross-pipe hazard: LoadData src on pipe MTE1 reads data that DataCopy on pipe MTE2 wrote, with no "
            "queue, flag or barrier between them (block at byte 0); hint: pass the tensor through a TQue "
            "(EnQue/DeQue), or SetFlag<HardEvent::MTE2_MTE1>/WaitFlag<HardEvent::MTE2_MTE1> between the two "
            "calls");
}

TEST_F(Load3dTest, WithTransposeTransposesEachFractalIntoB2) {
  uint32_t n = 4 * 256;
  gm_ = static_cast<half*>(GmAlloc(n * sizeof(half)));
  for (uint32_t i = 0; i < n; ++i) gm_[i] = half(static_cast<float>(i % 2000));
  GlobalTensor<half> src;
  src.SetGlobalBuffer(gm_, n);
  pipe_.InitBuffer(a1_, n * 2);
  pipe_.InitBuffer(b2_, 4096);
  LocalTensor<half> l1 = a1_.Get<half>(), b2 = b2_.Get<half>();
  DataCopy(l1, src, DataCopyParams(1, static_cast<uint16_t>(n * 2 / 32), 0, 0));
  PipeBarrier<PIPE_ALL>();
  // Fractals 1 and 3 into dst fractals 0 and 2.
  LoadDataWithTranspose(b2, l1, LoadData2dTransposeParams(1, 2, 2, 1, 0));
  const half* p = b2.GetPhyAddr();
  for (uint32_t f = 0; f < 2; ++f)
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t c = 0; c < 16; ++c)
        ASSERT_EQ(tcemu::toFloat(p[f * 512 + r * 16 + c]), float(((1 + 2 * f) * 256 + c * 16 + r) % 2000)) << f;
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::MTE1);
  EXPECT_EQ(in.bytes, 1024u);
  EXPECT_EQ(in.dst, tcemu::Space::L0B);
}

TEST_F(Load3dTest, Messages) {
  Geo g{16, 4, 4, 3, 3, 1, 1, {1, 1, 1, 1}};
  LocalTensor<half> l1 = loadMap(g);
  LocalTensor<half> a2 = a2_.Get<half>(), b2 = b2_.Get<half>();
  auto p = params(g, 16, 144, 0, 0, 0.0f);
  const char* pre = "LoadData with LoadData3DParamsV2";
  auto msg = [&](LoadData3DParamsV2<half> q) { return checkMessage([&] { LoadData(a2, l1, q); }); };

  EXPECT_EQ(checkMessage([&] { LoadData(a2, a2, p); }),
            std::string(pre) + ": src is in L0A (A2); img2col reads the feature map from L1 (A1/B1)");
  EXPECT_EQ(checkMessage([&] { LoadData(b2, l1, p); }),
            std::string(pre) +
                " to B2 (L0B) is not emulated: the layout it writes there is not documented; hint: "
                "load the img2col matrix into A2");
  EXPECT_EQ(checkMessage([&] { LoadData(l1, l1, p); }),
            std::string(pre) + ": dst is in L1 (A1); img2col writes L0A (A2) or L0B (B2)");
  EXPECT_EQ(checkMessage([&] {
              LoadData3DParamsV2<int16_t> q;
              LoadData(a2.ReinterpretCast<int16_t>(), l1.ReinterpretCast<int16_t>(), q);
            }),
            std::string(pre) +
                " does not support int16_t on 910B (A2: uint8_t, int8_t, half, bfloat16_t, float, "
                "int32_t, uint32_t)");
  auto q = p;
  q.enTranspose = true;
  EXPECT_EQ(msg(q), std::string(pre) + ": enTranspose is not emulated; hint: leave it at its default");
  q = p;
  q.enSmallK = true;
  EXPECT_EQ(msg(q), std::string(pre) + ": enSmallK is not emulated; hint: leave it at its default");
  q = p;
  q.fMatrixCtrl = true;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": fMatrixCtrl (the right FMATRIX) is not emulated; hint: leave it at its "
                        "default");
  q = p;
  q.filterSizeH = true;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": filterSizeW/filterSizeH (filters over 255) is not emulated; hint: leave "
                        "it at its default");
  q = p;
  q.channelSize = 8;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": channelSize 8 is not a multiple of 16: the small-channel layouts are not "
                        "emulated; hint: pad the channels to a multiple of 16");
  q = p;
  q.strideH = 0;
  EXPECT_EQ(msg(q), std::string(pre) + ": strideH is 0; it must be at least 1");
  q = p;
  q.dilationFilterW = 0;
  EXPECT_EQ(msg(q), std::string(pre) + ": dilationFilterW is 0; it must be at least 1");
  q = p;
  q.mExtension = 20;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": mExtension 20, kExtension 144, kStartPt 0: only whole 16 x 16 fractals "
                        "of half are emulated (mExtension a positive multiple of 16, kExtension a positive "
                        "multiple of 16, kStartPt a "
                        "multiple of 16); hint: round the window up to whole fractals");
  q = p;
  q.kStartPt = 8;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": mExtension 16, kExtension 144, kStartPt 8: only whole 16 x 16 fractals "
                        "of half are emulated (mExtension a positive multiple of 16, kExtension a positive "
                        "multiple of 16, kStartPt a "
                        "multiple of 16); hint: round the window up to whole fractals");
  q = p;
  q.l1W = 1;
  q.padList[0] = q.padList[1] = 0;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": the 4x1 feature map padded left 0 / right 0 is narrower than the dilated "
                        "filter (3 columns); hint: check l1W, padList and filterW");
  q = p;
  q.kStartPt = 128;
  q.kExtension = 32;
  EXPECT_EQ(msg(q), std::string(pre) +
                        ": kStartPt 128 + kExtension 32 is past the K of the img2col matrix "
                        "(channelSize 16 x filterH 3 x filterW 3 = 144); hint: load at most 16 columns");
  q = p;
  q.l1H = 8;  // the map is 4 rows: row 4 of an 8-row map is past the A1 buffer
  std::string bounds = msg(q);
  // Output rows 0..3 reach map rows up to 4 (ho 3 + kh 2 - top padding 1): blocks 0..19 of a 16-block buffer.
  EXPECT_EQ(bounds,
            "LoadData src accesses L1 bytes [0, 640), outside its buffer [0, 512) (128 bytes past the end); "
            "hint: check the count or offset against the tensor's GetSize()");

  EXPECT_EQ(checkMessage([&] { SetFmatrix(4, 4, g.pad, FmatrixMode::FMATRIX_RIGHT); }),
            "SetFmatrix with FMATRIX_RIGHT is not emulated; hint: use FmatrixMode::FMATRIX_LEFT");
  EXPECT_EQ(checkMessage([&] { SetLoadDataPaddingValue(1.0); }),
            "SetLoadDataPaddingValue of double is not supported: the padding register holds a 1-, 2- or "
            "4-byte value");
  EXPECT_EQ(checkMessage([&] { SetLoadDataRepeat(LoadDataRepeatParam(4, 2, 0)); }),
            "SetLoadDataRepeat with repeatTime 2, repeatStride 4, repeatMode 0 is not emulated; hint: issue one "
            "LoadData per window");
  EXPECT_EQ(checkMessage([&] { SetLoadDataBoundary(64); }),
            "SetLoadDataBoundary with boundaryValue 64 is not emulated; hint: use 0 (no boundary)");
}

TEST_F(Load3dTest, WithTransposeMessages) {
  Geo g{16, 4, 4, 3, 3, 1, 1, {1, 1, 1, 1}};
  LocalTensor<half> l1 = loadMap(g);
  LocalTensor<half> b2 = b2_.Get<half>();
  LoadData2dTransposeParams p(0, 1, 1, 0, 0);
  EXPECT_EQ(checkMessage([&] { LoadDataWithTranspose(b2.ReinterpretCast<float>(), l1.ReinterpretCast<float>(), p); }),
            "LoadDataWithTranspose of float is not emulated (emulated: half, bfloat16_t); hint: for 2-byte types "
            "only one 16x16 fractal per repeat is modelled");
  EXPECT_EQ(checkMessage([&] { LoadDataWithTranspose(b2, b2, p); }),
            "LoadDataWithTranspose src is in L0B (B2); it reads L1 (A1/B1)");
  EXPECT_EQ(checkMessage([&] { LoadDataWithTranspose(l1, l1, p); }),
            "LoadDataWithTranspose dst is in L1 (A1); it writes L0A (A2) or L0B (B2)");
  EXPECT_EQ(checkMessage([&] { LoadDataWithTranspose(b2, l1, LoadData2dTransposeParams(0, 1, 1, 0, 0, 1)); }),
            "LoadDataWithTranspose with addrMode 1 (decreasing addresses) is not emulated; hint: use addrMode 0");
  EXPECT_EQ(checkMessage([&] { LoadDataWithTranspose(b2, l1, LoadData2dTransposeParams(0, 1, 1, 0, 2)); }),
            "LoadDataWithTranspose with dstFracGap 2 is not emulated for 2-byte types (one fractal per repeat); "
            "hint: use dstGap to space the repeats");
}

}  // namespace
