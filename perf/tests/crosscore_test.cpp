// Cross-core flags in the timeline: a CrossCoreWaitFlag cannot finish before the matching CrossCoreSetFlag of
// the other core(s) fired plus one FFTS hop, a set fires when its own pipe reaches it, and traces without flag ids
// (older emulators) keep the unpaired behaviour.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>

#include "perf/error.h"
#include "perf/timeline.h"
#include "perf/trace.h"

namespace tilecraft::perf {
namespace {

const ArchSpec& arch() {
  static const ArchSpec spec =
      loadArchByName("910b2", std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch");
  return spec;
}

// Trace lines as emu/include/emu/launch.h writes them, with core kinds and the cross-core keys.
class Writer {
 public:
  explicit Writer(int cores, const char* mode = "MIX") {
    out_ += fmt::format("{{\"launch\":1,\"kernel\":\"k\",\"mode\":\"{}\",\"blocks\":1,\"cores\":{}}}\n", mode, cores);
  }
  void core(int index, bool aic, int block, int sub, size_t instrs) {
    out_ += fmt::format("{{\"core\":{},\"kind\":\"{}\",\"block\":{},\"sub\":{},\"instrs\":{}}}\n", index,
                        aic ? "AIC" : "AIV", block, sub, instrs);
    i_ = 0;
  }
  // xf < -1 leaves the cross-core keys out, as older traces do.
  void instr(const char* pipe, const char* cls, const char* name, uint64_t bytes = 0, int xf = -1, int xm = 0,
             const char* src = "-", const char* dst = "-") {
    std::string cross = xf < -1 ? "" : fmt::format(",\"xf\":{},\"xm\":{}", xf, xm);
    out_ += fmt::format(
        "{{\"i\":{},\"p\":\"{}\",\"c\":\"{}\",\"n\":\"{}\",\"f\":\"k.cpp\",\"l\":{},\"dt\":2,\"rep\":{},\"el\":{},"
        "\"by\":{},\"bu\":{},\"bl\":{},\"ga\":0,\"src\":\"{}\",\"dst\":\"{}\",\"m\":0,\"k\":0,\"nn\":0,\"ev\":-1,"
        "\"tok\":0{}}}\n",
        i_, pipe, cls, name, 10 + i_, std::string_view(cls) == "vector" ? 1 : 0, bytes / 2, bytes, bytes ? 1 : 0, bytes,
        src, dst, cross);
    ++i_;
  }
  void copyIn(uint64_t bytes) { instr("MTE2", "dma_in", "DataCopy", bytes, -1, 0, "GM", "UB"); }
  void set(const char* pipe, int xf, int xm) { instr(pipe, "core_sync", "CrossCoreSetFlag", 0, xf, xm); }
  void wait(const char* pipe, int xf, int xm) { instr(pipe, "core_sync", "CrossCoreWaitFlag", 0, xf, xm); }
  void vec() { instr("V", "vector", "Adds"); }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  int i_ = 0;
};

struct Sim {
  TraceFile trace;
  SimulationResult result;
  const TimelineEvent& event(int core, uint32_t i) const {
    for (const TimelineEvent& e : result.launches.at(0).events)
      if (e.core == core && e.instr == i) return e;
    throw std::out_of_range("no such event");
  }
  double end(int core, uint32_t i) const { return event(core, i).start + event(core, i).cycles; }
};

Sim simulateText(const std::string& text) {
  Sim r{parseTrace(text, "test.trace"), {}};
  TimelineOptions options;
  options.keepEvents = true;
  r.result = simulate(r.trace, arch(), options);
  return r;
}

const double kHop = 18;  // one pipe barrier: the FFTS hop estimate (configs/arch/910b2.json sync.pipe_barrier)

TEST(CrossCoreTimeline, WaitEndsAfterTheOtherCoresSetPlusOneHop) {
  ASSERT_DOUBLE_EQ(arch().pipeBarrierCycles, kHop);
  Writer w(2, "MIX_AIC_1_1");
  w.core(0, true, 0, 0, 2);  // AIC: a long copy, then a set on the copy's pipe
  w.copyIn(113000);
  w.set("MTE2", 3, 2);
  w.core(1, false, 0, 0, 2);  // AIV: waits for it, then computes
  w.wait("S", 3, 2);
  w.vec();
  Sim r = simulateText(w.text());
  double copyEnd = r.end(0, 0);
  EXPECT_GT(copyEnd, 1000);
  EXPECT_NEAR(r.event(0, 1).start, copyEnd, 1e-9);  // the set waits for its pipe, not for the whole core
  double fired = r.end(0, 1);
  EXPECT_NEAR(r.event(1, 0).start, fired + kHop, 1e-9);
  EXPECT_NEAR(r.event(1, 1).start, fired + kHop + arch().pipeBarrierCycles, 1e-9);
}

TEST(CrossCoreTimeline, WaitOnAPipeHoldsOnlyThatPipe) {
  Writer w(2, "MIX_AIC_1_1");
  w.core(0, true, 0, 0, 2);
  w.copyIn(113000);
  w.set("MTE2", 1, 2);
  w.core(1, false, 0, 0, 3);
  w.wait("MTE2", 1, 2);  // the MTE2 queue of the AIV waits; the vector pipe does not
  w.copyIn(1130);
  w.vec();
  Sim r = simulateText(w.text());
  double arrive = r.end(0, 1) + kHop;
  EXPECT_NEAR(r.event(1, 0).start, arrive, 1e-9);
  EXPECT_NEAR(r.event(1, 1).start, r.end(1, 0), 1e-9);
  EXPECT_LT(r.event(1, 2).start, 100);
}

TEST(CrossCoreTimeline, ModeZeroWaitNeedsEveryCoreOfItsKind) {
  Writer w(2, "AIV");
  w.core(0, false, 0, 0, 3);
  w.copyIn(113000);  // core 0 sets late
  w.set("MTE2", 7, 0);
  w.wait("S", 7, 0);
  w.core(1, false, 1, 0, 2);
  w.set("S", 7, 0);
  w.wait("S", 7, 0);
  Sim r = simulateText(w.text());
  double late = r.end(0, 1) + kHop;
  EXPECT_NEAR(r.event(0, 2).start, late, 1e-9);
  EXPECT_NEAR(r.event(1, 1).start, late, 1e-9);  // core 1's own early set is not enough
}

TEST(CrossCoreTimeline, AWaitIgnoresItsOwnModeAsOnTheDevice) {
  Writer w(2, "MIX_AIC_1_1");
  w.core(0, true, 0, 0, 2);
  w.copyIn(113000);
  w.set("MTE2", 9, 2);
  w.core(1, false, 0, 0, 1);
  w.wait("S", 9, 0);  // CrossCoreWaitFlag(9): the default mode 0
  Sim r = simulateText(w.text());
  EXPECT_NEAR(r.event(1, 0).start, r.end(0, 1) + kHop, 1e-9);
}

TEST(CrossCoreTimeline, AnAicModeTwoFlagRisesOnlyAfterBothAivsSet) {
  Writer w(3, "MIX");
  w.core(0, true, 0, 0, 1);
  w.wait("S", 4, 2);
  w.core(1, false, 0, 0, 1);
  w.set("S", 4, 2);
  w.core(2, false, 0, 1, 2);
  w.copyIn(113000);
  w.set("MTE2", 4, 2);
  Sim r = simulateText(w.text());
  EXPECT_NEAR(r.event(0, 0).start, r.end(2, 1) + kHop, 1e-9);
}

TEST(CrossCoreTimeline, ModeOneSignalsOnlyTheOtherAivOfTheBlock) {
  Writer w(3, "MIX");
  w.core(0, true, 0, 0, 0);
  w.core(1, false, 0, 0, 2);
  w.copyIn(113000);
  w.set("MTE2", 2, 1);
  w.core(2, false, 0, 1, 1);
  w.wait("S", 2, 1);
  Sim r = simulateText(w.text());
  EXPECT_NEAR(r.event(2, 0).start, r.end(1, 1) + kHop, 1e-9);
}

TEST(CrossCoreTimeline, SuccessiveWaitsConsumeSuccessiveSets) {
  Writer w(2, "MIX_AIC_1_1");
  w.core(0, true, 0, 0, 4);
  w.set("S", 4, 2);  // early
  w.copyIn(113000);
  w.set("MTE2", 4, 2);  // late
  w.instr("S", "scalar", "GetValue");
  w.core(1, false, 0, 0, 2);
  w.wait("S", 4, 2);
  w.wait("S", 4, 2);
  Sim r = simulateText(w.text());
  EXPECT_LT(r.event(1, 0).start, 100);
  EXPECT_NEAR(r.event(1, 1).start, r.end(0, 2) + kHop, 1e-9);
}

TEST(CrossCoreTimeline, TracesWithoutFlagIdsKeepTheUnpairedModel) {
  Writer w(2, "MIX_AIC_1_1");
  w.core(0, true, 0, 0, 2);
  w.copyIn(113000);
  w.instr("MTE2", "core_sync", "CrossCoreSetFlag", 0, -2);
  w.core(1, false, 0, 0, 1);
  w.instr("S", "core_sync", "CrossCoreWaitFlag", 0, -2);
  Sim r = simulateText(w.text());
  EXPECT_NEAR(r.event(0, 1).start, r.end(0, 0), 1e-9);  // drains the core
  EXPECT_LT(r.event(1, 0).start, 100);                  // waits for nothing
}

TEST(CrossCoreTimeline, AWaitNoSetReachesIsReported) {
  Writer w(2, "MIX_AIC_1_1");
  w.core(0, true, 0, 0, 1);
  w.set("FIX", 5, 2);
  w.core(1, false, 0, 0, 1);
  w.wait("S", 6, 2);
  try {
    simulateText(w.text());
    FAIL() << "expected a PerfError";
  } catch (const PerfError& e) {
    EXPECT_EQ(std::string(e.what()),
              "launch 1 (k): core 1 never finishes: it waits forever at instruction 0 (CrossCoreWaitFlag at "
              "k.cpp:10, pipe S, cross-core flag 6, mode 2); the trace's sets and waits do not pair up (was it "
              "written by the emulator?)");
  }
}

TEST(CrossCoreTimeline, BadCrossKeysAreParseErrors) {
  Writer w(1, "AIV");
  w.core(0, false, 0, 0, 1);
  w.set("S", 16, 0);
  try {
    parseTrace(w.text(), "t.trace");
    FAIL() << "expected a PerfError";
  } catch (const PerfError& e) {
    EXPECT_EQ(std::string(e.what()), "t.trace:3: key 'xf' is 16, not a cross-core flag id (-1 to 15)");
  }
  Writer m(1, "AIV");
  m.core(0, false, 0, 0, 1);
  m.set("S", 1, 3);
  try {
    parseTrace(m.text(), "t.trace");
    FAIL() << "expected a PerfError";
  } catch (const PerfError& e) {
    EXPECT_EQ(std::string(e.what()), "t.trace:3: key 'xm' is 3, not a cross-core mode (0 to 2)");
  }
}

// The emulator's trace of emu/conformance/mix_handoff.cpp (3 blocks of 1 AIC + 2 AIV): every AIV's wait ends
// after its own block's AIC set fired, and the AIC's wait for the AIVs' mode-2 sets after both of them.
TEST(CrossCoreTimeline, RecordedMixKernelPairsEachBlocksHandoff) {
  TraceFile trace = loadTrace(std::string(TILECRAFT_TIMELINE_TRACES) + "/mix_handoff.jsonl");
  TimelineOptions options;
  options.keepEvents = true;
  SimulationResult r = simulate(trace, arch(), options);
  const TraceLaunch& l = trace.launches.at(0);
  ASSERT_EQ(l.cores.size(), 9u);
  auto find = [&](size_t core, const char* name) -> const TimelineEvent& {
    for (const TimelineEvent& e : r.launches.at(0).events) {
      if (static_cast<size_t>(e.core) != core) continue;
      const TraceInstr& in = l.cores[core].instrs[e.instr];
      if (trace.names[in.name] == name) return e;
    }
    throw std::out_of_range(name);
  };
  int checked = 0;
  for (size_t c = 0; c < l.cores.size(); ++c) {
    if (!l.cores[c].aic) continue;
    const TimelineEvent& set = find(c, "CrossCoreSetFlag");
    const TimelineEvent& wait = find(c, "CrossCoreWaitFlag");
    double latestVectorSet = 0;
    for (size_t v = 0; v < l.cores.size(); ++v) {
      if (l.cores[v].aic || l.cores[v].block != l.cores[c].block) continue;
      EXPECT_GE(find(v, "CrossCoreWaitFlag").start, set.start + set.cycles + kHop - 1e-9) << "AIV core " << v;
      const TimelineEvent& vs = find(v, "CrossCoreSetFlag");
      latestVectorSet = std::max(latestVectorSet, vs.start + vs.cycles);
      ++checked;
    }
    EXPECT_NEAR(wait.start, latestVectorSet + kHop, 1e-9) << "AIC core " << c;
  }
  EXPECT_EQ(checked, 6);
}

}  // namespace
}  // namespace tilecraft::perf
