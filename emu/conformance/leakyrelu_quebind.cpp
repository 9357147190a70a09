// leakyrelu_quebind: in-place LeakyRelu through one TQueBind<VECIN, VECOUT> queue per core (no separate output
// queue: the tile goes GM -> UB, is rewritten in place, and goes back out from the same buffer; EnQue/DeQue with
// explicit <src, dst> positions), a plain copy through a second bound queue, float data, the
// negative slope passed as a scalar kernel argument, a short last tile per core, and DataCopyPad for it.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE = 1024;

class KernelLeakyRelu {
 public:
  __aicore__ inline KernelLeakyRelu() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR copy, uint32_t totalLength, float alpha) {
    const uint32_t blocks = GetBlockNum();
    const uint32_t perCore = (totalLength + blocks - 1) / blocks;
    const uint32_t start = perCore * GetBlockIdx();
    length = start >= totalLength ? 0 : (totalLength - start < perCore ? totalLength - start : perCore);
    slope = alpha;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
    copyGm.SetGlobalBuffer((__gm__ float*)copy + start, length);
    pipe.InitBuffer(queBind, BUFFER_NUM, TILE * sizeof(float));
    pipe.InitBuffer(copyQue, 1, TILE * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < length; off += TILE) {
      const uint32_t n = length - off < TILE ? length - off : TILE;
      LocalTensor<float> t = queBind.AllocTensor<float>();
      DataCopyExtParams inParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
      DataCopyPadExtParams<float> pad{false, 0, 0, 0};
      DataCopyPad(t, xGm[off], inParams, pad);
      // The bound queue's own hand-over is MTE2 -> MTE3 (a pure copy); naming the positions makes the two
      // hand-overs around the in-place compute MTE2 -> V and V -> MTE3.
      queBind.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
      t = queBind.DeQue<TPosition::GM, TPosition::VECIN, float>();
      LeakyRelu(t, t, slope, static_cast<int32_t>(n));
      queBind.EnQue<TPosition::VECOUT, TPosition::GM, float>(t);
      t = queBind.DeQue<TPosition::VECOUT, TPosition::GM, float>();
      DataCopyPad(yGm[off], t, inParams);
      queBind.FreeTensor(t);

      LocalTensor<float> c = copyQue.AllocTensor<float>();
      DataCopyPad(c, xGm[off], inParams, pad);
      copyQue.EnQue(c);
      c = copyQue.DeQue<float>();
      DataCopyPad(copyGm[off], c, inParams);
      copyQue.FreeTensor(c);
    }
  }

 private:
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> queBind;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> copyQue;
  GlobalTensor<float> xGm, yGm, copyGm;
  uint32_t length = 0;
  float slope = 0.0f;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR copy, uint32_t totalLength,
                                                        float alpha) {
  KernelLeakyRelu op;
  op.Init(x, y, copy, totalLength, alpha);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 6, total = 6 * 2500 - 7;
  constexpr float alpha = 0.01f;
  auto* x = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* copy = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-50.0f, 50.0f);
  for (uint32_t i = 0; i < total; i++) x[i] = dist(rng);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(leaky_relu_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(copy), total, alpha);
  // One float multiply per negative element: exactly rounded, so the comparison is bit for bit.
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    const float want = x[i] >= 0.0f ? x[i] : x[i] * alpha;
    if (std::memcmp(&want, &y[i], sizeof(float)) != 0 || std::memcmp(&x[i], &copy[i], sizeof(float)) != 0) ++bad;
  }
  std::printf("leakyrelu_quebind: %u floats on %u cores, %u wrong -> %s\n", total, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(copy);
  return bad == 0 ? 0 : 1;
}
#endif
