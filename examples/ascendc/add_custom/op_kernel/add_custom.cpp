// The kernel of the AscendC example for tasks/level1/add (the AscendC agent's worked example, the harness's test
// solution): each block adds its share of the elements, tile by tile, double-buffered through UB; DataCopyPad takes
// the tails that are not whole 32-byte blocks.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t kBufferNum = 2;

template <typename T>
class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t perBlock, uint32_t tile) {
    uint32_t start = GetBlockIdx() * perBlock;
    count_ = start >= total ? 0 : (total - start < perBlock ? total - start : perBlock);
    tile_ = tile;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start, count_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start, count_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z) + start, count_);
    pipe_.InitBuffer(inX_, kBufferNum, tile * sizeof(T));
    pipe_.InitBuffer(inY_, kBufferNum, tile * sizeof(T));
    pipe_.InitBuffer(outZ_, kBufferNum, tile * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t done = 0; done < count_; done += tile_) {
      uint32_t n = count_ - done < tile_ ? count_ - done : tile_;
      CopyIn(done, n);
      Compute(n);
      CopyOut(done, n);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
    LocalTensor<T> x = inX_.AllocTensor<T>();
    LocalTensor<T> y = inY_.AllocTensor<T>();
    DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    DataCopyPadExtParams<T> pad{false, 0, 0, 0};
    DataCopyPad(x, xGm_[offset], params, pad);
    DataCopyPad(y, yGm_[offset], params, pad);
    inX_.EnQue(x);
    inY_.EnQue(y);
  }
  __aicore__ inline void Compute(uint32_t n) {
    LocalTensor<T> x = inX_.DeQue<T>();
    LocalTensor<T> y = inY_.DeQue<T>();
    LocalTensor<T> z = outZ_.AllocTensor<T>();
    Add(z, x, y, static_cast<int32_t>(n));
    outZ_.EnQue(z);
    inX_.FreeTensor(x);
    inY_.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
    LocalTensor<T> z = outZ_.DeQue<T>();
    DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
    DataCopyPad(zGm_[offset], z, params);
    outZ_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, kBufferNum> inX_, inY_;
  TQue<QuePosition::VECOUT, kBufferNum> outZ_;
  GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t count_ = 0;
  uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  KernelAdd<DTYPE_X> op;
  op.Init(x, y, z, t.totalLength, t.blockLength, t.tileLength);
  op.Process();
}
