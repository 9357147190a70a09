// matmul_cube: C[M, N] (float) = A[M, K] (half) x B[K, N] (half) on the cube unit with the basic API
// (ascendc_api.md §4.3): GM -> L1 with ND->NZ DataCopy, L1 -> L0A/L0B with LoadData (B transposed per fractal into
// Zn), Mmad into L0C accumulating over K steps, Fixpipe L0C -> GM back to ND. Each block computes a band of rows.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t FRACTAL = 16;                         // rows and half columns of one 512-byte fractal
constexpr uint32_t FRACTAL_ELEMS = FRACTAL * FRACTAL;    // half elements per fractal

struct MatmulTiling {
  uint32_t m, n, k;  // whole problem; m is split over blocks
  uint32_t baseK;    // K consumed per Mmad; all sizes multiples of 16
};

__aicore__ inline void CopyTiling(MatmulTiling* tiling, GM_ADDR tilingGm) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  auto dst = reinterpret_cast<uint32_t*>(tiling);
  for (size_t i = 0; i < sizeof(MatmulTiling) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

class KernelMatmulCube {
 public:
  __aicore__ inline KernelMatmulCube() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatmulTiling& tiling) {
    n_ = tiling.n;
    k_ = tiling.k;
    baseK_ = tiling.baseK;
    m_ = tiling.m / GetBlockNum();
    aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + static_cast<uint64_t>(m_) * k_ * GetBlockIdx(), m_ * k_);
    bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), k_ * n_);
    cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + static_cast<uint64_t>(m_) * n_ * GetBlockIdx(), m_ * n_);
    pipe_.InitBuffer(inQueueA1_, 1, m_ * k_ * sizeof(half));
    pipe_.InitBuffer(inQueueB1_, 1, k_ * n_ * sizeof(half));
    pipe_.InitBuffer(inQueueA2_, 2, m_ * baseK_ * sizeof(half));
    pipe_.InitBuffer(inQueueB2_, 2, baseK_ * n_ * sizeof(half));
    pipe_.InitBuffer(outQueueCO1_, 1, m_ * n_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    CopyIn();
    LocalTensor<half> a1 = inQueueA1_.DeQue<half>();
    LocalTensor<half> b1 = inQueueB1_.DeQue<half>();
    LocalTensor<float> c1 = outQueueCO1_.AllocTensor<float>();
    for (uint32_t kk = 0; kk < k_ / baseK_; kk++) {
      SplitA(a1, kk);
      SplitB(b1, kk);
      Compute(c1, kk);
    }
    outQueueCO1_.EnQue<float>(c1);
    inQueueA1_.FreeTensor(a1);
    inQueueB1_.FreeTensor(b1);
    CopyOut();
  }

 private:
  // ND in GM -> NZ in L1: 16-column strips, each strip `rows` rows (rounded up to 16) of 32 bytes.
  __aicore__ inline void CopyIn() {
    LocalTensor<half> a1 = inQueueA1_.AllocTensor<half>();
    LocalTensor<half> b1 = inQueueB1_.AllocTensor<half>();
    Nd2NzParams aParams{1, static_cast<uint16_t>(m_), static_cast<uint16_t>(k_), 0, static_cast<uint16_t>(k_),
                        static_cast<uint16_t>(m_), 1, 0};
    Nd2NzParams bParams{1, static_cast<uint16_t>(k_), static_cast<uint16_t>(n_), 0, static_cast<uint16_t>(n_),
                        static_cast<uint16_t>(k_), 1, 0};
    DataCopy(a1, aGm_, aParams);
    DataCopy(b1, bGm_, bParams);
    inQueueA1_.EnQue(a1);
    inQueueB1_.EnQue(b1);
  }
  // NZ -> Zz: for each 16-row block of A, the fractals of this K step, one per repeat. In NZ the fractal of row
  // block i and column strip j sits at index j * (m / 16) + i.
  __aicore__ inline void SplitA(const LocalTensor<half>& a1, uint32_t kk) {
    LocalTensor<half> a2 = inQueueA2_.AllocTensor<half>();
    uint32_t mBlocks = m_ / FRACTAL, kBlocks = baseK_ / FRACTAL;
    for (uint32_t i = 0; i < mBlocks; i++) {
      LoadData2DParams params;
      params.startIndex = static_cast<uint16_t>(kk * kBlocks * mBlocks + i);
      params.repeatTimes = static_cast<uint8_t>(kBlocks);
      params.srcStride = static_cast<uint16_t>(mBlocks);
      params.ifTranspose = false;
      LoadData(a2[i * kBlocks * FRACTAL_ELEMS], a1, params);
    }
    inQueueA2_.EnQue(a2);
  }
  // NZ -> Zn: for each 16-row block of this K step, the fractals across N, each transposed. The fractal of row block
  // i and column strip j of B sits at index j * (k / 16) + i.
  __aicore__ inline void SplitB(const LocalTensor<half>& b1, uint32_t kk) {
    LocalTensor<half> b2 = inQueueB2_.AllocTensor<half>();
    uint32_t kBlocks = baseK_ / FRACTAL, nBlocks = n_ / FRACTAL, kTotalBlocks = k_ / FRACTAL;
    for (uint32_t i = 0; i < kBlocks; i++) {
      LoadData2DParams params;
      params.startIndex = static_cast<uint16_t>(kk * kBlocks + i);
      params.repeatTimes = static_cast<uint8_t>(nBlocks);
      params.srcStride = static_cast<uint16_t>(kTotalBlocks);
      params.ifTranspose = true;
      LoadData(b2[i * nBlocks * FRACTAL_ELEMS], b1, params);
    }
    inQueueB2_.EnQue(b2);
  }
  __aicore__ inline void Compute(const LocalTensor<float>& c1, uint32_t kk) {
    LocalTensor<half> a2 = inQueueA2_.DeQue<half>();
    LocalTensor<half> b2 = inQueueB2_.DeQue<half>();
    MmadParams params;
    params.m = static_cast<uint16_t>(m_);
    params.n = static_cast<uint16_t>(n_);
    params.k = static_cast<uint16_t>(baseK_);
    params.cmatrixInitVal = kk == 0;  // the first K step starts from zero, later ones accumulate
    Mmad(c1, a2, b2, params);
    inQueueA2_.FreeTensor(a2);
    inQueueB2_.FreeTensor(b2);
  }
  __aicore__ inline void CopyOut() {
    LocalTensor<float> c1 = outQueueCO1_.DeQue<float>();
    FixpipeParamsV220 params{static_cast<uint16_t>(n_), static_cast<uint16_t>(m_), static_cast<uint16_t>(m_), n_,
                             false};
    Fixpipe(cGm_, c1, params);
    outQueueCO1_.FreeTensor(c1);
  }

  TPipe pipe_;
  TQue<QuePosition::A1, 1> inQueueA1_;
  TQue<QuePosition::B1, 1> inQueueB1_;
  TQue<QuePosition::A2, 2> inQueueA2_;
  TQue<QuePosition::B2, 2> inQueueB2_;
  TQue<QuePosition::CO1, 1> outQueueCO1_;
  GlobalTensor<half> aGm_, bGm_;
  GlobalTensor<float> cGm_;
  uint32_t m_ = 0, n_ = 0, k_ = 0, baseK_ = 0;
};

extern "C" __global__ __aicore__ void matmul_cube(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
  MatmulTiling t;
  CopyTiling(&t, tiling);
  KernelMatmulCube op;
  op.Init(a, b, c, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4;
  constexpr uint32_t m = 128, n = 64, k = 128;
  auto* a = static_cast<half*>(AscendC::GmAlloc(m * k * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(k * n * sizeof(half)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(m * n * sizeof(float)));
  auto* tiling = static_cast<MatmulTiling*>(AscendC::GmAlloc(sizeof(MatmulTiling)));
  *tiling = MatmulTiling{m, n, k, 64};

  // Small integers: every product and partial sum is exact in float, so any summation order gives the same C.
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> dist(-4, 4);
  for (uint32_t i = 0; i < m * k; ++i) a[i] = half(static_cast<float>(dist(rng)));
  for (uint32_t i = 0; i < k * n; ++i) b[i] = half(static_cast<float>(dist(rng)));

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_cube, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(c), reinterpret_cast<uint8_t*>(tiling));

  float maxErr = 0.0f;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      float want = 0.0f;
      for (uint32_t p = 0; p < k; ++p) want += static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
      maxErr = std::fmax(maxErr, std::fabs(c[i * n + j] - want));
    }
  }
  bool ok = maxErr == 0.0f;
  std::printf("matmul_cube: %u blocks, %ux%ux%u (m x k x n), max abs err %g -> %s\n", blockDim, m, k, n, maxErr,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
