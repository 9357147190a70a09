// mask_modes: the mask register driven by hand, as hand-tuned kernels do. Normal mode: SetMaskNorm +
// SetVectorMask<half, MaskMode::NORMAL>(high, low) then Add/Mul with MASK_PLACEHOLDER and BinaryRepeatParams
// (only the masked lanes change; the others keep what the destination held). Counter mode: SetMaskCount +
// SetVectorMask<float, MaskMode::COUNTER>(0, n) then Max/Adds with MASK_PLACEHOLDER over n elements whatever the
// repeat count, then SetMaskNorm + ResetMask before the calCount forms run again.
#include "kernel_operator.h"

using namespace AscendC;

class KernelMasks {
 public:
  __aicore__ inline KernelMasks() {}
  __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR outH, GM_ADDR f, GM_ADDR outF, uint32_t nf) {
    this->nf = nf;
    aGm.SetGlobalBuffer((__gm__ half*)a, 512);
    bGm.SetGlobalBuffer((__gm__ half*)b, 512);
    outHGm.SetGlobalBuffer((__gm__ half*)outH, 512);
    fGm.SetGlobalBuffer((__gm__ float*)f, 1024);
    outFGm.SetGlobalBuffer((__gm__ float*)outF, 1024);
    pipe.InitBuffer(inQue, 1, 3 * 512 * sizeof(half));
    pipe.InitBuffer(fQue, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQue, 1, 512 * sizeof(half) + 2 * 1024 * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> in = inQue.AllocTensor<half>();
    DataCopy(in, aGm, 512);
    DataCopy(in[512], bGm, 512);
    DataCopy(in[1024], aGm, 512);
    inQue.EnQue(in);
    LocalTensor<float> fIn = fQue.AllocTensor<float>();
    DataCopy(fIn, fGm, 1024);
    fQue.EnQue(fIn);

    in = inQue.DeQue<half>();
    fIn = fQue.DeQue<float>();
    LocalTensor<half> outH = outQue.AllocTensor<half>();
    // Start from a copy of a; lanes outside the mask keep a's values.
    Adds(outH, in[1024], half(0.0f), 512);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    // Lanes 0..15 of the low word and lanes 64..71 of the high word: 24 of 128.
    SetVectorMask<half, MaskMode::NORMAL>(0xFFull, 0xFFFFull);
    BinaryRepeatParams params;  // unit block strides, 8-block repeat strides
    Add<half, false>(outH, in, in[512], MASK_PLACEHOLDER, 4, params);
    PipeBarrier<PIPE_V>();
    // Every third lane pair of the low word only, two repeats, then multiply in place.
    SetVectorMask<half, MaskMode::NORMAL>(0, 0x3333333333333333ull);
    Mul<half, false>(outH, outH, in[512], MASK_PLACEHOLDER, 2, params);
    PipeBarrier<PIPE_V>();

    ResetMask();
    outQue.EnQue(outH);
    DoFloat(fIn);
    inQue.FreeTensor(in);
    fQue.FreeTensor(fIn);
  }

 private:
  __aicore__ inline void DoFloat(const LocalTensor<float>& fIn) {
    LocalTensor<half> outH = outQue.DeQue<half>();
    LocalTensor<float> outF = outH[512].ReinterpretCast<float>();
    LocalTensor<float> tmp = outF[1024];
    Duplicate(tmp, 0.5f, 1024);
    Duplicate(outF, -1.0f, 1024);
    PipeBarrier<PIPE_V>();
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, nf);
    UnaryRepeatParams unary;
    BinaryRepeatParams binary;
    // In counter mode the repeat argument is ignored: nf elements are processed.
    Max<float, false>(outF, fIn, tmp, MASK_PLACEHOLDER, 1, binary);
    PipeBarrier<PIPE_V>();
    Adds<float, false>(outF, outF, 2.0f, MASK_PLACEHOLDER, 1, unary);
    PipeBarrier<PIPE_V>();
    SetMaskNorm();
    ResetMask();
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(e);
    WaitFlag<HardEvent::V_MTE3>(e);
    DataCopy(outHGm, outH, 512);
    DataCopy(outFGm, outF, 1024);
    outQue.FreeTensor(outH);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQue, fQue;
  TQue<QuePosition::VECOUT, 1> outQue;
  GlobalTensor<half> aGm, bGm, outHGm;
  GlobalTensor<float> fGm, outFGm;
  uint32_t nf = 0;
};

extern "C" __global__ __aicore__ void masks_custom(GM_ADDR a, GM_ADDR b, GM_ADDR outH, GM_ADDR f, GM_ADDR outF,
                                                   uint32_t nf) {
  KernelMasks op;
  op.Init(a, b, outH, f, outF, nf);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t nf = 700;
  auto* a = static_cast<half*>(AscendC::GmAlloc(512 * sizeof(half)));
  auto* b = static_cast<half*>(AscendC::GmAlloc(512 * sizeof(half)));
  auto* outH = static_cast<half*>(AscendC::GmAlloc(512 * sizeof(half)));
  auto* f = static_cast<float*>(AscendC::GmAlloc(1024 * sizeof(float)));
  auto* outF = static_cast<float*>(AscendC::GmAlloc(1024 * sizeof(float)));
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (uint32_t i = 0; i < 512; i++) {
    a[i] = half(dist(rng));
    b[i] = half(dist(rng));
  }
  for (uint32_t i = 0; i < 1024; i++) f[i] = dist(rng);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(masks_custom, 1, reinterpret_cast<uint8_t*>(a), reinterpret_cast<uint8_t*>(b),
              reinterpret_cast<uint8_t*>(outH), reinterpret_cast<uint8_t*>(f), reinterpret_cast<uint8_t*>(outF), nf);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < 512; i++) {
    const uint32_t lane = i % 128;
    float v = static_cast<float>(a[i]);
    if (lane < 16 || (lane >= 64 && lane < 72)) v = static_cast<float>(half(v + static_cast<float>(b[i])));
    if (i < 256 && lane < 64 && (lane % 4) < 2) v = static_cast<float>(half(v * static_cast<float>(b[i])));
    if (static_cast<float>(outH[i]) != v) ++bad;
  }
  for (uint32_t i = 0; i < 1024; i++) {
    const float want = i < nf ? (f[i] > 0.5f ? f[i] : 0.5f) + 2.0f : -1.0f;
    if (outF[i] != want) ++bad;
  }
  std::printf("mask_modes: normal-mode half lanes and counter-mode %u floats, %u wrong -> %s\n", nf, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(outH);
  AscendC::GmFree(f);
  AscendC::GmFree(outF);
  return bad == 0 ? 0 : 1;
}
#endif
