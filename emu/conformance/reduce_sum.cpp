// reduce_sum: y[r] = sum(x[r, 0:cols]) over the last axis, one group of rows per block. The reduction uses the
// counter-mode idiom of MultiKernelBench: in counter mode one WholeReduceSum call sums up to 64 floats per repeat
// over the whole row (one partial sum per 64 elements), a barrier, then a second WholeReduceSum over the partials.
// Rows are 4-byte aligned only, so they come in with DataCopyPad.
#include "kernel_operator.h"

struct ReduceSumTiling {
  uint32_t rows;  // total rows
  uint32_t cols;  // elements per row
  uint32_t rowsPerBlock;
};

class KernelReduceSum {
 public:
  __aicore__ inline KernelReduceSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceSumTiling& t) {
    cols = t.cols;
    rowsPerBlock = t.rowsPerBlock;
    colsAligned = (cols + 7) / 8 * 8;
    xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(AscendC::GetBlockIdx()) * rowsPerBlock * cols,
                        rowsPerBlock * cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + AscendC::GetBlockIdx() * rowsPerBlock, rowsPerBlock);
    pipe.InitBuffer(inQueue, 2, colsAligned * sizeof(float));
    pipe.InitBuffer(outQueue, 1, (rowsPerBlock + 7) / 8 * 8 * sizeof(float));
    pipe.InitBuffer(workBuf, ((cols + 63) / 64 + 7) / 8 * 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
    AscendC::LocalTensor<float> work = workBuf.Get<float>();
    for (uint32_t r = 0; r < rowsPerBlock; r++) {
      AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
      AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
      AscendC::DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
      AscendC::DataCopyPad(xLocal, xGm[r * cols], copyParams, padParams);
      inQueue.EnQue(xLocal);
      xLocal = inQueue.DeQue<float>();

      uint32_t repeats = (cols + 63) / 64;
      AscendC::SetMaskCount();
      AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, cols);
      AscendC::WholeReduceSum<float, false>(work, xLocal, AscendC::MASK_PLACEHOLDER, 1, 1, 1, 8);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, repeats);
      AscendC::WholeReduceSum<float, false>(yLocal[r], work, AscendC::MASK_PLACEHOLDER, 1, 1, 1, 8);
      AscendC::PipeBarrier<PIPE_V>();
      AscendC::SetMaskNorm();
      AscendC::ResetMask();
      inQueue.FreeTensor(xLocal);
    }
    outQueue.EnQue(yLocal);
    yLocal = outQueue.DeQue<float>();
    AscendC::DataCopyExtParams outParams{1, static_cast<uint32_t>(rowsPerBlock * sizeof(float)), 0, 0, 0};
    AscendC::DataCopyPad(yGm, yLocal, outParams);
    outQueue.FreeTensor(yLocal);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inQueue;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQueue;
  AscendC::TBuf<AscendC::QuePosition::VECCALC> workBuf;
  AscendC::GlobalTensor<float> xGm, yGm;
  uint32_t cols = 0, colsAligned = 0, rowsPerBlock = 0;
};

extern "C" __global__ __aicore__ void reduce_sum_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  ReduceSumTiling t;
  t.rows = ((__gm__ uint32_t*)tiling)[0];
  t.cols = ((__gm__ uint32_t*)tiling)[1];
  t.rowsPerBlock = ((__gm__ uint32_t*)tiling)[2];
  KernelReduceSum op;
  op.Init(x, y, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, rows = 36, cols = 1001;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * cols * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * sizeof(float)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(3 * sizeof(uint32_t)));
  tiling[0] = rows;
  tiling[1] = cols;
  tiling[2] = rows / blockDim;
  // Multiples of 1/16 in [-64, 64]: every partial sum is exact in float, so any summation order gives the same sum.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dist(-1024, 1024);
  for (uint32_t i = 0; i < rows * cols; i++) x[i] = static_cast<float>(dist(rng)) / 16.0f;

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(reduce_sum_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y), ws,
              reinterpret_cast<uint8_t*>(tiling));

  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    double want = 0;
    for (uint32_t c = 0; c < cols; c++) want += x[r * cols + c];
    if (static_cast<double>(y[r]) != want) ++bad;
  }
  std::printf("reduce_sum: %u rows x %u cols on %u blocks, %u rows wrong -> %s\n", rows, cols, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
