// What the timeline simulator adds to an emulator run (target: at most 50 %, docs/perf-model.md). The kernel is
// the naive add of the add-tuning case (8 KiB copies, one buffer, 48 cores; perf/tests/data/add_tiles.cpp) on
// 4 M halves. Cases: the emulator run writing its trace; reading that trace and simulating it; the same plus the
// Chrome trace. The timeline cases also report `vs_emulator`: their process CPU time over the emulator run's, both
// measured in this process (the emulator: the best of three runs).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "kernel_operator.h"
#include "perf/arch.h"
#include "perf/chrome_trace.h"
#include "perf/timeline.h"
#include "perf/trace.h"
#include "tikicpulib.h"

namespace {

using namespace AscendC;

constexpr uint32_t kBlocks = 48;
constexpr uint32_t kTotal = 1 << 22;
constexpr uint32_t kTile = 4096;  // 8 KiB of half

class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    uint32_t tiles = kTotal / kTile, blocks = static_cast<uint32_t>(GetBlockNum());
    uint32_t b = static_cast<uint32_t>(GetBlockIdx()), base = tiles / blocks, extra = tiles % blocks;
    tiles_ = base + (b < extra ? 1 : 0);
    uint64_t offset = uint64_t{b * base + (b < extra ? b : extra)} * kTile;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, uint64_t{tiles_} * kTile);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, uint64_t{tiles_} * kTile);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, uint64_t{tiles_} * kTile);
    pipe_.InitBuffer(inX_, 1, kTile * sizeof(half));
    pipe_.InitBuffer(inY_, 1, kTile * sizeof(half));
    pipe_.InitBuffer(outZ_, 1, kTile * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_; i++) {
      LocalTensor<half> x = inX_.AllocTensor<half>();
      LocalTensor<half> y = inY_.AllocTensor<half>();
      DataCopy(x, xGm_[uint64_t{i} * kTile], kTile);
      DataCopy(y, yGm_[uint64_t{i} * kTile], kTile);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<half>();
      y = inY_.DeQue<half>();
      LocalTensor<half> z = outZ_.AllocTensor<half>();
      Add(z, x, y, static_cast<int32_t>(kTile));
      outZ_.EnQue<half>(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = outZ_.DeQue<half>();
      DataCopy(zGm_[uint64_t{i} * kTile], z, kTile);
      outZ_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inX_, inY_;
  TQue<QuePosition::VECOUT, 1> outZ_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t tiles_ = 0;
};

extern "C" __global__ __aicore__ void timeline_bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}

std::string tracePath() { return (std::filesystem::temp_directory_path() / "tilecraft_timeline_bench.jsonl").string(); }

// Process CPU time in seconds: the emulator runs each core on a thread of its own, and the machine may be shared.
double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// One emulator run writing its trace; returns its process CPU time in seconds.
double runKernelWithTrace() {
  static half* x = static_cast<half*>(GmAlloc(kTotal * sizeof(half)));
  static half* y = static_cast<half*>(GmAlloc(kTotal * sizeof(half)));
  static half* z = static_cast<half*>(GmAlloc(kTotal * sizeof(half)));
  setenv("TILECRAFT_EMU_TRACE", tracePath().c_str(), 1);
  std::remove(tracePath().c_str());
  double start = cpuSeconds();
  SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(timeline_bench_add, kBlocks, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z));
  double seconds = cpuSeconds() - start;
  unsetenv("TILECRAFT_EMU_TRACE");
  return seconds;
}

void BM_EmulatorRunWithTrace(benchmark::State& state) {
  for (auto _ : state) runKernelWithTrace();
  state.SetItemsProcessed(state.iterations() * kTotal);
}

void timeline(benchmark::State& state, bool chrome) {
  double emulator = runKernelWithTrace();
  for (int i = 0; i < 2; ++i) emulator = std::min(emulator, runKernelWithTrace());  // the least disturbed of 3
  tilecraft::perf::ArchSpec arch = tilecraft::perf::loadArchByName("910b2", tilecraft::perf::defaultArchDir());
  tilecraft::perf::TimelineOptions options;
  options.keepEvents = chrome;
  double total = 0;
  for (auto _ : state) {
    double start = cpuSeconds();
    tilecraft::perf::TraceFile trace = tilecraft::perf::loadTrace(tracePath());
    tilecraft::perf::SimulationResult r = tilecraft::perf::simulate(trace, arch, options);
    benchmark::DoNotOptimize(r.totalS);
    if (chrome) {
      std::ostringstream out;
      tilecraft::perf::writeChromeTrace(r, trace, arch, out);
      benchmark::DoNotOptimize(out.tellp());
    }
    total += cpuSeconds() - start;
  }
  state.counters["vs_emulator"] = total / static_cast<double>(state.iterations()) / emulator;
  state.SetItemsProcessed(state.iterations() * kTotal);
}

void BM_TimelineReadAndSimulate(benchmark::State& state) { timeline(state, false); }
void BM_TimelineWithChromeTrace(benchmark::State& state) { timeline(state, true); }

BENCHMARK(BM_EmulatorRunWithTrace)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK(BM_TimelineReadAndSimulate)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(5);
BENCHMARK(BM_TimelineWithChromeTrace)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime()
    ->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
