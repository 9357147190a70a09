// CANN's kernel utilities that NPUKernelBench's answers call by name (emu/kernel_utils.h, TBuf's queue calls,
// BroadCast): each with CANN 8.1's signature and behaviour, and the checks where CANN asserts.
#include "emu_test_util.h"
#include "impl/dav_c220/kernel_operator_reg_others_impl.h"  // the header NPUKernelBench norm kernels include

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;
using tcemu::testing::TBufTest;

namespace {

static_assert(IsSameType<float, float>::value);
static_assert(!IsSameType<half, float>::value);
static_assert(ConstCeil(33, 32) == 2);  // usable in constant expressions, as in CANN

// A queue configured through a pointer to a constexpr TQueConfig, the form MseLossGradV2's answer uses.
constexpr TPosition kNoConsumers[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
                                       TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};
constexpr TQueConfig kConfig = GetTQueConfig(false, false, false, 0, 1, 0, kNoConsumers, false, false);

class KernelUtilsTest : public TBufTest {};

TEST_F(KernelUtilsTest, IntegerHelpers) {
  EXPECT_EQ(DivCeil(100u, 32u), 4u);
  EXPECT_EQ(DivCeil(96u, 32u), 3u);
  EXPECT_EQ(AlignUp(97u, 16u), 112u);
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [] { DivCeil(7u, 0u); };
  EXPECT_EQ(checkMessage(err), "DivCeil(7, 0): division by zero");
  try {
    err();
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
}

// CANN's per-block and per-repeat element counts (kernel_utils_constants.h), as kernels use them: a block of
// float is what one 32-byte DataCopy unit holds.
TEST_F(KernelUtilsTest, BlockAndRepeatCountsAreCannsConstants) {
  static_assert(ONE_BLK_FLOAT_NUM * sizeof(float) == ONE_BLK_SIZE && ONE_BLK_HALF_NUM * sizeof(half) == ONE_BLK_SIZE);
  EXPECT_EQ(ONE_BLK_FLOAT_NUM, 8u);
  EXPECT_EQ(ONE_BLK_HALF_NUM, 16u);
  EXPECT_EQ(FLOAT_REPEAT_SIZE, 64u);
  EXPECT_EQ(ONE_REPEAT_FLOAT_SIZE, 64u);
  EXPECT_EQ(HALF_REPEAT_SIZE, 128u);
  EXPECT_EQ(ONE_REPEAT_HALF_SIZE, 128u);
  EXPECT_EQ(B16_BYTE_SIZE, 2);
  EXPECT_EQ(B32_BYTE_SIZE, 4);
}

TEST_F(KernelUtilsTest, TQueConfigFromAMaskOrFields) {
  constexpr TQueConfig fromMask = GetTQueConfig(0x5);
  static_assert(fromMask.nd2nz && !fromMask.nz2nd && fromMask.scmBlockGroup);
  static_assert(fromMask.consumer[7] == TPosition::MAX);
  static_assert(kConfig.bufferNumber == 1 && !kConfig.nd2nz);
  static_assert(GetTQueConfig(&kConfig).bufferNumber == 1);
}

TEST_F(KernelUtilsTest, AQueueWithAConfigPointerRunsLikeAnyOther) {
  TQue<TPosition::VECIN, 1, &kConfig> in;
  pipe_.InitBuffer(in, 1, 256);
  LocalTensor<float> t = in.AllocTensor<float>();
  for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, static_cast<float>(i));
  in.EnQue(t);
  LocalTensor<float> back = in.DeQue<float>();
  EXPECT_EQ(back.GetValue(5), 5.0f);
  in.FreeTensor(back);
}

// The untyped DeQue (RmsNorm's answer dequeues for the sync and keeps using its tensor), and a handle passed back.
TEST_F(KernelUtilsTest, UntypedDeQueHandsTheBufferOverAndItsHandleComesBack) {
  TQue<TPosition::VECIN, 1> in;
  pipe_.InitBuffer(in, 1, 256);
  LocalTensor<float> t = in.AllocTensor<float>();
  t.SetValue(3, 7.0f);
  in.EnQue(t);
  TBufHandle handle = in.DeQue();
  EXPECT_EQ(in.GetState(t), TBufState::DEQUE);
  EXPECT_EQ(t.GetValue(3), 7.0f);
  EXPECT_TRUE(in.EnQue(handle));
  EXPECT_EQ(in.GetTensorCountInQue(), 1);
  in.FreeBuffer(in.DeQue());
  EXPECT_TRUE(in.HasIdleBuffer());
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [&] { in.FreeBuffer(nullptr); };
  EXPECT_EQ(checkMessage(err),
            "FreeBuffer of a TBufHandle that is not one of this VECIN queue's buffers; hint: pass back the handle its "
            "DeQue returned");
  try {
    err();
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
}

// DeepNormGrad's answer zeroes its gamma/beta gradients with InitOutput: more elements than one 255-block burst.
TEST_F(KernelUtilsTest, InitOutputFillsGlobalMemoryInBursts) {
  buffer<float>(32 * 1024);
  constexpr uint32_t kCount = 5000;  // 2040 floats per burst: two full bursts and a tail
  auto* gm = static_cast<float*>(GmAlloc((kCount + 8) * sizeof(float)));
  for (uint32_t i = 0; i < kCount + 8; ++i) gm[i] = -1.0f;
  GlobalTensor<float> g;
  g.SetGlobalBuffer(gm, kCount + 8);
  InitOutput<float>(g, kCount, 0.5f);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(gm[0], 0.5f);
  EXPECT_EQ(gm[2040], 0.5f);
  EXPECT_EQ(gm[kCount - 1], 0.5f);
  EXPECT_EQ(gm[kCount], -1.0f);  // not one element more
}

TEST_F(KernelUtilsTest, AscendCUtilsMaskWordsAreCanns) {
  AscendCUtils::SetMask<float>(10);
  EXPECT_EQ(core().maskHigh_, 0u);
  EXPECT_EQ(core().maskLow_, (1ull << 10) - 1);
  AscendCUtils::SetMask<float>(64);  // a whole float repeat: the low word only
  EXPECT_EQ(core().maskHigh_, 0u);
  EXPECT_EQ(core().maskLow_, FULL_MASK);
  AscendCUtils::SetMask<half>(100);
  EXPECT_EQ(core().maskHigh_, (1ull << 36) - 1);
  EXPECT_EQ(core().maskLow_, FULL_MASK);
  AscendCUtils::SetMask<half>(128);
  EXPECT_EQ(core().maskHigh_, FULL_MASK);
  AscendCUtils::SetMask<float>(0x3, 0x7);
  EXPECT_EQ(core().maskHigh_, 0x3u);
  EXPECT_EQ(core().maskLow_, 0x7u);
  AscendCUtils::SetMask<float, false>(5);  // isSetMask = false leaves the register alone
  EXPECT_EQ(core().maskLow_, 0x7u);
  AscendCUtils::ResetMask();
  EXPECT_EQ(core().maskLow_, FULL_MASK);
  EXPECT_EQ(core().maskHigh_, FULL_MASK);
  EXPECT_EQ(AscendCUtils::GetC0Count(sizeof(half)), 16);
  EXPECT_EQ(AscendCUtils::GetBitSize(4), 32);
  EXPECT_EQ(checkMessage([] { AscendCUtils::GetC0Count(0); }), "AscendCUtils::GetC0Count(0): dtypeSize can not be 0");
}

TEST_F(KernelUtilsTest, ATBufTakesTheQueueCalls) {
  LocalTensor<float> viaGet = buffer<float>(256);
  LocalTensor<float> viaAlloc = bufs_.back().AllocTensor<float>();
  EXPECT_EQ(viaAlloc.GetPhyAddr(), viaGet.GetPhyAddr());
  EXPECT_EQ(viaAlloc.GetSize(), 64u);
  bufs_.back().EnQue(viaAlloc);
  LocalTensor<float> again = bufs_.back().DeQue<float>();
  bufs_.back().FreeTensor(again);  // nothing to free: the buffer stays usable
  again.SetValue(0, 1.5f);
  EXPECT_EQ(viaGet.GetValue(0), 1.5f);
}

TEST_F(KernelUtilsTest, GetTPipePtrIsTheCurrentPipe) { EXPECT_EQ(GetTPipePtr(), &pipe_); }

TEST_F(KernelUtilsTest, PopStackBufferIsTheUbTheBuffersLeft) {
  buffer<uint8_t>(4096);
  LocalTensor<half> rest;
  EXPECT_TRUE((PopStackBuffer<half, TPosition::LCM>(rest)));
  EXPECT_EQ(rest.GetSize(), (TOTAL_UB_SIZE - 4096) / sizeof(half));
}

TEST_F(KernelUtilsTest, BroadCastIsBroadcast) {
  LocalTensor<float> src = filled<float>({1.5f, -2.0f, 3.25f, 4.0f}, 32);
  LocalTensor<float> dst = buffer<float>(4 * 8 * 4);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);
  const uint32_t dstShape[2] = {4, 8}, srcShape[2] = {4, 1};
  BroadCast<float, 2, 1>(dst, src, dstShape, srcShape, tmp);
  const float rowValue[4] = {1.5f, -2.0f, 3.25f, 4.0f};
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(dst.GetPhyAddr()[i], rowValue[i / 8]) << i;
}

}  // namespace
