// The CLI's end-to-end failing kernel: copies 128 floats into a 64-float UB buffer. The emulator must stop it
// at the DataCopy below and name this file and line.
#include "kernel_operator.h"

constexpr int32_t TILE_LENGTH = 64;

extern "C" __global__ __aicore__ void tiny_overflow(GM_ADDR x) {
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, 1> inQueue;
  AscendC::GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x, 2 * TILE_LENGTH);
  pipe.InitBuffer(inQueue, 1, TILE_LENGTH * sizeof(float));
  AscendC::LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
  AscendC::DataCopy(xLocal, xGm, 2 * TILE_LENGTH);  // twice the buffer
  inQueue.EnQue(xLocal);
  xLocal = inQueue.DeQue<float>();
  inQueue.FreeTensor(xLocal);
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

int main() {
  auto* x = static_cast<float*>(AscendC::GmAlloc(2 * TILE_LENGTH * sizeof(float)));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(tiny_overflow, 1, reinterpret_cast<GM_ADDR>(x));
  AscendC::GmFree(x);
  return 0;
}
#endif
