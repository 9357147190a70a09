// layernorm: y = (x - mean) / sqrt(var + eps) * gamma + beta over rows of `hidden` floats, written with basic
// vector instructions and scalar glue, the way most hand-written kernels do it: ReduceSum to a UB scalar, a V->S
// flag, GetValue, then Adds/Mul/ReduceSum/Muls/Mul/Add on the row. gamma and beta are loaded once per block.
#include "kernel_operator.h"

#include <cmath>

using namespace AscendC;

struct LayerNormTilingData {
  uint32_t rowsPerBlock;
  uint32_t hidden;
  float eps;
};

class KernelLayerNorm {
 public:
  __aicore__ inline KernelLayerNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const LayerNormTilingData& t) {
    rows = t.rowsPerBlock;
    hidden = t.hidden;
    eps = t.eps;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * rows * hidden;
    xGm.SetGlobalBuffer((__gm__ float*)x + base, rows * hidden);
    yGm.SetGlobalBuffer((__gm__ float*)y + base, rows * hidden);
    gammaGm.SetGlobalBuffer((__gm__ float*)gamma, hidden);
    betaGm.SetGlobalBuffer((__gm__ float*)beta, hidden);
    pipe.InitBuffer(inQueueX, 2, hidden * sizeof(float));
    pipe.InitBuffer(outQueueY, 2, hidden * sizeof(float));
    pipe.InitBuffer(gammaBuf, hidden * sizeof(float));
    pipe.InitBuffer(betaBuf, hidden * sizeof(float));
    pipe.InitBuffer(sqBuf, hidden * sizeof(float));
    pipe.InitBuffer(workBuf, hidden * sizeof(float));
    pipe.InitBuffer(sumBuf, 32);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> gammaLocal = gammaBuf.Get<float>();
    LocalTensor<float> betaLocal = betaBuf.Get<float>();
    DataCopy(gammaLocal, gammaGm, hidden);
    DataCopy(betaLocal, betaGm, hidden);
    event_t evtMte2V = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(evtMte2V);
    WaitFlag<HardEvent::MTE2_V>(evtMte2V);
    for (uint32_t r = 0; r < rows; r++) {
      LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
      DataCopy(xLocal, xGm[r * hidden], hidden);
      inQueueX.EnQue(xLocal);
      Compute(gammaLocal, betaLocal);
      LocalTensor<float> yLocal = outQueueY.DeQue<float>();
      DataCopy(yGm[r * hidden], yLocal, hidden);
      outQueueY.FreeTensor(yLocal);
    }
  }

 private:
  __aicore__ inline float RowSum(const LocalTensor<float>& src) {
    LocalTensor<float> sum = sumBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    ReduceSum<float>(sum, src, work, hidden);
    event_t evtVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(evtVS);
    WaitFlag<HardEvent::V_S>(evtVS);
    float v = sum.GetValue(0);
    event_t evtSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
    SetFlag<HardEvent::S_V>(evtSV);
    WaitFlag<HardEvent::S_V>(evtSV);
    return v;
  }
  __aicore__ inline void Compute(const LocalTensor<float>& gammaLocal, const LocalTensor<float>& betaLocal) {
    LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    float invH = 1.0f / static_cast<float>(hidden);
    float mean = RowSum(xLocal) * invH;
    Adds(xLocal, xLocal, -mean, hidden);
    PipeBarrier<PIPE_V>();
    Mul(sq, xLocal, xLocal, hidden);
    PipeBarrier<PIPE_V>();
    float var = RowSum(sq) * invH;
    float rstd = 1.0f / std::sqrt(var + eps);
    Muls(xLocal, xLocal, rstd, hidden);
    PipeBarrier<PIPE_V>();
    Mul(yLocal, xLocal, gammaLocal, hidden);
    PipeBarrier<PIPE_V>();
    Add(yLocal, yLocal, betaLocal, hidden);
    outQueueY.EnQue(yLocal);
    inQueueX.FreeTensor(xLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueueX;
  TQue<QuePosition::VECOUT, 1> outQueueY;
  TBuf<QuePosition::VECCALC> gammaBuf, betaBuf, sqBuf, workBuf, sumBuf;
  GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
  uint32_t rows = 0, hidden = 0;
  float eps = 0.0f;
};

extern "C" __global__ __aicore__ void layer_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                        GM_ADDR workspace, GM_ADDR tiling) {
  (void)workspace;
  LayerNormTilingData t;
  t.rowsPerBlock = ((__gm__ uint32_t*)tiling)[0];
  t.hidden = ((__gm__ uint32_t*)tiling)[1];
  t.eps = ((__gm__ float*)tiling)[2];
  KernelLayerNorm op;
  op.Init(x, gamma, beta, y, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, rowsPerBlock = 6, rows = blockDim * rowsPerBlock, hidden = 768;
  auto* x = static_cast<float*>(AscendC::GmAlloc(rows * hidden * sizeof(float)));
  auto* gamma = static_cast<float*>(AscendC::GmAlloc(hidden * sizeof(float)));
  auto* beta = static_cast<float*>(AscendC::GmAlloc(hidden * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(rows * hidden * sizeof(float)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  LayerNormTilingData t{rowsPerBlock, hidden, 1e-5f};
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(t)));
  std::memcpy(tiling, &t, sizeof(t));
  std::mt19937 rng(23);
  std::normal_distribution<float> dist(1.5f, 2.0f);
  for (uint32_t i = 0; i < rows * hidden; i++) x[i] = dist(rng);
  for (uint32_t i = 0; i < hidden; i++) {
    gamma[i] = 0.5f + 0.001f * static_cast<float>(i);
    beta[i] = -0.25f + 0.0005f * static_cast<float>(i);
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(layer_norm_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(gamma),
              reinterpret_cast<uint8_t*>(beta), reinterpret_cast<uint8_t*>(y), ws, tiling);

  double maxErr = 0;
  for (uint32_t r = 0; r < rows; r++) {
    const float* row = x + r * hidden;
    double mean = 0, var = 0;
    for (uint32_t c = 0; c < hidden; c++) mean += row[c];
    mean /= hidden;
    for (uint32_t c = 0; c < hidden; c++) var += (row[c] - mean) * (row[c] - mean);
    var /= hidden;
    for (uint32_t c = 0; c < hidden; c++) {
      double want = (row[c] - mean) / std::sqrt(var + 1e-5) * gamma[c] + beta[c];
      maxErr = std::fmax(maxErr, std::fabs(y[r * hidden + c] - want));
    }
  }
  bool ok = maxErr < 1e-4;
  std::printf("layernorm: %u rows x %u floats, max abs err %.2g -> %s\n", rows, hidden, maxErr, ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(gamma);
  AscendC::GmFree(beta);
  AscendC::GmFree(y);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
