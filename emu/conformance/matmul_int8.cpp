// matmul_int8: quantized GEMM C[M, N] (int32) = A[M, K] (int8) x W[N, K]^T (int8), the weight stored [N, K] as
// quantized linear layers keep it. Classic TQue cube flow: GM -> A1/B1 (ND -> NZ), A1 -> A2 per 16-row block
// (Zz), B1 -> B2 in one LoadData (the NZ layout of W already is the Zn layout of W^T, so no transpose), Mmad
// int8 x int8 -> int32 into CO1, Fixpipe to ND int32 in GM. One 32-row band of C per block.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BAND_M = 32, N = 48, K = 96;
constexpr uint32_t C0 = 32;               // int8 elements per fractal row (32 bytes)
constexpr uint32_t FRAC_ELEMS = 16 * C0;  // one 512-byte fractal

class KernelMatmulInt8 {
 public:
  __aicore__ inline KernelMatmulInt8() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR w, GM_ADDR c) {
    aGm.SetGlobalBuffer((__gm__ int8_t*)a + GetBlockIdx() * BAND_M * K, BAND_M * K);
    wGm.SetGlobalBuffer((__gm__ int8_t*)w, N * K);
    cGm.SetGlobalBuffer((__gm__ int32_t*)c + GetBlockIdx() * BAND_M * N, BAND_M * N);
    pipe.InitBuffer(inQueueA1, 1, BAND_M * K);
    pipe.InitBuffer(inQueueB1, 1, N * K);
    pipe.InitBuffer(inQueueA2, 1, BAND_M * K);
    pipe.InitBuffer(inQueueB2, 1, N * K);
    pipe.InitBuffer(outQueueCO1, 1, BAND_M * N * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    CopyIn();
    SplitA();
    SplitB();
    Compute();
    CopyOut();
  }

 private:
  __aicore__ inline void CopyIn() {
    LocalTensor<int8_t> a1 = inQueueA1.AllocTensor<int8_t>();
    LocalTensor<int8_t> b1 = inQueueB1.AllocTensor<int8_t>();
    Nd2NzParams aParams;
    aParams.ndNum = 1;
    aParams.nValue = BAND_M;
    aParams.dValue = K;
    aParams.srcNdMatrixStride = 0;
    aParams.srcDValue = K;
    aParams.dstNzC0Stride = BAND_M;
    aParams.dstNzNStride = 1;
    aParams.dstNzMatrixStride = 0;
    DataCopy(a1, aGm, aParams);
    Nd2NzParams bParams = aParams;
    bParams.nValue = N;
    bParams.dstNzC0Stride = N;
    DataCopy(b1, wGm, bParams);
    inQueueA1.EnQue(a1);
    inQueueB1.EnQue(b1);
  }
  __aicore__ inline void SplitA() {
    LocalTensor<int8_t> a1 = inQueueA1.DeQue<int8_t>();
    LocalTensor<int8_t> a2 = inQueueA2.AllocTensor<int8_t>();
    const uint32_t mBlocks = BAND_M / 16, kBlocks = K / C0;
    for (uint32_t i = 0; i < mBlocks; i++) {
      LoadData2DParams p;
      p.startIndex = i;
      p.repeatTimes = kBlocks;
      p.srcStride = mBlocks;
      p.ifTranspose = false;
      LoadData(a2[i * kBlocks * FRAC_ELEMS], a1, p);
    }
    inQueueA2.EnQue(a2);
    inQueueA1.FreeTensor(a1);
  }
  __aicore__ inline void SplitB() {
    LocalTensor<int8_t> b1 = inQueueB1.DeQue<int8_t>();
    LocalTensor<int8_t> b2 = inQueueB2.AllocTensor<int8_t>();
    LoadData2DParams p;
    p.startIndex = 0;
    p.repeatTimes = (N / 16) * (K / C0);
    p.srcStride = 1;
    p.ifTranspose = false;
    LoadData(b2, b1, p);
    inQueueB2.EnQue(b2);
    inQueueB1.FreeTensor(b1);
  }
  __aicore__ inline void Compute() {
    LocalTensor<int8_t> a2 = inQueueA2.DeQue<int8_t>();
    LocalTensor<int8_t> b2 = inQueueB2.DeQue<int8_t>();
    LocalTensor<int32_t> c1 = outQueueCO1.AllocTensor<int32_t>();
    Mmad(c1, a2, b2, {BAND_M, N, K, false, 0, false, false, false});
    outQueueCO1.EnQue(c1);
    inQueueA2.FreeTensor(a2);
    inQueueB2.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut() {
    LocalTensor<int32_t> c1 = outQueueCO1.DeQue<int32_t>();
    FixpipeParamsV220 params;
    params.nSize = N;
    params.mSize = BAND_M;
    params.srcStride = BAND_M;
    params.dstStride = N;
    params.ndNum = 1;
    params.srcNdStride = 0;
    params.dstNdStride = 0;
    Fixpipe(cGm, c1, params);
    outQueueCO1.FreeTensor(c1);
  }

  TPipe pipe;
  TQue<QuePosition::A1, 1> inQueueA1;
  TQue<QuePosition::B1, 1> inQueueB1;
  TQue<QuePosition::A2, 1> inQueueA2;
  TQue<QuePosition::B2, 1> inQueueB2;
  TQue<QuePosition::CO1, 1> outQueueCO1;
  GlobalTensor<int8_t> aGm, wGm;
  GlobalTensor<int32_t> cGm;
};

extern "C" __global__ __aicore__ void matmul_int8(GM_ADDR a, GM_ADDR w, GM_ADDR c) {
  KernelMatmulInt8 op;
  op.Init(a, w, c);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, m = blockDim * BAND_M;
  auto* a = static_cast<int8_t*>(AscendC::GmAlloc(m * K));
  auto* w = static_cast<int8_t*>(AscendC::GmAlloc(N * K));
  auto* c = static_cast<int32_t*>(AscendC::GmAlloc(m * N * sizeof(int32_t)));
  std::mt19937 rng(137);
  std::uniform_int_distribution<int> dist(-128, 127);
  for (uint32_t i = 0; i < m * K; i++) a[i] = static_cast<int8_t>(dist(rng));
  for (uint32_t i = 0; i < N * K; i++) w[i] = static_cast<int8_t>(dist(rng));

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_int8, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(w),
              reinterpret_cast<uint8_t*>(c));

  uint32_t bad = 0;
  for (uint32_t i = 0; i < m; i++) {
    for (uint32_t j = 0; j < N; j++) {
      int32_t acc = 0;
      for (uint32_t p = 0; p < K; p++) acc += int32_t{a[i * K + p]} * int32_t{w[j * K + p]};
      if (c[i * N + j] != acc) ++bad;
    }
  }
  std::printf("matmul_int8: %ux%ux%u (m x k x n) int8 -> int32 on %u AIC, %u mismatches -> %s\n", m, K, N, blockDim,
              bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(w);
  AscendC::GmFree(c);
  return bad == 0 ? 0 : 1;
}
#endif
