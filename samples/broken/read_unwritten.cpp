// broken/read_unwritten.cpp: z = x + y + the running sum of x, but the accumulator is never zeroed before the first add.
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
    pipe_.InitBuffer(accBuf_, tileLength_ * sizeof(half));  // bug: never Duplicate'd to 0
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
    LocalTensor<half> xLocal = inQueueX_.AllocTensor<half>();
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
    LocalTensor<half> acc = accBuf_.Get<half>();
    Add(acc, acc, xLocal, static_cast<int32_t>(tileLength_));  // expected-error {{Add src0 reads UB bytes [3072, 3584) that nothing wrote: byte 3072 (0 into the operand) was never written; hint: copy data in or Duplicate a value before reading}}
    Add(zLocal, acc, yLocal, static_cast<int32_t>(tileLength_));
    outQueueZ_.EnQue<half>(zLocal);
    inQueueX_.FreeTensor(xLocal);
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
  TBuf<TPosition::VECCALC> accBuf_;
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
