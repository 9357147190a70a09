// conv_img2col: a tiny conv2d (one 6x6 image, 16 -> 16 channels, 3x3 filter, stride 1, padding 1) on the
// cube: the NC1HWC0 feature map goes GM -> A1 and img2col (LoadData with LoadData3DParamsV2) makes the 36 x
// 144 patch matrix in A2; the weights, stored per filter tap as 16x16 (cin x cout) fractals, go GM -> B1 and
// LoadDataWithTranspose turns each into the (cout x cin) fractal L0B wants; Mmad and Fixpipe write NHWC
// float. Checked against a direct convolution; inputs are small integers, so every sum is exact.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t H = 6, W = 6, CIN = 16, COUT = 16, KH = 3, KW = 3, PAD = 1;
constexpr uint32_t HO = H, WO = W;           // stride 1, padding 1, 3x3
constexpr uint32_t M = HO * WO, M_PAD = 48;  // output pixels, rounded up to 16
constexpr uint32_t K = CIN * KH * KW;        // (c1, kh, kw, c0) with one c1

class KernelConvImg2col {
 public:
  __aicore__ inline KernelConvImg2col() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ half*)x, H * W * CIN);
    wGm.SetGlobalBuffer((__gm__ half*)w, K * COUT);
    yGm.SetGlobalBuffer((__gm__ float*)y, M * COUT);
    pipe.InitBuffer(qA1, 1, H * W * CIN * sizeof(half));
    pipe.InitBuffer(qB1, 1, K * COUT * sizeof(half));
    pipe.InitBuffer(qA2, 1, M_PAD * K * sizeof(half));
    pipe.InitBuffer(qB2, 1, K * COUT * sizeof(half));
    pipe.InitBuffer(qCO1, 1, M_PAD * COUT * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> a1 = qA1.AllocTensor<half>();
    LocalTensor<half> b1 = qB1.AllocTensor<half>();
    DataCopy(a1, xGm, H * W * CIN);
    DataCopy(b1, wGm, K * COUT);
    qA1.EnQue(a1);
    qB1.EnQue(b1);

    a1 = qA1.DeQue<half>();
    b1 = qB1.DeQue<half>();
    LocalTensor<half> a2 = qA2.AllocTensor<half>();
    LocalTensor<half> b2 = qB2.AllocTensor<half>();
    uint8_t padList[4] = {PAD, PAD, PAD, PAD};  // left, right, top, bottom
    LoadData3DParamsV2<half> p;
    for (int i = 0; i < 4; i++) p.padList[i] = padList[i];
    p.l1H = H;
    p.l1W = W;
    p.channelSize = CIN;
    p.kExtension = K;
    p.mExtension = M_PAD;
    p.kStartPt = 0;
    p.mStartPt = 0;
    p.strideW = 1;
    p.strideH = 1;
    p.filterW = KW;
    p.filterH = KH;
    p.dilationFilterW = 1;
    p.dilationFilterH = 1;
    p.padValue = 0;
    LoadData(a2, a1, p);
    LoadDataWithTranspose(b2, b1, LoadData2dTransposeParams(0, K / 16, 1, 0, 0));
    qA2.EnQue(a2);
    qB2.EnQue(b2);
    qA1.FreeTensor(a1);
    qB1.FreeTensor(b1);

    a2 = qA2.DeQue<half>();
    b2 = qB2.DeQue<half>();
    LocalTensor<float> c1 = qCO1.AllocTensor<float>();
    MmadParams mp;
    mp.m = M;
    mp.n = COUT;
    mp.k = K;
    Mmad(c1, a2, b2, mp);
    qCO1.EnQue(c1);
    qA2.FreeTensor(a2);
    qB2.FreeTensor(b2);

    c1 = qCO1.DeQue<float>();
    FixpipeParamsV220 fp;
    fp.nSize = COUT;
    fp.mSize = M;
    fp.srcStride = M_PAD;
    fp.dstStride = COUT;
    Fixpipe(yGm, c1, fp);
    qCO1.FreeTensor(c1);
  }

 private:
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  GlobalTensor<half> xGm, wGm;
  GlobalTensor<float> yGm;
};

extern "C" __global__ __aicore__ void conv_img2col(GM_ADDR x, GM_ADDR w, GM_ADDR y) {
  KernelConvImg2col op;
  op.Init(x, w, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  auto* x = static_cast<half*>(AscendC::GmAlloc(H * W * CIN * sizeof(half)));
  auto* w = static_cast<half*>(AscendC::GmAlloc(K * COUT * sizeof(half)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(M * COUT * sizeof(float)));
  std::mt19937 rng(4711);
  std::uniform_int_distribution<int> dist(-4, 4);
  // x[h][w][c] (NHWC of one image = NC1HWC0 with C1 = 1); wt[cout][cin][kh][kw] as a conv weight is usually
  // held.
  static float xs[H][W][CIN], wt[COUT][CIN][KH][KW];
  for (uint32_t h = 0; h < H; h++)
    for (uint32_t v = 0; v < W; v++)
      for (uint32_t c = 0; c < CIN; c++) {
        xs[h][v][c] = static_cast<float>(dist(rng));
        x[(h * W + v) * CIN + c] = half(xs[h][v][c]);
      }
  // The kernel's weight layout: for tap t = kh * KW + kw a 16x16 fractal with row cin and column cout.
  for (uint32_t o = 0; o < COUT; o++)
    for (uint32_t c = 0; c < CIN; c++)
      for (uint32_t kh = 0; kh < KH; kh++)
        for (uint32_t kw = 0; kw < KW; kw++) {
          wt[o][c][kh][kw] = static_cast<float>(dist(rng));
          w[(kh * KW + kw) * 256 + c * 16 + o] = half(wt[o][c][kh][kw]);
        }

  AscendC::SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(conv_img2col, 1, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(w),
              reinterpret_cast<uint8_t*>(y));

  uint32_t bad = 0;
  for (uint32_t ho = 0; ho < HO; ho++) {
    for (uint32_t wo = 0; wo < WO; wo++) {
      for (uint32_t o = 0; o < COUT; o++) {
        float acc = 0.0f;
        for (uint32_t c = 0; c < CIN; c++)
          for (uint32_t kh = 0; kh < KH; kh++)
            for (uint32_t kw = 0; kw < KW; kw++) {
              int ih = static_cast<int>(ho + kh) - static_cast<int>(PAD);
              int iw = static_cast<int>(wo + kw) - static_cast<int>(PAD);
              if (ih < 0 || iw < 0 || ih >= static_cast<int>(H) || iw >= static_cast<int>(W)) continue;
              acc += xs[ih][iw][c] * wt[o][c][kh][kw];
            }
        if (y[(ho * WO + wo) * COUT + o] != acc) ++bad;
      }
    }
  }
  std::printf("conv_img2col: %ux%ux%u -> %ux%ux%u with a 3x3 filter, %u mismatches -> %s\n", H, W, CIN, HO, WO, COUT,
              bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(w);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
