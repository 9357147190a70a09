// broken/getvalue_no_vs.cpp: samples/softmax_rows.cpp for rows of one repeat (64 floats), which reduces each row
// with a single WholeReduceMax/WholeReduceSum. Unlike ReduceMax, WholeReduce* has no internal V_S sync, and the V_S
// flag before the scalar read of the row max is missing: the scalar unit may read it before the vector pipe wrote it.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct SoftmaxTiling {
  uint32_t rows;         // total rows
  uint32_t cols;         // row length in elements: at most 64, one repeat of floats
  uint32_t rowsPerTile;  // rows moved per copy
};

__aicore__ inline void CopyTiling(SoftmaxTiling* tiling, GM_ADDR tilingGm) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  auto dst = reinterpret_cast<uint32_t*>(tiling);
  for (size_t i = 0; i < sizeof(SoftmaxTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

class KernelSoftmaxRows {
 public:
  __aicore__ inline KernelSoftmaxRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& tiling) {
    cols_ = tiling.cols;
    rowsPerTile_ = tiling.rowsPerTile;
    uint32_t rowsPerBlock = tiling.rows / GetBlockNum();
    tiles_ = rowsPerBlock / rowsPerTile_;
    uint64_t offset = static_cast<uint64_t>(rowsPerBlock) * cols_ * GetBlockIdx();
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, rowsPerBlock * cols_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, rowsPerBlock * cols_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, rowsPerTile_ * cols_ * sizeof(float));
    pipe_.InitBuffer(outQueueY_, BUFFER_NUM, rowsPerTile_ * cols_ * sizeof(float));
    pipe_.InitBuffer(statBuf_, 2 * 8 * sizeof(float));  // max at [0], sum at [8]: one 32-byte block each
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress) {
    LocalTensor<float> xLocal = inQueueX_.AllocTensor<float>();
    DataCopy(xLocal, xGm_[progress * rowsPerTile_ * cols_], rowsPerTile_ * cols_);
    inQueueX_.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<float> xLocal = inQueueX_.DeQue<float>();
    LocalTensor<float> yLocal = outQueueY_.AllocTensor<float>();
    LocalTensor<float> stat = statBuf_.Get<float>();
    LocalTensor<float> maxLocal = stat;
    LocalTensor<float> sumLocal = stat[8];
    int32_t n = static_cast<int32_t>(cols_);
    for (uint32_t r = 0; r < rowsPerTile_; r++) {
      LocalTensor<float> xRow = xLocal[r * cols_];
      LocalTensor<float> yRow = yLocal[r * cols_];
      WholeReduceMax(maxLocal, xRow, n, 1, 1, 1, 8);  // expected-note {{WholeReduceMax on pipe V is here}}
      float rowMax = maxLocal.GetValue(0);  // expected-error {{cross-pipe hazard: GetValue on pipe S reads data that WholeReduceMax on pipe V wrote, with no queue, flag or barrier between them (block at byte 2048); hint: pass the tensor through a TQue (EnQue/DeQue), or SetFlag<HardEvent::V_S>/WaitFlag<HardEvent::V_S> between the two calls}}
      Adds(yRow, xRow, -rowMax, n);
      Exp(yRow, yRow, n);
      WholeReduceSum(sumLocal, yRow, n, 1, 1, 1, 8);
      SetFlag<HardEvent::V_S>(EVENT_ID0);
      WaitFlag<HardEvent::V_S>(EVENT_ID0);
      float rowSum = sumLocal.GetValue(0);
      Muls(yRow, yRow, 1.0f / rowSum, n);
    }
    outQueueY_.EnQue<float>(yLocal);
    inQueueX_.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    LocalTensor<float> yLocal = outQueueY_.DeQue<float>();
    DataCopy(yGm_[progress * rowsPerTile_ * cols_], yLocal, rowsPerTile_ * cols_);
    outQueueY_.FreeTensor(yLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueueX_;
  TQue<QuePosition::VECOUT, 1> outQueueY_;
  TBuf<TPosition::VECCALC> statBuf_;
  GlobalTensor<float> xGm_, yGm_;
  uint32_t cols_ = 0;
  uint32_t rowsPerTile_ = 0;
  uint32_t tiles_ = 0;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  SoftmaxTiling t;
  CopyTiling(&t, tiling);
  KernelSoftmaxRows op;
  op.Init(x, y, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  constexpr uint32_t blockDim = 8;
  constexpr uint32_t rows = 64, cols = 64;
  constexpr size_t bytes = rows * cols * sizeof(float);
  auto* x = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* tiling = static_cast<SoftmaxTiling*>(AscendC::GmAlloc(sizeof(SoftmaxTiling)));
  *tiling = SoftmaxTiling{rows, cols, 2};

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);
  for (uint32_t i = 0; i < rows * cols; ++i) x[i] = dist(rng);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softmax_rows, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(tiling));

  // Reference in double. The kernel sums in a different order and in float, so allow a few float ulps of 1.
  double maxErr = 0.0;
  for (uint32_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    double m = xr[0];
    for (uint32_t c = 1; c < cols; ++c) m = std::fmax(m, xr[c]);
    double s = 0.0;
    for (uint32_t c = 0; c < cols; ++c) s += std::exp(xr[c] - m);
    for (uint32_t c = 0; c < cols; ++c) maxErr = std::fmax(maxErr, std::fabs(y[r * cols + c] - std::exp(xr[c] - m) / s));
  }
  bool ok = maxErr <= 1e-6;
  std::printf("softmax_rows: %u blocks, %u x %u elements, max abs err %.3g -> %s\n", blockDim, rows, cols, maxErr,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
