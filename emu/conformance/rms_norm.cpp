// rms_norm: y = x / sqrt(mean(x^2) + eps) * gamma on half rows, computed in float (the usual mixed-precision
// recipe): Cast half->float, Mul, ReduceSum, a scalar rsqrt on the scalar unit, Muls, Mul by gamma (float), Cast
// float->half with CAST_RINT. Rows of 4096 are handled in two column chunks, the sum of squares accumulated.
#include "kernel_operator.h"

#include <cmath>

using namespace AscendC;

constexpr uint32_t CHUNK = 2048;

struct RmsNormTilingData {
  uint32_t rowsPerBlock;
  uint32_t hidden;  // a multiple of CHUNK
  float eps;
};

class KernelRmsNorm {
 public:
  __aicore__ inline KernelRmsNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, const RmsNormTilingData& t) {
    rows = t.rowsPerBlock;
    hidden = t.hidden;
    eps = t.eps;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * rows * hidden;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, rows * hidden);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, rows * hidden);
    gammaGm.SetGlobalBuffer((__gm__ float*)gamma, hidden);
    pipe.InitBuffer(inQueue, 2, CHUNK * sizeof(half));
    pipe.InitBuffer(gammaQueue, 1, CHUNK * sizeof(float));
    pipe.InitBuffer(outQueue, 2, CHUNK * sizeof(half));
    pipe.InitBuffer(xf32Buf, hidden * sizeof(float));
    pipe.InitBuffer(sqBuf, CHUNK * sizeof(float));
    pipe.InitBuffer(sumBuf, 64);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> xf = xf32Buf.Get<float>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();
    uint32_t chunks = hidden / CHUNK;
    for (uint32_t r = 0; r < rows; r++) {
      float sumSq = 0.0f;
      for (uint32_t c = 0; c < chunks; c++) {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopy(xLocal, xGm[r * hidden + c * CHUNK], CHUNK);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<half>();
        Cast(xf[c * CHUNK], xLocal, RoundMode::CAST_NONE, CHUNK);
        inQueue.FreeTensor(xLocal);
        PipeBarrier<PIPE_V>();
        Mul(sq, xf[c * CHUNK], xf[c * CHUNK], CHUNK);
        PipeBarrier<PIPE_V>();
        ReduceSum(sum, sq, sq, CHUNK);
        event_t evtVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(evtVS);
        WaitFlag<HardEvent::V_S>(evtVS);
        sumSq += sum.GetValue(0);
        event_t evtSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evtSV);
        WaitFlag<HardEvent::S_V>(evtSV);
      }
      float rstd = 1.0f / std::sqrt(sumSq / static_cast<float>(hidden) + eps);
      for (uint32_t c = 0; c < chunks; c++) {
        LocalTensor<float> g = gammaQueue.AllocTensor<float>();
        DataCopy(g, gammaGm[c * CHUNK], CHUNK);
        gammaQueue.EnQue(g);
        g = gammaQueue.DeQue<float>();
        Muls(sq, xf[c * CHUNK], rstd, CHUNK);
        PipeBarrier<PIPE_V>();
        Mul(sq, sq, g, CHUNK);
        PipeBarrier<PIPE_V>();
        gammaQueue.FreeTensor(g);
        LocalTensor<half> yLocal = outQueue.AllocTensor<half>();
        Cast(yLocal, sq, RoundMode::CAST_RINT, CHUNK);
        outQueue.EnQue(yLocal);
        yLocal = outQueue.DeQue<half>();
        DataCopy(yGm[r * hidden + c * CHUNK], yLocal, CHUNK);
        outQueue.FreeTensor(yLocal);
      }
    }
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue, gammaQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> xf32Buf, sqBuf, sumBuf;
  GlobalTensor<half> xGm, yGm;
  GlobalTensor<float> gammaGm;
  uint32_t rows = 0, hidden = 0;
  float eps = 0.0f;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
  (void)workspace;
  RmsNormTilingData t;
  auto src = reinterpret_cast<__gm__ uint8_t*>(tiling);
  auto dst = reinterpret_cast<uint8_t*>(&t);
  for (uint32_t i = 0; i < sizeof(t); i++) dst[i] = src[i];
  KernelRmsNorm op;
  op.Init(x, gamma, y, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, rowsPerBlock = 4, rows = blockDim * rowsPerBlock, hidden = 4096;
  auto* x = static_cast<half*>(AscendC::GmAlloc(rows * hidden * sizeof(half)));
  auto* gamma = static_cast<float*>(AscendC::GmAlloc(hidden * sizeof(float)));
  auto* y = static_cast<half*>(AscendC::GmAlloc(rows * hidden * sizeof(half)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  RmsNormTilingData t{rowsPerBlock, hidden, 1e-6f};
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(t)));
  std::memcpy(tiling, &t, sizeof(t));
  std::mt19937 rng(31);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  for (uint32_t i = 0; i < rows * hidden; i++) x[i] = half(dist(rng));
  for (uint32_t i = 0; i < hidden; i++) gamma[i] = 1.0f + 0.1f * dist(rng);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(rms_norm_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(gamma),
              reinterpret_cast<uint8_t*>(y), ws, tiling);

  // The output is half: allow one half ulp (2^-10 relative) beyond the float reference.
  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    double ss = 0;
    for (uint32_t c = 0; c < hidden; c++)
      ss += static_cast<double>(x[r * hidden + c]) * static_cast<float>(x[r * hidden + c]);
    double rstd = 1.0 / std::sqrt(ss / hidden + 1e-6);
    for (uint32_t c = 0; c < hidden; c++) {
      double want = static_cast<float>(x[r * hidden + c]) * rstd * gamma[c];
      double got = static_cast<float>(y[r * hidden + c]);
      if (std::fabs(got - want) > std::fabs(want) * (1.0 / 1024) + 1e-6) ++bad;
    }
  }
  std::printf("rms_norm: %u rows x %u half, %u elements beyond 1 ulp -> %s\n", rows, hidden, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(gamma);
  AscendC::GmFree(y);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
