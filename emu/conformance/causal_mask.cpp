// causal_mask: the attention causal mask. For each row r of a [rows, cols] float score matrix, columns c > r are
// replaced by a large negative value. Column indices come from CreateVecIndex<int32_t> once, are cast to float
// (Cast CAST_RINT; int32 -> float is exact below 2^24), compared against r with CompareScalar GT
// into a uint8_t bit mask, and Select in tensor-scalar mode (VSEL_TENSOR_SCALAR_MODE) picks the score or the
// scalar: a bit set picks the first source. Rows are processed with a row-count-sized mask tensor.
#include "kernel_operator.h"

using namespace AscendC;

class KernelCausalMask {
 public:
  __aicore__ inline KernelCausalMask() {}
  __aicore__ inline void Init(GM_ADDR s, GM_ADDR y, uint32_t rowsPerCore, uint32_t cols) {
    rows = rowsPerCore;
    this->cols = cols;
    rowBase = GetBlockIdx() * rowsPerCore;
    sGm.SetGlobalBuffer((__gm__ float*)s + static_cast<uint64_t>(rowBase) * cols, rowsPerCore * cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(rowBase) * cols, rowsPerCore * cols);
    pipe.InitBuffer(inQue, 2, cols * sizeof(float));
    pipe.InitBuffer(outQue, 2, cols * sizeof(float));
    pipe.InitBuffer(idxBuf, cols * sizeof(int32_t));
    pipe.InitBuffer(colBuf, cols * sizeof(float));
    pipe.InitBuffer(maskBuf, cols / 8);  // one bit per column, cols a multiple of 256
  }
  __aicore__ inline void Process() {
    LocalTensor<int32_t> idx = idxBuf.Get<int32_t>();
    LocalTensor<float> colF = colBuf.Get<float>();
    LocalTensor<uint8_t> cmpMask = maskBuf.Get<uint8_t>();
    CreateVecIndex(idx, static_cast<int32_t>(0), cols);
    PipeBarrier<PIPE_V>();
    Cast(colF, idx, RoundMode::CAST_RINT, cols);
    PipeBarrier<PIPE_V>();
    for (uint32_t r = 0; r < rows; r++) {
      LocalTensor<float> s = inQue.AllocTensor<float>();
      DataCopy(s, sGm[r * cols], cols);
      inQue.EnQue(s);
      s = inQue.DeQue<float>();
      // Bit set where column <= global row: keep the score there.
      CompareScalar(cmpMask, colF, static_cast<float>(rowBase + r), CMPMODE::LE, cols);
      PipeBarrier<PIPE_V>();
      LocalTensor<float> y = outQue.AllocTensor<float>();
      Select(y, cmpMask, s, -10000.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, cols);
      outQue.EnQue(y);
      inQue.FreeTensor(s);
      y = outQue.DeQue<float>();
      DataCopy(yGm[r * cols], y, cols);
      outQue.FreeTensor(y);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQue;
  TQue<QuePosition::VECOUT, 2> outQue;
  TBuf<QuePosition::VECCALC> idxBuf, colBuf, maskBuf;
  GlobalTensor<float> sGm, yGm;
  uint32_t rows = 0, cols = 0, rowBase = 0;
};

extern "C" __global__ __aicore__ void causal_mask_custom(GM_ADDR s, GM_ADDR y, uint32_t rowsPerCore, uint32_t cols) {
  KernelCausalMask op;
  op.Init(s, y, rowsPerCore, cols);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, rowsPerCore = 64, cols = 256, rows = blockDim * rowsPerCore;
  auto* s = static_cast<float*>(AscendC::GmAlloc(rows * cols * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * cols * sizeof(float)));
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  for (uint32_t i = 0; i < rows * cols; i++) s[i] = dist(rng);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(causal_mask_custom, blockDim, reinterpret_cast<uint8_t*>(s), reinterpret_cast<uint8_t*>(y), rowsPerCore,
              cols);
  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++) {
      const float want = c <= r ? s[r * cols + c] : -10000.0f;
      if (std::memcmp(&want, &y[r * cols + c], sizeof(float)) != 0) ++bad;
    }
  std::printf("causal_mask: %u x %u float scores, %u wrong -> %s\n", rows, cols, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(s);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
