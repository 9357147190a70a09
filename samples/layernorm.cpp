// layernorm: y = (x - mean) / sqrt(var + eps) * gamma + beta over the last axis, half in and out, float inside.
// Each block normalises a share of the rows. gamma and beta are loaded and widened to float once per block; each
// row is widened to float, reduced twice (mean, variance), scaled and narrowed back to half with one rounding.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

struct LayerNormTilingData {
  uint32_t rows;
  uint32_t cols;  // a multiple of 16: rows are whole 32-byte blocks in half
  float epsilon;
};

__aicore__ inline void CopyTiling(LayerNormTilingData* tiling, GM_ADDR tilingGm) {
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  auto dst = reinterpret_cast<uint32_t*>(tiling);
  for (size_t i = 0; i < sizeof(LayerNormTilingData) / sizeof(uint32_t); ++i) dst[i] = src[i];
}

class KernelLayerNorm {
 public:
  __aicore__ inline KernelLayerNorm() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const LayerNormTilingData& tiling) {
    cols_ = tiling.cols;
    epsilon_ = tiling.epsilon;
    rowsPerBlock_ = tiling.rows / GetBlockNum();
    uint64_t offset = static_cast<uint64_t>(rowsPerBlock_) * cols_ * GetBlockIdx();
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, rowsPerBlock_ * cols_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, rowsPerBlock_ * cols_);
    gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gamma), cols_);
    betaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(beta), cols_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, cols_ * sizeof(half));
    pipe_.InitBuffer(outQueueY_, BUFFER_NUM, cols_ * sizeof(half));
    pipe_.InitBuffer(xFloatBuf_, cols_ * sizeof(float));
    pipe_.InitBuffer(sqBuf_, cols_ * sizeof(float));
    pipe_.InitBuffer(workBuf_, cols_ * sizeof(float));
    pipe_.InitBuffer(gammaBuf_, cols_ * sizeof(float));
    pipe_.InitBuffer(betaBuf_, cols_ * sizeof(float));
    pipe_.InitBuffer(statBuf_, 2 * 8 * sizeof(float));
  }
  __aicore__ inline void Process() {
    LoadAffine();
    for (uint32_t i = 0; i < rowsPerBlock_; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  // gamma and beta pass through the input queue once, then stay in float TBufs for every row.
  __aicore__ inline void LoadAffine() {
    LocalTensor<half> g = inQueueX_.AllocTensor<half>();
    DataCopy(g, gammaGm_, cols_);
    inQueueX_.EnQue(g);
    g = inQueueX_.DeQue<half>();
    Cast(gammaBuf_.Get<float>(), g, RoundMode::CAST_NONE, cols_);
    inQueueX_.FreeTensor(g);
    LocalTensor<half> b = inQueueX_.AllocTensor<half>();
    DataCopy(b, betaGm_, cols_);
    inQueueX_.EnQue(b);
    b = inQueueX_.DeQue<half>();
    Cast(betaBuf_.Get<float>(), b, RoundMode::CAST_NONE, cols_);
    inQueueX_.FreeTensor(b);
  }
  __aicore__ inline void CopyIn(uint32_t row) {
    LocalTensor<half> xLocal = inQueueX_.AllocTensor<half>();
    DataCopy(xLocal, xGm_[row * cols_], cols_);
    inQueueX_.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    LocalTensor<half> xLocal = inQueueX_.DeQue<half>();
    LocalTensor<half> yLocal = outQueueY_.AllocTensor<half>();
    LocalTensor<float> xf = xFloatBuf_.Get<float>();
    LocalTensor<float> sq = sqBuf_.Get<float>();
    LocalTensor<float> work = workBuf_.Get<float>();
    LocalTensor<float> stat = statBuf_.Get<float>();
    LocalTensor<float> sumLocal = stat;
    LocalTensor<float> varLocal = stat[8];
    int32_t n = static_cast<int32_t>(cols_);
    float invN = 1.0f / static_cast<float>(cols_);

    Cast(xf, xLocal, RoundMode::CAST_NONE, cols_);
    inQueueX_.FreeTensor(xLocal);
    ReduceSum(sumLocal, xf, work, n);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    float mean = sumLocal.GetValue(0) * invN;
    Adds(xf, xf, -mean, n);
    Mul(sq, xf, xf, n);
    ReduceSum(varLocal, sq, work, n);
    Muls(varLocal, varLocal, invN, 1);
    Adds(varLocal, varLocal, epsilon_, 1);
    Sqrt(varLocal, varLocal, 1);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    float rstd = 1.0f / varLocal.GetValue(0);
    Muls(xf, xf, rstd, n);
    Mul(xf, xf, gammaBuf_.Get<float>(), n);
    Add(xf, xf, betaBuf_.Get<float>(), n);
    Cast(yLocal, xf, RoundMode::CAST_RINT, cols_);
    outQueueY_.EnQue<half>(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t row) {
    LocalTensor<half> yLocal = outQueueY_.DeQue<half>();
    DataCopy(yGm_[row * cols_], yLocal, cols_);
    outQueueY_.FreeTensor(yLocal);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueueX_;
  TQue<QuePosition::VECOUT, 1> outQueueY_;
  TBuf<TPosition::VECCALC> xFloatBuf_, sqBuf_, workBuf_, gammaBuf_, betaBuf_, statBuf_;
  GlobalTensor<half> xGm_, yGm_, gammaGm_, betaGm_;
  uint32_t cols_ = 0;
  uint32_t rowsPerBlock_ = 0;
  float epsilon_ = 0.0f;
};

extern "C" __global__ __aicore__ void layernorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR tiling) {
  LayerNormTilingData t;
  CopyTiling(&t, tiling);
  KernelLayerNorm op;
  op.Init(x, gamma, beta, y, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cmath>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 8;
  constexpr uint32_t rows = 32, cols = 320;
  constexpr float epsilon = 1e-5f;
  auto* x = static_cast<half*>(AscendC::GmAlloc(rows * cols * sizeof(half)));
  auto* y = static_cast<half*>(AscendC::GmAlloc(rows * cols * sizeof(half)));
  auto* gamma = static_cast<half*>(AscendC::GmAlloc(cols * sizeof(half)));
  auto* beta = static_cast<half*>(AscendC::GmAlloc(cols * sizeof(half)));
  auto* tiling = static_cast<LayerNormTilingData*>(AscendC::GmAlloc(sizeof(LayerNormTilingData)));
  *tiling = LayerNormTilingData{rows, cols, epsilon};

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-3.0f, 5.0f);
  std::uniform_real_distribution<float> affine(0.5f, 1.5f);
  for (uint32_t i = 0; i < rows * cols; ++i) x[i] = half(dist(rng));
  for (uint32_t c = 0; c < cols; ++c) {
    gamma[c] = half(affine(rng));
    beta[c] = half(affine(rng) - 1.0f);
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(layernorm, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(gamma),
              reinterpret_cast<uint8_t*>(beta), reinterpret_cast<uint8_t*>(y), reinterpret_cast<uint8_t*>(tiling));

  // Reference in double; the kernel's float arithmetic is far finer than the final half rounding (2^-11 relative).
  double maxErr = 0.0;
  bool ok = true;
  for (uint32_t r = 0; r < rows; ++r) {
    double mean = 0.0, var = 0.0;
    for (uint32_t c = 0; c < cols; ++c) mean += static_cast<float>(x[r * cols + c]);
    mean /= cols;
    for (uint32_t c = 0; c < cols; ++c) {
      double d = static_cast<float>(x[r * cols + c]) - mean;
      var += d * d;
    }
    var /= cols;
    double rstd = 1.0 / std::sqrt(var + epsilon);
    for (uint32_t c = 0; c < cols; ++c) {
      double want = (static_cast<float>(x[r * cols + c]) - mean) * rstd * static_cast<float>(gamma[c]) +
                    static_cast<float>(beta[c]);
      double err = std::fabs(static_cast<float>(y[r * cols + c]) - want);
      maxErr = std::fmax(maxErr, err);
      if (err > std::fabs(want) * std::ldexp(1.0, -11) * 1.05 + 1e-5) ok = false;
    }
  }
  std::printf("layernorm: %u blocks, %u x %u elements, max abs err %.3g -> %s\n", blockDim, rows, cols, maxErr,
              ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(gamma);
  AscendC::GmFree(beta);
  AscendC::GmFree(tiling);
  return ok ? 0 : 1;
}
#endif
