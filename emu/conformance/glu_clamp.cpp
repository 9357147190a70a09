// glu_clamp: the half-precision gated FFN activation of LLM blocks with a clamp and a rounded side output,
//   y = ClampMax(SwiGLU(up, gate, beta = 1), 8)      (SwiGLU: up * gate / (1 + exp(-gate)))
//   r = Round(Power(gate, 2))                          (ties to even)
// written with TBufs and the CCE intrinsics set_flag / wait_flag / pipe_barrier instead of TQue, one shared
// temporary buffer for the high-level APIs, KERNEL_TASK_TYPE_DEFAULT, and the clamp bound converted on the scalar
// unit with ScalarCast (round to odd).
#include "kernel_operator.h"

using namespace AscendC;

struct GluTiling {
  uint32_t blockLength;  // elements per core, a multiple of tileLength
  uint32_t tileLength;   // a multiple of 16 (32 bytes of half), as SwiGLU requires
  float clampBound;
};

class KernelGluClamp {
 public:
  __aicore__ inline KernelGluClamp() {}
  __aicore__ inline void Init(GM_ADDR gate, GM_ADDR up, GM_ADDR y, GM_ADDR r, const GluTiling& t) {
    tile = t.tileLength;
    tiles = t.blockLength / t.tileLength;
    bound = ScalarCast<float, half, RoundMode::CAST_ODD>(t.clampBound);
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * t.blockLength;
    gateGm.SetGlobalBuffer((__gm__ half*)gate + base, t.blockLength);
    upGm.SetGlobalBuffer((__gm__ half*)up + base, t.blockLength);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, t.blockLength);
    rGm.SetGlobalBuffer((__gm__ half*)r + base, t.blockLength);
    pipe.InitBuffer(gateBuf, tile * sizeof(half));
    pipe.InitBuffer(upBuf, tile * sizeof(half));
    pipe.InitBuffer(yBuf, tile * sizeof(half));
    pipe.InitBuffer(rBuf, tile * sizeof(half));
    pipe.InitBuffer(tmpBuf, 3 * tile * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> g = gateBuf.Get<half>();
    LocalTensor<half> u = upBuf.Get<half>();
    LocalTensor<half> yl = yBuf.Get<half>();
    LocalTensor<half> rl = rBuf.Get<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    const half two = half(2.0f);
    for (uint32_t i = 0; i < tiles; i++) {
      if (i > 0) wait_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);  // the previous tile's inputs are consumed
      DataCopy(g, gateGm[i * tile], tile);
      DataCopy(u, upGm[i * tile], tile);
      set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
      if (i > 0) wait_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);  // the previous tile's outputs are copied out

      SwiGLU<half>(yl, u, g, 1.0f, tmp, tile);
      pipe_barrier(PIPE_V);
      ClampMax(yl, yl, tmp, bound, tile);
      pipe_barrier(PIPE_V);
      Power(rl, g, two, tmp, tile);
      pipe_barrier(PIPE_V);
      Round(rl, rl, tmp, tile);
      if (i + 1 < tiles) set_flag(PIPE_V, PIPE_MTE2, EVENT_ID0);

      set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
      DataCopy(yGm[i * tile], yl, tile);
      DataCopy(rGm[i * tile], rl, tile);
      if (i + 1 < tiles) set_flag(PIPE_MTE3, PIPE_V, EVENT_ID0);
    }
  }

 private:
  TPipe pipe;
  TBuf<QuePosition::VECCALC> gateBuf, upBuf, yBuf, rBuf, tmpBuf;
  GlobalTensor<half> gateGm, upGm, yGm, rGm;
  uint32_t tile = 0, tiles = 0;
  half bound;
};

extern "C" __global__ __aicore__ void glu_clamp(GM_ADDR gate, GM_ADDR up, GM_ADDR y, GM_ADDR r, GM_ADDR workspace,
                                                GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  (void)GetUserWorkspace(workspace);
  GluTiling t;
  t.blockLength = ((__gm__ uint32_t*)tiling)[0];
  t.tileLength = ((__gm__ uint32_t*)tiling)[1];
  t.clampBound = ((__gm__ float*)tiling)[2];
  KernelGluClamp op;
  op.Init(gate, up, y, r, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, blockLength = 2048, tileLength = 512, total = blockDim * blockLength;
  auto* gate = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* up = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* y = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* r = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(3 * sizeof(uint32_t)));
  tiling[0] = blockLength;
  tiling[1] = tileLength;
  float bound = 8.0f;
  std::memcpy(&tiling[2], &bound, sizeof(float));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (uint32_t i = 0; i < total; i++) {
    gate[i] = half(dist(rng));
    up[i] = half(dist(rng));
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(glu_clamp, blockDim, reinterpret_cast<uint8_t*>(gate), reinterpret_cast<uint8_t*>(up),
              reinterpret_cast<uint8_t*>(y), reinterpret_cast<uint8_t*>(r), ws, reinterpret_cast<uint8_t*>(tiling));

  // y: within 2 half ulps of the double value (the device computes SwiGLU in float and rounds once; the clamp is
  // exact). r: Round of gate^2 as the device computes it, the square rounded to half first, then ties to even.
  double maxUlps = 0;
  uint32_t roundWrong = 0;
  for (uint32_t i = 0; i < total; i++) {
    double g = static_cast<float>(gate[i]), u = static_cast<float>(up[i]);
    double want = std::fmin(u * g / (1.0 + std::exp(-g)), 8.0);
    double ulp = std::ldexp(1.0, std::max(std::ilogb(std::fabs(want) + 1e-30), -14) - 10);
    maxUlps = std::fmax(maxUlps, std::fabs(static_cast<float>(y[i]) - want) / ulp);
    double sq = static_cast<float>(half(static_cast<float>(g * g)));
    if (static_cast<float>(r[i]) != std::nearbyint(sq)) roundWrong++;
  }
  bool ok = maxUlps <= 2.0 && roundWrong == 0;
  std::printf("glu_clamp: %u halves, max %.2f half ulps, %u rounds wrong -> %s\n", total, maxUlps, roundWrong,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(gate);
  AscendC::GmFree(up);
  AscendC::GmFree(y);
  AscendC::GmFree(r);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
