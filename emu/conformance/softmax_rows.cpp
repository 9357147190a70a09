// softmax_rows: y = softmax(x) over rows of 64 floats with explicit vector instructions in mask/repeat form, one
// row per repeat: WholeReduceMax (values only) gives the 16 row maxima of a tile, Brcb spreads each to a 32-byte
// block, Sub reads that block for every lane of its row (src1 block stride 0, repeat stride 1), then Exp,
// WholeReduceSum, Brcb and Div the same way. Dependent vector steps are separated by PipeBarrier<PIPE_V>.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 64;           // one 256-byte repeat of float per row
constexpr uint32_t ROWS_PER_TILE = 16;  // two Brcb repeats of 8 rows

class KernelSoftmaxRows {
 public:
  __aicore__ inline KernelSoftmaxRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock) {
    tiles = rowsPerBlock / ROWS_PER_TILE;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * rowsPerBlock * COLS;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, rowsPerBlock * COLS);
    yGm.SetGlobalBuffer((__gm__ float*)y + base, rowsPerBlock * COLS);
    pipe.InitBuffer(inQueue, 2, ROWS_PER_TILE * COLS * sizeof(float));
    pipe.InitBuffer(outQueue, 2, ROWS_PER_TILE * COLS * sizeof(float));
    pipe.InitBuffer(rowBuf, ROWS_PER_TILE * sizeof(float));
    pipe.InitBuffer(bcastBuf, ROWS_PER_TILE * 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < tiles; t++) {
      CopyIn(t);
      Compute();
      CopyOut(t);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t t) {
    LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
    DataCopy(xLocal, xGm[t * ROWS_PER_TILE * COLS], ROWS_PER_TILE * COLS);
    inQueue.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueue.DeQue<float>();
    LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    LocalTensor<float> rowVal = rowBuf.Get<float>();
    LocalTensor<float> bcast = bcastBuf.Get<float>();
    const uint8_t rep = ROWS_PER_TILE;
    BinaryRepeatParams perRow(1, 1, 0, 8, 8, 1);  // src1: the row's broadcast block, re-read for all 8 blocks

    WholeReduceMax<float>(rowVal, xLocal, COLS, rep, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    PipeBarrier<PIPE_V>();
    Brcb(bcast, rowVal, ROWS_PER_TILE / 8, {1, 8});
    PipeBarrier<PIPE_V>();
    Sub(xLocal, xLocal, bcast, COLS, rep, perRow);
    PipeBarrier<PIPE_V>();
    Exp(xLocal, xLocal, ROWS_PER_TILE * COLS);
    PipeBarrier<PIPE_V>();
    WholeReduceSum<float>(rowVal, xLocal, COLS, rep, 1, 1, 8);
    PipeBarrier<PIPE_V>();
    Brcb(bcast, rowVal, ROWS_PER_TILE / 8, {1, 8});
    PipeBarrier<PIPE_V>();
    Div(yLocal, xLocal, bcast, COLS, rep, perRow);

    outQueue.EnQue(yLocal);
    inQueue.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t t) {
    LocalTensor<float> yLocal = outQueue.DeQue<float>();
    DataCopy(yGm[t * ROWS_PER_TILE * COLS], yLocal, ROWS_PER_TILE * COLS);
    outQueue.FreeTensor(yLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> rowBuf, bcastBuf;
  GlobalTensor<float> xGm, yGm;
  uint32_t tiles = 0;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock) {
  KernelSoftmaxRows op;
  op.Init(x, y, rowsPerBlock);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 3, rowsPerBlock = 48, rows = blockDim * rowsPerBlock;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * COLS * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * COLS * sizeof(float)));
  std::mt19937 rng(17);
  std::normal_distribution<float> dist(0.0f, 4.0f);
  for (uint32_t i = 0; i < rows * COLS; i++) x[i] = dist(rng);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softmax_rows, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y), rowsPerBlock);

  // Exp is not exactly rounded and the row sum's order is the hardware's: compare with a relative tolerance.
  double maxRel = 0;
  for (uint32_t r = 0; r < rows; r++) {
    double m = x[r * COLS];
    for (uint32_t c = 1; c < COLS; c++) m = std::fmax(m, x[r * COLS + c]);
    double s = 0;
    for (uint32_t c = 0; c < COLS; c++) s += std::exp(x[r * COLS + c] - m);
    for (uint32_t c = 0; c < COLS; c++) {
      double want = std::exp(x[r * COLS + c] - m) / s;
      maxRel = std::fmax(maxRel, std::fabs(y[r * COLS + c] - want) / want);
    }
  }
  bool ok = maxRel < 1e-5;
  std::printf("softmax_rows: %u rows x %u floats, max rel err %.2g -> %s\n", rows, COLS, maxRel,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return ok ? 0 : 1;
}
#endif
