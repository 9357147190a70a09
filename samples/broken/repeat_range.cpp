// broken/repeat_range.cpp: row sums of a [rows, 64] float matrix, one WholeReduceSum repeat per row. The tile is
// sized to fill UB (320 rows), but one instruction takes at most 255 repeats: the tile needs two calls.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 64;             // one repeat of floats per row
constexpr uint32_t ROWS_PER_TILE = 320;   // bug: more rows than repeats one WholeReduceSum can do
constexpr uint32_t TILES_PER_BLOCK = 2;

class KernelRowSum {
 public:
  __aicore__ inline KernelRowSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    uint32_t rowsPerBlock = ROWS_PER_TILE * TILES_PER_BLOCK;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + rowsPerBlock * COLS * GetBlockIdx(), rowsPerBlock * COLS);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + rowsPerBlock * GetBlockIdx(), rowsPerBlock);
    pipe_.InitBuffer(inQueueX_, 1, ROWS_PER_TILE * COLS * sizeof(float));
    pipe_.InitBuffer(outQueueY_, 1, ROWS_PER_TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < TILES_PER_BLOCK; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress) {
    LocalTensor<float> xLocal = inQueueX_.AllocTensor<float>();
    DataCopy(xLocal, xGm_[progress * ROWS_PER_TILE * COLS], ROWS_PER_TILE * COLS);
    inQueueX_.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueueX_.DeQue<float>();
    LocalTensor<float> yLocal = outQueueY_.AllocTensor<float>();
    WholeReduceSum(yLocal, xLocal, COLS, ROWS_PER_TILE, 1, 1, 8);  // expected-error {{WholeReduceSum repeatTimes 320 is out of range [0, 255]; hint: split the work into calls of at most 255 repeats}}
    outQueueY_.EnQue<float>(yLocal);
    inQueueX_.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    LocalTensor<float> yLocal = outQueueY_.DeQue<float>();
    DataCopy(yGm_[progress * ROWS_PER_TILE], yLocal, ROWS_PER_TILE);
    outQueueY_.FreeTensor(yLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueueX_;
  TQue<QuePosition::VECOUT, 1> outQueueY_;
  GlobalTensor<float> xGm_, yGm_;
};

extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR y) {
  KernelRowSum op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

int main() {
  constexpr uint32_t blockDim = 4;
  constexpr uint32_t rows = blockDim * ROWS_PER_TILE * TILES_PER_BLOCK;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * COLS * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * sizeof(float)));
  for (uint32_t i = 0; i < rows * COLS; ++i) x[i] = static_cast<float>(i % 7);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(row_sum, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y));
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return 0;
}
#endif
