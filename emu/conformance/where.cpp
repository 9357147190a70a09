// where: two select kernels fused in one pass over half tensors.
//   z = (x > y) ? x : y * 0.5        Compare (GT) into a bit mask, Muls, Select in tensor-tensor mode
//   w = (x >= 0) ? x : 0.125         CompareScalar (GE) into a bit mask, Select in tensor-scalar mode
// The count forms of Compare need count * sizeof(half) to be a multiple of 256 bytes: tiles are 1024 elements.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TILE = 1024;

class KernelWhere {
 public:
  __aicore__ inline KernelWhere() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, uint32_t blockLength) {
    len = blockLength;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * blockLength;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, len);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, len);
    zGm.SetGlobalBuffer((__gm__ half*)z + base, len);
    wGm.SetGlobalBuffer((__gm__ half*)w + base, len);
    pipe.InitBuffer(inX, 2, TILE * sizeof(half));
    pipe.InitBuffer(inY, 2, TILE * sizeof(half));
    pipe.InitBuffer(outZ, 2, TILE * sizeof(half));
    pipe.InitBuffer(outW, 2, TILE * sizeof(half));
    pipe.InitBuffer(maskBuf, TILE / 8);
    pipe.InitBuffer(halfBuf, TILE * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t t = 0; t < len / TILE; t++) {
      LocalTensor<half> xl = inX.AllocTensor<half>();
      LocalTensor<half> yl = inY.AllocTensor<half>();
      DataCopy(xl, xGm[t * TILE], TILE);
      DataCopy(yl, yGm[t * TILE], TILE);
      inX.EnQue(xl);
      inY.EnQue(yl);
      xl = inX.DeQue<half>();
      yl = inY.DeQue<half>();

      LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
      LocalTensor<half> halfY = halfBuf.Get<half>();
      LocalTensor<half> zl = outZ.AllocTensor<half>();
      LocalTensor<half> wl = outW.AllocTensor<half>();
      Compare(mask, xl, yl, CMPMODE::GT, TILE);
      Muls(halfY, yl, static_cast<half>(0.5f), TILE);
      PipeBarrier<PIPE_V>();
      Select(zl, mask, xl, halfY, SELMODE::VSEL_TENSOR_TENSOR_MODE, TILE);
      PipeBarrier<PIPE_V>();
      CompareScalar(mask, xl, static_cast<half>(0.0f), CMPMODE::GE, TILE);
      PipeBarrier<PIPE_V>();
      Select(wl, mask, xl, static_cast<half>(0.125f), SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE);
      outZ.EnQue(zl);
      outW.EnQue(wl);
      inX.FreeTensor(xl);
      inY.FreeTensor(yl);

      zl = outZ.DeQue<half>();
      wl = outW.DeQue<half>();
      DataCopy(zGm[t * TILE], zl, TILE);
      DataCopy(wGm[t * TILE], wl, TILE);
      outZ.FreeTensor(zl);
      outW.FreeTensor(wl);
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inX, inY;
  TQue<QuePosition::VECOUT, 1> outZ, outW;
  TBuf<QuePosition::VECCALC> maskBuf, halfBuf;
  GlobalTensor<half> xGm, yGm, zGm, wGm;
  uint32_t len = 0;
};

extern "C" __global__ __aicore__ void where_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, uint32_t blockLength) {
  KernelWhere op;
  op.Init(x, y, z, w, blockLength);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, blockLength = 3 * TILE, total = blockDim * blockLength;
  half* bufs[4];
  for (auto& b : bufs) b = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  std::mt19937 rng(61);
  std::uniform_int_distribution<int> coin(0, 9);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  for (uint32_t i = 0; i < total; i++) {
    bufs[0][i] = half(dist(rng));
    bufs[1][i] = coin(rng) == 0 ? bufs[0][i] : half(dist(rng));  // some equal pairs: GT must be strict
  }
  bufs[0][5] = half(0.0f);  // GE 0 at exactly zero
  bufs[0][6] = half(-0.0f);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(where_custom, blockDim, reinterpret_cast<uint8_t*>(bufs[0]), reinterpret_cast<uint8_t*>(bufs[1]),
              reinterpret_cast<uint8_t*>(bufs[2]), reinterpret_cast<uint8_t*>(bufs[3]), blockLength);

  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    float x = static_cast<float>(bufs[0][i]), y = static_cast<float>(bufs[1][i]);
    half z = x > y ? bufs[0][i] : half(y * 0.5f);
    half w = x >= 0.0f ? bufs[0][i] : half(0.125f);
    if (bufs[2][i].val != z.val || bufs[3][i].val != w.val) ++bad;
  }
  std::printf("where: %u half elements, %u mismatches -> %s\n", total, bad, bad == 0 ? "OK" : "MISMATCH");
  for (auto& b : bufs) AscendC::GmFree(b);
  return bad == 0 ? 0 : 1;
}
#endif
