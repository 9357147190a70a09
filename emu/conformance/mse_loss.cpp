// mse_loss: a MultiKernelBench-style loss kernel. Each core computes sum((pred - target)^2) over its share with
// Sub, Mul and the whole-tensor ReduceSum<float>(dst, src, work, count) per tile, accumulates the tile sums on the
// scalar unit (GetValue after the API's own V -> S sync), scales by 1/N with a scalar multiply, writes its partial
// to a one-float UB tensor with SetValue, and adds it into the single GM output with SetAtomicAdd<float> +
// DataCopyPad (4 bytes) after an S_MTE3 flag; core 0 zeroes the output first (InitGlobalMemory + SyncAll). Inputs
// are multiples of 1/16 in [-2, 2] and N = 2^14, so every partial sum is exact and the result is bit-exact in any
// order (the cores' atomic adds reach GM in scheduling order, not index order).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 1536;

class KernelMse {
 public:
  __aicore__ inline KernelMse() {}
  __aicore__ inline void Init(GM_ADDR pred, GM_ADDR target, GM_ADDR loss, uint32_t perCore, uint32_t total) {
    n = perCore;
    invTotal = 1.0f / static_cast<float>(total);
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * perCore;
    predGm.SetGlobalBuffer((__gm__ float*)pred + base, perCore);
    targetGm.SetGlobalBuffer((__gm__ float*)target + base, perCore);
    lossGm.SetGlobalBuffer((__gm__ float*)loss, 1);
    pipe.InitBuffer(inQue, 2, 2 * TILE * sizeof(float));
    pipe.InitBuffer(diffBuf, TILE * sizeof(float));
    pipe.InitBuffer(workBuf, TILE * sizeof(float));
    pipe.InitBuffer(sumBuf, 32);
    pipe.InitBuffer(outBuf, 32);
  }
  __aicore__ inline void Process() {
    if (GetBlockIdx() == 0) InitGlobalMemory(lossGm, 1, 0.0f);
    SyncAll();
    LocalTensor<float> diff = diffBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    float acc = 0.0f;
    for (uint32_t off = 0; off < n; off += TILE) {
      const uint32_t len = n - off < TILE ? n - off : TILE;
      LocalTensor<float> in = inQue.AllocTensor<float>();
      DataCopy(in, predGm[off], len);
      DataCopy(in[TILE], targetGm[off], len);
      inQue.EnQue(in);
      in = inQue.DeQue<float>();
      Sub(diff, in, in[TILE], len);
      Mul(diff, diff, diff, len);
      ReduceSum<float>(sum, diff, work, len);
      acc += sum.GetValue(0);
      inQue.FreeTensor(in);
    }
    LocalTensor<float> out = outBuf.Get<float>();
    out.SetValue(0, acc * invTotal);
    event_t toMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(toMte3);
    WaitFlag<HardEvent::S_MTE3>(toMte3);
    SetAtomicAdd<float>();
    DataCopyPad(lossGm, out, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    SetAtomicNone();
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQue;
  TBuf<QuePosition::VECCALC> diffBuf, workBuf, sumBuf, outBuf;
  GlobalTensor<float> predGm, targetGm, lossGm;
  uint32_t n = 0;
  float invTotal = 0.0f;
};

extern "C" __global__ __aicore__ void mse_loss_custom(GM_ADDR pred, GM_ADDR target, GM_ADDR loss, uint32_t perCore,
                                                      uint32_t total) {
  KernelMse op;
  op.Init(pred, target, loss, perCore, total);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, perCore = 4096, total = blockDim * perCore;  // 2 full tiles + 1024
  auto* pred = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* target = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* loss = static_cast<float*>(AscendC::GmAlloc(32));
  std::mt19937 rng(61);
  std::uniform_int_distribution<int> q(-32, 32);
  for (uint32_t i = 0; i < total; i++) {
    pred[i] = static_cast<float>(q(rng)) / 16.0f;
    target[i] = static_cast<float>(q(rng)) / 16.0f;
  }
  loss[0] = 123.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(mse_loss_custom, blockDim, reinterpret_cast<uint8_t*>(pred), reinterpret_cast<uint8_t*>(target),
              reinterpret_cast<uint8_t*>(loss), perCore, total);
  // Each core's sum is an exact multiple of 1/256 far below 2^24 / 256, 1/total = 2^-14 scales exactly, and the
  // four partials add exactly, so the atomic adds give the same bits in any core order.
  float want = 0.0f;
  for (uint32_t c = 0; c < blockDim; c++) {
    float s = 0.0f;
    for (uint32_t i = 0; i < perCore; i++) {
      const float d = pred[c * perCore + i] - target[c * perCore + i];
      s += d * d;
    }
    want += s * (1.0f / static_cast<float>(total));
  }
  const bool ok = std::memcmp(&want, &loss[0], sizeof(float)) == 0;
  std::printf("mse_loss: %u floats on %u cores, loss %.9g (reference %.9g) -> %s\n", total, blockDim, loss[0], want,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(pred);
  AscendC::GmFree(target);
  AscendC::GmFree(loss);
  return ok ? 0 : 1;
}
#endif
