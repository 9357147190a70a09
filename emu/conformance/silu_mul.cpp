// silu_mul: the SwiGLU feed-forward gate of LLM blocks, y = silu(gate) * up on float, with the high-level Silu
// followed by a vector Mul. Double-buffered queues, tiling struct copied from GM, even split over blocks.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct SiluMulTiling {
  uint32_t blockLength;
  uint32_t tileLength;
};

class KernelSiluMul {
 public:
  __aicore__ inline KernelSiluMul() {}
  __aicore__ inline void Init(GM_ADDR gate, GM_ADDR up, GM_ADDR y, const SiluMulTiling& t) {
    tileLength = t.tileLength;
    tileNum = t.blockLength / t.tileLength;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * t.blockLength;
    gateGm.SetGlobalBuffer((__gm__ float*)gate + base, t.blockLength);
    upGm.SetGlobalBuffer((__gm__ float*)up + base, t.blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + base, t.blockLength);
    pipe.InitBuffer(inGate, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(inUp, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outY, BUFFER_NUM, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileNum; i++) {
      LocalTensor<float> g = inGate.AllocTensor<float>();
      LocalTensor<float> u = inUp.AllocTensor<float>();
      DataCopy(g, gateGm[i * tileLength], tileLength);
      DataCopy(u, upGm[i * tileLength], tileLength);
      inGate.EnQue(g);
      inUp.EnQue(u);

      g = inGate.DeQue<float>();
      u = inUp.DeQue<float>();
      LocalTensor<float> yl = outY.AllocTensor<float>();
      Silu(yl, g, tileLength);
      PipeBarrier<PIPE_V>();
      Mul(yl, yl, u, tileLength);
      outY.EnQue(yl);
      inGate.FreeTensor(g);
      inUp.FreeTensor(u);

      yl = outY.DeQue<float>();
      DataCopy(yGm[i * tileLength], yl, tileLength);
      outY.FreeTensor(yl);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inGate, inUp;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outY;
  GlobalTensor<float> gateGm, upGm, yGm;
  uint32_t tileLength = 0, tileNum = 0;
};

extern "C" __global__ __aicore__ void silu_mul_custom(GM_ADDR gate, GM_ADDR up, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  (void)workspace;
  SiluMulTiling t;
  t.blockLength = ((__gm__ uint32_t*)tiling)[0];
  t.tileLength = ((__gm__ uint32_t*)tiling)[1];
  KernelSiluMul op;
  op.Init(gate, up, y, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, blockLength = 4096, total = blockDim * blockLength;
  auto* gate = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* up = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(2 * sizeof(uint32_t)));
  tiling[0] = blockLength;
  tiling[1] = 1024;
  std::mt19937 rng(109);
  std::normal_distribution<float> dist(0.0f, 3.0f);
  for (uint32_t i = 0; i < total; i++) {
    gate[i] = dist(rng);
    up[i] = dist(rng);
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(silu_mul_custom, blockDim, reinterpret_cast<uint8_t*>(gate), reinterpret_cast<uint8_t*>(up),
              reinterpret_cast<uint8_t*>(y), ws, reinterpret_cast<uint8_t*>(tiling));

  double maxRel = 0;
  for (uint32_t i = 0; i < total; i++) {
    double g = gate[i];
    double want = g / (1.0 + std::exp(-g)) * up[i];
    maxRel = std::fmax(maxRel, std::fabs(y[i] - want) / (std::fabs(want) + 1e-6));
  }
  bool ok = maxRel < 1e-5;
  std::printf("silu_mul: %u floats, max rel err %.2g -> %s\n", total, maxRel, ok ? "OK" : "MISMATCH");
  AscendC::GmFree(gate);
  AscendC::GmFree(up);
  AscendC::GmFree(y);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
