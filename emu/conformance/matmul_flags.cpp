// matmul_flags: C[M, N] (half) = A[M, K] (half) x B[K, N] (half), accumulated in float on the cube unit with the
// basic API and no queues: L1/L0 buffers are TBufs and every hand-off between pipes is an explicit SetFlag/WaitFlag
// (MTE2 -> MTE1 -> M -> FIX, plus M -> MTE1 before L0A/L0B are refilled). K is consumed in two steps, the second
// Mmad accumulating into L0C (cmatrixInitVal = false). Fixpipe converts to half on the way out (F322F16) and
// writes ND rows. Each block computes a band of BAND_M rows. AIC-only kernel.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BAND_M = 32;
constexpr uint32_t N = 64;
constexpr uint32_t K = 128;
constexpr uint32_t K_STEP = 64;
constexpr uint32_t FRAC = 16;
constexpr uint32_t FRAC_ELEMS = 256;  // one 512-byte fractal of half

class KernelMatmulFlags {
 public:
  __aicore__ inline KernelMatmulFlags() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
    aGm.SetGlobalBuffer((__gm__ half*)a + GetBlockIdx() * BAND_M * K, BAND_M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGm.SetGlobalBuffer((__gm__ half*)c + GetBlockIdx() * BAND_M * N, BAND_M * N);
    pipe.InitBuffer(a1Buf, BAND_M * K * sizeof(half));
    pipe.InitBuffer(b1Buf, K * N * sizeof(half));
    pipe.InitBuffer(a2Buf, BAND_M * K_STEP * sizeof(half));
    pipe.InitBuffer(b2Buf, K_STEP * N * sizeof(half));
    pipe.InitBuffer(c1Buf, BAND_M * N * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> a1 = a1Buf.Get<half>();
    LocalTensor<half> b1 = b1Buf.Get<half>();
    LocalTensor<half> a2 = a2Buf.Get<half>();
    LocalTensor<half> b2 = b2Buf.Get<half>();
    LocalTensor<float> c1 = c1Buf.Get<float>();

    // ND -> NZ into L1: column strips of 16, each strip all rows of 32 bytes.
    Nd2NzParams aNz(1, BAND_M, K, 0, K, BAND_M, 1, 0);
    Nd2NzParams bNz(1, K, N, 0, N, K, 1, 0);
    DataCopy(a1, aGm, aNz);
    DataCopy(b1, bGm, bNz);
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);

    const uint32_t mBlocks = BAND_M / FRAC, kStepBlocks = K_STEP / FRAC, kBlocks = K / FRAC, nBlocks = N / FRAC;
    for (uint32_t step = 0; step < K / K_STEP; step++) {
      if (step > 0) {
        // The previous Mmad must be done reading L0A/L0B before they are refilled.
        SetFlag<HardEvent::M_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::M_MTE1>(EVENT_ID0);
      }
      // A: NZ -> Zz. Fractal (row block i, column strip j) of A1 sits at j * mBlocks + i.
      for (uint32_t i = 0; i < mBlocks; i++) {
        LoadData2DParams p;
        p.startIndex = static_cast<uint16_t>(step * kStepBlocks * mBlocks + i);
        p.repeatTimes = static_cast<uint8_t>(kStepBlocks);
        p.srcStride = static_cast<uint16_t>(mBlocks);
        p.ifTranspose = false;
        LoadData(a2[i * kStepBlocks * FRAC_ELEMS], a1, p);
      }
      // B: NZ -> Zn, each fractal transposed. Fractal (K block p, N strip q) of B1 sits at q * kBlocks + p.
      for (uint32_t p = 0; p < kStepBlocks; p++) {
        LoadData2DParams ld;
        ld.startIndex = static_cast<uint16_t>(step * kStepBlocks + p);
        ld.repeatTimes = static_cast<uint8_t>(nBlocks);
        ld.srcStride = static_cast<uint16_t>(kBlocks);
        ld.ifTranspose = true;
        LoadData(b2[p * nBlocks * FRAC_ELEMS], b1, ld);
      }
      SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
      WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
      MmadParams mp;
      mp.m = BAND_M;
      mp.n = N;
      mp.k = K_STEP;
      mp.cmatrixInitVal = (step == 0);
      Mmad(c1, a2, b2, mp);
    }
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    FixpipeParamsV220 fp(N, BAND_M, BAND_M, N, false, QuantMode_t::F322F16, 0, 1, 0, 0, 0);
    Fixpipe(cGm, c1, fp);
  }

 private:
  TPipe pipe;
  TBuf<TPosition::A1> a1Buf;
  TBuf<TPosition::B1> b1Buf;
  TBuf<TPosition::A2> a2Buf;
  TBuf<TPosition::B2> b2Buf;
  TBuf<TPosition::CO1> c1Buf;
  GlobalTensor<half> aGm, bGm, cGm;
};

extern "C" __global__ __aicore__ void matmul_flags(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  KernelMatmulFlags op;
  op.Init(a, b, c);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 3, m = blockDim * BAND_M;
  auto* a = static_cast<half*>(AscendC::GmAlloc(m * K * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(K * N * sizeof(half)));
  auto* c = static_cast<half*>(AscendC::GmAlloc(m * N * sizeof(half)));
  // A in quarters, B small integers: the float accumulation is exact, so C = half(exact sum), rounded once (RNE).
  std::mt19937 rng(97);
  std::uniform_int_distribution<int> qa(-64, 64), ib(-31, 31);
  for (uint32_t i = 0; i < m * K; i++) a[i] = half(static_cast<float>(qa(rng)) * 0.25f);
  for (uint32_t i = 0; i < K * N; i++) b[i] = half(static_cast<float>(ib(rng)));

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_flags, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(c));

  uint32_t bad = 0, rounded = 0;
  for (uint32_t i = 0; i < m; i++) {
    for (uint32_t j = 0; j < N; j++) {
      float acc = 0.0f;
      for (uint32_t p = 0; p < K; p++) acc += static_cast<float>(a[i * K + p]) * static_cast<float>(b[p * N + j]);
      half want = half(acc);
      if (static_cast<float>(want) != acc) ++rounded;
      if (c[i * N + j].val != want.val) ++bad;
    }
  }
  std::printf("matmul_flags: %ux%ux%u (m x k x n) on %u AIC, %u results needed rounding, %u mismatches -> %s\n", m, K,
              N, blockDim, rounded, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  return bad == 0 ? 0 : 1;
}
#endif
