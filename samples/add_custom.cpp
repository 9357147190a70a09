// add_custom: z = x + y on half, double-buffered, the canonical AscendC vector kernel (ascendc_api.md §1.2).
// Each block owns a contiguous slice of the vectors; the slice is streamed through UB in TILE_NUM * BUFFER_NUM
// tiles so that the copy-in of tile i+1 overlaps the add of tile i.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// The tiling the host hands to the kernel, byte-copied from GM (no GET_TILING_DATA in CPU-debug mode).
struct AddTiling {
  uint32_t totalLength;
  uint32_t tileNum;
};

__aicore__ inline void CopyTiling(AddTiling* tiling, GM_ADDR tilingGm) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  auto dst = reinterpret_cast<uint32_t*>(tiling);
  for (size_t i = 0; i < sizeof(AddTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum) {
    blockLength_ = totalLength / GetBlockNum();
    tileNum_ = tileNum;
    tileLength_ = blockLength_ / tileNum / BUFFER_NUM;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + blockLength_ * GetBlockIdx(), blockLength_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + blockLength_ * GetBlockIdx(), blockLength_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + blockLength_ * GetBlockIdx(), blockLength_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(half));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(half));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    int32_t loopCount = static_cast<int32_t>(tileNum_ * BUFFER_NUM);
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
    Add(zLocal, xLocal, yLocal, static_cast<int32_t>(tileLength_));
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
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX_, inQueueY_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t blockLength_ = 0;
  uint32_t tileNum_ = 0;
  uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  AddTiling t;
  CopyTiling(&t, tiling);
  KernelAdd op;
  op.Init(x, y, z, t.totalLength, t.tileNum);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  constexpr uint32_t blockDim = 8;
  constexpr uint32_t totalLength = 16384;
  constexpr size_t bytes = totalLength * sizeof(half);
  auto* x = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* tiling = static_cast<AddTiling*>(AscendC::GmAlloc(sizeof(AddTiling)));
  *tiling = AddTiling{totalLength, 8};

  std::mt19937 rng(20240601);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (uint32_t i = 0; i < totalLength; ++i) {
    x[i] = half(dist(rng));
    y[i] = half(dist(rng));
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z), reinterpret_cast<uint8_t*>(tiling));

  // The vector unit adds in float and rounds once to half: the same as rounding the exact float sum.
  float maxErr = 0.0f;
  for (uint32_t i = 0; i < totalLength; ++i) {
    float want = static_cast<float>(half(static_cast<float>(x[i]) + static_cast<float>(y[i])));
    maxErr = std::fmax(maxErr, std::fabs(static_cast<float>(z[i]) - want));
  }
  bool ok = maxErr == 0.0f;
  std::printf("add_custom: %u blocks, %u elements, max abs err %g -> %s\n", blockDim, totalLength, maxErr,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
