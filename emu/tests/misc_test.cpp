// emu/misc.h and GetUserWorkspace: printf/PRINTF, DumpTensor, GetSystemCycle, ScalarCast, KERNEL_TASK_TYPE_DEFAULT,
// and the CCE intrinsics pipe_barrier/set_flag/wait_flag mapped onto the emulator's flags.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);  // valid at namespace scope too

namespace {

class MiscTest : public EmuTest {
 protected:
  template <typename T>
  LocalTensor<T> buffer(uint32_t bytes) {
    pipe_.InitBuffer(buf_, bytes);
    return buf_.Get<T>();
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> buf_;
};

uint32_t halfBits(half h) { return h.val; }

TEST_F(MiscTest, GetUserWorkspaceReturnsItsArgument) {
  uint8_t* ws = static_cast<uint8_t*>(GmAlloc(64));
  EXPECT_EQ(GetUserWorkspace(ws), ws);
  GmFree(ws);
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [] { GetUserWorkspace(nullptr); };
  EXPECT_EQ(checkMessage(err),
            "GetUserWorkspace(nullptr): the kernel's workspace argument is null; hint: pass a GM buffer from GmAlloc "
            "as the workspace argument of ICPU_RUN_KF");
  try {
    err();
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
}

TEST_F(MiscTest, PrintfAndPRINTFWriteToStdout) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  ::testing::internal::CaptureStdout();
  AscendC::printf("block %d of %d\n", 1, 8);
  PRINTF("x=%.2f\n", 0.5);
  std::fflush(stdout);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "block 1 of 8\nx=0.50\n");
}

TEST_F(MiscTest, DumpTensorPrintsTheElementsDeterministically) {
  LocalTensor<half> t = buffer<half>(64);
  for (int i = 0; i < 6; ++i) t.GetPhyAddr()[i] = tcemu::fromFloat<half>(0.5f * static_cast<float>(i) - 1.0f);
  LocalTensor<half> view = t[2];
  view.SetSize(4);
  int32_t* g = static_cast<int32_t*>(GmAlloc(3 * sizeof(int32_t)));
  g[0] = -7;
  g[1] = 0;
  g[2] = 123456;
  GlobalTensor<int32_t> gt;
  gt.SetGlobalBuffer(g, 3);
  // The block index is the kernel's GetBlockIdx(): outside a launch, whatever the last launch left in the globals.
  block_idx = 2;
  sub_block_idx = 0;
  g_coreType = AIV;
  g_taskRation = 1;
  ::testing::internal::CaptureStdout();
  DumpTensor(view, 7, 3);
  DumpTensor(gt, 8, 10);  // more than the tensor holds: clamped to its 3 elements
  std::fflush(stdout);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "DumpTensor: desc=7, block=2, position=VECCALC, offset=4, dtype=half, 3 of 3 elements: [0, 0.5, 1]\n"
            "DumpTensor: desc=8, block=2, position=GM, dtype=int32_t, 3 of 10 elements: [-7, 0, 123456]\n");
  GmFree(g);
  block_idx = 0;
}

TEST_F(MiscTest, GetSystemCycleCountsIssuedInstructions) {
  int64_t t0 = GetSystemCycle();
  EXPECT_EQ(t0, static_cast<int64_t>(core().trace().size()));
  PipeBarrier<PIPE_V>();
  pipe_barrier(PIPE_ALL);
  EXPECT_EQ(GetSystemCycle() - t0, 2);
}

TEST_F(MiscTest, ScalarCastFloatToHalfRoundsToOdd) {
  // 1 + 2^-12 lies between the halves 1 and 1 + 2^-10: round-to-odd picks the one with an odd last bit.
  EXPECT_EQ(halfBits(ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f + 0x1p-12f)), 0x3c01u);
  EXPECT_EQ(halfBits(ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f)), 0x3c00u);  // exact: unchanged
  EXPECT_EQ(halfBits(ScalarCast<float, half, RoundMode::CAST_ODD>(-3.0f - 0x1p-11f)), 0xc201u);
}

TEST_F(MiscTest, ScalarCastFloatToInt32Modes) {
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f)), 3);
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(-2.5f)), -3);
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_RINT>(2.5f)), 2);
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_RINT>(3.5f)), 4);
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-1.5f)), -2);
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(1.2f)), 2);
  EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_RINT>(3e9f)), INT32_MAX);  // saturates
}

TEST_F(MiscTest, ScalarCastRejectsModesTheHardwareLacks) {
  EXPECT_EQ(checkMessage([] { ScalarCast<float, half, RoundMode::CAST_RINT>(1.0f); }),
            "ScalarCast<float, half, RoundMode::CAST_RINT>: float -> half takes only RoundMode::CAST_ODD; hint: use "
            "CAST_ODD, or a vector Cast for other rounding modes");
  EXPECT_EQ(checkMessage([] { ScalarCast<float, int32_t, RoundMode::CAST_TRUNC>(1.0f); }),
            "ScalarCast<float, int32_t, RoundMode::CAST_TRUNC>: float -> int32_t takes CAST_ROUND, CAST_CEIL, "
            "CAST_FLOOR or CAST_RINT");
}

// An MTE2 write of the tensor, as DataCopy in would record it.
void mte2Write(tcemu::Core& core, const LocalTensor<float>& t, uint32_t bytes) {
  uint32_t ins = core.begin(tcemu::Pipe::MTE2, tcemu::OpClass::DmaIn, "DataCopy", tcemu::SrcLoc::current());
  core.write(ins, t.ref_, 0, bytes, "DataCopy dst", tcemu::SrcLoc::current());
}

TEST_F(MiscTest, SetFlagWaitFlagIntrinsicsOrderMte2BeforeV) {
  LocalTensor<float> t = buffer<float>(512);
  mte2Write(core(), t, 256);
  set_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
  wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID1);
  Adds(t, t, 1.0f, 64);  // no hazard: the flag orders it after the copy
  const tcemu::Instr& set = core().trace()[core().trace().size() - 3];
  EXPECT_EQ(set.cls, tcemu::OpClass::SetFlag);
  EXPECT_EQ(set.event, static_cast<int16_t>(HardEvent::MTE2_V));

  LocalTensor<float> u = t[64];  // fresh blocks: the same copy and add with no flag between them
  mte2Write(core(), u, 256);
  std::string msg = checkMessage([&] { Adds(u, u, 1.0f, 64); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: Adds", 0), 0u) << msg;
}

TEST_F(MiscTest, WaitFlagIntrinsicWithoutSetIsNamed) {
  EXPECT_EQ(checkMessage([] { wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID2); }),
            "WaitFlag<HardEvent::V_MTE3>(2) with no SetFlag before it: the MTE3 pipe would wait forever; hint: "
            "SetFlag<HardEvent::V_MTE3>(2) after the producing call");
}

TEST_F(MiscTest, FlagIntrinsicBetweenPipesWithoutAnEventIsRejected) {
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [] { set_flag(PIPE_S, PIPE_M, EVENT_ID0); };
  EXPECT_EQ(checkMessage(err),
            "set_flag(pipe 0, pipe 2, EVENT_ID0): no HardEvent goes from the first pipe to the second; hint: use a "
            "pipe pair with an event (e.g. PIPE_MTE2 -> PIPE_V, PIPE_V -> PIPE_MTE3)");
  try {
    err();
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
}

TEST_F(MiscTest, PipeBarrierIntrinsicRecordsABarrierOnItsPipe) {
  pipe_barrier(PIPE_V);
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.cls, tcemu::OpClass::Barrier);
  EXPECT_EQ(in.pipe, tcemu::Pipe::V);
}

}  // namespace
