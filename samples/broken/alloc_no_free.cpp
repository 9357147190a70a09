// broken/alloc_no_free.cpp: Compute never frees x, so the third AllocTensor finds both x buffers taken.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TOTAL_LENGTH = 8192;
constexpr uint32_t TILE_NUM = 4;

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    blockLength_ = TOTAL_LENGTH / GetBlockNum();
    tileLength_ = blockLength_ / TILE_NUM / BUFFER_NUM;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + blockLength_ * GetBlockIdx(), blockLength_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + blockLength_ * GetBlockIdx(), blockLength_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + blockLength_ * GetBlockIdx(), blockLength_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(half));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(half));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    int32_t loopCount = static_cast<int32_t>(TILE_NUM * BUFFER_NUM);
    for (int32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    LocalTensor<half> xLocal = inQueueX_.AllocTensor<half>();  // expected-error {{AllocTensor on a VECIN queue with no free buffer: all 2 buffers are allocated or queued; hint: FreeTensor each tensor after its last use, or InitBuffer the queue with more buffers}}
    LocalTensor<half> yLocal = inQueueY_.AllocTensor<half>();
    DataCopy(xLocal, xGm_[progress * tileLength_], tileLength_);
    DataCopy(yLocal, yGm_[progress * tileLength_], tileLength_);
    inQueueX_.EnQue(xLocal);
    inQueueY_.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t progress) {
    (void)progress;
    LocalTensor<half> xLocal = inQueueX_.DeQue<half>();
    LocalTensor<half> yLocal = inQueueY_.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ_.AllocTensor<half>();
    Add(zLocal, xLocal, yLocal, static_cast<int32_t>(tileLength_));
    outQueueZ_.EnQue<half>(zLocal);
    // bug: inQueueX_.FreeTensor(xLocal) is missing
    inQueueY_.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    LocalTensor<half> zLocal = outQueueZ_.DeQue<half>();
    DataCopy(zGm_[progress * tileLength_], zLocal, tileLength_);
    outQueueZ_.FreeTensor(zLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueueX_, inQueueY_;
  TQue<QuePosition::VECOUT, 1> outQueueZ_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t blockLength_ = 0;
  uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

int main() {
  constexpr size_t bytes = TOTAL_LENGTH * sizeof(half);
  auto* x = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<half*>(AscendC::GmAlloc(bytes));
  for (uint32_t i = 0; i < TOTAL_LENGTH; ++i) {
    x[i] = half(static_cast<float>(i % 100));
    y[i] = half(1.0f);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, 4, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z));
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return 0;
}
#endif
