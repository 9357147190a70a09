// The faults a kernel may hold and still pass on the device (emu/base.h raiseFault): errors by default, and under
// setFaultsAsWarnings(true) (`project run --faults warn`) a warning once per call site while the run goes on.
#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::Gm;

namespace {

class FaultsTest : public tcemu::testing::EmuTest {
 protected:
  void SetUp() override {
    EmuTest::SetUp();
    pipe_.InitBuffer(pipeBuffer_, 512);  // two 64-float halves, a and b
  }
  void TearDown() override {
    tcemu::setFaultsAsWarnings(false);
    EmuTest::TearDown();
  }
  // Runs fn with faults as warnings and returns what it printed to stderr.
  template <typename Fn>
  std::string warnings(Fn&& fn) {
    tcemu::setFaultsAsWarnings(true);
    ::testing::internal::CaptureStderr();
    fn();
    std::string text = ::testing::internal::GetCapturedStderr();
    tcemu::setFaultsAsWarnings(false);
    return text;
  }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> pipeBuffer_;
  static int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }
};

// The scalar write then vector read with no S_V: an error, or a warning with the pipes ordered as written.
void scalarThenVector(LocalTensor<float> a, LocalTensor<float> b) {
  for (int i = 0; i < 64; ++i) a.SetValue(i, static_cast<float>(i));
  Adds(b, a, 1.0f, 64);
}

TEST_F(FaultsTest, AHazardRunsInProgramOrderWithOneWarningPerCallSite) {
  LocalTensor<float> a = pipeBuffer_.Get<float>(64);
  LocalTensor<float> b = pipeBuffer_.GetWithOffset<float>(64, 256);
  EXPECT_EQ(checkMessage([&] { scalarThenVector(a, b); }).rfind("cross-pipe hazard: Adds src on pipe V", 0), 0u);
  std::string text = warnings([&] {
    for (int round = 0; round < 3; ++round) scalarThenVector(a, b);
  });
  // Two call sites, each warned once over the three rounds: Adds reading what SetValue wrote, and from the second
  // round on, SetValue overwriting what Adds still reads.
  EXPECT_EQ(count(text, ": warning: cross-pipe hazard: Adds src on pipe V reads data that SetValue on pipe S wrote"), 1)
      << text;
  EXPECT_EQ(count(text, ": warning: cross-pipe hazard: SetValue on pipe S overwrites data that Adds on pipe V"), 1)
      << text;
  EXPECT_EQ(count(text, ": warning: "), 2) << text;
  EXPECT_NE(text.find(": note: SetValue on pipe S is here"), std::string::npos) << text;
  SetFlag<HardEvent::V_S>(0);
  WaitFlag<HardEvent::V_S>(0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(b.GetValue(i), i + 1.0f) << i;
}

TEST_F(FaultsTest, AReadOfUnwrittenUbReadsWhatTheBufferHolds) {
  LocalTensor<float> a = pipeBuffer_.Get<float>(64);
  LocalTensor<float> b = pipeBuffer_.GetWithOffset<float>(64, 256);
  Duplicate(a, 2.0f, 32);  // the upper half of a stays unwritten
  std::string msg = checkMessage([&] { Muls(b, a, 0.0f, 64); });
  EXPECT_EQ(msg.rfind("Muls src reads UB bytes [0, 256) that nothing wrote: byte 128 (128 into the operand)", 0), 0u)
      << msg;
  std::string text = warnings([&] { Muls(b, a, 0.0f, 64); });
  EXPECT_NE(text.find("faults_test.cpp:"), std::string::npos) << text;
  EXPECT_NE(text.find(": warning: Muls src reads UB bytes [0, 256) that nothing wrote"), std::string::npos) << text;
  SetFlag<HardEvent::V_S>(0);
  WaitFlag<HardEvent::V_S>(0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(b.GetValue(i), 0.0f) << i;  // the stale lanes, times 0
}

TEST_F(FaultsTest, AGmAccessInsideTheAllocationsBlockWarnsAndPastItStaysAnError) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> t = buf.Get<float>();
  Gm<float> x(40);  // 160 bytes, in a 512-byte block
  Duplicate(t, 1.0f, 256);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  const std::string past = "DataCopy dst accesses global memory 32 bytes past the end of a 160-byte GmAlloc allocation";
  std::string msg = checkMessage([&] { DataCopy(x.t_[40], t, 8); });
  EXPECT_EQ(msg.rfind(past, 0), 0u) << msg;
  std::string text = warnings([&] { DataCopy(x.t_[40], t, 8); });
  EXPECT_NE(text.find(": warning: " + past + " (bytes [160, 192) of it)"), std::string::npos) << text;
  tcemu::setFaultsAsWarnings(true);
  // [0, 1024) of the 160 bytes ends past the 512-byte block: other data on the device, an error still.
  msg = checkMessage([&] { DataCopy(x.t_, t, 256); });
  EXPECT_EQ(msg.rfind("DataCopy dst reads or writes global memory bytes [0, 1024) of a 160-byte GmAlloc allocation: "
                      "864 bytes out of bounds",
                      0),
            0u)
      << msg;
}

TEST_F(FaultsTest, AnInitBufferOfNoBytesWarns) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> empty, next;
  EXPECT_EQ(checkMessage([&] { pipe.InitBuffer(empty, 0); }), "InitBuffer with a length of 0 bytes");
  TPipe other;
  std::string text = warnings([&] { other.InitBuffer(empty, 0); });
  EXPECT_NE(text.find(": warning: InitBuffer with a length of 0 bytes"), std::string::npos) << text;
  other.InitBuffer(next, 64);
  EXPECT_EQ(next.Get<float>().GetSize(), 16u);
}

TEST_F(FaultsTest, AnAccessPastItsBufferLandsInTheNextAndPastUbStaysAnError) {
  const std::string past = "Adds src accesses UB bytes [0, 512), outside its buffer [0, 256) (256 bytes past the end)";
  TPipe other;
  TBuf<TPosition::VECCALC> small, rest;
  other.InitBuffer(small, 256);  // a's bytes again, now a buffer of their own
  other.InitBuffer(rest, 256);   // b's
  LocalTensor<float> head = small.Get<float>();
  LocalTensor<float> dst = rest.Get<float>();
  Duplicate(head, 1.0f, 64);
  std::string msg = checkMessage([&] { Adds(dst, head, 1.0f, 128); });
  EXPECT_EQ(msg.rfind(past, 0), 0u) << msg;
  std::string text = warnings([&] { Adds(dst, head, 1.0f, 128); });
  EXPECT_NE(text.find(": warning: " + past), std::string::npos) << text;
  EXPECT_EQ(count(text, ": warning: "), 1) << text;  // dst runs past its buffer too: one warning per call site
  SetFlag<HardEvent::V_S>(0);
  WaitFlag<HardEvent::V_S>(0);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(dst.GetValue(i), 2.0f) << i;  // 1 + 1, from the buffer's own half
  tcemu::setFaultsAsWarnings(true);
  // Past the end of UB the device has no memory to land in: an error still.
  uint32_t ubFloats = static_cast<uint32_t>(tcemu::memSize(tcemu::Mem::UB) / sizeof(float));
  msg = checkMessage([&] { Duplicate(head, 0.0f, ubFloats + 64); });
  EXPECT_NE(msg.find("Duplicate dst accesses UB bytes [0, "), std::string::npos) << msg;
}

TEST_F(FaultsTest, AGetOfMoreThanTheBufferHoldsWarns) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> small, next;
  pipe.InitBuffer(small, 64);
  pipe.InitBuffer(next, 64);
  EXPECT_EQ(checkMessage([&] { small.Get<float>(32); }),
            "TBuf::Get(32) of float asks for 128 bytes; the buffer has 64 bytes");
  LocalTensor<float> t;
  std::string text = warnings([&] { t = small.Get<float>(32); });
  EXPECT_NE(text.find(": warning: TBuf::Get(32) of float asks for 128 bytes; the buffer has 64 bytes"),
            std::string::npos)
      << text;
  EXPECT_EQ(t.GetSize(), 32u);
}

}  // namespace
