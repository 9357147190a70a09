// colsum_atomic: out[c] = sum over rows of x[r, c] and colMax[c] = max over rows, for a [rows, 256] float matrix;
// rows are split over cores, each core accumulates its rows with vector Add and Max (one row at a time, tiles of 8
// rows), then combines its partial vectors into GM: the sums with an atomic-add DataCopy (SetAtomicAdd<float> ...
// SetAtomicNone), the maxima with DataCopyWithReduce<float, ReduceType::REDUCE_MAX>. Block 0 zeroes `out` with
// InitGlobalMemory before a SyncAll that every core passes before adding; `colMax` starts at -1e30 on the host.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 256;
constexpr uint32_t TILE_ROWS = 8;

class KernelColsum {
 public:
  __aicore__ inline KernelColsum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out, GM_ADDR colMax, uint32_t rowsPerBlock) {
    rows = rowsPerBlock;
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(GetBlockIdx()) * rows * COLS, rows * COLS);
    outGm.SetGlobalBuffer((__gm__ float*)out, COLS);
    maxGm.SetGlobalBuffer((__gm__ float*)colMax, COLS);
    pipe.InitBuffer(inQueue, 2, TILE_ROWS * COLS * sizeof(float));
    pipe.InitBuffer(accQueue, 1, 2 * COLS * sizeof(float));
  }
  __aicore__ inline void Process() {
    if (GetBlockIdx() == 0) InitGlobalMemory(outGm, COLS, 0.0f);
    SyncAll();
    LocalTensor<float> acc = accQueue.AllocTensor<float>();
    Duplicate(acc, 0.0f, COLS);
    Duplicate(acc[COLS], -1e30f, COLS);
    for (uint32_t t = 0; t < rows / TILE_ROWS; t++) {
      LocalTensor<float> xl = inQueue.AllocTensor<float>();
      DataCopy(xl, xGm[t * TILE_ROWS * COLS], TILE_ROWS * COLS);
      inQueue.EnQue(xl);
      xl = inQueue.DeQue<float>();
      for (uint32_t r = 0; r < TILE_ROWS; r++) {
        Add(acc, acc, xl[r * COLS], COLS);
        Max(acc[COLS], acc[COLS], xl[r * COLS], COLS);
        PipeBarrier<PIPE_V>();
      }
      inQueue.FreeTensor(xl);
    }
    accQueue.EnQue(acc);
    acc = accQueue.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(outGm, acc, COLS);
    SetAtomicNone();
    DataCopyWithReduce<float, ReduceType::REDUCE_MAX>(maxGm, acc[COLS], COLS);
    accQueue.FreeTensor(acc);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueue;
  TQue<QuePosition::VECOUT, 1> accQueue;
  GlobalTensor<float> xGm, outGm, maxGm;
  uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void colsum_atomic(GM_ADDR x, GM_ADDR out, GM_ADDR colMax, uint32_t rowsPerBlock) {
  KernelColsum op;
  op.Init(x, out, colMax, rowsPerBlock);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <algorithm>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 6, rowsPerBlock = 24, rows = blockDim * rowsPerBlock;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * COLS * sizeof(float)));
  auto* out = static_cast<float*>(AscendC::GmAlloc(COLS * sizeof(float)));
  auto* colMax = static_cast<float*>(AscendC::GmAlloc(COLS * sizeof(float)));
  // Multiples of 1/8: sums exact in float, independent of which core adds first.
  std::mt19937 rng(127);
  std::uniform_int_distribution<int> dist(-80, 80);
  for (uint32_t i = 0; i < rows * COLS; i++) x[i] = static_cast<float>(dist(rng)) / 8.0f;
  for (uint32_t c = 0; c < COLS; c++) {
    out[c] = 99.0f;  // the kernel zeroes it
    colMax[c] = -1e30f;
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(colsum_atomic, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(out),
              reinterpret_cast<uint8_t*>(colMax), rowsPerBlock);

  uint32_t bad = 0;
  for (uint32_t c = 0; c < COLS; c++) {
    double want = 0;
    float mx = -1e30f;
    for (uint32_t r = 0; r < rows; r++) {
      want += x[r * COLS + c];
      mx = std::max(mx, x[r * COLS + c]);
    }
    if (static_cast<double>(out[c]) != want || colMax[c] != mx) ++bad;
  }
  std::printf("colsum_atomic: %u rows x %u cols on %u cores, %u columns wrong -> %s\n", rows, COLS, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(out);
  AscendC::GmFree(colMax);
  return bad == 0 ? 0 : 1;
}
#endif
