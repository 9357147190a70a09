// matmul_quant: a W8A8 linear layer. C[M, N] (int32 in L0C) = A[M, K] (int8) x W[N, K]^T (int8), then two
// Fixpipe requantisations of the same L0C tile: VREQ8 with one scale (and offset) per output channel read from
// an L1 buffer of uint64 quant words (cbufWorkspace) to int8 in GM, and DEQF16 with one scalar scale to half in
// GM. The quant words come from GM by DataCopy (MTE2) and an MTE2_FIX flag orders them before the Fixpipe.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t BAND_M = 32, N = 48, K = 96;
constexpr uint32_t C0 = 32;               // int8 elements per fractal row (32 bytes)
constexpr uint32_t FRAC_ELEMS = 16 * C0;  // one 512-byte fractal

class KernelMatmulQuant {
 public:
  __aicore__ inline KernelMatmulQuant() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR w, GM_ADDR scales, GM_ADDR q, GM_ADDR h, uint64_t deqWord) {
    aGm.SetGlobalBuffer((__gm__ int8_t*)a + GetBlockIdx() * BAND_M * K, BAND_M * K);
    wGm.SetGlobalBuffer((__gm__ int8_t*)w, N * K);
    scaleGm.SetGlobalBuffer((__gm__ uint64_t*)scales, N);
    qGm.SetGlobalBuffer((__gm__ int8_t*)q + GetBlockIdx() * BAND_M * N, BAND_M * N);
    hGm.SetGlobalBuffer((__gm__ half*)h + GetBlockIdx() * BAND_M * N, BAND_M * N);
    deq = deqWord;
    pipe.InitBuffer(scaleBuf, N * sizeof(uint64_t));
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
    LocalTensor<uint64_t> scaleL1 = scaleBuf.Get<uint64_t>();
    DataCopy(scaleL1, scaleGm, N);
    SetFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_FIX>(EVENT_ID0);
    FixpipeParamsV220 params;
    params.nSize = N;
    params.mSize = BAND_M;
    params.srcStride = BAND_M;
    params.dstStride = N;
    params.ndNum = 1;
    params.srcNdStride = 0;
    params.dstNdStride = 0;
    params.quantPre = QuantMode_t::VREQ8;
    Fixpipe(qGm, c1, scaleL1, params);
    params.quantPre = QuantMode_t::DEQF16;
    params.deqScalar = deq;
    Fixpipe(hGm, c1, params);
    outQueueCO1.FreeTensor(c1);
  }

  TPipe pipe;
  TQue<QuePosition::A1, 1> inQueueA1;
  TQue<QuePosition::B1, 1> inQueueB1;
  TQue<QuePosition::A2, 1> inQueueA2;
  TQue<QuePosition::B2, 1> inQueueB2;
  TQue<QuePosition::CO1, 1> outQueueCO1;
  TBuf<QuePosition::C1> scaleBuf;
  GlobalTensor<int8_t> aGm, wGm, qGm;
  GlobalTensor<uint64_t> scaleGm;
  GlobalTensor<half> hGm;
  uint64_t deq = 0;
};

extern "C" __global__ __aicore__ void matmul_quant(GM_ADDR a, GM_ADDR w, GM_ADDR scales, GM_ADDR q, GM_ADDR h,
                                                   uint64_t deqWord) {
  KernelMatmulQuant op;
  op.Init(a, w, scales, q, h, deqWord);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

// The quant word: the scale's float bits in [31:0] (the hardware keeps bits [31:13]) and a 9-bit offset at [45:37].
static uint64_t quantWord(float scale, int offset) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  return uint64_t{bits} | (uint64_t(static_cast<uint32_t>(offset) & 0x1FF) << 37);
}

int main() {
  constexpr uint32_t blockDim = 2, m = blockDim * BAND_M;
  auto* a = static_cast<int8_t*>(AscendC::GmAlloc(m * K));
  auto* w = static_cast<int8_t*>(AscendC::GmAlloc(N * K));
  auto* scales = static_cast<uint64_t*>(AscendC::GmAlloc(N * sizeof(uint64_t)));
  auto* q = static_cast<int8_t*>(AscendC::GmAlloc(m * N));
  auto* h = static_cast<half*>(AscendC::GmAlloc(m * N * sizeof(half)));
  std::mt19937 rng(137);
  std::uniform_int_distribution<int> dist(-128, 127);
  for (uint32_t i = 0; i < m * K; i++) a[i] = static_cast<int8_t>(dist(rng));
  for (uint32_t i = 0; i < N * K; i++) w[i] = static_cast<int8_t>(dist(rng));
  // Power-of-two scales are exact in the 19-bit register; offsets in [-8, 7].
  std::vector<float> scale(N);
  std::vector<int> offset(N);
  for (uint32_t j = 0; j < N; j++) {
    scale[j] = std::ldexp(1.0f, -8 - static_cast<int>(j % 4));
    offset[j] = static_cast<int>(j % 16) - 8;
    scales[j] = quantWord(scale[j], offset[j]);
  }
  const float deqScale = 1.0f / 64.0f;

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmul_quant, blockDim, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(w),
              reinterpret_cast<uint8_t*>(scales), reinterpret_cast<uint8_t*>(q), reinterpret_cast<uint8_t*>(h),
              quantWord(deqScale, 0));

  // int8: round(acc * scale) to nearest even, plus the offset, saturated; half: acc * 2^-6 rounded once.
  uint32_t bad = 0;
  for (uint32_t i = 0; i < m; i++) {
    for (uint32_t j = 0; j < N; j++) {
      int32_t acc = 0;
      for (uint32_t p = 0; p < K; p++) acc += int32_t{a[i * K + p]} * int32_t{w[j * K + p]};
      double r = std::nearbyint(static_cast<double>(acc) * scale[j]) + offset[j];
      int8_t want8 = static_cast<int8_t>(std::min(127.0, std::max(-128.0, r)));
      half wantH = half(static_cast<float>(acc) * deqScale);  // exact in float (|acc| < 2^24), one rounding
      if (q[i * N + j] != want8 || static_cast<float>(h[i * N + j]) != static_cast<float>(wantH)) ++bad;
    }
  }
  std::printf("matmul_quant: %ux%ux%u (m x k x n) int8 -> VREQ8 int8 and DEQF16 half on %u AIC, %u mismatches -> %s\n",
              m, K, N, blockDim, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(w);
  AscendC::GmFree(scales);
  AscendC::GmFree(q);
  AscendC::GmFree(h);
  return bad == 0 ? 0 : 1;
}
#endif
