// LoadData with a GM source (load_gm_to_ca/cb/cbuf): fractals in GM order straight to L0A, L0B or L1 on MTE2.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::CubeTest;

namespace {

class LoadFromGmTest : public CubeTest {
 protected:
  void SetUp() override {
    CubeTest::SetUp();
    gm_ = static_cast<half*>(GmAlloc(8 * 256 * sizeof(half)));
    for (int i = 0; i < 8 * 256; ++i) gm_[i] = half(static_cast<float>(i % 2000));
    src_.SetGlobalBuffer(gm_, 8 * 256);
  }
  void TearDown() override {
    GmFree(gm_);
    CubeTest::TearDown();
  }
  half* gm_ = nullptr;
  GlobalTensor<half> src_;
  TPipe pipe_;
};

TEST_F(LoadFromGmTest, FractalsFollowStartIndexStrideAndGap) {
  TBuf<TPosition::A2> a2;
  pipe_.InitBuffer(a2, 4 * 512);
  LocalTensor<half> dst = a2.Get<half>();
  LoadData2DParams p;
  p.startIndex = 1;
  p.repeatTimes = 2;
  p.srcStride = 3;       // fractals 1 and 4
  p.dstGap = 1;          // to slots 0 and 2
  p.ifTranspose = true;  // ignored on the GM path
  LoadData(dst, src_, p);
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::MTE2);
  EXPECT_EQ(in.bursts, 2u);
  EXPECT_EQ(in.burstBytes, 512u);
  const half* out = dst.GetPhyAddr();
  for (int e = 0; e < 256; ++e) {
    EXPECT_EQ(out[e].val, gm_[256 + e].val) << e;
    EXPECT_EQ(out[512 + e].val, gm_[4 * 256 + e].val) << e;
  }
  EXPECT_EQ(core().arena(tcemu::Mem::L0A).written[dst.ref_.offset + 512], 0) << "the gap slot stays unwritten";
}

TEST_F(LoadFromGmTest, ToL1AndItsChecks) {
  TBuf<TPosition::B1> b1;
  pipe_.InitBuffer(b1, 1024);
  LocalTensor<half> l1 = b1.Get<half>();
  LoadData2DParams p;
  p.repeatTimes = 2;
  p.srcStride = 1;
  LoadData(l1, src_, p);
  for (int e = 0; e < 512; ++e) EXPECT_EQ(l1.GetPhyAddr()[e].val, gm_[e].val) << e;
  p.addrMode = 1;
  EXPECT_EQ(checkMessage([&] { LoadData(l1, src_, p); }),
            "LoadData from GM to L1 with addrMode 1 (decreasing addresses) is not emulated; hint: use addrMode 0");
  TBuf<TPosition::CO1> co1;
  pipe_.InitBuffer(co1, 1024);
  LocalTensor<half> c = co1.Get<half>();
  p.addrMode = 0;
  EXPECT_EQ(checkMessage([&] { LoadData(c, src_, p); }),
            "LoadData from GM to L0C (CO1); LoadData with LoadData2DParams from GM writes L0A (A2), L0B (B2) or L1 "
            "(A1/B1)");
  p.startIndex = 7;  // fractals 7 and 8: the second is past the 8-fractal buffer
  EXPECT_NE(checkMessage([&] { LoadData(l1, src_, p); }).find("LoadData src"), std::string::npos);
}

}  // namespace
