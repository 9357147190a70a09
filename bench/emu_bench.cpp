// Emulator speed: elements per second of real kernels run through the emulator (one core, ICPU_RUN_KF included)
// against a plain C++ loop doing the same arithmetic on the same data with the same rounding. bench/run.sh prints
// the ratio emulator time / plain time for every case of one run.
//
// Cases, each for UB tiles of 2, 8 and 32 KiB:
//   add/half, add/float  double-buffered z = x + y (TQue VECIN/VECOUT, DataCopy, Add), the add_custom shape
//   rowsum/float         rows of 64 floats reduced with one WholeReduceSum per tile (one repeat per row)
//   addstrided/float     z = x + y on every other 32-byte block of each tile (block stride 2), written out with a
//                        strided DataCopy: operands of one run per block, the worst case of the check state (the
//                        tile size is the UB span; half of it is computed)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

namespace {

using namespace AscendC;

constexpr uint32_t kBytesPerInput = 512 * 1024;  // per launch: enough tiles that the launch cost is amortised
constexpr uint32_t kRowLength = 64;              // floats per reduced row: one 256-byte repeat

struct BenchTiling {
  uint32_t totalLength;  // elements
  uint32_t tileLength;   // elements per UB tile
};

__aicore__ inline BenchTiling CopyTiling(GM_ADDR tilingGm) {
  BenchTiling t;
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  t.totalLength = src[0];
  t.tileLength = src[1];
  return t;
}

template <typename T>
class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const BenchTiling& t) {
    total_ = t.totalLength;
    tile_ = t.tileLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), total_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), total_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), total_);
    pipe_.InitBuffer(inX_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(inY_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(outZ_, 2, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < total_ / tile_; i++) {
      LocalTensor<T> x = inX_.template AllocTensor<T>();
      LocalTensor<T> y = inY_.template AllocTensor<T>();
      DataCopy(x, xGm_[i * tile_], tile_);
      DataCopy(y, yGm_[i * tile_], tile_);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.template DeQue<T>();
      y = inY_.template DeQue<T>();
      LocalTensor<T> z = outZ_.template AllocTensor<T>();
      Add(z, x, y, static_cast<int32_t>(tile_));
      outZ_.EnQue(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = outZ_.template DeQue<T>();
      DataCopy(zGm_[i * tile_], z, tile_);
      outZ_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inX_, inY_;
  TQue<QuePosition::VECOUT, 1> outZ_;
  GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t total_ = 0, tile_ = 0;
};

template <typename T>
__global__ __aicore__ void bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  KernelAdd<T> op;
  op.Init(x, y, z, CopyTiling(tiling));
  op.Process();
}

class KernelRowSum {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const BenchTiling& t) {
    total_ = t.totalLength;
    tile_ = t.tileLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), total_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), total_ / kRowLength);
    pipe_.InitBuffer(inX_, 2, tile_ * sizeof(float));
    pipe_.InitBuffer(outY_, 2, tile_ / kRowLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    uint32_t rows = tile_ / kRowLength;
    for (uint32_t i = 0; i < total_ / tile_; i++) {
      LocalTensor<float> x = inX_.AllocTensor<float>();
      DataCopy(x, xGm_[i * tile_], tile_);
      inX_.EnQue(x);
      x = inX_.DeQue<float>();
      LocalTensor<float> y = outY_.AllocTensor<float>();
      WholeReduceSum(y, x, static_cast<int32_t>(kRowLength), static_cast<int32_t>(rows), 1, 1, 8);
      outY_.EnQue(y);
      inX_.FreeTensor(x);
      y = outY_.DeQue<float>();
      DataCopy(yGm_[i * rows], y, rows);
      outY_.FreeTensor(y);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inX_;
  TQue<QuePosition::VECOUT, 1> outY_;
  GlobalTensor<float> xGm_, yGm_;
  uint32_t total_ = 0, tile_ = 0;
};

__global__ __aicore__ void bench_rowsum(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  KernelRowSum op;
  op.Init(x, y, CopyTiling(tiling));
  op.Process();
}

// Every other block: Add with block stride 2 (64 lanes of 8 blocks per repeat, repeats 16 blocks apart), then a
// DataCopy of one block per burst with a one-block gap. `tile` counts the elements computed; a tile spans 2x that.
class KernelAddStrided {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const BenchTiling& t) {
    total_ = t.totalLength;
    tile_ = t.tileLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 2 * total_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 2 * total_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), total_);
    pipe_.InitBuffer(inX_, 2, 2 * tile_ * sizeof(float));
    pipe_.InitBuffer(inY_, 2, 2 * tile_ * sizeof(float));
    pipe_.InitBuffer(outZ_, 2, 2 * tile_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint8_t repeats = static_cast<uint8_t>(tile_ / 64);
    const uint16_t blocks = static_cast<uint16_t>(tile_ / 8);
    for (uint32_t i = 0; i < total_ / tile_; i++) {
      LocalTensor<float> x = inX_.AllocTensor<float>();
      LocalTensor<float> y = inY_.AllocTensor<float>();
      DataCopy(x, xGm_[2 * i * tile_], 2 * tile_);
      DataCopy(y, yGm_[2 * i * tile_], 2 * tile_);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<float>();
      y = inY_.DeQue<float>();
      LocalTensor<float> z = outZ_.AllocTensor<float>();
      Add(z, x, y, 64, repeats, {2, 2, 2, 16, 16, 16});
      outZ_.EnQue(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = outZ_.DeQue<float>();
      DataCopy(zGm_[i * tile_], z, DataCopyParams(blocks, 1, 1, 0));
      outZ_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inX_, inY_;
  TQue<QuePosition::VECOUT, 1> outZ_;
  GlobalTensor<float> xGm_, yGm_, zGm_;
  uint32_t total_ = 0, tile_ = 0;
};

__global__ __aicore__ void bench_add_strided(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  KernelAddStrided op;
  op.Init(x, y, z, CopyTiling(tiling));
  op.Process();
}

// GM buffers of one case, filled with the same values for the emulated and the plain run.
template <typename T>
struct Buffers {
  explicit Buffers(uint32_t n, uint32_t outN) : n(n) {
    x = static_cast<T*>(GmAlloc(n * sizeof(T)));
    y = static_cast<T*>(GmAlloc(n * sizeof(T)));
    z = static_cast<T*>(GmAlloc(outN * sizeof(T)));
    tiling = static_cast<BenchTiling*>(GmAlloc(sizeof(BenchTiling)));
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = T(static_cast<float>(i % 251) * 0.25f);
      y[i] = T(static_cast<float>(i % 127) * -0.5f);
    }
  }
  ~Buffers() {
    GmFree(x);
    GmFree(y);
    GmFree(z);
    GmFree(tiling);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  uint32_t n;
  T* x;
  T* y;
  T* z;
  BenchTiling* tiling;
};

// Bit-compares what the emulated kernel wrote with the plain loop's result, so a broken kernel cannot be timed.
template <typename T>
bool sameBits(const T* a, const T* b, uint32_t n) {
  return std::memcmp(a, b, n * sizeof(T)) == 0;
}

template <typename T>
void plainAddInto(const Buffers<T>& b, T* z) {
  for (uint32_t i = 0; i < b.n; ++i) z[i] = T(static_cast<float>(b.x[i]) + static_cast<float>(b.y[i]));
}

void plainRowSumInto(const float* x, uint32_t n, float* z) {
  float lanes[kRowLength];
  for (uint32_t r = 0; r < n; r += kRowLength) {
    for (uint32_t i = 0; i < kRowLength; ++i) lanes[i] = x[r + i];
    for (uint32_t width = kRowLength / 2; width > 0; width /= 2)
      for (uint32_t i = 0; i < width; ++i) lanes[i] = lanes[2 * i] + lanes[2 * i + 1];
    z[r / kRowLength] = lanes[0];
  }
}

template <typename T>
void emuAdd(benchmark::State& state, uint32_t tileBytes) {
  const uint32_t n = kBytesPerInput / sizeof(T);
  Buffers<T> b(n, n);
  *b.tiling = BenchTiling{n, static_cast<uint32_t>(tileBytes / sizeof(T))};
  SetKernelMode(KernelMode::AIV_MODE);
  for (auto _ : state) {
    ICPU_RUN_KF(bench_add<T>, 1, reinterpret_cast<uint8_t*>(b.x), reinterpret_cast<uint8_t*>(b.y),
                reinterpret_cast<uint8_t*>(b.z), reinterpret_cast<uint8_t*>(b.tiling));
    benchmark::DoNotOptimize(b.z[n - 1]);
  }
  std::vector<T> want(n);
  plainAddInto(b, want.data());
  if (!sameBits(b.z, want.data(), n)) state.SkipWithError("the emulated add differs from the plain loop");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

// The plain loop walks the same tiles; half adds in float and rounds once, as the vector unit does.
template <typename T>
void plainAdd(benchmark::State& state, uint32_t tileBytes) {
  const uint32_t n = kBytesPerInput / sizeof(T);
  const uint32_t tile = tileBytes / sizeof(T);
  Buffers<T> b(n, n);
  for (auto _ : state) {
    // Tile by tile, as the kernel walks the data.
    for (uint32_t t = 0; t < n; t += tile) {
      for (uint32_t i = t; i < t + tile; ++i) b.z[i] = T(static_cast<float>(b.x[i]) + static_cast<float>(b.y[i]));
    }
    benchmark::DoNotOptimize(b.z);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

void emuRowSum(benchmark::State& state, uint32_t tileBytes) {
  const uint32_t n = kBytesPerInput / sizeof(float);
  Buffers<float> b(n, n / kRowLength);
  *b.tiling = BenchTiling{n, static_cast<uint32_t>(tileBytes / sizeof(float))};
  SetKernelMode(KernelMode::AIV_MODE);
  for (auto _ : state) {
    ICPU_RUN_KF(bench_rowsum, 1, reinterpret_cast<uint8_t*>(b.x), reinterpret_cast<uint8_t*>(b.z),
                reinterpret_cast<uint8_t*>(b.tiling));
    benchmark::DoNotOptimize(b.z[n / kRowLength - 1]);
  }
  std::vector<float> want(n / kRowLength);
  plainRowSumInto(b.x, n, want.data());
  if (!sameBits(b.z, want.data(), n / kRowLength))
    state.SkipWithError("the emulated row sums differ from the plain loop");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

// Sums each row as the emulator does one repeat (emu/vec_reduce.h treeSum): adjacent pairs, level by level, in float.
void plainRowSum(benchmark::State& state, uint32_t tileBytes) {
  const uint32_t n = kBytesPerInput / sizeof(float);
  const uint32_t tile = tileBytes / sizeof(float);
  Buffers<float> b(n, n / kRowLength);
  for (auto _ : state) {
    for (uint32_t t = 0; t < n; t += tile) plainRowSumInto(b.x + t, tile, b.z + t / kRowLength);
    benchmark::DoNotOptimize(b.z);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

// Inputs of 2n floats, n results: the even blocks of x + y.
void plainAddStridedInto(const float* x, const float* y, uint32_t n, float* z) {
  for (uint32_t b = 0; b < n / 8; ++b)
    for (uint32_t i = 0; i < 8; ++i) z[b * 8 + i] = x[b * 16 + i] + y[b * 16 + i];
}

void emuAddStrided(benchmark::State& state, uint32_t tileBytes) {
  const uint32_t n = kBytesPerInput / sizeof(float) / 2;
  Buffers<float> b(2 * n, n);
  *b.tiling = BenchTiling{n, static_cast<uint32_t>(tileBytes / sizeof(float) / 2)};
  SetKernelMode(KernelMode::AIV_MODE);
  for (auto _ : state) {
    ICPU_RUN_KF(bench_add_strided, 1, reinterpret_cast<uint8_t*>(b.x), reinterpret_cast<uint8_t*>(b.y),
                reinterpret_cast<uint8_t*>(b.z), reinterpret_cast<uint8_t*>(b.tiling));
    benchmark::DoNotOptimize(b.z[n - 1]);
  }
  std::vector<float> want(n);
  plainAddStridedInto(b.x, b.y, n, want.data());
  if (!sameBits(b.z, want.data(), n)) state.SkipWithError("the emulated strided add differs from the plain loop");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

void plainAddStrided(benchmark::State& state, uint32_t tileBytes) {
  const uint32_t n = kBytesPerInput / sizeof(float) / 2;
  const uint32_t tile = tileBytes / sizeof(float) / 2;
  Buffers<float> b(2 * n, n);
  for (auto _ : state) {
    for (uint32_t t = 0; t < n; t += tile) plainAddStridedInto(b.x + 2 * t, b.y + 2 * t, tile, b.z + t);
    benchmark::DoNotOptimize(b.z);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

}  // namespace

int main(int argc, char** argv) {
  for (uint32_t kib : {2u, 8u, 32u}) {
    uint32_t bytes = kib * 1024;
    std::string tile = "/tile:" + std::to_string(kib) + "KiB";
    // The emulated core runs on a thread of its own: count the CPU time of the whole process, not of this thread.
    benchmark::RegisterBenchmark(("add/half" + tile + "/emu").c_str(), emuAdd<half>, bytes)->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("add/half" + tile + "/plain").c_str(), plainAdd<half>, bytes)
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("add/float" + tile + "/emu").c_str(), emuAdd<float>, bytes)->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("add/float" + tile + "/plain").c_str(), plainAdd<float>, bytes)
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("rowsum/float" + tile + "/emu").c_str(), emuRowSum, bytes)->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("rowsum/float" + tile + "/plain").c_str(), plainRowSum, bytes)
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("addstrided/float" + tile + "/emu").c_str(), emuAddStrided, bytes)
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("addstrided/float" + tile + "/plain").c_str(), plainAddStrided, bytes)
        ->MeasureProcessCPUTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
