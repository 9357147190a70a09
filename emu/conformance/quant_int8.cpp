// quant_int8: per-tensor symmetric int8 quantisation and dequantisation, as LLM-written quant kernels do it on
// 910B (no direct float -> int8 cast): Muls by 1/scale in float, float -> half Cast CAST_RINT, clamp with
// Maxs/Mins in half, half -> int8 Cast CAST_RINT (rounds the fraction half kept, ties to even), then int8 -> half
// (CAST_NONE) -> float and Muls by scale. TBuf scratch between the casts, PipeBarrier<PIPE_V> between steps.
// Output: the int8 codes and the dequantised floats, both checked bit for bit.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 1024;

class KernelQuant {
 public:
  __aicore__ inline KernelQuant() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR q, GM_ADDR dq, uint32_t perCore, float scale) {
    n = perCore;
    this->scale = scale;
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * perCore;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, perCore);
    qGm.SetGlobalBuffer((__gm__ int8_t*)q + base, perCore);
    dqGm.SetGlobalBuffer((__gm__ float*)dq + base, perCore);
    pipe.InitBuffer(inQue, 2, TILE * sizeof(float));
    pipe.InitBuffer(qQue, 2, TILE * sizeof(int8_t));
    pipe.InitBuffer(dqQue, 2, TILE * sizeof(float));
    pipe.InitBuffer(halfBuf, TILE * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < n; off += TILE) {
      LocalTensor<float> x = inQue.AllocTensor<float>();
      DataCopy(x, xGm[off], TILE);
      inQue.EnQue(x);
      x = inQue.DeQue<float>();
      LocalTensor<half> h = halfBuf.Get<half>();
      LocalTensor<int8_t> q = qQue.AllocTensor<int8_t>();
      LocalTensor<float> dq = dqQue.AllocTensor<float>();
      Muls(x, x, 1.0f / scale, TILE);
      PipeBarrier<PIPE_V>();
      Cast(h, x, RoundMode::CAST_RINT, TILE);
      PipeBarrier<PIPE_V>();
      Maxs(h, h, half(-128.0f), TILE);
      PipeBarrier<PIPE_V>();
      Mins(h, h, half(127.0f), TILE);
      PipeBarrier<PIPE_V>();
      Cast(q, h, RoundMode::CAST_RINT, TILE);
      PipeBarrier<PIPE_V>();
      Cast(h, q, RoundMode::CAST_NONE, TILE);
      PipeBarrier<PIPE_V>();
      Cast(dq, h, RoundMode::CAST_NONE, TILE);
      PipeBarrier<PIPE_V>();
      Muls(dq, dq, scale, TILE);
      qQue.EnQue(q);
      dqQue.EnQue(dq);
      inQue.FreeTensor(x);
      q = qQue.DeQue<int8_t>();
      dq = dqQue.DeQue<float>();
      DataCopy(qGm[off], q, TILE);
      DataCopy(dqGm[off], dq, TILE);
      qQue.FreeTensor(q);
      dqQue.FreeTensor(dq);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQue;
  TQue<QuePosition::VECOUT, 2> qQue, dqQue;
  TBuf<QuePosition::VECCALC> halfBuf;
  GlobalTensor<float> xGm, dqGm;
  GlobalTensor<int8_t> qGm;
  uint32_t n = 0;
  float scale = 1.0f;
};

extern "C" __global__ __aicore__ void quant_custom(GM_ADDR x, GM_ADDR q, GM_ADDR dq, uint32_t perCore, float scale) {
  KernelQuant op;
  op.Init(x, q, dq, perCore, scale);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 3, perCore = 4 * TILE, total = blockDim * perCore;
  constexpr float scale = 0.05f;
  auto* x = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* q = static_cast<int8_t*>(AscendC::GmAlloc(total));
  auto* dq = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> dist(-8.0f, 8.0f);  // some values clamp at +-6.35
  for (uint32_t i = 0; i < total; i++) x[i] = dist(rng);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(quant_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(q),
              reinterpret_cast<uint8_t*>(dq), perCore, scale);
  uint32_t bad = 0, clamped = 0;
  for (uint32_t i = 0; i < total; i++) {
    const float scaled = x[i] * (1.0f / scale);
    // float -> half RNE keeps a fraction for |scaled| < 1024; half -> int8 RINT then rounds it, ties to even.
    float r = std::nearbyint(static_cast<float>(half(scaled)));
    if (r < -128.0f || r > 127.0f) ++clamped;
    r = r < -128.0f ? -128.0f : (r > 127.0f ? 127.0f : r);
    const auto want = static_cast<int8_t>(r);
    const float wantDq = static_cast<float>(want) * scale;  // int8 has no -0
    if (q[i] != want || std::memcmp(&wantDq, &dq[i], sizeof(float)) != 0) ++bad;
  }
  std::printf("quant_int8: %u floats (%u clamped) to int8 and back, %u wrong -> %s\n", total, clamped, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(q);
  AscendC::GmFree(dq);
  return bad == 0 ? 0 : 1;
}
#endif
