// DataCopyWithReduce / DataCopyPadWithReduce (dav-c220): a copy-out in an atomic mode that the call sets and clears.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

class DataCopyReduceTest : public EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    in_ = static_cast<int32_t*>(GmAlloc(16 * sizeof(int32_t)));
    out_ = static_cast<int32_t*>(GmAlloc(16 * sizeof(int32_t)));
    for (int i = 0; i < 16; ++i) {
      in_[i] = i - 8;
      out_[i] = 2;
    }
    inGm_.SetGlobalBuffer(in_, 16);
    outGm_.SetGlobalBuffer(out_, 16);
    pipe_.InitBuffer(buf_, 64);
    ub_ = buf_.Get<int32_t>();
    DataCopy(ub_, inGm_, 16);
    PipeBarrier<PIPE_ALL>();
  }
  void TearDown() override {
    GmFree(in_);
    GmFree(out_);
    EmuTest::TearDown();
  }
  int32_t* in_ = nullptr;
  int32_t* out_ = nullptr;
  GlobalTensor<int32_t> inGm_, outGm_;
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
  LocalTensor<int32_t> ub_;
};

TEST_F(DataCopyReduceTest, AddMaxAndMinCombineWithGm) {
  DataCopyWithReduce<int32_t, ReduceType::REDUCE_ADD>(outGm_, ub_, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out_[i], 2 + i - 8) << i;
  for (int i = 0; i < 16; ++i) out_[i] = 2;
  DataCopyWithReduce<int32_t, ReduceType::REDUCE_MAX>(outGm_, ub_, DataCopyParams(1, 2, 0, 0));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out_[i], std::max(2, i - 8)) << i;
  for (int i = 0; i < 16; ++i) out_[i] = 2;
  DataCopyPadWithReduce<int32_t, ReduceType::REDUCE_MIN>(outGm_, ub_, DataCopyExtParams(1, 5 * 4, 0, 0, 0));
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out_[i], i < 5 ? std::min(2, i - 8) : 2) << i;
}

TEST_F(DataCopyReduceTest, NoAtomicModeSurvivesTheCall) {
  SetAtomicAdd<int32_t>();
  DataCopyWithReduce<int32_t>(outGm_, ub_, 8);  // NO_REDUCE: the earlier SetAtomicAdd is cleared first
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out_[i], i - 8) << i;
  DataCopy(outGm_[8], ub_[8], 8);
  for (int i = 8; i < 16; ++i) EXPECT_EQ(out_[i], i - 8) << "plain store after the call " << i;
}

TEST_F(DataCopyReduceTest, ErrorsNameTheApi) {
  EXPECT_EQ(checkMessage([&] { DataCopyWithReduce<int32_t, ReduceType::REDUCE_ADD>(outGm_, ub_, 12); }),
            "DataCopy of 12 int32_t (48 bytes) is not a multiple of 32 bytes: the hardware rounds it down to 32 bytes "
            "and silently drops the last 16; hint: copy a multiple of 8 elements, or use DataCopyPad for the tail");
  LocalTensor<uint32_t> u = ub_.ReinterpretCast<uint32_t>();
  GlobalTensor<uint32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<uint32_t*>(out_), 16);
  EXPECT_EQ(checkMessage([&] { DataCopyWithReduce<uint32_t, ReduceType::REDUCE_ADD>(g, u, 8); }),
            "DataCopyWithReduce does not support uint32_t on 910B (supported: half, float, int16_t, int32_t, int8_t, "
            "bfloat16_t)");
  EXPECT_EQ(checkMessage([&] {
              DataCopyPadWithReduce<uint32_t, ReduceType::REDUCE_MAX>(g, u, {1, 4, 0, 0, 0});
            }),
            "DataCopyPadWithReduce does not support uint32_t on 910B (supported: half, float, int16_t, int32_t, "
            "int8_t, bfloat16_t)");
}

}  // namespace
