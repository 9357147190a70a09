// The core machinery: queues, TBuf, pipe pools, flags, hazards, launches.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;
using tcemu::testing::Gm;

namespace {

class QueueTest : public EmuTest {};

TEST_F(QueueTest, DoubleBufferedQueueCyclesThroughBothSlots) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 2, 100);  // rounded up to 128 bytes
  LocalTensor<float> a = q.AllocTensor<float>();
  LocalTensor<float> b = q.AllocTensor<float>();
  EXPECT_EQ(a.GetSize(), 32u);
  EXPECT_EQ(b.ref_.offset - a.ref_.offset, 128u);
  EXPECT_EQ(q.GetState(a), TBufState::OCCUPIED);
  q.FreeTensor(a);
  q.FreeTensor(b);
}

TEST_F(QueueTest, AllocWithNoFreeBufferNamesTheQueue) {
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 256);
  q.AllocTensor<half>();
  EXPECT_EQ(checkMessage([&] { q.AllocTensor<half>(); }),
            "AllocTensor on a VECOUT queue with no free buffer: all 1 buffers are allocated or queued; hint: "
            "FreeTensor each tensor after its last use, or InitBuffer the queue with more buffers");
}

TEST_F(QueueTest, EnQueBeyondDepthIsAnError) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 2, 256);
  q.EnQue(q.AllocTensor<float>());
  LocalTensor<float> b = q.AllocTensor<float>();
  EXPECT_EQ(checkMessage([&] { q.EnQue(b); }),
            "EnQue beyond the queue depth: 1 tensors already queued, depth is 1; hint: DeQue before enqueuing again, "
            "or declare the TQue with a larger depth");
}

TEST_F(QueueTest, DeQueOnEmptyQueue) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> q;
  pipe.InitBuffer(q, 2, 256);
  EXPECT_EQ(checkMessage([&] { q.DeQue<float>(); }),
            "DeQue on an empty VECIN queue: nothing was EnQue'd; hint: EnQue the tensor in the producing stage before "
            "DeQue in the consuming one");
}

// A freed tensor's data stays until AllocTensor hands its slot to another tensor, as on the device (cann-ops'
// RmsNorm reads its rstd after the copy-out freed it); a use after that is the error.
TEST_F(QueueTest, UseAfterFreeIsAnErrorOnceTheSlotIsAllocatedAgain) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 64);
  LocalTensor<float> a = q.AllocTensor<float>();
  a.SetValue(0, 3.0f);
  q.FreeTensor(a);
  EXPECT_EQ(a.GetValue(0), 3.0f);
  LocalTensor<float> again = q.AllocTensor<float>();
  again.SetValue(0, 1.0f);
  std::string msg = checkMessage([&] { a.GetValue(0); });
  EXPECT_EQ(msg.rfind("GetValue uses a tensor after FreeTensor released its buffer (UB bytes [0, 64)) and AllocTensor "
                      "gave it to another tensor; hint: free the tensor after its last use",
                      0),
            0u)
      << msg;
  // A second FreeTensor before the slot is allocated again is still a double free.
  q.FreeTensor(again);
  EXPECT_EQ(checkMessage([&] { q.FreeTensor(again); }),
            "FreeTensor of a tensor whose buffer is already free (freed twice)");
}

TEST_F(QueueTest, UbOverflowReportsTheNumbersAndAHint) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(tmp, 65536);
  EXPECT_EQ(checkMessage([&] { pipe.InitBuffer(q, 2, 131072); }),
            "UB overflow: InitBuffer of a VECIN queue with 2 x 131072 bytes needs 262144 bytes; 131072 of 196608 "
            "bytes are left (65536 used by earlier InitBuffer calls); hint: at most 65536 bytes per buffer fit");
}

TEST_F(QueueTest, ReadingUnwrittenMemoryIsAnError) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(tmp, 256);
  LocalTensor<int32_t> t = tmp.Get<int32_t>();
  t.SetValue(0, 7);
  EXPECT_EQ(t.GetValue(0), 7);
  EXPECT_EQ(checkMessage([&] { t.GetValue(3); }),
            "GetValue reads UB bytes [12, 16) that nothing wrote: byte 12 (0 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
}

// Any length that fits, as the device takes it (CANN's whole-block assert is ASCENDC_DEBUG only): a one-element
// scalar scratch is a tensor of that many elements, a length of 0 an empty one.
TEST_F(QueueTest, TBufGetTakesAnyLengthThatFits) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(tmp, 1024);
  LocalTensor<half> t = tmp.Get<half>(10);
  EXPECT_EQ(t.GetSize(), 10u);
  LocalTensor<float> one = tmp.Get<float>(1);
  one.SetValue(0, 2.5f);
  EXPECT_EQ(one.GetValue(0), 2.5f);
  LocalTensor<float> none = tmp.Get<float>(0);
  EXPECT_EQ(none.GetSize(), 0u);
  EXPECT_EQ(checkMessage([&] { tmp.Get<float>(257); }),
            "TBuf::Get(257) of float asks for 1028 bytes; the buffer has 1024 bytes");
}

class FlagTest : public EmuTest {};

TEST_F(FlagTest, WaitWithoutSetIsAnError) {
  EXPECT_EQ(checkMessage([&] { WaitFlag<HardEvent::V_S>(0); }),
            "WaitFlag<HardEvent::V_S>(0) with no SetFlag before it: the S pipe would wait forever; hint: "
            "SetFlag<HardEvent::V_S>(0) after the producing call");
}

TEST_F(FlagTest, DoubleSetIsAnError) {
  SetFlag<HardEvent::MTE2_V>(1);
  EXPECT_EQ(checkMessage([&] { SetFlag<HardEvent::MTE2_V>(1); }),
            "SetFlag<HardEvent::MTE2_V>(1) while the flag is already set: two SetFlags with no WaitFlag between them; "
            "hint: WaitFlag<HardEvent::MTE2_V>(1) before setting it again");
  WaitFlag<HardEvent::MTE2_V>(1);
}

TEST_F(FlagTest, EventIdOutOfRange) {
  EXPECT_EQ(checkMessage([&] { SetFlag<HardEvent::V_MTE3>(8); }),
            "SetFlag<HardEvent::V_MTE3> with event id 8; ids run from 0 to 7");
}

TEST(LaunchTest, SyncAllOrdersEveryBlock) {
  std::vector<int> order;
  std::vector<int> afterBarrier;
  SetKernelMode(KernelMode::AIV_MODE);
  tcemu::runKernel("sync", 4, [&] {
    order.push_back(static_cast<int>(GetBlockIdx()));
    SyncAll();
    afterBarrier.push_back(static_cast<int>(order.size()));
  });
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(afterBarrier, (std::vector<int>{4, 4, 4, 4}));
}

TEST(LaunchTest, MixModeIndexesAivByGroupAndSubBlock) {
  std::vector<std::pair<int, int>> seen;
  SetKernelMode(KernelMode::MIX_MODE);
  tcemu::runKernel("mix", 2, [&] {
    if ASCEND_IS_AIV {
      seen.push_back({static_cast<int>(GetBlockIdx()), static_cast<int>(GetSubBlockIdx())});
    }
  });
  SetKernelMode(KernelMode::AIV_MODE);
  EXPECT_EQ(seen, (std::vector<std::pair<int, int>>{{0, 0}, {1, 1}, {2, 0}, {3, 1}}));
}

TEST(LaunchTest, SyncAllDeadlockIsReported) {
  tcemu::failHandler() = &tcemu::testing::throwingHandler;
  SetKernelMode(KernelMode::AIV_MODE);
  std::string msg = checkMessage([&] {
    tcemu::runKernel("dead", 2, [&] {
      if (GetBlockIdx() == 0) SyncAll();
    });
  });
  tcemu::failHandler() = nullptr;
  EXPECT_EQ(msg,
            "deadlock: core 0 waits in SyncAll, but 1 of 2 cores finished without reaching it and the rest are "
            "blocked; hint: every core must call SyncAll the same number of times");
}

}  // namespace

namespace {

class HazardTest : public EmuTest {};

TEST_F(HazardTest, ScalarReadThenVectorWriteNeedsNoFlag) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  t.SetValue(0, 2.0f);
  SetFlag<HardEvent::S_V>(0);
  WaitFlag<HardEvent::S_V>(0);
  EXPECT_EQ(t.GetValue(0), 2.0f);
  Duplicate(t, 1.0f, 64);  // overwrites what the scalar unit just read: ordered by scalar issue
  SetFlag<HardEvent::V_S>(0);
  WaitFlag<HardEvent::V_S>(0);
  EXPECT_EQ(t.GetValue(0), 1.0f);
}

TEST_F(HazardTest, ScalarWriteThenVectorReadNeedsAFlag) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 512);
  LocalTensor<float> a = buf.Get<float>(64);
  LocalTensor<float> b = buf.GetWithOffset<float>(64, 256);
  for (int i = 0; i < 64; ++i) a.SetValue(i, 1.0f);
  std::string msg = checkMessage([&] { Adds(b, a, 1.0f, 64); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: Adds src on pipe V reads data that SetValue on pipe S wrote", 0), 0u) << msg;
}

TEST_F(HazardTest, VectorWriteThenScalarReadNeedsAFlag) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 3.0f, 64);
  std::string msg = checkMessage([&] { t.GetValue(5); });
  EXPECT_EQ(msg,
            "cross-pipe hazard: GetValue on pipe S reads data that Duplicate on pipe V wrote, with no queue, "
            "flag or barrier between them (block at byte 0); hint: pass the tensor through a TQue "
            "(EnQue/DeQue), or SetFlag<HardEvent::V_S>/WaitFlag<HardEvent::V_S> between the two calls");
}

// --cce-auto-sync: the conflicts above become dependencies the trace records, each on exactly the instruction
// conflicted with.
class AutoSyncTest : public EmuTest {
 protected:
  void SetUp() override {
    tcemu::setAutoSync(true);
    EmuTest::SetUp();
    tcemu::setAutoSync(false);  // the setting is read when a core is made: this test's core keeps it
  }
};

TEST_F(AutoSyncTest, AConflictIsADependencyOnTheInstructionConflictedWith) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> a = buf.Get<float>(64);
  LocalTensor<float> b = buf.GetWithOffset<float>(64, 256);
  LocalTensor<float> c = buf.GetWithOffset<float>(64, 512);
  for (int i = 0; i < 64; ++i) a.SetValue(i, 1.0f);
  uint32_t lastSet = static_cast<uint32_t>(core().trace().size() - 1);
  Adds(b, a, 1.0f, 64);  // V reads what S wrote
  const tcemu::Instr& adds = core().trace().back();
  EXPECT_EQ(adds.after[0], lastSet + 1);
  EXPECT_EQ(adds.after[1], 0u);
  Adds(c, b, 1.0f, 64);  // same pipe: in order, no dependency
  EXPECT_EQ(core().trace().back().after[0], 0u);
  EXPECT_EQ(c.GetValue(3), 3.0f);  // S reads what V wrote
  EXPECT_EQ(core().trace().back().after[0], core().trace().size() - 1);
  EXPECT_EQ(core().autoSyncs(), 2u);
}

TEST_F(AutoSyncTest, AWriteWaitsForTheReaderItWouldOverwrite) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 512);
  LocalTensor<half> t = buf.Get<half>(128);
  Gm<half> out(128);
  Duplicate(t, half(2.0f), 128);
  DataCopy(out.t_, t, 128);  // MTE3 reads what V wrote: waits for Duplicate
  uint32_t copy = static_cast<uint32_t>(core().trace().size() - 1);
  Duplicate(t, half(5.0f), 128);  // V overwrites what MTE3 still reads: waits for the copy
  EXPECT_EQ(core().trace().back().after[0], copy + 1);
  EXPECT_EQ(static_cast<float>(out[7]), 2.0f);
}

TEST_F(HazardTest, PipeBarrierAllOrdersEverything) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  Duplicate(t, 3.0f, 64);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(t.GetValue(5), 3.0f);
}

}  // namespace

namespace {

TEST(LaunchTest, TheLaunchingCodeKeepsItsOwnCoreGlobals) {
  SetKernelMode(KernelMode::MIX_MODE);
  tcemu::runKernel("globals", 3, [&] {});
  SetKernelMode(KernelMode::AIV_MODE);
  EXPECT_EQ(block_idx, 0);
  EXPECT_EQ(sub_block_idx, 0);
  EXPECT_EQ(g_coreType, AscendC::AIV);
  EXPECT_EQ(g_taskRation, 1);
}

}  // namespace

namespace {

class UnwrittenTest : public EmuTest {};

// DataCopy moves whole 32-byte blocks: a block written in part goes out, one nothing wrote is an error.
TEST_F(UnwrittenTest, DataMovementChecksWholeBlocks) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<float> t = buf.Get<float>();
  float* gm = static_cast<float*>(GmAlloc(64));
  GlobalTensor<float> g;
  g.SetGlobalBuffer(gm, 16);
  t.SetValue(0, 5.0f);
  PipeBarrier<PIPE_ALL>();
  DataCopy(g, t, 8);  // one block, 4 of its 32 bytes written: fine
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(gm[0], 5.0f);
  EXPECT_EQ(checkMessage([&] { DataCopy(g, t, 16); }),
            "DataCopy src reads UB bytes [0, 64) and nothing wrote any of the 32-byte block at byte 32; hint: copy "
            "data in or Duplicate a value before reading");
  GmFree(gm);
}

TEST_F(UnwrittenTest, ALocalCopyCarriesUnwrittenBytesAlong) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 32);
  pipe.InitBuffer(b, 32);
  LocalTensor<float> src = a.Get<float>();
  LocalTensor<float> dst = b.Get<float>();
  src.SetValue(0, 1.0f);
  PipeBarrier<PIPE_ALL>();
  DataCopy(dst, src, 8);
  PipeBarrier<PIPE_ALL>();
  std::string msg = checkMessage([&] { Adds(dst, dst, 1.0f, 8); });
  EXPECT_EQ(msg.rfind("Adds src reads UB bytes [32, 64) that nothing wrote: byte 36 (4 into the operand)", 0), 0u)
      << msg;
}

// Poison (project runs): a lane-wise instruction computes garbage lanes without complaint; the lanes it computed
// from unwritten bytes stay unwritten, and the checks fire where they are used.
class PoisonTest : public EmuTest {
 protected:
  void SetUp() override {
    tcemu::setPoisonUnwritten(true);
    EmuTest::SetUp();
    tcemu::setPoisonUnwritten(false);
  }
};

TEST_F(PoisonTest, LanesComputedFromUnwrittenBytesStayUnwritten) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b, c;
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(b, 256);
  pipe.InitBuffer(c, 64);
  LocalTensor<float> src = a.Get<float>();
  LocalTensor<float> dst = b.Get<float>();
  for (int i = 0; i < 8; ++i) src.SetValue(i, static_cast<float>(i));
  PipeBarrier<PIPE_ALL>();
  Adds(dst, src, 1.0f, 64);  // lanes 8..63 are garbage in, garbage out
  Muls(dst, dst, 2.0f, 64);  // in place: still garbage past lane 8
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(dst.GetValue(7), 16.0f);
  EXPECT_EQ(checkMessage([&] { dst.GetValue(8); }),
            "GetValue reads UB bytes [288, 292) that nothing wrote: byte 288 (0 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
  Gm<float> out(64);
  DataCopy(out.t_, dst, 8);  // the defined block: fine
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(out[3], 8.0f);
  EXPECT_EQ(checkMessage([&] { DataCopy(out.t_, dst, 16); }),
            "DataCopy src reads UB bytes [256, 320) and nothing wrote any of the 32-byte block at byte 288; hint: "
            "copy data in or Duplicate a value before reading");
  // A reduction is not lane-wise: a garbage lane would reach its one result.
  LocalTensor<float> sum = c.Get<float>();
  std::string msg = checkMessage([&] { WholeReduceSum(sum, dst, 64, 1, 1, 1, 8); });
  EXPECT_EQ(msg.rfind("WholeReduceSum src reads UB bytes [256, 512) that nothing wrote: byte 288", 0), 0u) << msg;
  // The element-wise high-level APIs (emu/hl_map.h) carry poison the same way.
  Log(dst, src, 64);
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(dst.GetValue(1), 0.0f);  // log(1)
  EXPECT_EQ(checkMessage([&] { dst.GetValue(8); }).rfind("GetValue reads UB bytes [288, 292) that nothing wrote", 0),
            0u);
}

}  // namespace
