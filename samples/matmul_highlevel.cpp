// matmul_highlevel: C[M, N] (float) = A[M, K] (half) x B[K, N] (half) + bias[N] (float) with the high-level Matmul
// object (ascendc_api.md §4.4), a MIX kernel: on hardware the AIC of each group serves the matmul that the group's
// two AIV cores request. The AIV cores split C into a 2 x 2 grid of single-core blocks; M has a tail.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

// The host's tiling (what matmul_tiling::MultiCoreMatmulTiling::GetTiling would write), byte-copied from GM.
__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGm) {
  auto src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
  auto dst = reinterpret_cast<int32_t*>(tiling);
  for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
}

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class KernelMatmulHighLevel {
 public:
  __aicore__ inline KernelMatmulHighLevel() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& tiling) {
    tiling_ = tiling;
    aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), tiling.M * tiling.Ka);
    bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
    biasGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), tiling.N);
    cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  }
  __aicore__ inline void Process() {
    int32_t blockIdx = static_cast<int32_t>(GetBlockIdx());
    if (blockIdx >= tiling_.usedCoreNum) return;
    // Block (mIdx, nIdx) of the grid of singleCoreM x singleCoreN blocks; the last row of blocks is shorter.
    int32_t mBlocks = (tiling_.M + tiling_.singleCoreM - 1) / tiling_.singleCoreM;
    int32_t mIdx = blockIdx % mBlocks;
    int32_t nIdx = blockIdx / mBlocks;
    int32_t tailM = tiling_.M - mIdx * tiling_.singleCoreM;
    tailM = tailM < tiling_.singleCoreM ? tailM : tiling_.singleCoreM;
    int32_t tailN = tiling_.N - nIdx * tiling_.singleCoreN;
    tailN = tailN < tiling_.singleCoreN ? tailN : tiling_.singleCoreN;
    uint64_t offsetA = static_cast<uint64_t>(mIdx) * tiling_.singleCoreM * tiling_.Ka;
    uint64_t offsetB = static_cast<uint64_t>(nIdx) * tiling_.singleCoreN;
    uint64_t offsetC = static_cast<uint64_t>(mIdx) * tiling_.singleCoreM * tiling_.N +
                       static_cast<uint64_t>(nIdx) * tiling_.singleCoreN;

    mm.SetTail(tailM, tailN);
    mm.SetTensorA(aGm_[offsetA]);
    mm.SetTensorB(bGm_[offsetB]);
    mm.SetBias(biasGm_[offsetB]);
    mm.IterateAll(cGm_[offsetC]);
    mm.End();
  }

  TPipe pipe;
  Matmul<AType, BType, CType, BiasType> mm;

 private:
  TCubeTiling tiling_;
  GlobalTensor<half> aGm_, bGm_;
  GlobalTensor<float> biasGm_, cGm_;
};

extern "C" __global__ __aicore__ void matmul_highlevel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                       GM_ADDR tilingGm) {
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  KernelMatmulHighLevel op;
  REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &tiling);
  op.Init(a, b, bias, c, tiling);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2;  // MIX groups: 2 AIC + 4 AIV
  constexpr int32_t m = 120, n = 96, k = 128;
  auto* a = static_cast<half*>(AscendC::GmAlloc(m * k * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(k * n * sizeof(half)));
  auto* bias = static_cast<float*>(AscendC::GmAlloc(n * sizeof(float)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(m * n * sizeof(float)));
  auto* tiling = static_cast<TCubeTiling*>(AscendC::GmAlloc(sizeof(TCubeTiling)));

  // What a host tiling function decides for this shape on 4 AIV cores: 2 x 2 single-core blocks of 64 x 48, one
  // L0 step per block in M and N (64 x 48 fits L0C in float), K in two steps of 64.
  TCubeTiling t;
  t.usedCoreNum = 4;
  t.M = m;
  t.N = n;
  t.Ka = k;
  t.Kb = k;
  t.singleCoreM = 64;
  t.singleCoreN = 48;
  t.singleCoreK = k;
  t.baseM = 64;
  t.baseN = 48;
  t.baseK = 64;
  t.depthA1 = 2;
  t.depthB1 = 2;
  t.stepM = 1;
  t.stepN = 1;
  t.stepKa = 1;
  t.stepKb = 1;
  t.isBias = 1;
  t.iterateOrder = 0;
  t.dbL0A = 2;
  t.dbL0B = 2;
  t.dbL0C = 1;
  *tiling = t;

  // Small integers: products and sums are exact in float, so the summation order cannot change C.
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-4, 4);
  for (int32_t i = 0; i < m * k; ++i) a[i] = half(static_cast<float>(dist(rng)));
  for (int32_t i = 0; i < k * n; ++i) b[i] = half(static_cast<float>(dist(rng)));
  for (int32_t j = 0; j < n; ++j) bias[j] = static_cast<float>(dist(rng));

  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(matmul_highlevel, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(bias), reinterpret_cast<uint8_t*>(c), reinterpret_cast<uint8_t*>(tiling));

  float maxErr = 0.0f;
  for (int32_t i = 0; i < m; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      float want = bias[j];
      for (int32_t p = 0; p < k; ++p) want += static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
      maxErr = std::fmax(maxErr, std::fabs(c[i * n + j] - want));
    }
  }
  bool ok = maxErr == 0.0f;
  std::printf("matmul_highlevel: %u groups, %dx%dx%d (m x k x n) + bias, max abs err %g -> %s\n", blockDim, m, k, n,
              maxErr, ok ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(bias);
  AscendC::GmFree(c);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
