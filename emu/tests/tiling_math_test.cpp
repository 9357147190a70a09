// Host temporary-size queries of the math and gated APIs (tiling/hl_tiling_math.h): their values, and that the
// kernel side accepts exactly the minimum the host returns.
#include "emu_test_util.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

TEST(TilingMath, ElementwiseQueriesCountFloatCopies) {
  uint32_t maxV = 0, minV = 0;
  GetSinMaxMinTmpSize(ge::Shape({4, 64}), 2, false, maxV, minV);
  EXPECT_EQ(minV, 512u);   // two float copies of one 256-byte repeat
  EXPECT_EQ(maxV, 2048u);  // two float copies of 256 elements
  GetLog10MaxMinTmpSize(ge::Shape({256}), 4, false, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 1024u);
  GetRoundMaxMinTmpSize(*platform_ascendc::PlatformAscendCManager::GetInstance(), ge::Shape({10}), 4, false, maxV,
                        minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 256u);  // one repeat covers 10 floats
  uint32_t nodes = 0, extra = 0;
  GetCosTmpBufferFactorSize(2, nodes, extra);
  EXPECT_EQ(nodes, 4u);  // 2 float copies x 4 bytes / 2-byte half
  EXPECT_EQ(extra, 512u);
  GetErfTmpBufferFactorSize(4, nodes, extra);
  EXPECT_EQ(nodes, 1u);
  EXPECT_EQ(extra, 256u);
}

TEST(TilingMath, FactorSizeCoversTheMaximum) {
  for (uint32_t typeSize : {2u, 4u}) {
    uint32_t nodes = 0, extra = 0;
    GetSinTmpBufferFactorSize(typeSize, nodes, extra);
    for (int64_t n : {1, 7, 64, 1000, 4096}) {
      uint32_t maxV = 0, minV = 0;
      GetSinMaxMinTmpSize(ge::Shape({n}), typeSize, false, maxV, minV);
      EXPECT_GE(uint64_t{nodes} * n * typeSize + extra, maxV) << typeSize << " " << n;
    }
    GetMeanTmpBufferFactorSize(typeSize, nodes, extra);
    for (uint32_t n : {1u, 3u, 64u, 1000u}) {
      uint32_t maxV = 0, minV = 0;
      GetMeanMaxMinTmpSize(n, typeSize, 4, false, maxV, minV);
      EXPECT_GE(uint64_t{nodes} * n * typeSize + extra, maxV) << typeSize << " " << n;
    }
  }
}

TEST(TilingMath, GatedAndClampAndPowerQueries) {
  uint32_t maxV = 0, minV = 0;
  GetGeGLUMaxMinTmpSize(ge::Shape({256}), 2, false, maxV, minV);
  EXPECT_EQ(minV, 768u);
  EXPECT_EQ(maxV, 3072u);
  GetSwiGLUMaxMinTmpSize(ge::Shape({256}), 4, maxV, minV, false);
  EXPECT_EQ(minV, 0u);
  EXPECT_EQ(maxV, 0u);
  GetReGluMaxMinTmpSize(ge::Shape({256}), 4, false, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 1024u);
  GetClampMaxMinTmpSize(ge::Shape({100000}), 2, false, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 256u);
  GetPowerMaxMinTmpSize(ge::Shape({1}), ge::Shape({512}), false, 4, false, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 2048u);
}

class TilingMathKernelTest : public EmuTest {};

TEST_F(TilingMathKernelTest, TheHostMinimumPassesTheKernelCheck) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> xb, yb, tb;
  pipe.InitBuffer(xb, 512);
  pipe.InitBuffer(yb, 512);
  uint32_t maxV = 0, minV = 0;
  GetSinMaxMinTmpSize(ge::Shape({256}), 2, false, maxV, minV);
  pipe.InitBuffer(tb, minV);
  LocalTensor<half> x = xb.Get<half>(), y = yb.Get<half>();
  for (int i = 0; i < 256; ++i) x.SetValue(i, half(0.5f));
  SetFlag<HardEvent::S_V>(0);
  WaitFlag<HardEvent::S_V>(0);
  Sin(y, x, tb.Get<uint8_t>(), 256);
  EXPECT_EQ(checkMessage([&] { Sin(y, x, tb.Get<uint8_t>(minV - 32), 256); }),
            "Sin sharedTmpBuffer has 480 bytes; this call needs at least 512 bytes; hint: size the buffer with "
            "GetSinMaxMinTmpSize (minimum 512 bytes)");
}

}  // namespace
