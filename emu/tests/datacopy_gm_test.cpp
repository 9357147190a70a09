// InitGlobalMemory and DataCacheCleanAndInvalid (emu/datacopy_gm.h).
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::CubeTest;
using tcemu::testing::EmuTest;

namespace {

class GmHelpersTest : public EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    p_ = static_cast<float*>(GmAlloc(64 * sizeof(float)));
    for (int i = 0; i < 64; ++i) p_[i] = -1.0f;
    gm_.SetGlobalBuffer(p_, 64);
  }
  void TearDown() override {
    GmFree(p_);
    EmuTest::TearDown();
  }
  float* p_ = nullptr;
  GlobalTensor<float> gm_;
};

TEST_F(GmHelpersTest, InitGlobalMemoryFillsExactlySizeElements) {
  GlobalTensor<float> part = gm_[3];
  InitGlobalMemory(part, 10, 2.5f);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(p_[i], i >= 3 && i < 13 ? 2.5f : -1.0f) << i;
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::MTE3);
  EXPECT_EQ(in.bytes, 40u);
}

TEST_F(GmHelpersTest, InitGlobalMemoryHonoursAtomicAddAndGmBounds) {
  SetAtomicAdd<float>();
  InitGlobalMemory(gm_, 4, 1.0f);
  SetAtomicNone();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(p_[i], 0.0f) << i;
  GlobalTensor<float> tail = gm_[60];
  EXPECT_EQ(checkMessage([&] { InitGlobalMemory(tail, 8, 0.0f); }),
            "InitGlobalMemory reads or writes global memory bytes [240, 272) of a 256-byte GmAlloc allocation: 16 "
            "bytes out of bounds; hint: check the offset and count against the tensor's size");
}

TEST_F(GmHelpersTest, DataCacheCleanAndInvalidLeavesDataAlone) {
  gm_.SetValue(5, 7.0f);
  DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gm_);
  DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(gm_);
  EXPECT_EQ(p_[5], 7.0f);
  EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::S);
}

class GmHelpersCubeTest : public CubeTest {};

TEST_F(GmHelpersCubeTest, InitGlobalMemoryDoesNothingOnACubeCore) {
  float* p = static_cast<float*>(GmAlloc(8 * sizeof(float)));
  p[0] = 4.0f;
  GlobalTensor<float> g;
  g.SetGlobalBuffer(p, 8);
  InitGlobalMemory(g, 8, 0.0f);
  EXPECT_EQ(p[0], 4.0f);
  GmFree(p);
}

}  // namespace
