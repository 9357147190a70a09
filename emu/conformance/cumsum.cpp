// cumsum: inclusive prefix sum along rows of floats on the scalar unit (GetValue/SetValue), with no queues: TBufs
// and explicit SetFlag/WaitFlag between the copy-in (MTE2), the scalar loop (S) and the copy-out (MTE3), and the
// reverse flags before a buffer is reused by the next row. Row length 100: DataCopyPad both ways.
#include "kernel_operator.h"

using namespace AscendC;

class KernelCumsum {
 public:
  __aicore__ inline KernelCumsum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock, uint32_t cols) {
    this->rows = rowsPerBlock;
    this->cols = cols;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * rowsPerBlock * cols;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, rowsPerBlock * cols);
    yGm.SetGlobalBuffer((__gm__ float*)y + base, rowsPerBlock * cols);
    uint32_t bytes = (cols * sizeof(float) + 31) / 32 * 32;
    pipe.InitBuffer(xBuf, bytes);
    pipe.InitBuffer(yBuf, bytes);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> yLocal = yBuf.Get<float>();
    DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
    DataCopyPadExtParams<float> pad{false, 0, 0, 0};
    for (uint32_t r = 0; r < rows; r++) {
      if (r > 0) {
        // The scalar loop of the previous row must be done reading x before MTE2 overwrites it.
        SetFlag<HardEvent::S_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::S_MTE2>(EVENT_ID0);
      }
      DataCopyPad(xLocal, xGm[r * cols], params, pad);
      SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
      if (r > 0) {
        // The previous row's copy-out must be done reading y before the scalar loop overwrites it.
        SetFlag<HardEvent::MTE3_S>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_S>(EVENT_ID0);
      }
      float acc = 0.0f;
      for (uint32_t c = 0; c < cols; c++) {
        acc += xLocal.GetValue(c);
        yLocal.SetValue(c, acc);
      }
      SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
      WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
      DataCopyPad(yGm[r * cols], yLocal, params);
    }
  }

 private:
  TPipe pipe;
  TBuf<QuePosition::VECCALC> xBuf, yBuf;
  GlobalTensor<float> xGm, yGm;
  uint32_t rows = 0, cols = 0;
};

extern "C" __global__ __aicore__ void cumsum_custom(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock, uint32_t cols) {
  KernelCumsum op;
  op.Init(x, y, rowsPerBlock, cols);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 5, rowsPerBlock = 3, rows = blockDim * rowsPerBlock, cols = 100;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * cols * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * cols * sizeof(float)));
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (uint32_t i = 0; i < rows * cols; i++) x[i] = dist(rng);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(cumsum_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y), rowsPerBlock,
              cols);

  // Same float additions in the same order: bit-exact.
  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    float acc = 0.0f;
    for (uint32_t c = 0; c < cols; c++) {
      acc += x[r * cols + c];
      if (y[r * cols + c] != acc) ++bad;
    }
  }
  std::printf("cumsum: %u rows x %u floats, %u mismatches -> %s\n", rows, cols, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
