// mix_handoff: a cube -> vector hand-off through GM in MIX mode (1 AIC + 2 AIV per block), the way fused
// matmul + epilogue kernels written by hand do it. The AIC computes a band C[BAND_M, N] = A x B in float (basic
// API, TBufs and explicit flags), Fixpipes it to a GM workspace and signals its block's AIVs with
// CrossCoreSetFlag<2, PIPE_FIX>; each AIV waits with the default CrossCoreWaitFlag, reads half of the band,
// applies y = relu(c) * 0.5 and writes it out. A second flag goes back (AIV -> AIC, mode 2) before the AIC
// ends, as kernels do before reusing the workspace.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BAND_M = 32;
constexpr uint32_t N = 64;
constexpr uint32_t K = 128;
constexpr uint32_t K_STEP = 64;
constexpr uint32_t FRAC = 16;
constexpr uint32_t FRAC_ELEMS = 256;  // one 512-byte fractal of half

class KernelMixHandoff {
 public:
  __aicore__ inline KernelMixHandoff() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR y) {
    // An AIV's GetBlockIdx counts both AIVs of a block; an AIC's is the block.
    uint32_t block = ASCEND_IS_AIV ? GetBlockIdx() / GetTaskRation() : GetBlockIdx();
    aGm.SetGlobalBuffer((__gm__ half*)a + block * BAND_M * K, BAND_M * K);
    bGm.SetGlobalBuffer((__gm__ half*)b, K * N);
    cGm.SetGlobalBuffer((__gm__ float*)ws + block * BAND_M * N, BAND_M * N);
    const uint32_t half_rows = BAND_M / 2;
    uint32_t sub = GetSubBlockIdx();
    vinGm.SetGlobalBuffer((__gm__ float*)ws + block * BAND_M * N + sub * half_rows * N, half_rows * N);
    yGm.SetGlobalBuffer((__gm__ float*)y + block * BAND_M * N + sub * half_rows * N, half_rows * N);
    if ASCEND_IS_AIV {
      pipe.InitBuffer(vBuf, half_rows * N * sizeof(float));
      return;
    }
    pipe.InitBuffer(a1Buf, BAND_M * K * sizeof(half));
    pipe.InitBuffer(b1Buf, K * N * sizeof(half));
    pipe.InitBuffer(a2Buf, BAND_M * K_STEP * sizeof(half));
    pipe.InitBuffer(b2Buf, K_STEP * N * sizeof(half));
    pipe.InitBuffer(c1Buf, BAND_M * N * sizeof(float));
  }
  __aicore__ inline void Process() {
    if ASCEND_IS_AIV {
      Epilogue();
      return;
    }
    Cube();
  }

 private:
  __aicore__ inline void Epilogue() {
    const uint32_t n = BAND_M / 2 * N;
    CrossCoreWaitFlag(kCubeDone);
    LocalTensor<float> v = vBuf.Get<float>();
    DataCopy(v, vinGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Relu(v, v, n);
    PipeBarrier<PIPE_V>();
    Muls(v, v, 0.5f, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, v, n);
    CrossCoreSetFlag<2, PIPE_MTE3>(kVectorDone);
  }
  __aicore__ inline void Cube() {
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
    FixpipeParamsV220 fp(N, BAND_M, BAND_M, N, false);
    Fixpipe(cGm, c1, fp);
    CrossCoreSetFlag<2, PIPE_FIX>(kCubeDone);
    CrossCoreWaitFlag(kVectorDone);
  }

  static constexpr uint16_t kCubeDone = 3, kVectorDone = 4;
  TPipe pipe;
  TBuf<TPosition::A1> a1Buf;
  TBuf<TPosition::B1> b1Buf;
  TBuf<TPosition::A2> a2Buf;
  TBuf<TPosition::B2> b2Buf;
  TBuf<TPosition::CO1> c1Buf;
  TBuf<TPosition::VECCALC> vBuf;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm, vinGm, yGm;
};

extern "C" __global__ __aicore__ void mix_handoff(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR y) {
  KernelMixHandoff op;
  op.Init(a, b, ws, y);
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
  auto* ws = static_cast<float*>(AscendC::GmAlloc(m * N * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(m * N * sizeof(float)));
  // A in quarters, B small integers: the float accumulation is exact, and so are relu and * 0.5.
  std::mt19937 rng(97);
  std::uniform_int_distribution<int> qa(-64, 64), ib(-31, 31);
  for (uint32_t i = 0; i < m * K; i++) a[i] = half(static_cast<float>(qa(rng)) * 0.25f);
  for (uint32_t i = 0; i < K * N; i++) b[i] = half(static_cast<float>(ib(rng)));

  AscendC::SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(mix_handoff, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(ws), reinterpret_cast<uint8_t*>(y));

  uint32_t bad = 0;
  for (uint32_t i = 0; i < m; i++) {
    for (uint32_t j = 0; j < N; j++) {
      float acc = 0.0f;
      for (uint32_t p = 0; p < K; p++) acc += static_cast<float>(a[i * K + p]) * static_cast<float>(b[p * N + j]);
      float want = (acc > 0.0f ? acc : 0.0f) * 0.5f;
      if (y[i * N + j] != want) ++bad;
    }
  }
  std::printf("mix_handoff: %ux%ux%u (m x k x n) on %u blocks (AIC -> 2 AIV through GM), %u mismatches -> %s\n", m, K,
              N, blockDim, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(ws);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
