// broken/unsupported_dtype.cpp: marks the positive elements of an int32 vector with CompareScalar(GT). On 910B the
// int32 compare supports only EQ; the kernel should Cast to float first (or compare with EQ).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 16384;
constexpr uint32_t TILE_LENGTH = 1024;  // a multiple of 64 int32: compare counts are whole 256-byte repeats

class KernelPositive {
 public:
  __aicore__ inline KernelPositive() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask) {
    blockLength_ = TOTAL_LENGTH / GetBlockNum();
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(x) + blockLength_ * GetBlockIdx(), blockLength_);
    maskGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(mask) + blockLength_ / 8 * GetBlockIdx(),
                            blockLength_ / 8);
    pipe_.InitBuffer(inQueueX_, 2, TILE_LENGTH * sizeof(int32_t));
    pipe_.InitBuffer(outQueueMask_, 2, TILE_LENGTH / 8);
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLength_ / TILE_LENGTH; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress) {
    LocalTensor<int32_t> xLocal = inQueueX_.AllocTensor<int32_t>();
    DataCopy(xLocal, xGm_[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX_.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<int32_t> xLocal = inQueueX_.DeQue<int32_t>();
    LocalTensor<uint8_t> maskLocal = outQueueMask_.AllocTensor<uint8_t>();
    CompareScalar(maskLocal, xLocal, static_cast<int32_t>(0), CMPMODE::GT, TILE_LENGTH);  // expected-error {{CompareScalar on int32_t supports only CMPMODE::EQ on 910B, not CMPMODE::GT; hint: Cast both sides to float first}}
    outQueueMask_.EnQue(maskLocal);
    inQueueX_.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    LocalTensor<uint8_t> maskLocal = outQueueMask_.DeQue<uint8_t>();
    DataCopy(maskGm_[progress * TILE_LENGTH / 8], maskLocal, TILE_LENGTH / 8);
    outQueueMask_.FreeTensor(maskLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueueX_;
  TQue<QuePosition::VECOUT, 1> outQueueMask_;
  GlobalTensor<int32_t> xGm_;
  GlobalTensor<uint8_t> maskGm_;
  uint32_t blockLength_ = 0;
};

extern "C" __global__ __aicore__ void positive_mask(GM_ADDR x, GM_ADDR mask) {
  KernelPositive op;
  op.Init(x, mask);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

int main() {
  auto* x = static_cast<int32_t*>(AscendC::GmAlloc(TOTAL_LENGTH * sizeof(int32_t)));
  auto* mask = static_cast<uint8_t*>(AscendC::GmAlloc(TOTAL_LENGTH / 8));
  for (uint32_t i = 0; i < TOTAL_LENGTH; ++i) x[i] = static_cast<int32_t>(i % 11) - 5;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(positive_mask, 4, reinterpret_cast<uint8_t*>(x), mask);
  AscendC::GmFree(x);
  AscendC::GmFree(mask);
  return 0;
}
#endif
