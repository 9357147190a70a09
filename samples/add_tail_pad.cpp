// add_tail_pad: z = x + y on float for a length that is not a multiple of 32 bytes, per block or per tile.
// Block slices start at arbitrary element offsets and the last tile of a slice is short, so every copy goes through
// DataCopyPad (blockLen in bytes; UB side rounded up to 32 bytes) and the add runs on the real element count.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct TailTiling {
  uint32_t totalLength;  // elements in x, y and z
  uint32_t blockLength;  // elements per block (the last block takes what is left)
  uint32_t tileLength;   // elements per full tile; a multiple of 8 so that UB tiles stay 32-byte sized
};

__aicore__ inline void CopyTiling(TailTiling* tiling, GM_ADDR tilingGm) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  auto dst = reinterpret_cast<uint32_t*>(tiling);
  for (size_t i = 0; i < sizeof(TailTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

class KernelAddTail {
 public:
  __aicore__ inline KernelAddTail() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const TailTiling& tiling) {
    uint32_t start = tiling.blockLength * static_cast<uint32_t>(GetBlockIdx());
    myLength_ = start >= tiling.totalLength ? 0
              : (tiling.totalLength - start < tiling.blockLength ? tiling.totalLength - start : tiling.blockLength);
    tileLength_ = tiling.tileLength;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + start, myLength_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + start, myLength_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + start, myLength_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(float));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(float));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    uint32_t tiles = (myLength_ + tileLength_ - 1) / tileLength_;
    for (uint32_t i = 0; i < tiles; i++) {
      uint32_t count = (i + 1 == tiles) ? myLength_ - i * tileLength_ : tileLength_;
      CopyIn(i, count);
      Compute(count);
      CopyOut(i, count);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress, uint32_t count) {
    LocalTensor<float> xLocal = inQueueX_.AllocTensor<float>();
    LocalTensor<float> yLocal = inQueueY_.AllocTensor<float>();
    DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
    DataCopyPadExtParams<float> padParams{false, 0, 0, 0};
    DataCopyPad(xLocal, xGm_[progress * tileLength_], copyParams, padParams);
    DataCopyPad(yLocal, yGm_[progress * tileLength_], copyParams, padParams);
    inQueueX_.EnQue(xLocal);
    inQueueY_.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t count) {
    LocalTensor<float> xLocal = inQueueX_.DeQue<float>();
    LocalTensor<float> yLocal = inQueueY_.DeQue<float>();
    LocalTensor<float> zLocal = outQueueZ_.AllocTensor<float>();
    Add(zLocal, xLocal, yLocal, static_cast<int32_t>(count));
    outQueueZ_.EnQue<float>(zLocal);
    inQueueX_.FreeTensor(xLocal);
    inQueueY_.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress, uint32_t count) {
    LocalTensor<float> zLocal = outQueueZ_.DeQue<float>();
    DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
    DataCopyPad(zGm_[progress * tileLength_], zLocal, copyParams);
    outQueueZ_.FreeTensor(zLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueueX_, inQueueY_;
  TQue<QuePosition::VECOUT, 1> outQueueZ_;
  GlobalTensor<float> xGm_, yGm_, zGm_;
  uint32_t myLength_ = 0;
  uint32_t tileLength_ = 0;
};

extern "C" __global__ __aicore__ void add_tail_pad(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  TailTiling t;
  CopyTiling(&t, tiling);
  KernelAddTail op;
  op.Init(x, y, z, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 8;
  constexpr uint32_t totalLength = 10007;  // prime: no block or tile boundary is 32-byte aligned in GM
  constexpr uint32_t blockLength = (totalLength + blockDim - 1) / blockDim;
  constexpr size_t bytes = totalLength * sizeof(float);
  auto* x = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* tiling = static_cast<TailTiling*>(AscendC::GmAlloc(sizeof(TailTiling)));
  *tiling = TailTiling{totalLength, blockLength, 256};

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (uint32_t i = 0; i < totalLength; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_tail_pad, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z), reinterpret_cast<uint8_t*>(tiling));

  // Float add is exact to compare: one IEEE rounding, the same on the host.
  uint32_t wrong = 0;
  float maxErr = 0.0f;
  for (uint32_t i = 0; i < totalLength; ++i) {
    float err = z[i] > x[i] + y[i] ? z[i] - (x[i] + y[i]) : (x[i] + y[i]) - z[i];
    if (!(err == 0.0f)) ++wrong;
    if (err > maxErr) maxErr = err;
  }
  bool ok = wrong == 0;
  std::printf("add_tail_pad: %u blocks, %u elements, max abs err %g -> %s\n", blockDim, totalLength, maxErr,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
