// block_sum_out: each block sums its chunk with ReduceSum and copies the 32-byte block that holds the sum to its
// own 8-float slot of y with a count-form DataCopy (the smallest count-form copy); the host reads slot[0]. Only
// the first 4 bytes of that UB block were ever written: on the device the other 28 bytes go out as whatever UB held,
// which the host never reads. This is the common pattern of kernels that avoid DataCopyPad for one value.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t CHUNK = 4096;

class KernelBlockSum {
 public:
  __aicore__ inline KernelBlockSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * CHUNK, CHUNK);
    yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * 8, 8);
    pipe.InitBuffer(inQueue, 1, CHUNK * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
    pipe.InitBuffer(workBuf, CHUNK * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> xl = inQueue.AllocTensor<float>();
    DataCopy(xl, xGm, CHUNK);
    inQueue.EnQue(xl);
    xl = inQueue.DeQue<float>();
    LocalTensor<float> sum = outQueue.AllocTensor<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    ReduceSum<float>(sum, xl, work, CHUNK);
    outQueue.EnQue(sum);
    inQueue.FreeTensor(xl);
    sum = outQueue.DeQue<float>();
    DataCopy(yGm, sum, 8);
    outQueue.FreeTensor(sum);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> workBuf;
  GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void block_sum_out(GM_ADDR x, GM_ADDR y) {
  KernelBlockSum op;
  op.Init(x, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4;
  auto* x = static_cast<float*>(AscendC::GmAlloc(blockDim * CHUNK * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(blockDim * 8 * sizeof(float)));
  // Multiples of 1/8: the sum is exact in any order.
  std::mt19937 rng(151);
  std::uniform_int_distribution<int> dist(-64, 64);
  for (uint32_t i = 0; i < blockDim * CHUNK; i++) x[i] = static_cast<float>(dist(rng)) / 8.0f;

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(block_sum_out, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y));

  uint32_t bad = 0;
  for (uint32_t b = 0; b < blockDim; b++) {
    double want = 0;
    for (uint32_t i = 0; i < CHUNK; i++) want += x[b * CHUNK + i];
    if (static_cast<double>(y[b * 8]) != want) ++bad;
  }
  std::printf("block_sum_out: %u blocks of %u floats, %u sums wrong -> %s\n", blockDim, CHUNK, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
