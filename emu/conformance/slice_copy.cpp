// slice_copy: multi-dimensional DataCopy with SliceInfo. Each core takes a [4, 6, 64] float block of a 3-D tensor
// and copies out a strided window: every second row of dimension 1 (rows 1, 3, 5), columns 16..47 of dimension 0,
// all of dimension 2, packed densely in UB; adds 1; and writes the window back into the same places of the output
// (which starts as a copy of the input, so everything outside the window is unchanged). The window's UB side also
// goes out once more in NZ order through DataCopy with Nz2NdParamsFull, as 16-column strips of the packed rows.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t D0 = 64, D1 = 6, D2 = 4;  // innermost first
constexpr uint32_t W0 = 32, W1 = 3;          // window: 32 columns x 3 rows x 4 planes

class KernelSliceCopy {
 public:
  __aicore__ inline KernelSliceCopy() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR nz) {
    uint32_t b = GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + b * D0 * D1 * D2, D0 * D1 * D2);
    yGm.SetGlobalBuffer((__gm__ float*)y + b * D0 * D1 * D2, D0 * D1 * D2);
    nzGm.SetGlobalBuffer((__gm__ float*)nz + b * W0 * W1 * D2, W0 * W1 * D2);
    pipe.InitBuffer(inQueue, 1, W0 * W1 * D2 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, W0 * W1 * D2 * sizeof(float));
  }
  __aicore__ inline void Process() {
    SliceInfo gmSlice[] = {{16, 16 + W0 - 1, 0, W0 * sizeof(float) / 32, D0}, {1, 5, 1, 1, D1}, {0, D2 - 1, 0, 1, D2}};
    SliceInfo ubSlice[] = {{0, W0 - 1, 0, W0 * sizeof(float) / 32, W0}, {0, W1 - 1, 0, 1, W1}, {0, D2 - 1, 0, 1, D2}};
    LocalTensor<float> in = inQueue.AllocTensor<float>();
    DataCopy(in, xGm, ubSlice, gmSlice, 3);
    inQueue.EnQue(in);
    in = inQueue.DeQue<float>();
    LocalTensor<float> out = outQueue.AllocTensor<float>();
    Adds(out, in, 1.0f, W0 * W1 * D2);
    outQueue.EnQue(out);
    inQueue.FreeTensor(in);
    out = outQueue.DeQue<float>();
    DataCopy(yGm, out, gmSlice, ubSlice, 3);
    // The packed window as NZ: strip b of 16 columns has W1 * D2 rows of 16 floats, W0 / 16 strips.
    Nz2NdParamsFull nz(1, W1 * D2, W0, 0, W1 * D2, W0, 0);
    DataCopy(nzGm, out, nz);
    outQueue.FreeTensor(out);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  GlobalTensor<float> xGm, yGm, nzGm;
};

extern "C" __global__ __aicore__ void slice_copy(GM_ADDR x, GM_ADDR y, GM_ADDR nz) {
  KernelSliceCopy op;
  op.Init(x, y, nz);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>

int main() {
  constexpr uint32_t blockDim = 2, per = D0 * D1 * D2, win = W0 * W1 * D2;
  auto* x = static_cast<float*>(AscendC::GmAlloc(blockDim * per * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(blockDim * per * sizeof(float)));
  auto* nz = static_cast<float*>(AscendC::GmAlloc(blockDim * win * sizeof(float)));
  for (uint32_t i = 0; i < blockDim * per; i++) {
    x[i] = static_cast<float>(i % 1000) * 0.5f;
    y[i] = x[i];
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(slice_copy, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(nz));

  uint32_t bad = 0;
  for (uint32_t b = 0; b < blockDim; b++) {
    for (uint32_t k = 0; k < D2; k++)
      for (uint32_t r = 0; r < D1; r++)
        for (uint32_t c = 0; c < D0; c++) {
          uint32_t i = b * per + (k * D1 + r) * D0 + c;
          bool inWindow = (r == 1 || r == 3 || r == 5) && c >= 16 && c < 16 + W0;
          if (y[i] != x[i] + (inWindow ? 1.0f : 0.0f)) ++bad;
        }
    // Nz2Nd reads the packed UB rows as NZ strips: GM row p, column c comes from UB element
    // (c / 16) * (W1 * D2) * 16 + p * 16 + c % 16, which holds packed element (plane, window row, column).
    for (uint32_t p = 0; p < W1 * D2; p++)
      for (uint32_t c = 0; c < W0; c++) {
        uint32_t ub = (c / 16) * (W1 * D2) * 16 + p * 16 + c % 16;
        uint32_t k = ub / W0 / W1, r = 1 + 2 * (ub / W0 % W1), col = 16 + ub % W0;
        if (nz[b * win + p * W0 + c] != x[b * per + (k * D1 + r) * D0 + col] + 1.0f) ++bad;
      }
  }
  std::printf("slice_copy: %u blocks of %ux%ux%u floats, window %ux%ux%u, %u wrong -> %s\n", blockDim, D2, D1, D0, D2,
              W1, W0, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(nz);
  return bad == 0 ? 0 : 1;
}
#endif
