// activations: four outputs from one float input, the way an LLM writes a fused activation kernel: Relu (basic API),
// Gelu, Sigmoid with a caller-provided shared temporary buffer, and Tanh (high-level APIs). Direct-launch style:
// scalar kernel arguments, no tiling struct, every block handles blockLength elements in tiles of TILE.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 1024;

class KernelActivations {
 public:
  __aicore__ inline KernelActivations() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR relu, GM_ADDR gelu, GM_ADDR sigmoid, GM_ADDR tanh,
                              uint32_t blockLength) {
    this->blockLength = blockLength;
    uint64_t offset = static_cast<uint64_t>(blockLength) * GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + offset, blockLength);
    reluGm.SetGlobalBuffer((__gm__ float*)relu + offset, blockLength);
    geluGm.SetGlobalBuffer((__gm__ float*)gelu + offset, blockLength);
    sigmoidGm.SetGlobalBuffer((__gm__ float*)sigmoid + offset, blockLength);
    tanhGm.SetGlobalBuffer((__gm__ float*)tanh + offset, blockLength);
    pipe.InitBuffer(inQueue, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(outQueue, BUFFER_NUM, 4 * TILE * sizeof(float));
    pipe.InitBuffer(tmpBuf, 4 * TILE * sizeof(float));  // generous: Sigmoid needs far less
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLength / TILE; i++) {
      LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
      DataCopy(xLocal, xGm[i * TILE], TILE);
      inQueue.EnQue(xLocal);

      xLocal = inQueue.DeQue<float>();
      LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
      LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
      Relu(yLocal, xLocal, TILE);
      Gelu(yLocal[TILE], xLocal, TILE);
      Sigmoid(yLocal[2 * TILE], xLocal, tmp, TILE);
      Tanh(yLocal[3 * TILE], xLocal, TILE);
      outQueue.EnQue(yLocal);
      inQueue.FreeTensor(xLocal);

      yLocal = outQueue.DeQue<float>();
      DataCopy(reluGm[i * TILE], yLocal, TILE);
      DataCopy(geluGm[i * TILE], yLocal[TILE], TILE);
      DataCopy(sigmoidGm[i * TILE], yLocal[2 * TILE], TILE);
      DataCopy(tanhGm[i * TILE], yLocal[3 * TILE], TILE);
      outQueue.FreeTensor(yLocal);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
  TBuf<QuePosition::VECCALC> tmpBuf;
  GlobalTensor<float> xGm, reluGm, geluGm, sigmoidGm, tanhGm;
  uint32_t blockLength = 0;
};

extern "C" __global__ __aicore__ void activations(GM_ADDR x, GM_ADDR relu, GM_ADDR gelu, GM_ADDR sigmoid, GM_ADDR tanh,
                                                  uint32_t blockLength) {
  KernelActivations op;
  op.Init(x, relu, gelu, sigmoid, tanh, blockLength);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4;
  constexpr uint32_t blockLength = 2 * TILE;
  constexpr uint32_t total = blockDim * blockLength;
  float* bufs[5];
  for (auto& b : bufs) b = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-6.0f, 6.0f);
  for (uint32_t i = 0; i < total; i++) bufs[0][i] = dist(rng);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(activations, blockDim, reinterpret_cast<uint8_t*>(bufs[0]), reinterpret_cast<uint8_t*>(bufs[1]),
              reinterpret_cast<uint8_t*>(bufs[2]), reinterpret_cast<uint8_t*>(bufs[3]),
              reinterpret_cast<uint8_t*>(bufs[4]), blockLength);

  // Relu is exact. Gelu is the tanh approximation the documentation gives (x * sigmoid(1.5957691 * (x +
  // 0.044715 x^3))); the transcendental ones are compared with an absolute tolerance.
  uint32_t reluBad = 0;
  double geluErr = 0, sigErr = 0, tanhErr = 0;
  for (uint32_t i = 0; i < total; i++) {
    double x = bufs[0][i];
    if (bufs[1][i] != (bufs[0][i] > 0.0f ? bufs[0][i] : 0.0f)) ++reluBad;
    double gelu = x / (1.0 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
    geluErr = std::fmax(geluErr, std::fabs(bufs[2][i] - gelu));
    sigErr = std::fmax(sigErr, std::fabs(bufs[3][i] - 1.0 / (1.0 + std::exp(-x))));
    tanhErr = std::fmax(tanhErr, std::fabs(bufs[4][i] - std::tanh(x)));
  }
  bool ok = reluBad == 0 && geluErr < 1e-5 && sigErr < 1e-6 && tanhErr < 1e-6;
  std::printf("activations: %u floats, relu mismatches %u, max err gelu %.2g sigmoid %.2g tanh %.2g -> %s\n", total,
              reluBad, geluErr, sigErr, tanhErr, ok ? "OK" : "MISMATCH");
  for (auto& b : bufs) AscendC::GmFree(b);
  return ok ? 0 : 1;
}
#endif
