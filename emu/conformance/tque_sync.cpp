// tque_sync: a TBuf-only pipeline synchronised with TQueSync objects instead of queues, the way hand-scheduled
// operators do: TQueSync<PIPE_MTE2, PIPE_V> / <PIPE_V, PIPE_MTE3> / <PIPE_MTE3, PIPE_MTE2> with SetFlag/WaitFlag
// on event ids from AllocEventID / ReleaseEventID, a ping-pong pair of buffers, and PipeBarrier<PIPE_ALL> at the
// end. The compute is float Sqrt then Div (both exactly rounded in IEEE float, so the check is bit for bit).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 512;

class KernelSqrtDiv {
 public:
  __aicore__ inline KernelSqrtDiv() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR d, GM_ADDR y, uint32_t perCore) {
    n = perCore;
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * perCore;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, perCore);
    dGm.SetGlobalBuffer((__gm__ float*)d + base, perCore);
    yGm.SetGlobalBuffer((__gm__ float*)y + base, perCore);
    pipe.InitBuffer(inBuf, 2 * 2 * TILE * sizeof(float));
    pipe.InitBuffer(outBuf, 2 * TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outBuf.Get<float>();
    TQueSync<PIPE_MTE2, PIPE_V> loadDone;
    TQueSync<PIPE_V, PIPE_MTE3> computeDone;
    TQueSync<PIPE_MTE3, PIPE_MTE2> storeDone;
    TQueSync<PIPE_V, PIPE_MTE2> inputFree;
    TEventID loadEvt[2], computeEvt[2];
    loadEvt[0] = GetTPipePtr()->AllocEventID<HardEvent::MTE2_V>();
    loadEvt[1] = GetTPipePtr()->AllocEventID<HardEvent::MTE2_V>();
    computeEvt[0] = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
    computeEvt[1] = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
    TEventID storeEvt[2], freeEvt[2];
    for (uint32_t s = 0; s < 2; s++) {
      storeEvt[s] = GetTPipePtr()->AllocEventID<HardEvent::MTE3_MTE2>();
      freeEvt[s] = GetTPipePtr()->AllocEventID<HardEvent::V_MTE2>();
    }
    const uint32_t tiles = n / TILE;
    for (uint32_t t = 0; t < tiles; t++) {
      const uint32_t slot = t % 2;
      LocalTensor<float> xs = in[slot * 2 * TILE];
      LocalTensor<float> ds = in[slot * 2 * TILE + TILE];
      LocalTensor<float> ys = out[slot * TILE];
      if (t >= 2) {  // this slot was read by the Div and the copy-out of tile t - 2
        inputFree.WaitFlag(freeEvt[slot]);
        storeDone.WaitFlag(storeEvt[slot]);
      }
      DataCopy(xs, xGm[t * TILE], TILE);
      DataCopy(ds, dGm[t * TILE], TILE);
      loadDone.SetFlag(loadEvt[slot]);
      loadDone.WaitFlag(loadEvt[slot]);
      Sqrt(ys, xs, TILE);
      PipeBarrier<PIPE_V>();
      Div(ys, ys, ds, TILE);
      if (t + 2 < tiles) inputFree.SetFlag(freeEvt[slot]);
      computeDone.SetFlag(computeEvt[slot]);
      computeDone.WaitFlag(computeEvt[slot]);
      DataCopy(yGm[t * TILE], ys, TILE);
      if (t + 2 < tiles) storeDone.SetFlag(storeEvt[slot]);
    }
    PipeBarrier<PIPE_ALL>();
    GetTPipePtr()->ReleaseEventID<HardEvent::MTE2_V>(loadEvt[0]);
    GetTPipePtr()->ReleaseEventID<HardEvent::MTE2_V>(loadEvt[1]);
    GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE3>(computeEvt[0]);
    GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE3>(computeEvt[1]);
    for (uint32_t s = 0; s < 2; s++) {
      GetTPipePtr()->ReleaseEventID<HardEvent::MTE3_MTE2>(storeEvt[s]);
      GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE2>(freeEvt[s]);
    }
  }

 private:
  TPipe pipe;
  TBuf<TPosition::VECCALC> inBuf, outBuf;
  GlobalTensor<float> xGm, dGm, yGm;
  uint32_t n = 0;
};

extern "C" __global__ __aicore__ void sqrt_div_custom(GM_ADDR x, GM_ADDR d, GM_ADDR y, uint32_t perCore) {
  KernelSqrtDiv op;
  op.Init(x, d, y, perCore);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, perCore = 8 * TILE, total = blockDim * perCore;
  auto* x = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* d = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> dist(0.0f, 1000.0f), den(0.5f, 9.0f);
  for (uint32_t i = 0; i < total; i++) {
    x[i] = dist(rng);
    d[i] = den(rng);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(sqrt_div_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(d),
              reinterpret_cast<uint8_t*>(y), perCore);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    const float want = std::sqrt(x[i]) / d[i];
    if (std::memcmp(&want, &y[i], sizeof(float)) != 0) ++bad;
  }
  std::printf("tque_sync: %u floats, sqrt then div on %u cores, %u wrong -> %s\n", total, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(d);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
