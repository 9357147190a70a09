// The timeline simulator's rules on small hand-written traces in the emulator's format: costs, in-order pipes,
// set/wait pairing, barriers, SyncAll, HBM sharing between cores, the L2 paths, the reports and the CLI logic.
// Whole kernels recorded by the emulator: timeline_kernels_test.cpp.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perf/chrome_trace.h"
#include "perf/error.h"
#include "perf/l2_residency.h"
#include "perf/timeline.h"
#include "perf/timeline_command.h"
#include "perf/trace.h"

namespace tilecraft::perf {
namespace {

std::filesystem::path archDir() { return std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch"; }
const ArchSpec& arch() {
  static const ArchSpec spec = loadArchByName("910b2", archDir());
  return spec;
}

// Writes trace lines exactly as emu/include/emu/launch.h does.
class TraceWriter {
 public:
  void launch(const std::string& kernel, int cores) {
    out_ += fmt::format("{{\"launch\":{},\"kernel\":\"{}\",\"mode\":\"AIV\",\"blocks\":{},\"cores\":{}}}\n",
                        ++launches_, kernel, cores, cores);
  }
  void core(int index, size_t instrs) {
    out_ +=
        fmt::format("{{\"core\":{},\"kind\":\"AIV\",\"block\":{},\"sub\":0,\"instrs\":{}}}\n", index, index, instrs);
    i_ = 0;
  }
  struct Instr {
    const char* pipe;
    const char* cls;
    const char* name;
    uint64_t bytes = 0;
    uint32_t repeats = 0;
    uint32_t token = 0;
    const char* src = "-";
    const char* dst = "-";
    uint32_t gmAlign = 0;
    uint32_t gmBlock = 0;  // with a buffer: one access of all the bytes from gmOffset (keys gb .. l2b)
    uint64_t gmOffset = 0;
    bool l2Bypass = false;
    uint32_t after = 0;  // key aw: an auto-sync dependency (index + 1)
  };
  void instr(const Instr& in) {
    std::string footprint = in.gmBlock == 0
                                ? ""
                                : fmt::format(",\"gb\":{},\"go\":{},\"gl\":{},\"gs\":0,\"gn\":1,\"gi\":0,\"l2b\":{}",
                                              in.gmBlock, in.gmOffset, in.bytes, in.l2Bypass ? 1 : 0);
    if (in.after) footprint += fmt::format(",\"aw\":{}", in.after);
    out_ += fmt::format(
        "{{\"i\":{},\"p\":\"{}\",\"c\":\"{}\",\"n\":\"{}\",\"f\":\"k.cpp\",\"l\":{},\"dt\":2,\"rep\":{},\"el\":{},"
        "\"by\":{},\"bu\":{},\"bl\":{},\"ga\":{},\"src\":\"{}\",\"dst\":\"{}\",\"m\":0,\"k\":0,\"nn\":0,\"ev\":-1,"
        "\"tok\":{}{}}}\n",
        i_, in.pipe, in.cls, in.name, 10 + i_, in.repeats, in.bytes / 2, in.bytes, in.bytes ? 1 : 0, in.bytes,
        in.gmAlign, in.src, in.dst, in.token, footprint);
    ++i_;
  }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  int launches_ = 0;
  int i_ = 0;
};

using I = TraceWriter::Instr;
I copyIn(uint64_t bytes, uint32_t gmAlign = 0) {
  return I{"MTE2", "dma_in", "DataCopy", bytes, 0, 0, "GM", "UB", gmAlign};
}
I copyOut(uint64_t bytes) { return I{"MTE3", "dma_out", "DataCopy", bytes, 0, 0, "UB", "GM"}; }
I set(const char* pipe, uint32_t token) { return I{pipe, "set_flag", "EnQue", 0, 0, token}; }
I wait(const char* pipe, uint32_t token) { return I{pipe, "wait_flag", "DeQue", 0, 0, token}; }
I vec(const char* name, uint32_t repeats) { return I{"V", "vector", name, 0, repeats}; }

struct Simulated {
  TraceFile trace;
  SimulationResult result;
  const LaunchProfile& launch() const { return result.launches.at(0); }
  // The event of instruction `i` of core `core`.
  const TimelineEvent& event(int core, uint32_t i) const {
    for (const TimelineEvent& e : launch().events)
      if (e.core == core && e.instr == i) return e;
    throw std::out_of_range("no such event");
  }
};

Simulated run(const std::string& text, bool l2Bypass = false) {
  Simulated r{parseTrace(text, "test.trace"), {}};
  TimelineOptions options;
  options.keepEvents = true;
  options.l2BypassReads = l2Bypass;
  r.result = simulate(r.trace, arch(), options);
  return r;
}

double stagger() { return arch().coreDispatchIntervalS * arch().clockHz; }

TEST(Timeline, WaitStartsAfterItsSetAndPipesOverlap) {
  TraceWriter w;
  w.launch("k", 1);
  w.core(0, 5);
  w.instr(copyIn(11300));  // 200 start-up + 11300 B / 113 B per cycle = 300 cycles
  w.instr(set("MTE2", 1));
  w.instr(vec("Muls", 10));  // independent of the copy: runs at once
  w.instr(wait("V", 1));
  w.instr(vec("Add", 10));
  Simulated r = run(w.text());
  EXPECT_DOUBLE_EQ(r.event(0, 0).start, 0);
  EXPECT_NEAR(r.event(0, 0).cycles, 300, 1e-9);
  EXPECT_NEAR(r.event(0, 1).start, 300, 1e-9);  // the set fires when the copy is done
  EXPECT_DOUBLE_EQ(r.event(0, 2).start, 2);     // issued third, one instruction per cycle
  EXPECT_DOUBLE_EQ(r.event(0, 2).cycles, 22 + 10 * 1.0);
  EXPECT_NEAR(r.event(0, 3).start, 301, 1e-9);  // the wait ends after the set
  EXPECT_NEAR(r.event(0, 4).start, 302, 1e-9);
  EXPECT_DOUBLE_EQ(r.event(0, 4).cycles, 22 + 10 * 2.0);  // fixed cost + repeats at the measured binary rate
  EXPECT_EQ(r.launch().bottleneck, "MTE2");
  // The wait's blocked time is not busy time.
  EXPECT_DOUBLE_EQ(r.launch().cores[0].busy[static_cast<size_t>(TracePipe::V)], 32 + 1 + 42);
}

TEST(Timeline, UnalignedGmBurstsMoveAtSeventyPercent) {
  TraceWriter w;
  w.launch("k", 1);
  w.core(0, 2);
  w.instr(copyIn(11300));
  w.instr(copyIn(11300, 256));
  Simulated r = run(w.text());
  EXPECT_NEAR(r.event(0, 0).cycles, 300, 1e-9);
  EXPECT_NEAR(r.event(0, 1).cycles, 200 + 100 / 0.7, 1e-9);
  EXPECT_NEAR(r.event(0, 1).start, 300, 1e-9);  // one pipe runs one copy at a time
}

TEST(Timeline, PipeAllBarrierDrainsEveryPipeBeforeIssueGoesOn) {
  TraceWriter w;
  w.launch("k", 1);
  w.core(0, 3);
  w.instr(copyIn(11300));
  w.instr(I{"ALL", "barrier", "PipeBarrier"});
  w.instr(vec("Adds", 1));
  Simulated r = run(w.text());
  EXPECT_NEAR(r.event(0, 1).start, 300, 1e-9);
  EXPECT_EQ(r.event(0, 1).pipe, static_cast<int>(TracePipe::S));
  EXPECT_NEAR(r.event(0, 2).start, 300 + arch().pipeBarrierCycles, 1e-9);
}

TEST(Timeline, WaitOnTheScalarPipeStallsIssue) {
  TraceWriter w;
  w.launch("k", 1);
  w.core(0, 4);
  w.instr(copyIn(11300));
  w.instr(set("MTE2", 1));
  w.instr(wait("S", 1));  // e.g. MTE2_S before a GetValue
  w.instr(vec("Adds", 1));
  Simulated r = run(w.text());
  EXPECT_NEAR(r.event(0, 2).start, 301, 1e-9);
  EXPECT_NEAR(r.event(0, 3).start, 302, 1e-9);  // issued only after the wait
}

TEST(Timeline, AnAutoSyncDependencyStartsAfterTheInstructionItNames) {
  TraceWriter w;
  w.launch("k", 1);
  w.core(0, 4);
  w.instr(copyIn(11300));  // 300 cycles
  I adds = vec("Adds", 1);
  adds.after = 1;  // reads what the copy wrote
  w.instr(adds);
  w.instr(vec("Muls", 1));  // behind Adds on its in-order pipe
  I get{"S", "scalar", "GetValue"};
  get.after = 2;  // reads what Adds wrote: issue stalls
  w.instr(get);
  Simulated r = run(w.text());
  EXPECT_NEAR(r.event(0, 1).start, 300, 1e-9);
  EXPECT_NEAR(r.event(0, 2).start, r.event(0, 1).start + r.event(0, 1).cycles, 1e-9);
  EXPECT_NEAR(r.event(0, 3).start, r.event(0, 1).start + r.event(0, 1).cycles, 1e-9);
}

TEST(Timeline, SyncAllJoinsTheCores) {
  TraceWriter w;
  w.launch("k", 2);
  w.core(0, 3);
  w.instr(copyIn(113000));  // long, on core 0 only
  w.instr(I{"S", "core_sync", "SyncAll"});
  w.instr(vec("Adds", 1));
  w.core(1, 2);
  w.instr(I{"S", "core_sync", "SyncAll"});
  w.instr(vec("Adds", 1));
  Simulated r = run(w.text());
  double copyEnd = r.event(0, 0).start + r.event(0, 0).cycles;
  EXPECT_NEAR(r.event(0, 1).start, copyEnd, 1e-9);
  EXPECT_NEAR(r.event(1, 1).start, copyEnd + arch().pipeBarrierCycles, 1e-9);
  EXPECT_NEAR(r.event(1, 0).start, stagger(), 1e-9);  // block 1 starts one dispatch interval after block 0
}

TEST(Timeline, CoresShareHbmAndEachIsCappedByItsOwnPeak) {
  // One core reads 4 MiB at its own peak; 48 cores reading 4 MiB each saturate HBM's read path through L2.
  constexpr uint64_t kBytes = 4 << 20;
  auto device = [&](int cores, bool bypass) {
    TraceWriter w;
    w.launch("k", cores);
    for (int c = 0; c < cores; ++c) {
      w.core(c, 1);
      w.instr(copyIn(kBytes));
    }
    return run(w.text(), bypass).launch();
  };
  EXPECT_NEAR(device(1, false).deviceS * arch().clockHz, arch().mte2Startup + kBytes / arch().mte2GmUbBw, 1e-6);
  LaunchProfile viaL2 = device(48, false), bypass = device(48, true);
  double viaL2Bw = arch().hbmStreamBw * arch().l2AllocateReadFactor;
  // The stream starts after one start-up and the dispatch of the last core; the ends differ by the stagger.
  double startup = (arch().mte2Startup + 47 * stagger()) / arch().clockHz;
  EXPECT_NEAR(viaL2.deviceS, 48.0 * kBytes / viaL2Bw, startup);
  EXPECT_NEAR(bypass.deviceS, 48.0 * kBytes / arch().hbmStreamBw, startup);
  EXPECT_GT(viaL2.hbmSaturatedS, 0.9 * viaL2.deviceS);
  EXPECT_FALSE(viaL2.l2BypassReads);
  EXPECT_TRUE(bypass.l2BypassReads);
}

// Reads from GM buffer 1: 48 cores each reading `bytes` at their own offset (disjoint) or all at offset 0.
LaunchProfile sharedOrDisjointReads(uint64_t bytes, bool shared, bool hinted) {
  TraceWriter w;
  w.launch("k", 48);
  for (int c = 0; c < 48; ++c) {
    w.core(c, 1);
    I in = copyIn(bytes);
    in.gmBlock = 1;
    in.gmOffset = shared ? 0 : c * bytes;
    in.l2Bypass = hinted;
    w.instr(in);
  }
  return run(w.text()).launch();
}

TEST(Timeline, ReadsOfBytesL2HoldsComeFromL2) {
  // hardware.md §3.3: a cached read of a small footprint streams at L2's 4.6 TB/s; bytes read the first time
  // come through the allocating path at 920 GB/s.
  constexpr uint64_t kBytes = 1 << 20;
  LaunchProfile disjoint = sharedOrDisjointReads(kBytes, false, false);
  LaunchProfile shared = sharedOrDisjointReads(kBytes, true, false);
  EXPECT_EQ(disjoint.l2HitBytes, 0);
  // The first core to start reads the megabyte from HBM; the 47 others find it held.
  EXPECT_EQ(shared.l2HitBytes, 47.0 * kBytes);
  double startup = (arch().mte2Startup + 47 * stagger()) / arch().clockHz;
  EXPECT_NEAR(disjoint.deviceS, 48.0 * kBytes / (arch().hbmStreamBw * arch().l2AllocateReadFactor), startup);
  // 47 MiB through L2, shared max-min fairly, while the first core's miss runs at its own peak.
  EXPECT_NEAR(shared.deviceS, std::max(47.0 * kBytes / arch().l2Bw, kBytes / (arch().mte2GmUbBw * arch().clockHz)),
              startup);
  EXPECT_LT(shared.deviceS, disjoint.deviceS / 3);
  std::string text = renderProfile(SimulationResult{{shared}, shared.totalS}, "910b2");
  EXPECT_NE(text.find("GM: 50331648 B read (49283072 B of it held in L2), 0 B written"), std::string::npos) << text;
}

TEST(Timeline, AReadHintedAroundL2StreamsAtTheBypassRateAndIsNotHeld) {
  constexpr uint64_t kBytes = 1 << 20;
  LaunchProfile hinted = sharedOrDisjointReads(kBytes, false, true);
  double startup = (arch().mte2Startup + 47 * stagger()) / arch().clockHz;
  EXPECT_NEAR(hinted.deviceS, 48.0 * kBytes / arch().hbmStreamBw, startup);
  EXPECT_EQ(hinted.bypassReadBytes, 48.0 * kBytes);
  std::string text = renderProfile(SimulationResult{{hinted}, hinted.totalS}, "910b2");
  EXPECT_NE(text.find("reads around L2 (SetL2CacheHint), writes absorbed by L2"), std::string::npos) << text;
  // Nothing read around L2 is kept there: the same megabyte read by every core is 48 misses.
  EXPECT_EQ(sharedOrDisjointReads(kBytes, true, true).l2HitBytes, 0);
}

TEST(L2Residency, HoldsLinesUntilItsCapacityAndNothingWithoutAFootprint) {
  L2Residency l2(1024, 128);  // 8 lines
  TraceInstr in;
  in.gmBlock = 3;
  in.gmTouches = 2;
  in.gmLen = 256;
  in.gmStride = 512;  // lines 0-1 and 4-5
  EXPECT_EQ(l2.touch(in), 0);
  EXPECT_EQ(l2.touch(in), 1);
  EXPECT_EQ(l2.heldBytes(), 512);
  in.gmOffset = 128;  // lines 1-2 and 5-6: half held
  EXPECT_EQ(l2.touch(in), 0.5);
  TraceInstr wide;
  wide.gmBlock = 4;
  wide.gmTouches = 1;
  wide.gmLen = 1024;  // 8 lines of another buffer; 2 fit
  EXPECT_EQ(l2.touch(wide), 0);
  EXPECT_EQ(l2.heldBytes(), 1024);
  EXPECT_EQ(l2.touch(wide), 0.25);
  wide.gmIrregular = true;
  EXPECT_EQ(l2.touch(wide), 0);
  EXPECT_FALSE(hasFootprint(wide));
}

TEST(Timeline, WritesBeyondL2ShareHbmWithTheReads) {
  // 48 cores each write 2 MiB (fits L2: absorbed at L2 bandwidth) or 8 MiB (384 MiB > 192 MiB: HBM).
  auto device = [&](uint64_t bytes) {
    TraceWriter w;
    w.launch("k", 48);
    for (int c = 0; c < 48; ++c) {
      w.core(c, 1);
      w.instr(copyOut(bytes));
    }
    return run(w.text()).launch();
  };
  LaunchProfile small = device(2 << 20), large = device(8 << 20);
  EXPECT_TRUE(small.writesInL2);
  EXPECT_FALSE(large.writesInL2);
  // 48 x 66 B/cycle of MTE3 is more than L2 takes, so the small case runs at L2 bandwidth; the large at HBM's.
  double startup = (arch().mte3Startup + 47 * stagger()) / arch().clockHz;
  EXPECT_NEAR(small.deviceS, 48.0 * (2 << 20) / arch().l2Bw, startup);
  EXPECT_NEAR(large.deviceS, 48.0 * (8 << 20) / arch().hbmStreamBw, startup);
}

TEST(Timeline, AWaitWhoseSetNeverComesIsAnErrorNamingTheInstruction) {
  TraceWriter w;
  w.launch("k", 1);
  w.core(0, 2);
  w.instr(vec("Adds", 1));
  w.instr(wait("MTE3", 7));
  TraceFile trace = parseTrace(w.text(), "t.trace");
  try {
    simulate(trace, arch());
    FAIL() << "no error";
  } catch (const PerfError& e) {
    EXPECT_STREQ(e.what(),
                 "launch 1 (k): core 0 never finishes: it waits forever at instruction 1 (DeQue at k.cpp:11, pipe "
                 "MTE3, token 7); the trace's sets and waits do not pair up (was it written by the emulator?)");
  }
}

std::string twoCoreAdd() {
  TraceWriter w;
  w.launch("add", 2);
  for (int c = 0; c < 2; ++c) {
    w.core(c, 7);
    w.instr(copyIn(8192));
    w.instr(set("MTE2", 1));
    w.instr(wait("V", 1));
    w.instr(vec("Add", 16));
    w.instr(set("V", 2));
    w.instr(wait("MTE3", 2));
    w.instr(copyOut(4096));
  }
  return w.text();
}

TEST(Timeline, ProfileReportsTimesPipesAndBottleneck) {
  Simulated r = run(twoCoreAdd());
  const LaunchProfile& l = r.launch();
  std::string text = renderProfile(r.result, "910b2");
  EXPECT_EQ(text.rfind(fmt::format("launch 1 add on 910b2: {:.2f} us (device {:.2f} us + launch 2.00 us), 2 cores\n",
                                   l.totalS * 1e6, l.deviceS * 1e6),
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("  per core: min "), std::string::npos);
  EXPECT_NE(text.find("  bottleneck: MTE2 ("), std::string::npos);
  EXPECT_NE(text.find("  GM: 16384 B read, 8192 B written; reads through L2 (allocating), writes absorbed by L2\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("  M  "), std::string::npos);  // idle pipes are left out
  EXPECT_NE(text.find(fmt::format("total: {:.2f} us over 1 launch\n", r.result.totalS * 1e6)), std::string::npos);
  // Core 1 starts one dispatch interval later, so it is the slowest.
  EXPECT_EQ(l.slowestCore, 1);
  EXPECT_NEAR(l.cores[1].cycles - l.cores[0].cycles, stagger(), 1e-6);

  nlohmann::json j = nlohmann::json::parse(renderProfileJson(r.result, "910b2"));
  EXPECT_EQ(j.at("arch"), "910b2");
  const auto& jl = j.at("launches").at(0);
  EXPECT_EQ(jl.at("bottleneck"), "MTE2");
  EXPECT_EQ(jl.at("cores"), 2);
  EXPECT_DOUBLE_EQ(jl.at("total_us").get<double>(), l.totalS * 1e6);
  EXPECT_DOUBLE_EQ(jl.at("core_us").at("max").get<double>(), l.cores[1].cycles / arch().clockHz * 1e6);
  EXPECT_DOUBLE_EQ(jl.at("pipes").at("MTE2").at("busy_us").get<double>(),
                   l.cores[1].busy[static_cast<size_t>(TracePipe::MTE2)] / arch().clockHz * 1e6);
  EXPECT_EQ(jl.at("pipes").size(), static_cast<size_t>(kTracePipes));
  ASSERT_EQ(jl.at("core_times_us").size(), 2u);
  EXPECT_DOUBLE_EQ(jl.at("core_times_us").at(0).get<double>(), l.cores[0].cycles / arch().clockHz * 1e6);
}

TEST(Timeline, ChromeTraceIsJsonWithACompleteEventPerInstruction) {
  Simulated r = run(twoCoreAdd());
  std::ostringstream out;
  writeChromeTrace(r.result, r.trace, arch(), out);
  nlohmann::json j = nlohmann::json::parse(out.str());
  int complete = 0, threads = 0, processes = 0;
  for (const auto& e : j.at("traceEvents")) {
    if (e.at("ph") == "X") {
      ++complete;
      EXPECT_GE(e.at("dur").get<double>(), 0);
      EXPECT_EQ(e.at("args").at("at").get<std::string>().rfind("k.cpp:", 0), 0u);
    }
    if (e.at("ph") == "M" && e.at("name") == "thread_name") ++threads;
    if (e.at("ph") == "M" && e.at("name") == "process_name") ++processes;
  }
  EXPECT_EQ(complete, 14);
  EXPECT_EQ(threads, 2 * kTracePipes);
  EXPECT_EQ(processes, 2);
}

TEST(Timeline, ChromeTraceEscapesNames) {
  std::string text = twoCoreAdd();
  text.replace(text.find("\"kernel\":\"add\""), 14, "\"kernel\":\"a\\\"dd\"");  // a kernel name with a quote
  Simulated r{parseTrace(text, "t"), {}};
  TimelineOptions options;
  options.keepEvents = true;
  r.result = simulate(r.trace, arch(), options);
  std::ostringstream out;
  writeChromeTrace(r.result, r.trace, arch(), out);
  nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j.at("traceEvents").at(0).at("args").at("name"), "launch 1 a\"dd core 0 (AIV block 0 sub 0)");
}

TEST(TraceReader, MalformedLinesNameFileAndLine) {
  auto error = [](const std::string& text) {
    try {
      parseTrace(text, "t.trace");
    } catch (const PerfError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string head =
      "{\"launch\":1,\"kernel\":\"k\",\"mode\":\"AIV\",\"blocks\":1,\"cores\":1}\n"
      "{\"core\":0,\"kind\":\"AIV\",\"block\":0,\"sub\":0,\"instrs\":1}\n";
  EXPECT_EQ(error(head), "t.trace:2: the trace ends 1 instructions short");
  TraceWriter w;
  w.instr(I{"VEC", "vector", "Add"});
  EXPECT_EQ(error(head + w.text()), "t.trace:3: unknown pipe 'VEC'");
  EXPECT_EQ(error("{\"i\":0}\n"), "t.trace:1: an instruction outside a core's block");
  EXPECT_EQ(error("not json\n").rfind("t.trace:1: [json.exception.parse_error", 0), 0u);
  EXPECT_EQ(error("{\"x\":1}\n"), "t.trace:1: neither a launch, a core nor an instruction");
  TraceWriter forward;
  I ahead = vec("Add", 1);
  ahead.after = 1;  // names itself
  forward.instr(ahead);
  EXPECT_EQ(error(head + forward.text()), "t.trace:3: key 'aw' names instruction 0, not one before this one (0)");
}

// `tilecraft perf simulate`'s logic.
struct TempDir {
  TempDir()
      : path(std::filesystem::temp_directory_path() /
             fmt::format("tilecraft_timeline_{}", ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

int simulateCommand(SimulateOptions options, std::string& out, std::string& err) {
  options.archDir = archDir();
  std::ostringstream o, e;
  int status = runSimulate(options, o, e);
  out = o.str();
  err = e.str();
  return status;
}

TEST(SimulateCommand, PrintsTheProfileAndWritesTheChromeTrace) {
  TempDir dir;
  std::filesystem::path trace = dir.path / "add.trace.jsonl", chrome = dir.path / "add.json";
  std::ofstream(trace) << twoCoreAdd();
  SimulateOptions options;
  options.trace = trace.string();
  options.chromeTrace = chrome.string();
  std::string out, err;
  ASSERT_EQ(simulateCommand(options, out, err), 0) << err;
  EXPECT_EQ(out.rfind("launch 1 add on 910b2: ", 0), 0u) << out;
  EXPECT_NE(out.find(fmt::format("timeline written to {} (open it in https://ui.perfetto.dev)\n", chrome.string())),
            std::string::npos);
  std::ifstream in(chrome);
  nlohmann::json timeline = nlohmann::json::parse(in);
  EXPECT_EQ(timeline.at("traceEvents").size(), 2u * (1 + 1 + 2 * kTracePipes) + 14);

  options.chromeTrace.clear();
  options.json = true;
  options.l2BypassReads = true;
  ASSERT_EQ(simulateCommand(options, out, err), 0) << err;
  nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j.at("launches").at(0).at("l2_bypass_reads"), true);
}

TEST(SimulateCommand, UserErrorsAreReported) {
  TempDir dir;
  std::string out, err;
  SimulateOptions options;
  options.trace = (dir.path / "missing.jsonl").string();
  EXPECT_EQ(simulateCommand(options, out, err), 1);
  EXPECT_EQ(err, fmt::format("error: {}: cannot open the trace\n", options.trace));

  std::filesystem::path empty = dir.path / "empty.jsonl";
  std::ofstream(empty) << "";
  options.trace = empty.string();
  EXPECT_EQ(simulateCommand(options, out, err), 1);
  EXPECT_EQ(err, fmt::format("error: {0}: the trace holds no launch\nhint: run the kernel with TILECRAFT_EMU_TRACE={0} "
                             "set, or `tilecraft emu run --trace-dir DIR`\n",
                             empty.string()));

  std::filesystem::path good = dir.path / "add.jsonl";
  std::ofstream(good) << twoCoreAdd();
  options.trace = good.string();
  options.arch = "nochip";
  EXPECT_EQ(simulateCommand(options, out, err), 1);
  EXPECT_EQ(err.rfind("error: unknown architecture 'nochip': no spec file ", 0), 0u) << err;

  options.arch = "910b2";
  options.chromeTrace = (dir.path / "no" / "such" / "dir.json").string();
  EXPECT_EQ(simulateCommand(options, out, err), 1);
  EXPECT_EQ(err, fmt::format("error: cannot write the timeline to {}\n", options.chromeTrace));
}

}  // namespace
}  // namespace tilecraft::perf
