// The CLI's end-to-end kernel: z = x + y over 2 blocks of 256 floats, in the CANN CPU-debug layout.
#include "kernel_operator.h"

constexpr int32_t BLOCKS = 2;
constexpr int32_t BLOCK_LENGTH = 256;
constexpr int32_t TILE_LENGTH = 64;
constexpr int32_t BUFFER_NUM = 2;

class KernelTinyAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    int64_t offset = BLOCK_LENGTH * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ float*)y + offset, BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ float*)z + offset, BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < BLOCK_LENGTH / TILE_LENGTH; ++i) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t i) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
    AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = inQueueY.DeQue<float>();
    AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
    AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
    outQueueZ.EnQue<float>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t i) {
    AscendC::LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
    AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::GlobalTensor<float> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void tiny_add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelTinyAdd op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#include <cstdio>

int main() {
  constexpr size_t count = BLOCKS * BLOCK_LENGTH;
  auto* x = static_cast<float*>(AscendC::GmAlloc(count * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(count * sizeof(float)));
  auto* z = static_cast<float*>(AscendC::GmAlloc(count * sizeof(float)));
  for (size_t i = 0; i < count; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(tiny_add, BLOCKS, reinterpret_cast<GM_ADDR>(x), reinterpret_cast<GM_ADDR>(y),
              reinterpret_cast<GM_ADDR>(z));
  size_t wrong = 0;
  for (size_t i = 0; i < count; ++i) wrong += z[i] != 1.5f * static_cast<float>(i);
  std::printf("%zu of %zu values wrong\n", wrong, count);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return wrong == 0 ? 0 : 1;
}
#endif
