// Emulator behaviour fixed because a conformance kernel (emu/conformance/) needed it: TQueBind EnQue/DeQue with
// explicit <src, dst> user positions, and the high-level math APIs of hl_math2.h.
#include <cmath>
#include <functional>
#include <list>

#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

class UserPositionQueueTest : public EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    gm_ = static_cast<float*>(GmAlloc(64 * sizeof(float)));
    for (int i = 0; i < 64; ++i) gm_[i] = static_cast<float>(i) - 20.0f;
    xGm_.SetGlobalBuffer(gm_, 64);
    pipe_.InitBuffer(que_, 1, 64 * sizeof(float));
  }
  void TearDown() override {
    GmFree(gm_);
    EmuTest::TearDown();
  }
  float* gm_ = nullptr;
  GlobalTensor<float> xGm_;
  TPipe pipe_;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que_;
};

// The bound queue's own hand-over is MTE2 -> MTE3; naming GM -> VECIN makes it MTE2 -> V, so an in-place vector
// op between the copies is ordered, and VECOUT -> GM orders it before the copy-out.
TEST_F(UserPositionQueueTest, NamedPositionsOrderAVectorOpBetweenTheCopies) {
  LocalTensor<float> t = que_.AllocTensor<float>();
  DataCopy(t, xGm_, 64);
  que_.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
  t = que_.DeQue<TPosition::GM, TPosition::VECIN, float>();
  Relu(t, t, 64);
  que_.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
  t = que_.DeQue<TPosition::VECOUT, TPosition::GM, float>();
  DataCopy(xGm_, t, 64);
  que_.FreeTensor(t);
  PipeBarrier<PIPE_ALL>();
  for (int i = 0; i < 64; ++i) EXPECT_EQ(gm_[i], std::fmax(static_cast<float>(i) - 20.0f, 0.0f)) << i;
}

// Without positions the same sequence is a real race (the device syncs MTE2 -> MTE3 only).
TEST_F(UserPositionQueueTest, ThePlainFormsLeaveTheVectorOpUnordered) {
  LocalTensor<float> t = que_.AllocTensor<float>();
  DataCopy(t, xGm_, 64);
  que_.EnQue(t);
  t = que_.DeQue<float>();
  std::string msg = checkMessage([&] { Relu(t, t, 64); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: Relu src on pipe V reads data that DataCopy on pipe MTE2 wrote", 0), 0u)
      << msg;
}

TEST_F(UserPositionQueueTest, DeQueMustNameTheEnQuePositions) {
  LocalTensor<float> t = que_.AllocTensor<float>();
  DataCopy(t, xGm_, 64);
  que_.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
  EXPECT_EQ(checkMessage([&] { que_.DeQue<TPosition::VECOUT, TPosition::GM, float>(); }),
            "DeQue<src, dst> waits on event V_MTE3 but the EnQue<src, dst> that queued this tensor set MTE2_V; hint: "
            "give EnQue and DeQue the same <src, dst> positions, or use neither");
  EXPECT_EQ(checkMessage([&] { que_.DeQue<float>(); }),
            "DeQue waits on event MTE2_MTE3 but the EnQue<src, dst> that queued this tensor set MTE2_V; hint: give "
            "EnQue and DeQue the same <src, dst> positions, or use neither");
  que_.DeQue<TPosition::GM, TPosition::VECIN, float>();
}

class HighLevelMath2Test : public EmuTest {
 protected:
  template <typename T>
  LocalTensor<T> filled(const std::vector<double>& v) {
    bufs_.emplace_back();
    pipe_.InitBuffer(bufs_.back(), 1024);
    LocalTensor<T> t = bufs_.back().template Get<T>();
    for (size_t i = 0; i < v.size(); ++i) t.SetValue(static_cast<uint32_t>(i), static_cast<T>(v[i]));
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    return t;
  }
  template <typename T>
  LocalTensor<T> empty() {
    bufs_.emplace_back();
    pipe_.InitBuffer(bufs_.back(), 1024);
    return bufs_.back().template Get<T>();
  }
  template <typename T>
  T read(const LocalTensor<T>& t, uint32_t i) {
    return t.GetPhyAddr()[i];
  }
  TPipe pipe_;
  std::list<TBuf<TPosition::VECCALC>> bufs_;
};

TEST_F(HighLevelMath2Test, CeilAndFracAreExact) {
  std::vector<double> in = {2.0, -2.5, 0.25, -0.75, 1e7 + 0.5, -3.0, 7.875, -0.0};
  in.resize(8);
  LocalTensor<float> x = filled<float>(in);
  LocalTensor<float> c = empty<float>(), f = empty<float>();
  Ceil(c, x, 8);
  Frac(f, x, 8);
  for (uint32_t i = 0; i < 8; ++i) {
    const float v = static_cast<float>(in[i]);
    EXPECT_EQ(read(c, i), std::ceil(v)) << i;
    EXPECT_EQ(read(f, i), v - std::trunc(v)) << i;
  }
}

TEST_F(HighLevelMath2Test, TaylorExpIsTheTemplatedForm) {
  LocalTensor<half> x = filled<half>({0.0, 1.0, -2.0, 0.5, 3.0, -0.25, 2.0, 1.5, 0, 0, 0, 0, 0, 0, 0, 0});
  LocalTensor<half> y = empty<half>();
  Exp<half, 2>(y, x, 16);
  for (uint32_t i = 0; i < 8; ++i) {
    const float want = static_cast<float>(half(std::exp(static_cast<float>(read(x, i)))));
    EXPECT_EQ(static_cast<float>(read(y, i)), want) << i;
  }
}

TEST_F(HighLevelMath2Test, XorIsBitwiseOnInt16) {
  LocalTensor<int16_t> a = filled<int16_t>({1, -1, 0x7f00, 12345, 0, -32768, 255, 3, 0, 0, 0, 0, 0, 0, 0, 0});
  LocalTensor<int16_t> b = filled<int16_t>({3, 0x00ff, 0x0ff0, -12345, 0, 1, 255, 5, 0, 0, 0, 0, 0, 0, 0, 0});
  LocalTensor<int16_t> d = empty<int16_t>();
  Xor(d, a, b, 16);
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(read(d, i), static_cast<int16_t>(read(a, i) ^ read(b, i))) << i;
}

TEST_F(HighLevelMath2Test, XorRejectsFloat) {
  LocalTensor<float> a = filled<float>({1, 2, 3, 4, 5, 6, 7, 8});
  LocalTensor<float> d = empty<float>();
  EXPECT_EQ(checkMessage([&] { Xor(d, a, a, 8); }),
            "Xor does not support float on 910B (supported: int16_t, uint16_t)");
}

TEST_F(HighLevelMath2Test, InverseTrigAndHyperbolicFollowLibm) {
  LocalTensor<float> x = filled<float>({0.5, -0.25, 0.9, -0.9, 0.0, 0.1, 0.75, -0.5});
  LocalTensor<float> y = empty<float>();
  struct Case {
    const char* name;
    double (*ref)(double);
  };
  const std::vector<std::pair<Case, std::function<void()>>> cases = {
      {{"Asin", std::asin}, [&] { Asin(y, x, 8); }},    {{"Acos", std::acos}, [&] { Acos(y, x, 8); }},
      {{"Atan", std::atan}, [&] { Atan(y, x, 8); }},    {{"Tan", std::tan}, [&] { Tan(y, x, 8); }},
      {{"Sinh", std::sinh}, [&] { Sinh(y, x, 8); }},    {{"Cosh", std::cosh}, [&] { Cosh(y, x, 8); }},
      {{"Asinh", std::asinh}, [&] { Asinh(y, x, 8); }}, {{"Atanh", std::atanh}, [&] { Atanh(y, x, 8); }},
      {{"Erfc", std::erfc}, [&] { Erfc(y, x, 8); }}};
  for (const auto& [c, run] : cases) {
    run();
    for (uint32_t i = 0; i < 8; ++i) {
      const double want = c.ref(static_cast<double>(read(x, i)));
      EXPECT_NEAR(read(y, i), want, 2e-7 * std::fmax(1.0, std::fabs(want))) << c.name << " " << i;
    }
  }
}

}  // namespace

namespace {

class DebugMacroTest : public EmuTest {};

TEST_F(DebugMacroTest, AscendcAssertRunsItsBehaviourThenFailsAtTheKernelLine) {
  int logged = 0;
  int value = 7;
  int line = 0;
  try {
    line = TCEMU_LINE_OF_NEXT();
    ASCENDC_ASSERT(value < 5, { ++logged; });
    ADD_FAILURE() << "ASCENDC_ASSERT did not fail";
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.message, "ASCENDC_ASSERT(value < 5) failed");
    EXPECT_EQ(e.loc.line, line);
  }
  EXPECT_EQ(logged, 1);
  ASCENDC_ASSERT(value > 5, { ++logged; });  // holds: the behaviour does not run
  EXPECT_EQ(logged, 1);
}

TEST_F(DebugMacroTest, KernelLogPrintsLevelBlockAndPlace) {
  ::testing::internal::CaptureStdout();
  const int line = TCEMU_LINE_OF_NEXT();
  KERNEL_LOG(KERNEL_WARN, "tile %d of %d", 3, 8);
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "[WARN][Block_-1][conformance_fix_test.cpp:" + std::to_string(line) + "] tile 3 of 8\n");
}

}  // namespace
