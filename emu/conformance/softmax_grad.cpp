// softmax_grad: the backward pass of a row softmax, as attention-backward kernels write it with the high-level API,
//   dx = y * (dy - rowsum(dy * y))         SoftmaxGrad<float> over rows padded to 32 bytes (oriSrcK real columns)
//   s  = rowsum(dy * y), one 32-byte block per row   SoftmaxGradFront<half> on the same rows in half
// Rows of 40 real columns in 48, 8 rows per core, TQue in and out, one shared temporary buffer for both calls, and
// a default (empty) SoftMaxTiling: with SoftMaxShapeInfo set, CANN's library derives the split itself.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kRows = 8, kCols = 48, kReal = 40, kTile = kRows * kCols;

class KernelSoftmaxGrad {
 public:
  __aicore__ inline KernelSoftmaxGrad() {}
  __aicore__ inline void Init(GM_ADDR y, GM_ADDR dy, GM_ADDR yh, GM_ADDR dyh, GM_ADDR dx, GM_ADDR s) {
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * kTile;
    yGm.SetGlobalBuffer((__gm__ float*)y + base, kTile);
    dyGm.SetGlobalBuffer((__gm__ float*)dy + base, kTile);
    yhGm.SetGlobalBuffer((__gm__ half*)yh + base, kTile);
    dyhGm.SetGlobalBuffer((__gm__ half*)dyh + base, kTile);
    dxGm.SetGlobalBuffer((__gm__ float*)dx + base, kTile);
    sGm.SetGlobalBuffer((__gm__ half*)s + static_cast<uint64_t>(GetBlockIdx()) * kRows * 16, kRows * 16);
    pipe.InitBuffer(inQueue, 1, 2 * kTile * sizeof(float) + 2 * kTile * sizeof(half));
    pipe.InitBuffer(outQueue, 1, kTile * sizeof(float) + kRows * 16 * sizeof(half));
    pipe.InitBuffer(tmpBuf, kRows * (3 * kCols + 2 * 16 + 64) * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<uint8_t> in = inQueue.AllocTensor<uint8_t>();
    LocalTensor<float> yl = in.ReinterpretCast<float>();
    LocalTensor<float> dyl = yl[kTile];
    LocalTensor<half> yhl = in[4 * 2 * kTile].ReinterpretCast<half>();
    LocalTensor<half> dyhl = yhl[kTile];
    DataCopy(yl, yGm, kTile);
    DataCopy(dyl, dyGm, kTile);
    DataCopy(yhl, yhGm, kTile);
    DataCopy(dyhl, dyhGm, kTile);
    inQueue.EnQue(in);
    in = inQueue.DeQue<uint8_t>();

    LocalTensor<uint8_t> out = outQueue.AllocTensor<uint8_t>();
    LocalTensor<float> dxl = out.ReinterpretCast<float>();
    LocalTensor<half> sl = out[4 * kTile].ReinterpretCast<half>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    SoftMaxTiling tiling{};
    SoftMaxShapeInfo shape = {kRows, kCols, kRows, kReal};
    SoftmaxGrad<float>(dxl, dyl, yl, tmp, tiling, false, shape);
    PipeBarrier<PIPE_V>();
    SoftmaxGradFront<half>(sl, dyhl, yhl, tmp, tiling, shape);
    outQueue.EnQue(out);
    inQueue.FreeTensor(in);

    out = outQueue.DeQue<uint8_t>();
    DataCopy(dxGm, out.ReinterpretCast<float>(), kTile);
    DataCopy(sGm, out[4 * kTile].ReinterpretCast<half>(), kRows * 16);
    outQueue.FreeTensor(out);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> tmpBuf;
  GlobalTensor<float> yGm, dyGm, dxGm;
  GlobalTensor<half> yhGm, dyhGm, sGm;
};

extern "C" __global__ __aicore__ void softmax_grad(GM_ADDR y, GM_ADDR dy, GM_ADDR yh, GM_ADDR dyh, GM_ADDR dx,
                                                   GM_ADDR s) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KernelSoftmaxGrad op;
  op.Init(y, dy, yh, dyh, dx, s);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 3, total = blockDim * kTile, sums = blockDim * kRows * 16;
  auto* y = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* dy = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* yh = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* dyh = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  auto* dx = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* s = static_cast<half*>(AscendC::GmAlloc(sums * sizeof(half)));
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> prob(0.0f, 0.05f), grad(-1.0f, 1.0f);
  for (uint32_t i = 0; i < total; i++) {
    bool real = i % kCols < kReal;
    y[i] = real ? prob(rng) : 0.0f;  // a softmax output, zero in the padding
    dy[i] = real ? grad(rng) : 0.0f;
    yh[i] = half(y[i]);
    dyh[i] = half(dy[i]);
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(softmax_grad, blockDim, reinterpret_cast<uint8_t*>(y), reinterpret_cast<uint8_t*>(dy),
              reinterpret_cast<uint8_t*>(yh), reinterpret_cast<uint8_t*>(dyh), reinterpret_cast<uint8_t*>(dx),
              reinterpret_cast<uint8_t*>(s));

  // Against double: dx within 1e-6 absolute (float products and a 40-term sum), each row's half sum within one
  // half ulp of the double sum of the half inputs' products, repeated over its 16-element block.
  double maxDx = 0, maxUlps = 0;
  uint32_t blockWrong = 0;
  for (uint32_t r = 0; r < blockDim * kRows; r++) {
    double sum = 0, sumHalf = 0;
    for (uint32_t j = 0; j < kReal; j++) {
      sum += static_cast<double>(dy[r * kCols + j]) * y[r * kCols + j];
      sumHalf += static_cast<double>(static_cast<float>(dyh[r * kCols + j])) * static_cast<float>(yh[r * kCols + j]);
    }
    for (uint32_t j = 0; j < kCols; j++) {
      const uint32_t i = r * kCols + j;
      maxDx = std::fmax(maxDx, std::fabs(dx[i] - y[i] * (dy[i] - sum)));
    }
    const double ulp = std::ldexp(1.0, std::max(std::ilogb(std::fabs(sumHalf) + 1e-30), -14) - 10);
    maxUlps = std::fmax(maxUlps, std::fabs(static_cast<float>(s[r * 16]) - sumHalf) / ulp);
    for (uint32_t j = 1; j < 16; j++) blockWrong += static_cast<float>(s[r * 16 + j]) != static_cast<float>(s[r * 16]);
  }
  bool ok = maxDx <= 1e-6 && maxUlps <= 1.0 && blockWrong == 0;
  std::printf("softmax_grad: %u rows, dx max abs error %.2e, sum max %.2f half ulps, %u block lanes differ -> %s\n",
              blockDim * kRows, maxDx, maxUlps, blockWrong, ok ? "OK" : "MISMATCH");
  AscendC::GmFree(y);
  AscendC::GmFree(dy);
  AscendC::GmFree(yh);
  AscendC::GmFree(dyh);
  AscendC::GmFree(dx);
  AscendC::GmFree(s);
  return ok ? 0 : 1;
}
#endif
