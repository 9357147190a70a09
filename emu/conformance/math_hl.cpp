// math_hl: the high-level math library as elementwise-op kernels call it (MultiKernelBench-style unary ops): Atan
// and Tanh-free Sinh with a shared temporary buffer sized by the kernel, Ceil and Frac without one (the library
// takes UB space itself), the Taylor-expanded Exp<float, 0> form, and the int16 bitwise Xor on a second input.
// Ceil, Frac and Xor are exact; Atan, Sinh and Exp are checked to a relative 2e-6 against double libm.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 1024;

class KernelMath {
 public:
  __aicore__ inline KernelMath() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR bits, GM_ADDR out, GM_ADDR bitsOut, uint32_t perCore) {
    n = perCore;
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * perCore;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, perCore);
    bitsGm.SetGlobalBuffer((__gm__ int16_t*)bits + 2 * base, 2 * perCore);
    outGm.SetGlobalBuffer((__gm__ float*)out + 5 * base, 5 * perCore);
    bitsOutGm.SetGlobalBuffer((__gm__ int16_t*)bitsOut + base, perCore);
    pipe.InitBuffer(inQue, 2, TILE * sizeof(float) + 2 * TILE * sizeof(int16_t));
    pipe.InitBuffer(outQue, 2, 5 * TILE * sizeof(float) + TILE * sizeof(int16_t));
    pipe.InitBuffer(tmpBuf, 4 * TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < n; off += TILE) {
      LocalTensor<float> in = inQue.AllocTensor<float>();
      LocalTensor<int16_t> bitsIn = in[TILE].ReinterpretCast<int16_t>();
      DataCopy(in, xGm[off], TILE);
      DataCopy(bitsIn, bitsGm[2 * off], 2 * TILE);
      inQue.EnQue(in);
      in = inQue.DeQue<float>();
      bitsIn = in[TILE].ReinterpretCast<int16_t>();
      LocalTensor<float> out = outQue.AllocTensor<float>();
      LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
      Atan(out, in, tmp, TILE);
      Sinh<float>(out[TILE], in, tmp, TILE);
      Ceil(out[2 * TILE], in, TILE);
      Frac(out[3 * TILE], in, TILE);
      Exp<float, 0>(out[4 * TILE], in, TILE);
      LocalTensor<int16_t> x = out[5 * TILE].ReinterpretCast<int16_t>();
      Xor(x, bitsIn, bitsIn[TILE], tmp, TILE);
      outQue.EnQue(out);
      inQue.FreeTensor(in);
      out = outQue.DeQue<float>();
      for (uint32_t k = 0; k < 5; k++) DataCopy(outGm[k * n + off], out[k * TILE], TILE);
      DataCopy(bitsOutGm[off], out[5 * TILE].ReinterpretCast<int16_t>(), TILE);
      outQue.FreeTensor(out);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQue;
  TQue<QuePosition::VECOUT, 2> outQue;
  TBuf<QuePosition::VECCALC> tmpBuf;
  GlobalTensor<float> xGm, outGm;
  GlobalTensor<int16_t> bitsGm, bitsOutGm;
  uint32_t n = 0;
};

extern "C" __global__ __aicore__ void math_custom(GM_ADDR x, GM_ADDR bits, GM_ADDR out, GM_ADDR bitsOut,
                                                  uint32_t perCore) {
  KernelMath op;
  op.Init(x, bits, out, bitsOut, perCore);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, perCore = 2 * TILE, total = blockDim * perCore;
  auto* x = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* bits = static_cast<int16_t*>(AscendC::GmAlloc(2 * total * sizeof(int16_t)));
  auto* out = static_cast<float*>(AscendC::GmAlloc(5 * total * sizeof(float)));
  auto* bitsOut = static_cast<int16_t*>(AscendC::GmAlloc(total * sizeof(int16_t)));
  std::mt19937 rng(53);
  std::uniform_real_distribution<float> dist(-9.0f, 9.0f);
  std::uniform_int_distribution<int> bd(-32768, 32767);
  for (uint32_t i = 0; i < total; i++) x[i] = dist(rng);
  for (uint32_t i = 0; i < 2 * total; i++) bits[i] = static_cast<int16_t>(bd(rng));
  x[3] = 2.0f;   // integral: Ceil 2, Frac 0
  x[4] = -2.5f;  // Ceil -2, Frac -0.5
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(math_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(bits),
              reinterpret_cast<uint8_t*>(out), reinterpret_cast<uint8_t*>(bitsOut), perCore);
  uint32_t bad = 0;
  double worst = 0.0;
  auto rel = [&](float got, double want) {
    const double e = std::fabs(got - want) / std::fmax(std::fabs(want), 1e-30);
    worst = std::fmax(worst, e);
    return e <= 2e-6;
  };
  for (uint32_t c = 0; c < blockDim; c++) {
    for (uint32_t i = 0; i < perCore; i++) {
      const uint32_t g = c * perCore + i;
      const float* o = out + 5 * c * perCore;
      const double v = x[g];
      if (!rel(o[i], std::atan(v)) || !rel(o[perCore + i], std::sinh(v)) || !rel(o[4 * perCore + i], std::exp(v)))
        ++bad;
      if (o[2 * perCore + i] != std::ceil(x[g]) || o[3 * perCore + i] != x[g] - std::trunc(x[g])) ++bad;
      const uint32_t tile = i / TILE, lane = i % TILE;
      const int16_t a = bits[2 * c * perCore + 2 * tile * TILE + lane];
      const int16_t b = bits[2 * c * perCore + 2 * tile * TILE + TILE + lane];
      if (bitsOut[g] != static_cast<int16_t>(a ^ b)) ++bad;
    }
  }
  std::printf("math_hl: %u floats through Atan/Sinh/Ceil/Frac/Exp and int16 Xor, worst rel err %.2e, %u wrong -> %s\n",
              total, worst, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(bits);
  AscendC::GmFree(out);
  AscendC::GmFree(bitsOut);
  return bad == 0 ? 0 : 1;
}
#endif
