// broken/use_after_free.cpp: x is freed before the add that reads it, and the next tile's copy-in, started early,
// gets its buffer. (A freed tensor whose buffer nobody took yet still holds its data, on the device too.)
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
    pipe_.InitBuffer(inQueueX_, 1, tileLength_ * sizeof(half));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(half));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    CopyInX(0);
    for (int32_t i = 0; i < LoopCount(); i++) {
      CopyInY(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline int32_t LoopCount() const { return static_cast<int32_t>(TILE_NUM * BUFFER_NUM); }
  __aicore__ inline void CopyInX(int32_t progress) {
    LocalTensor<half> xLocal = inQueueX_.AllocTensor<half>();  // expected-note {{and allocated again here}}
    DataCopy(xLocal, xGm_[progress * tileLength_], tileLength_);
    inQueueX_.EnQue(xLocal);
  }
  __aicore__ inline void CopyInY(int32_t progress) {
    LocalTensor<half> yLocal = inQueueY_.AllocTensor<half>();
    DataCopy(yLocal, yGm_[progress * tileLength_], tileLength_);
    inQueueY_.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t progress) {
    LocalTensor<half> xLocal = inQueueX_.DeQue<half>();
    LocalTensor<half> yLocal = inQueueY_.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ_.AllocTensor<half>();
    inQueueX_.FreeTensor(xLocal);  // bug: freed before its last use; expected-note {{the buffer was freed here}}
    if (progress + 1 < LoopCount()) CopyInX(progress + 1);
    Add(zLocal, xLocal, yLocal, static_cast<int32_t>(tileLength_));  // expected-error {{Add src0 uses a tensor after FreeTensor released its buffer (UB bytes [0, 512)) and AllocTensor gave it to another tensor; hint: free the tensor after its last use}}
    outQueueZ_.EnQue<half>(zLocal);
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
