// Cost of the timeline next to the emulator run it models: a double-buffered fp16 add (the add_custom shape) on
// 8 cores, 1 M elements in 8 KiB tiles. Reported: the emulator run with its trace written, and reading plus
// simulating that trace (with and without the Chrome-trace timeline). The target (docs/perf-model.md): the
// timeline adds at most 50 % to the emulator run.
#include <benchmark/benchmark.h>

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

constexpr uint32_t kBlocks = 8;
constexpr uint32_t kTotal = 1 << 20;
constexpr uint32_t kTile = 4096;  // 8 KiB of half

class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    length_ = kTotal / GetBlockNum();
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + length_ * GetBlockIdx(), length_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + length_ * GetBlockIdx(), length_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + length_ * GetBlockIdx(), length_);
    pipe_.InitBuffer(inX_, 2, kTile * sizeof(half));
    pipe_.InitBuffer(inY_, 2, kTile * sizeof(half));
    pipe_.InitBuffer(outZ_, 2, kTile * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < length_ / kTile; i++) {
      LocalTensor<half> x = inX_.AllocTensor<half>();
      LocalTensor<half> y = inY_.AllocTensor<half>();
      DataCopy(x, xGm_[i * kTile], kTile);
      DataCopy(y, yGm_[i * kTile], kTile);
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
      DataCopy(zGm_[i * kTile], z, kTile);
      outZ_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inX_, inY_;
  TQue<QuePosition::VECOUT, 2> outZ_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t length_ = 0;
};

extern "C" __global__ __aicore__ void bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}

std::string tracePath() { return (std::filesystem::temp_directory_path() / "tilecraft_timeline_bench.trace").string(); }

void runKernelOnce() {
  static half* x = static_cast<half*>(GmAlloc(kTotal * sizeof(half)));
  static half* y = static_cast<half*>(GmAlloc(kTotal * sizeof(half)));
  static half* z = static_cast<half*>(GmAlloc(kTotal * sizeof(half)));
  SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(bench_add, kBlocks, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z));
}

// The emulator run as `tilecraft perf simulate` needs it: with the trace file written.
void BM_EmulatorRunWithTrace(benchmark::State& state) {
  setenv("TILECRAFT_EMU_TRACE", tracePath().c_str(), 1);
  for (auto _ : state) {
    std::remove(tracePath().c_str());
    runKernelOnce();
  }
  unsetenv("TILECRAFT_EMU_TRACE");
  state.SetItemsProcessed(state.iterations() * kTotal);
}

void BM_EmulatorRunWithoutTrace(benchmark::State& state) {
  unsetenv("TILECRAFT_EMU_TRACE");
  for (auto _ : state) runKernelOnce();
  state.SetItemsProcessed(state.iterations() * kTotal);
}

void prepareTrace() {
  setenv("TILECRAFT_EMU_TRACE", tracePath().c_str(), 1);
  std::remove(tracePath().c_str());
  runKernelOnce();
  unsetenv("TILECRAFT_EMU_TRACE");
}

void BM_TimelineReadAndSimulate(benchmark::State& state) {
  prepareTrace();
  tilecraft::perf::ArchSpec arch = tilecraft::perf::loadArchByName("910b2", tilecraft::perf::defaultArchDir());
  for (auto _ : state) {
    tilecraft::perf::TraceFile trace = tilecraft::perf::loadTrace(tracePath());
    tilecraft::perf::SimulationResult r = tilecraft::perf::simulate(trace, arch);
    benchmark::DoNotOptimize(r.totalS);
  }
  state.SetItemsProcessed(state.iterations() * kTotal);
}

void BM_TimelineWithChromeTrace(benchmark::State& state) {
  prepareTrace();
  tilecraft::perf::ArchSpec arch = tilecraft::perf::loadArchByName("910b2", tilecraft::perf::defaultArchDir());
  for (auto _ : state) {
    tilecraft::perf::TraceFile trace = tilecraft::perf::loadTrace(tracePath());
    tilecraft::perf::TimelineOptions options;
    options.keepEvents = true;
    tilecraft::perf::SimulationResult r = tilecraft::perf::simulate(trace, arch, options);
    std::ostringstream out;
    tilecraft::perf::writeChromeTrace(r, trace, arch, out);
    benchmark::DoNotOptimize(out.tellp());
  }
  state.SetItemsProcessed(state.iterations() * kTotal);
}

BENCHMARK(BM_EmulatorRunWithoutTrace)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_EmulatorRunWithTrace)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_TimelineReadAndSimulate)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_TimelineWithChromeTrace)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
