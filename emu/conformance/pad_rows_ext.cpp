// pad_rows_ext: a [rows, cols] half matrix with an odd row length (cols = 37) copied row-block-wise into UB with
// DataCopyPad(DataCopyExtParams, DataCopyPadExtParams<half>{isPad, leftPad, rightPad, value}): every row lands in
// its own 32-byte-aligned UB row, padded on the right with a chosen value; the kernel then sums each padded UB row
// against a bias row (Add over the padded width, so the pad values take part) and writes back only the real
// columns with a multi-row UB -> GM DataCopyPad. GM offsets are int64_t, the UB row stride is in 32-byte blocks.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ROWS_PER_TILE = 8;

class KernelPadRows {
 public:
  __aicore__ inline KernelPadRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR padded, uint32_t rowsPerCore, uint32_t cols) {
    rows = rowsPerCore;
    this->cols = cols;
    alignedCols = (cols + 15) / 16 * 16;
    const int64_t base = static_cast<int64_t>(GetBlockIdx()) * rowsPerCore * cols;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, static_cast<uint64_t>(rowsPerCore) * cols);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, static_cast<uint64_t>(rowsPerCore) * cols);
    const int64_t padBase = static_cast<int64_t>(GetBlockIdx()) * rowsPerCore * alignedCols;
    paddedGm.SetGlobalBuffer((__gm__ half*)padded + padBase, static_cast<uint64_t>(rowsPerCore) * alignedCols);
    pipe.InitBuffer(inQueue, 2, ROWS_PER_TILE * alignedCols * sizeof(half));
    pipe.InitBuffer(outQueue, 2, ROWS_PER_TILE * alignedCols * sizeof(half));
    pipe.InitBuffer(rawQueue, 1, ROWS_PER_TILE * alignedCols * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t r0 = 0; r0 < rows; r0 += ROWS_PER_TILE) {
      const uint16_t n = static_cast<uint16_t>(rows - r0 < ROWS_PER_TILE ? rows - r0 : ROWS_PER_TILE);
      const int64_t gmOff = static_cast<int64_t>(r0) * cols;
      LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
      DataCopyExtParams copyIn{n, static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
      DataCopyPadExtParams<half> padParams{true, 0, static_cast<uint8_t>(alignedCols - cols), half(-2.0f)};
      DataCopyPad(xLocal, xGm[gmOff], copyIn, padParams);
      inQueue.EnQue(xLocal);

      xLocal = inQueue.DeQue<half>();
      LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
      LocalTensor<half> raw = rawQueue.AllocTensor<half>();
      Adds(yLocal, xLocal, half(1.0f), static_cast<int32_t>(n * alignedCols));
      DataCopy(raw, xLocal, n * alignedCols);
      outQueue.EnQue(yLocal);
      rawQueue.EnQue(raw);
      inQueue.FreeTensor(xLocal);

      yLocal = outQueue.DeQue<half>();
      DataCopyExtParams copyOut{n, static_cast<uint32_t>(cols * sizeof(half)), 0, 0, 0};
      DataCopyPad(yGm[gmOff], yLocal, copyOut);
      outQueue.FreeTensor(yLocal);
      raw = rawQueue.DeQue<half>();
      DataCopy(paddedGm[static_cast<int64_t>(r0) * alignedCols], raw, n * alignedCols);
      rawQueue.FreeTensor(raw);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQueue;
  TQue<QuePosition::VECOUT, 2> outQueue;
  TQue<QuePosition::VECOUT, 1> rawQueue;
  GlobalTensor<half> xGm, yGm, paddedGm;
  uint32_t rows = 0, cols = 0, alignedCols = 0;
};

extern "C" __global__ __aicore__ void pad_rows_custom(GM_ADDR x, GM_ADDR y, GM_ADDR padded, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  (void)workspace;
  const uint32_t rowsPerCore = ((__gm__ uint32_t*)tiling)[0];
  const uint32_t cols = ((__gm__ uint32_t*)tiling)[1];
  KernelPadRows op;
  op.Init(x, y, padded, rowsPerCore, cols);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, rowsPerCore = 21, cols = 37, aligned = 48, rows = blockDim * rowsPerCore;
  auto* x = static_cast<half*>(AscendC::GmAlloc(rows * cols * sizeof(half)));
  auto* y = static_cast<half*>(AscendC::GmAlloc(rows * cols * sizeof(half)));
  auto* padded = static_cast<half*>(AscendC::GmAlloc(rows * aligned * sizeof(half)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(2 * sizeof(uint32_t)));
  tiling[0] = rowsPerCore;
  tiling[1] = cols;
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> dist(-30.0f, 30.0f);
  for (uint32_t i = 0; i < rows * cols; i++) x[i] = half(dist(rng));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(pad_rows_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(padded), ws, reinterpret_cast<uint8_t*>(tiling));
  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    for (uint32_t c = 0; c < cols; c++) {
      // half + half rounded once: the float sum of two halves is exact, so half(float sum) is the RNE result.
      const half want = half(static_cast<float>(x[r * cols + c]) + 1.0f);
      if (static_cast<float>(y[r * cols + c]) != static_cast<float>(want)) ++bad;
      if (static_cast<float>(padded[r * aligned + c]) != static_cast<float>(x[r * cols + c])) ++bad;
    }
    for (uint32_t c = cols; c < aligned; c++)
      if (static_cast<float>(padded[r * aligned + c]) != -2.0f) ++bad;
  }
  std::printf("pad_rows_ext: %u rows x %u half cols padded to %u, %u wrong -> %s\n", rows, cols, aligned, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(padded);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
