// cast_roundtrip: half -> float -> (scale in float) -> half and int32 under several rounding modes, checked bit for
// bit. x (half) is widened with CAST_NONE, scaled by Muls in float, then narrowed with CAST_RINT, CAST_FLOOR,
// CAST_CEIL and CAST_TRUNC to half, CAST_ROUND to int32; x itself also goes half -> int32 with CAST_FLOOR.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 512;
constexpr uint32_t OUTS = 6;

class KernelCastRoundtrip {
 public:
  __aicore__ inline KernelCastRoundtrip() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR halves, GM_ADDR ints, uint32_t blockLength, float scale) {
    len = blockLength;
    this->scale = scale;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * blockLength;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, blockLength);
    // halves: 4 planes of the whole tensor, one per rounding mode; ints: 2 planes.
    uint64_t total = static_cast<uint64_t>(GetBlockNum()) * blockLength;
    for (uint32_t p = 0; p < 4; p++) hGm[p].SetGlobalBuffer((__gm__ half*)halves + p * total + base, blockLength);
    for (uint32_t p = 0; p < 2; p++) iGm[p].SetGlobalBuffer((__gm__ int32_t*)ints + p * total + base, blockLength);
    pipe.InitBuffer(inQueue, 2, TILE * sizeof(half));
    pipe.InitBuffer(outHalf, 2, 4 * TILE * sizeof(half));
    pipe.InitBuffer(outInt, 2, 2 * TILE * sizeof(int32_t));
    pipe.InitBuffer(f32Buf, TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < len / TILE; t++) {
      LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
      DataCopy(xLocal, xGm[t * TILE], TILE);
      inQueue.EnQue(xLocal);
      xLocal = inQueue.DeQue<half>();

      LocalTensor<float> f = f32Buf.Get<float>();
      LocalTensor<half> h = outHalf.AllocTensor<half>();
      LocalTensor<int32_t> iv = outInt.AllocTensor<int32_t>();
      Cast(f, xLocal, RoundMode::CAST_NONE, TILE);
      Cast(iv[TILE], xLocal, RoundMode::CAST_FLOOR, TILE);
      PipeBarrier<PIPE_V>();
      Muls(f, f, scale, TILE);
      PipeBarrier<PIPE_V>();
      Cast(h, f, RoundMode::CAST_RINT, TILE);
      Cast(h[TILE], f, RoundMode::CAST_FLOOR, TILE);
      Cast(h[2 * TILE], f, RoundMode::CAST_CEIL, TILE);
      Cast(h[3 * TILE], f, RoundMode::CAST_TRUNC, TILE);
      Cast(iv, f, RoundMode::CAST_ROUND, TILE);
      inQueue.FreeTensor(xLocal);
      outHalf.EnQue(h);
      outInt.EnQue(iv);

      h = outHalf.DeQue<half>();
      iv = outInt.DeQue<int32_t>();
      for (uint32_t p = 0; p < 4; p++) DataCopy(hGm[p][t * TILE], h[p * TILE], TILE);
      for (uint32_t p = 0; p < 2; p++) DataCopy(iGm[p][t * TILE], iv[p * TILE], TILE);
      outHalf.FreeTensor(h);
      outInt.FreeTensor(iv);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outHalf, outInt;
  TBuf<QuePosition::VECCALC> f32Buf;
  GlobalTensor<half> xGm, hGm[4];
  GlobalTensor<int32_t> iGm[2];
  uint32_t len = 0;
  float scale = 1.0f;
};

extern "C" __global__ __aicore__ void cast_roundtrip(GM_ADDR x, GM_ADDR halves, GM_ADDR ints, uint32_t blockLength,
                                                     float scale) {
  KernelCastRoundtrip op;
  op.Init(x, halves, ints, blockLength, scale);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace {

uint16_t bits(half h) { return h.val; }
half fromBits(uint16_t b) {
  half h;
  h.val = b;
  return h;
}
// The neighbouring half of h (finite, nonzero range here) in direction dir (+1 up, -1 down).
half step(half h, int dir) {
  uint16_t b = bits(h);
  bool neg = (b & 0x8000) != 0;
  if ((b & 0x7fff) == 0) return fromBits(dir > 0 ? 0x0001 : 0x8001);
  return fromBits(static_cast<uint16_t>((dir > 0) != neg ? b + 1 : b - 1));
}
// Directed rounding of float to half, from the round-to-nearest-even conversion and one step.
half toHalf(float f, char mode) {
  half h = half(f);
  float r = static_cast<float>(h);
  if (mode == 'f' && r > f) return step(h, -1);
  if (mode == 'c' && r < f) return step(h, +1);
  if (mode == 't' && std::fabs(r) > std::fabs(f)) return step(h, f > 0 ? -1 : +1);
  return h;
}

}  // namespace

int main() {
  constexpr uint32_t blockDim = 2, blockLength = 4 * TILE, total = blockDim * blockLength;
  const float scale = 3.3f;
  auto* x = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* halves = static_cast<half*>(AscendC::GmAlloc(4 * total * sizeof(half)));
  auto* ints = static_cast<int32_t*>(AscendC::GmAlloc(2 * total * sizeof(int32_t)));
  std::mt19937 rng(53);
  std::uniform_real_distribution<float> dist(-600.0f, 600.0f);
  for (uint32_t i = 0; i < total; i++) x[i] = half(dist(rng));
  x[0] = half(2.5f);  // ties for CAST_ROUND (away from zero) and CAST_FLOOR
  x[1] = half(-2.5f);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(cast_roundtrip, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(halves),
              reinterpret_cast<uint8_t*>(ints), blockLength, scale);

  uint32_t bad[6] = {};
  const char modes[4] = {'r', 'f', 'c', 't'};
  for (uint32_t i = 0; i < total; i++) {
    float f = static_cast<float>(x[i]) * scale;
    for (uint32_t p = 0; p < 4; p++)
      if (bits(halves[p * total + i]) != bits(toHalf(f, modes[p]))) ++bad[p];
    if (ints[i] != static_cast<int32_t>(std::round(f))) ++bad[4];
    if (ints[total + i] != static_cast<int32_t>(std::floor(static_cast<float>(x[i])))) ++bad[5];
  }
  uint32_t sum = 0;
  for (uint32_t b : bad) sum += b;
  std::printf(
      "cast_roundtrip: %u elements, mismatches rint %u floor %u ceil %u trunc %u round->s32 %u "
      "floor f16->s32 %u -> %s\n",
      total, bad[0], bad[1], bad[2], bad[3], bad[4], bad[5], sum == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(halves);
  AscendC::GmFree(ints);
  return sum == 0 ? 0 : 1;
}
#endif
