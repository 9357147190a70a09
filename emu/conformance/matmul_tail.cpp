// matmul_tail: C[40, 40] (float) = A[40, 72] (half) x B[72, 40] (half) with the basic cube API, where no dimension is
// a multiple of 16. ND->NZ zero-fills each row's columns up to the next 16 (so K's padding multiplies as zero) but
// leaves the padding rows of the last fractals unwritten; the cube reads whole fractals and Fixpipe writes only the
// 40 x 40 real results. One matrix per block, TQue flow.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t M = 40, N = 40, K = 72;
constexpr uint32_t M_PAD = 48, N_PAD = 48, K_PAD = 80;  // rounded up to 16

class KernelMatmulTail {
 public:
  __aicore__ inline KernelMatmulTail() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGm.SetGlobalBuffer((__gm__ half*)a + GetBlockIdx() * M * K, M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b + GetBlockIdx() * K * N, K * N);
    cGm.SetGlobalBuffer((__gm__ float*)c + GetBlockIdx() * M * N, M * N);
    pipe.InitBuffer(qA1, 1, M_PAD * K_PAD * sizeof(half));
    pipe.InitBuffer(qB1, 1, K_PAD * N_PAD * sizeof(half));
    pipe.InitBuffer(qA2, 1, M_PAD * K_PAD * sizeof(half));
    pipe.InitBuffer(qB2, 1, K_PAD * N_PAD * sizeof(half));
    pipe.InitBuffer(qCO1, 1, M_PAD * N_PAD * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M_PAD, 1, 0));
    DataCopy(b1, bGm, Nd2NzParams(1, K, N, 0, N, K_PAD, 1, 0));
    qA1.EnQue(a1);
    qB1.EnQue(b1);

    a1 = qA1.DeQue<half>();
    b1 = qB1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    const uint32_t mBlocks = M_PAD / 16, nBlocks = N_PAD / 16, kBlocks = K_PAD / 16;
    for (uint32_t i = 0; i < mBlocks; i++) {
      LoadData2DParams p;
      p.startIndex = i;
      p.repeatTimes = kBlocks;
      p.srcStride = mBlocks;
      LoadData(a2[i * kBlocks * 256], a1, p);
    }
    for (uint32_t kb = 0; kb < kBlocks; kb++) {
      LoadData2DParams p;
      p.startIndex = kb;
      p.repeatTimes = nBlocks;
      p.srcStride = kBlocks;
      p.ifTranspose = true;
      LoadData(b2[kb * nBlocks * 256], b1, p);
    }
    qA2.EnQue(a2);
    qB2.EnQue(b2);
    qA1.FreeTensor(a1);
    qB1.FreeTensor(b1);

    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    LocalTensor<float> c1 = qCO1.AllocTensor<float>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    Mmad(c1, a2, b2, mp);
    qCO1.EnQue(c1);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);

    c1 = qCO1.DeQue<float>();
    FixpipeParamsV220 fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M_PAD;
    fp.dstStride = N;
    Fixpipe(cGm, c1, fp);
    qCO1.FreeTensor(c1);
  }

 private:
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
};

extern "C" __global__ __aicore__ void matmul_tail(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KernelMatmulTail op;
  op.Init(a, b, c);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2;  // two independent matrices
  auto* a = static_cast<half*>(AscendC::GmAlloc(blockDim * M * K * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(blockDim * K * N * sizeof(half)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(blockDim * M * N * sizeof(float)));
  std::mt19937 rng(149);
  std::uniform_int_distribution<int> dist(-6, 6);
  for (uint32_t i = 0; i < blockDim * M * K; i++) a[i] = half(static_cast<float>(dist(rng)));
  for (uint32_t i = 0; i < blockDim * K * N; i++) b[i] = half(static_cast<float>(dist(rng)));

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_tail, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(c));

  uint32_t bad = 0;
  for (uint32_t blk = 0; blk < blockDim; blk++) {
    const half* ab = a + blk * M * K;
    const half* bb = b + blk * K * N;
    for (uint32_t i = 0; i < M; i++) {
      for (uint32_t j = 0; j < N; j++) {
        float acc = 0.0f;
        for (uint32_t p = 0; p < K; p++) acc += static_cast<float>(ab[i * K + p]) * static_cast<float>(bb[p * N + j]);
        if (c[blk * M * N + i * N + j] != acc) ++bad;
      }
    }
  }
  std::printf("matmul_tail: %u matrices of %ux%ux%u (m x k x n), %u mismatches -> %s\n", blockDim, M, K, N, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return bad == 0 ? 0 : 1;
}
#endif
