// add_tiling_struct: the kernel-invocation sample shape. The tiling struct travels BY VALUE as the last kernel
// argument (main reinterprets a GmAlloc'd block as the struct), every name is written AscendC::-qualified (no
// using-directive), the block length comes from GetBlockNum(), and the loop runs tileNum * BUFFER_NUM times over
// double-buffered queues. The compute is int16 Add/Sub/Max with calCount and KERNEL_TASK_TYPE_DEFAULT.
#include "kernel_operator.h"

struct AddTilingData {
  uint32_t totalLength;
  uint32_t tileNum;
};

constexpr int32_t BUFFER_NUM = 2;

class KernelAddSubMax {
 public:
  __aicore__ inline KernelAddSubMax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR diff, GM_ADDR mx, uint32_t totalLength,
                              uint32_t tileNum) {
    blockLength = totalLength / AscendC::GetBlockNum();
    this->tileNum = tileNum;
    tileLength = blockLength / tileNum / BUFFER_NUM;
    const uint32_t base = blockLength * AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ int16_t*)x + base, blockLength);
    yGm.SetGlobalBuffer((__gm__ int16_t*)y + base, blockLength);
    sumGm.SetGlobalBuffer((__gm__ int16_t*)sum + base, blockLength);
    diffGm.SetGlobalBuffer((__gm__ int16_t*)diff + base, blockLength);
    maxGm.SetGlobalBuffer((__gm__ int16_t*)mx + base, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(int16_t));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(int16_t));
    pipe.InitBuffer(outQueue, BUFFER_NUM, 3 * tileLength * sizeof(int16_t));
  }
  __aicore__ inline void Process() {
    int32_t loopCount = tileNum * BUFFER_NUM;
    for (int32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    AscendC::LocalTensor<int16_t> xLocal = inQueueX.AllocTensor<int16_t>();
    AscendC::LocalTensor<int16_t> yLocal = inQueueY.AllocTensor<int16_t>();
    AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
    AscendC::DataCopy(yLocal, yGm[progress * tileLength], tileLength);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t progress) {
    (void)progress;
    AscendC::LocalTensor<int16_t> xLocal = inQueueX.DeQue<int16_t>();
    AscendC::LocalTensor<int16_t> yLocal = inQueueY.DeQue<int16_t>();
    AscendC::LocalTensor<int16_t> out = outQueue.AllocTensor<int16_t>();
    AscendC::Add(out, xLocal, yLocal, tileLength);
    AscendC::Sub(out[tileLength], xLocal, yLocal, tileLength);
    AscendC::Max(out[2 * tileLength], xLocal, yLocal, tileLength);
    outQueue.EnQue<int16_t>(out);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    AscendC::LocalTensor<int16_t> out = outQueue.DeQue<int16_t>();
    AscendC::DataCopy(sumGm[progress * tileLength], out, tileLength);
    AscendC::DataCopy(diffGm[progress * tileLength], out[tileLength], tileLength);
    AscendC::DataCopy(maxGm[progress * tileLength], out[2 * tileLength], tileLength);
    outQueue.FreeTensor(out);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
  AscendC::GlobalTensor<int16_t> xGm, yGm, sumGm, diffGm, maxGm;
  uint32_t blockLength = 0, tileNum = 0, tileLength = 0;
};

extern "C" __global__ __aicore__ void add_sub_max_custom(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR diff, GM_ADDR mx,
                                                         AddTilingData tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelAddSubMax op;
  op.Init(x, y, sum, diff, mx, tiling.totalLength, tiling.tileNum);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 8, total = 8 * 4096;
  const size_t bytes = total * sizeof(int16_t);
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(AddTilingData)));
  auto* td = reinterpret_cast<AddTilingData*>(tiling);
  td->totalLength = total;
  td->tileNum = 8;
  auto* x = static_cast<int16_t*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<int16_t*>(AscendC::GmAlloc(bytes));
  auto* sum = static_cast<int16_t*>(AscendC::GmAlloc(bytes));
  auto* diff = static_cast<int16_t*>(AscendC::GmAlloc(bytes));
  auto* mx = static_cast<int16_t*>(AscendC::GmAlloc(bytes));
  // Full int16 range: sums and differences wrap, as the vector unit's int16 add does.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dist(-32768, 32767);
  for (uint32_t i = 0; i < total; i++) {
    x[i] = static_cast<int16_t>(dist(rng));
    y[i] = static_cast<int16_t>(dist(rng));
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_sub_max_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(sum), reinterpret_cast<uint8_t*>(diff), reinterpret_cast<uint8_t*>(mx),
              *reinterpret_cast<AddTilingData*>(tiling));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    const auto s = static_cast<int16_t>(static_cast<uint16_t>(x[i]) + static_cast<uint16_t>(y[i]));
    const auto d = static_cast<int16_t>(static_cast<uint16_t>(x[i]) - static_cast<uint16_t>(y[i]));
    const int16_t m = x[i] > y[i] ? x[i] : y[i];
    if (sum[i] != s || diff[i] != d || mx[i] != m) ++bad;
  }
  std::printf("add_tiling_struct: %u int16 elements on %u cores, %u wrong -> %s\n", total, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  for (void* p : {static_cast<void*>(x), static_cast<void*>(y), static_cast<void*>(sum), static_cast<void*>(diff),
                  static_cast<void*>(mx), static_cast<void*>(tiling)})
    AscendC::GmFree(p);
  return bad == 0 ? 0 : 1;
}
#endif
