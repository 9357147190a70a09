// rotary_deinterleave: a rotary-embedding step on interleaved (re, im) float pairs. GatherMask with the built-in
// patterns (1: even elements, 2: odd elements) in normal mode (reduceMode = false, repeat count and strides in
// GatherMaskParams, rsvdCnt returning the count kept) splits the pairs into planar re / im, then
// out_re = re * cos - im * sin and out_im = re * sin + im * cos with Mul/Sub/Add (each rounded once, so the check
// is bit for bit), and the planar results go out as two GM tensors. cos/sin are per-pair inputs.
#include "kernel_operator.h"

using namespace AscendC;

class KernelRotary {
 public:
  __aicore__ inline KernelRotary() {}
  __aicore__ inline void Init(GM_ADDR z, GM_ADDR cosv, GM_ADDR sinv, GM_ADDR outRe, GM_ADDR outIm, uint32_t pairs) {
    n = pairs;
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * pairs;
    zGm.SetGlobalBuffer((__gm__ float*)z + 2 * base, 2 * pairs);
    cosGm.SetGlobalBuffer((__gm__ float*)cosv + base, pairs);
    sinGm.SetGlobalBuffer((__gm__ float*)sinv + base, pairs);
    reGm.SetGlobalBuffer((__gm__ float*)outRe + base, pairs);
    imGm.SetGlobalBuffer((__gm__ float*)outIm + base, pairs);
    pipe.InitBuffer(inQue, 1, 4 * pairs * sizeof(float));
    pipe.InitBuffer(outQue, 1, 2 * pairs * sizeof(float));
    pipe.InitBuffer(work, 4 * pairs * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> in = inQue.AllocTensor<float>();
    LocalTensor<float> z = in;
    LocalTensor<float> c = in[2 * n];
    LocalTensor<float> s = in[3 * n];
    DataCopy(z, zGm, 2 * n);
    DataCopy(c, cosGm, n);
    DataCopy(s, sinGm, n);
    inQue.EnQue(in);
    in = inQue.DeQue<float>();
    z = in;
    c = in[2 * n];
    s = in[3 * n];

    LocalTensor<float> w = work.Get<float>();
    LocalTensor<float> re = w;
    LocalTensor<float> im = w[n];
    LocalTensor<float> t0 = w[2 * n];
    LocalTensor<float> t1 = w[3 * n];
    uint64_t kept = 0;
    const uint16_t repeats = static_cast<uint16_t>(2 * n * sizeof(float) / 256);
    GatherMaskParams params{1, repeats, 8, 0};
    GatherMask(re, z, static_cast<uint8_t>(1), false, 0, params, kept);
    GatherMask(im, z, static_cast<uint8_t>(2), false, 0, params, kept);
    keptLast = static_cast<uint32_t>(kept);
    PipeBarrier<PIPE_V>();

    LocalTensor<float> out = outQue.AllocTensor<float>();
    Mul(t0, re, c, n);
    Mul(t1, im, s, n);
    PipeBarrier<PIPE_V>();
    Sub(out, t0, t1, n);
    PipeBarrier<PIPE_V>();
    Mul(t0, re, s, n);
    Mul(t1, im, c, n);
    PipeBarrier<PIPE_V>();
    Add(out[n], t0, t1, n);
    outQue.EnQue(out);
    inQue.FreeTensor(in);
    out = outQue.DeQue<float>();
    DataCopy(reGm, out, n);
    DataCopy(imGm, out[n], n);
    outQue.FreeTensor(out);
  }
  uint32_t keptLast = 0;

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQue;
  TQue<QuePosition::VECOUT, 1> outQue;
  TBuf<QuePosition::VECCALC> work;
  GlobalTensor<float> zGm, cosGm, sinGm, reGm, imGm;
  uint32_t n = 0;
};

extern "C" __global__ __aicore__ void rotary_custom(GM_ADDR z, GM_ADDR cosv, GM_ADDR sinv, GM_ADDR outRe, GM_ADDR outIm,
                                                    GM_ADDR kept, uint32_t pairs) {
  KernelRotary op;
  op.Init(z, cosv, sinv, outRe, outIm, pairs);
  op.Process();
  // The count GatherMask reports, stored on the scalar unit for the host to check.
  GlobalTensor<uint32_t> keptGm;
  keptGm.SetGlobalBuffer((__gm__ uint32_t*)kept + GetBlockIdx() * 8, 8);
  keptGm.SetValue(0, op.keptLast);
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, pairs = 512, total = blockDim * pairs;
  auto* z = static_cast<float*>(AscendC::GmAlloc(2 * total * sizeof(float)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* s = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* re = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* im = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* kept = static_cast<uint32_t*>(AscendC::GmAlloc(blockDim * 8 * sizeof(uint32_t)));
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f), ang(0.0f, 6.2831853f);
  for (uint32_t i = 0; i < 2 * total; i++) z[i] = dist(rng);
  for (uint32_t i = 0; i < total; i++) {
    const float a = ang(rng);
    c[i] = std::cos(a);
    s[i] = std::sin(a);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(rotary_custom, blockDim, reinterpret_cast<uint8_t*>(z), reinterpret_cast<uint8_t*>(c),
              reinterpret_cast<uint8_t*>(s), reinterpret_cast<uint8_t*>(re), reinterpret_cast<uint8_t*>(im),
              reinterpret_cast<uint8_t*>(kept), pairs);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    const float zr = z[2 * i], zi = z[2 * i + 1];
    const float a0 = zr * c[i], a1 = zi * s[i], b0 = zr * s[i], b1 = zi * c[i];
    const float wantRe = a0 - a1, wantIm = b0 + b1;
    if (std::memcmp(&wantRe, &re[i], 4) != 0 || std::memcmp(&wantIm, &im[i], 4) != 0) ++bad;
  }
  for (uint32_t b = 0; b < blockDim; b++)
    if (kept[b * 8] != pairs) ++bad;
  std::printf("rotary_deinterleave: %u pairs, GatherMask kept %u per core, %u wrong -> %s\n", total, kept[0], bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(z);
  AscendC::GmFree(c);
  AscendC::GmFree(s);
  AscendC::GmFree(re);
  AscendC::GmFree(im);
  AscendC::GmFree(kept);
  return bad == 0 ? 0 : 1;
}
#endif
