// Cross-core flags in the instruction trace: CrossCoreSetFlag/CrossCoreWaitFlag carry their flag id, mode and
// pipe (Instr::crossFlag/crossMode), and the trace line writes them as "xf"/"xm" for the timeline to pair.
#include <cstdio>
#include <string>
#include <vector>

#include "emu_test_util.h"

namespace tcemu::testing {
namespace {

using namespace AscendC;

// Runs `body` on the cores of `mode` x 1 block, as ICPU_RUN_KF does, and returns the launch for inspection.
std::unique_ptr<Launch> runCores(KernelMode mode, const std::function<void()>& body) {
  auto launch = std::make_unique<Launch>("k", coresFor(mode, 1));
  currentLaunch() = launch.get();
  launch->run(body);
  currentLaunch() = nullptr;
  return launch;
}

const Instr* findInstr(const Core& core, const char* name) {
  for (const Instr& in : core.trace())
    if (std::string(in.name) == name) return &in;
  return nullptr;
}

TEST(CrossCoreTrace, SetAndWaitRecordFlagModeAndPipe) {
  failHandler() = &throwingHandler;
  auto launch = runCores(KernelMode::MIX_AIC_1_1, [] {
    if (ASCEND_IS_AIC) CrossCoreSetFlag<2, PIPE_FIX>(5);
    if (ASCEND_IS_AIV) CrossCoreWaitFlag<2, PIPE_MTE2>(5);
  });
  failHandler() = nullptr;
  ASSERT_EQ(launch->size(), 2u);
  const Instr* set = findInstr(launch->core(0), "CrossCoreSetFlag");
  const Instr* wait = findInstr(launch->core(1), "CrossCoreWaitFlag");
  ASSERT_NE(set, nullptr);
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(set->crossFlag, 5);
  EXPECT_EQ(set->crossMode, 2);
  EXPECT_EQ(set->pipe, Pipe::FIX);
  EXPECT_EQ(set->cls, OpClass::CoreSync);
  EXPECT_EQ(wait->crossFlag, 5);
  EXPECT_EQ(wait->crossMode, 2);
  EXPECT_EQ(wait->pipe, Pipe::MTE2);
}

TEST(CrossCoreTrace, DefaultWaitIsOnTheScalarPipeAndOtherInstrsHaveNoFlag) {
  failHandler() = &throwingHandler;
  auto launch = runCores(KernelMode::AIV_MODE, [] {
    PipeBarrier<PIPE_ALL>();
    CrossCoreSetFlag<0, PIPE_S>(15);
    CrossCoreWaitFlag(15);
  });
  failHandler() = nullptr;
  const Instr* wait = findInstr(launch->core(0), "CrossCoreWaitFlag");
  const Instr* barrier = findInstr(launch->core(0), "PipeBarrier");
  ASSERT_NE(wait, nullptr);
  ASSERT_NE(barrier, nullptr);
  EXPECT_EQ(wait->pipe, Pipe::S);
  EXPECT_EQ(wait->crossFlag, 15);
  EXPECT_EQ(wait->crossMode, 0);
  EXPECT_EQ(barrier->crossFlag, -1);
}

TEST(CrossCoreTrace, TraceLineCarriesXfAndXm) {
  Instr in;
  in.name = "CrossCoreSetFlag";
  in.file = "k.cpp";
  in.line = 7;
  in.pipe = Pipe::FIX;
  in.cls = OpClass::CoreSync;
  in.crossFlag = 3;
  in.crossMode = 2;
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  writeTraceLine(f, 4, in);
  std::rewind(f);
  char buf[512] = {};
  ASSERT_NE(std::fgets(buf, sizeof buf, f), nullptr);
  std::fclose(f);
  EXPECT_EQ(std::string(buf),
            "{\"i\":4,\"p\":\"FIX\",\"c\":\"core_sync\",\"n\":\"CrossCoreSetFlag\",\"f\":\"k.cpp\",\"l\":7,\"dt\":0,"
            "\"rep\":0,\"el\":0,\"by\":0,\"bu\":0,\"bl\":0,\"ga\":0,\"src\":\"-\",\"dst\":\"-\",\"m\":0,\"k\":0,"
            "\"nn\":0,\"ev\":-1,\"tok\":0,\"xf\":3,\"xm\":2,\"gb\":0,\"go\":0,\"gl\":0,\"gs\":0,\"gn\":0,"
            "\"gi\":0,\"l2b\":0,\"aw\":0,\"aw2\":0}\n");
}

// A wait ignores its mode (wait_flag_dev): the default CrossCoreWaitFlag(id) pairs with an AIC's mode-2 set.
TEST(CrossCoreFlags, DefaultWaitPairsWithAnAicModeTwoSet) {
  failHandler() = &throwingHandler;
  std::vector<int> order;
  runCores(KernelMode::MIX_MODE, [&] {
    if (ASCEND_IS_AIV) {
      CrossCoreWaitFlag(3);
      order.push_back(static_cast<int>(GetSubBlockIdx()) + 1);
    } else {
      order.push_back(0);
      CrossCoreSetFlag<2, PIPE_FIX>(3);
    }
  });
  failHandler() = nullptr;
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
}

// Mode 2 from the AIVs raises the AIC's flag once both AIVs of its block have set it.
TEST(CrossCoreFlags, AicModeTwoWaitNeedsBothAivs) {
  failHandler() = &throwingHandler;
  std::vector<int> order;
  runCores(KernelMode::MIX_MODE, [&] {
    if (ASCEND_IS_AIC) {
      CrossCoreWaitFlag<2, PIPE_S>(1);
      order.push_back(0);
    } else {
      order.push_back(static_cast<int>(GetSubBlockIdx()) + 1);
      CrossCoreSetFlag<2, PIPE_MTE3>(1);
    }
  });
  failHandler() = nullptr;
  EXPECT_EQ(order, (std::vector<int>{1, 2, 0}));
}

TEST(CrossCoreFlags, AWaitNoSetReachesIsADeadlock) {
  failHandler() = &throwingHandler;
  std::string msg = checkMessage([] {
    runCores(KernelMode::MIX_AIC_1_1, [] {
      if (ASCEND_IS_AIC) CrossCoreSetFlag<2, PIPE_FIX>(5);
      if (ASCEND_IS_AIV) CrossCoreWaitFlag(6);
    });
  });
  failHandler() = nullptr;
  currentLaunch() = nullptr;
  EXPECT_EQ(msg,
            "deadlock: core 1 (AIV, block 0) waits for cross-core flag 6, but no running core can set it (1 of 2 "
            "cores finished); hint: a CrossCoreSetFlag with the same id must reach this core (mode 0: from every "
            "core of its kind, 1: from the other AIV of its block, 2: from the other kind in its block)");
}

TEST(CrossCoreFlags, ModeOutOfRange) {
  failHandler() = &throwingHandler;
  std::string msg = checkMessage([] { runCores(KernelMode::AIV_MODE, [] { CrossCoreSetFlag<3, PIPE_S>(1); }); });
  failHandler() = nullptr;
  currentLaunch() = nullptr;
  EXPECT_EQ(msg, "CrossCoreSetFlag mode 3; modes are 0, 1 and 2");
}

}  // namespace
}  // namespace tcemu::testing
