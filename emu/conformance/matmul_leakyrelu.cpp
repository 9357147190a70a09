// matmul_leakyrelu: C = LeakyRelu(A * B + bias, alpha) with the high-level Matmul object in a MIX kernel. The AIV
// cores drive the matmul block by block (Iterate), fetch each baseM x baseN block of C into UB (GetTensorC), apply
// LeakyRelu on the vector unit and write the block to its place in C with a strided DataCopy. The host's tiling
// (what MultiCoreMatmulTiling::GetTiling writes) arrives in GM as a TCubeTiling.
#include "kernel_operator.h"
#include "lib/matmul/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using aType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using bType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using cType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
using biasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <typename aT, typename bT, typename cT, typename biasT>
class MatmulLeakyKernel {
 public:
  __aicore__ inline MatmulLeakyKernel() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& tiling, float alpha,
                              TPipe* pipe) {
    this->tiling = tiling;
    this->alpha = alpha;
    aGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ aT*>(a), tiling.M * tiling.Ka);
    bGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ bT*>(b), tiling.Kb * tiling.N);
    cGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ cT*>(c), tiling.M * tiling.N);
    biasGlobal.SetGlobalBuffer(reinterpret_cast<__gm__ biasT*>(bias), tiling.N);

    int32_t offsetA, offsetB, offsetC, offsetBias;
    CalcOffset(GetBlockIdx(), offsetA, offsetB, offsetC, offsetBias);
    aGlobal = aGlobal[offsetA];
    bGlobal = bGlobal[offsetB];
    cGlobal = cGlobal[offsetC];
    biasGlobal = biasGlobal[offsetBias];
    pipe->InitBuffer(reluOutQueue, 1, tiling.baseM * tiling.baseN * sizeof(cT));
  }
  __aicore__ inline void Process() {
    uint32_t computeRound = 0;
    matmulObj.SetTensorA(aGlobal);
    matmulObj.SetTensorB(bGlobal);
    matmulObj.SetBias(biasGlobal);
    while (matmulObj.template Iterate<true>()) {
      LocalTensor<cT> reluOut = reluOutQueue.AllocTensor<cT>();
      matmulObj.template GetTensorC<true>(reluOut, false, true);
      LeakyRelu(reluOut, reluOut, static_cast<cT>(alpha), tiling.baseM * tiling.baseN);
      reluOutQueue.EnQue(reluOut);
      CopyOut(computeRound);
      computeRound++;
    }
    matmulObj.End();
  }

  Matmul<aType, bType, cType, biasType> matmulObj;

 private:
  __aicore__ inline void CopyOut(uint32_t count) {
    LocalTensor<cT> reluOut = reluOutQueue.DeQue<cT>();
    const uint32_t roundM = tiling.singleCoreM / tiling.baseM;
    uint32_t startOffset = (count % roundM * tiling.baseM * tiling.N + count / roundM * tiling.baseN);
    DataCopyParams copyParam = {static_cast<uint16_t>(tiling.baseM),
                                static_cast<uint16_t>(tiling.baseN * sizeof(cT) / 32), 0,
                                static_cast<uint16_t>((tiling.N - tiling.baseN) * sizeof(cT) / 32)};
    DataCopy(cGlobal[startOffset], reluOut, copyParam);
    reluOutQueue.FreeTensor(reluOut);
  }
  __aicore__ inline void CalcOffset(int32_t blockIdx, int32_t& offsetA, int32_t& offsetB, int32_t& offsetC,
                                    int32_t& offsetBias) {
    auto mSingleBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    auto mCoreIndx = blockIdx % mSingleBlocks;
    auto nCoreIndx = blockIdx / mSingleBlocks;
    offsetA = mCoreIndx * tiling.Ka * tiling.singleCoreM;
    offsetB = nCoreIndx * tiling.singleCoreN;
    offsetC = mCoreIndx * tiling.N * tiling.singleCoreM + nCoreIndx * tiling.singleCoreN;
    offsetBias = nCoreIndx * tiling.singleCoreN;
  }

  GlobalTensor<aT> aGlobal;
  GlobalTensor<bT> bGlobal;
  GlobalTensor<cT> cGlobal;
  GlobalTensor<biasT> biasGlobal;
  TQue<QuePosition::VECOUT, 1> reluOutQueue;
  TCubeTiling tiling;
  float alpha = 0.0f;
};

__aicore__ inline void CopyTiling(TCubeTiling* tiling, GM_ADDR tilingGM) {
  uint32_t* ptr = reinterpret_cast<uint32_t*>(tiling);
  auto tiling32 = reinterpret_cast<__gm__ uint32_t*>(tilingGM);
  for (uint32_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); i++, ptr++) *ptr = *(tiling32 + i);
}

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tilingGm) {
  SetSysWorkspace(workspace);
  if (GetSysWorkSpacePtr() == nullptr) return;
  TPipe pipe;
  TCubeTiling tiling;
  CopyTiling(&tiling, tilingGm);
  MatmulLeakyKernel<half, half, float, float> kernel;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), kernel.matmulObj, &tiling);
  kernel.Init(a, b, bias, c, tiling, 0.125f, &pipe);
  kernel.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2;  // MIX groups of 1 AIC + 2 AIV: 4 AIV cores, a 2 x 2 grid of single-core blocks
  constexpr int32_t m = 256, n = 128, k = 192;
  auto* a = static_cast<half*>(AscendC::GmAlloc(m * k * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(k * n * sizeof(half)));
  auto* bias = static_cast<float*>(AscendC::GmAlloc(n * sizeof(float)));
  auto* c = static_cast<float*>(AscendC::GmAlloc(m * n * sizeof(float)));
  auto* workspace = static_cast<uint8_t*>(AscendC::GmAlloc(16 * 1024 * 1024));
  auto* tilingGm = static_cast<TCubeTiling*>(AscendC::GmAlloc(sizeof(TCubeTiling)));
  TCubeTiling t;
  t.usedCoreNum = 4;
  t.M = m;
  t.N = n;
  t.Ka = k;
  t.Kb = k;
  t.singleCoreM = 128;
  t.singleCoreN = 64;
  t.singleCoreK = k;
  t.baseM = 64;
  t.baseN = 64;
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
  *tilingGm = t;

  // Small integers and alpha = 1/8: every product, sum and scaling is exact in float.
  std::mt19937 rng(83);
  std::uniform_int_distribution<int> dist(-3, 3);
  for (int32_t i = 0; i < m * k; i++) a[i] = half(static_cast<float>(dist(rng)));
  for (int32_t i = 0; i < k * n; i++) b[i] = half(static_cast<float>(dist(rng)));
  for (int32_t i = 0; i < n; i++) bias[i] = static_cast<float>(dist(rng));

  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(matmul_leakyrelu_custom, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(bias), reinterpret_cast<uint8_t*>(c), workspace,
              reinterpret_cast<uint8_t*>(tilingGm));

  uint32_t bad = 0;
  for (int32_t i = 0; i < m; i++) {
    for (int32_t j = 0; j < n; j++) {
      float acc = bias[j];
      for (int32_t p = 0; p < k; p++) acc += static_cast<float>(a[i * k + p]) * static_cast<float>(b[p * n + j]);
      float want = acc >= 0.0f ? acc : acc * 0.125f;
      if (c[i * n + j] != want) ++bad;
    }
  }
  std::printf("matmul_leakyrelu: %dx%dx%d (m x k x n) on %u groups, %u mismatches -> %s\n", m, k, n, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(bias);
  AscendC::GmFree(c);
  AscendC::GmFree(workspace);
  AscendC::GmFree(tilingGm);
  return bad == 0 ? 0 : 1;
}
#endif
