// atomic_int_max: a multi-core reduction into one GM vector through the MTE3 atomic unit. Core 0 clears the
// int32 output with InitGlobalMemory and every core waits at SyncAll; then each core adds its int32 counts with
// SetAtomicAdd<int32_t> + DataCopy and folds its float row into a running maximum with SetAtomicMax<float> +
// DataCopyPad (an unaligned 100-float row), then SetAtomicNone. The data goes GM -> UB -> GM through
// TQueBind<VECIN, VECOUT> queues (an MTE2 -> MTE3 hand-over, no vector work). The max output starts from a
// host-filled -inf row, so it needs no clearing. Integer sums and maxima are exact in any order.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BINS = 256;
constexpr uint32_t COLS = 100;

class KernelAtomic {
 public:
  __aicore__ inline KernelAtomic() {}
  __aicore__ inline void Init(GM_ADDR counts, GM_ADDR vals, GM_ADDR sumOut, GM_ADDR maxOut) {
    countsGm.SetGlobalBuffer((__gm__ int32_t*)counts + GetBlockIdx() * BINS, BINS);
    valsGm.SetGlobalBuffer((__gm__ float*)vals + GetBlockIdx() * COLS, COLS);
    sumGm.SetGlobalBuffer((__gm__ int32_t*)sumOut, BINS);
    maxGm.SetGlobalBuffer((__gm__ float*)maxOut, COLS);
    pipe.InitBuffer(cntQue, 1, BINS * sizeof(int32_t));
    pipe.InitBuffer(valQue, 1, 128 * sizeof(float));
  }
  __aicore__ inline void Process() {
    if (GetBlockIdx() == 0) InitGlobalMemory(sumGm, BINS, 0);
    SyncAll();

    LocalTensor<int32_t> cnt = cntQue.AllocTensor<int32_t>();
    LocalTensor<float> val = valQue.AllocTensor<float>();
    DataCopy(cnt, countsGm, BINS);
    DataCopyPad(val, valsGm, {1, static_cast<uint32_t>(COLS * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
    cntQue.EnQue(cnt);
    valQue.EnQue(val);
    cnt = cntQue.DeQue<int32_t>();
    val = valQue.DeQue<float>();
    // Bound VECIN -> VECOUT queues: EnQue/DeQue is the MTE2 -> MTE3 hand-over of a copy-through buffer.
    SetAtomicAdd<int32_t>();
    DataCopy(sumGm, cnt, BINS);
    SetAtomicNone();
    SetAtomicMax<float>();
    DataCopyPad(maxGm, val, {1, static_cast<uint32_t>(COLS * sizeof(float)), 0, 0, 0});
    SetAtomicNone();
    cntQue.FreeTensor(cnt);
    valQue.FreeTensor(val);
  }

 private:
  TPipe pipe;
  TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 1> cntQue, valQue;
  GlobalTensor<int32_t> countsGm, sumGm;
  GlobalTensor<float> valsGm, maxGm;
};

extern "C" __global__ __aicore__ void atomic_custom(GM_ADDR counts, GM_ADDR vals, GM_ADDR sumOut, GM_ADDR maxOut) {
  KernelAtomic op;
  op.Init(counts, vals, sumOut, maxOut);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <limits>
#include <random>

int main() {
  constexpr uint32_t blockDim = 8;
  auto* counts = static_cast<int32_t*>(AscendC::GmAlloc(blockDim * BINS * sizeof(int32_t)));
  auto* vals = static_cast<float*>(AscendC::GmAlloc(blockDim * COLS * sizeof(float)));
  auto* sumOut = static_cast<int32_t*>(AscendC::GmAlloc(BINS * sizeof(int32_t)));
  auto* maxOut = static_cast<float*>(AscendC::GmAlloc(COLS * sizeof(float)));
  std::mt19937 rng(47);
  std::uniform_int_distribution<int32_t> cd(-100000, 100000);
  std::uniform_real_distribution<float> vd(-1000.0f, 1000.0f);
  for (uint32_t i = 0; i < blockDim * BINS; i++) counts[i] = cd(rng);
  for (uint32_t i = 0; i < blockDim * COLS; i++) vals[i] = vd(rng);
  for (uint32_t i = 0; i < BINS; i++) sumOut[i] = 12345;  // garbage the kernel must clear
  for (uint32_t i = 0; i < COLS; i++) maxOut[i] = -std::numeric_limits<float>::infinity();
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(atomic_custom, blockDim, reinterpret_cast<uint8_t*>(counts), reinterpret_cast<uint8_t*>(vals),
              reinterpret_cast<uint8_t*>(sumOut), reinterpret_cast<uint8_t*>(maxOut));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < BINS; i++) {
    int32_t s = 0;
    for (uint32_t b = 0; b < blockDim; b++) s += counts[b * BINS + i];
    if (sumOut[i] != s) ++bad;
  }
  for (uint32_t i = 0; i < COLS; i++) {
    float m = -std::numeric_limits<float>::infinity();
    for (uint32_t b = 0; b < blockDim; b++) m = vals[b * COLS + i] > m ? vals[b * COLS + i] : m;
    if (maxOut[i] != m) ++bad;
  }
  std::printf(
      "atomic_int_max: int32 atomic add of %u bins and float atomic max of %u cols over %u cores, %u wrong "
      "-> %s\n",
      BINS, COLS, blockDim, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(counts);
  AscendC::GmFree(vals);
  AscendC::GmFree(sumOut);
  AscendC::GmFree(maxOut);
  return bad == 0 ? 0 : 1;
}
#endif
