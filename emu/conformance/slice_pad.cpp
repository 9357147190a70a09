// slice_pad: takes the [rows, 13] column slice starting at column `col0` of a [rows, 40] float matrix, in one
// multi-block DataCopyPad per tile: blockLen and the GM stride in bytes, each UB row padded on the right with
// 3 copies of -1.0 to a whole 64 bytes. It then scales the padded tile by 2 and writes (a) the slice into a [rows, 24]
// matrix at column 5 (UB->GM DataCopyPad with a byte GM stride) and (b) the padded UB rows as they are.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t SRC_COLS = 40, SLICE = 13, PAD = 3, ROW = SLICE + PAD;  // ROW * 4 = 64 bytes per UB row
constexpr uint32_t DST_COLS = 24, DST_COL0 = 5;
constexpr uint32_t TILE_ROWS = 8;

class KernelSlicePad {
 public:
  __aicore__ inline KernelSlicePad() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR padded, uint32_t rowsPerBlock, uint32_t col0) {
    rows = rowsPerBlock;
    uint64_t r0 = static_cast<uint64_t>(GetBlockIdx()) * rowsPerBlock;
    xGm.SetGlobalBuffer((__gm__ float*)x + r0 * SRC_COLS + col0, rows * SRC_COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + r0 * DST_COLS + DST_COL0, rows * DST_COLS);
    padGm.SetGlobalBuffer((__gm__ float*)padded + r0 * ROW, rows * ROW);
    pipe.InitBuffer(inQueue, 2, TILE_ROWS * ROW * sizeof(float));
    pipe.InitBuffer(outQueue, 2, TILE_ROWS * ROW * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < rows / TILE_ROWS; t++) {
      LocalTensor<float> xl = inQueue.AllocTensor<float>();
      DataCopyExtParams in{TILE_ROWS, SLICE * sizeof(float), (SRC_COLS - SLICE) * sizeof(float), 0, 0};
      DataCopyPadExtParams<float> pad{true, 0, PAD, -1.0f};
      DataCopyPad(xl, xGm[t * TILE_ROWS * SRC_COLS], in, pad);
      inQueue.EnQue(xl);

      xl = inQueue.DeQue<float>();
      LocalTensor<float> yl = outQueue.AllocTensor<float>();
      Muls(yl, xl, 2.0f, TILE_ROWS * ROW);
      outQueue.EnQue(yl);
      inQueue.FreeTensor(xl);

      yl = outQueue.DeQue<float>();
      DataCopyExtParams out{TILE_ROWS, SLICE * sizeof(float), 0, (DST_COLS - SLICE) * sizeof(float), 0};
      DataCopyPad(yGm[t * TILE_ROWS * DST_COLS], yl, out);
      DataCopy(padGm[t * TILE_ROWS * ROW], yl, TILE_ROWS * ROW);
      outQueue.FreeTensor(yl);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  GlobalTensor<float> xGm, yGm, padGm;
  uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void slice_pad(GM_ADDR x, GM_ADDR y, GM_ADDR padded, uint32_t rowsPerBlock,
                                                uint32_t col0) {
  KernelSlicePad op;
  op.Init(x, y, padded, rowsPerBlock, col0);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, rowsPerBlock = 16, rows = blockDim * rowsPerBlock, col0 = 7;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * SRC_COLS * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * DST_COLS * sizeof(float)));
  auto* padded = static_cast<float*>(AscendC::GmAlloc(rows * ROW * sizeof(float)));
  std::mt19937 rng(113);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
  for (uint32_t i = 0; i < rows * SRC_COLS; i++) x[i] = dist(rng);
  for (uint32_t i = 0; i < rows * DST_COLS; i++) y[i] = 123.0f;  // columns outside the slice must stay untouched

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(slice_pad, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(padded), rowsPerBlock, col0);

  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    for (uint32_t c = 0; c < DST_COLS; c++) {
      bool inSlice = c >= DST_COL0 && c < DST_COL0 + SLICE;
      float want = inSlice ? 2.0f * x[r * SRC_COLS + col0 + c - DST_COL0] : 123.0f;
      if (y[r * DST_COLS + c] != want) ++bad;
    }
    for (uint32_t c = 0; c < ROW; c++) {
      float want = c < SLICE ? 2.0f * x[r * SRC_COLS + col0 + c] : -2.0f;
      if (padded[r * ROW + c] != want) ++bad;
    }
  }
  std::printf("slice_pad: %u rows, slice of %u columns padded to %u, %u mismatches -> %s\n", rows, SLICE, ROW, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(padded);
  return bad == 0 ? 0 : 1;
}
#endif
