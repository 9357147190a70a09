// arange_cumsum: the index and scan helpers of the high-level library as single-file kernels call them (no host
// tiling needed). ArithProgression builds an arange in float (1000 elements: block, repeat and tail steps) and in
// int32; CumSum with the default config (last axis, lastRow output) scans float rows with a kernel-sized
// sharedTmpBuffer, and CumSum<half, {false, false, false}> scans half columns down the first axis with the
// library's own temporary space. The arange steps are exact in float; the float scans add left to right in float
// (the reference does the same), the half scan accumulates in float and rounds once, so every check is bit for bit.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t ARANGE_N = 1000;
constexpr uint32_t ROWS = 16, COLS = 64;    // float scan: 16 rows of 64
constexpr uint32_t HROWS = 24, HCOLS = 32;  // half scan: 24 rows of 32, down the columns
constexpr CumSumConfig columnScan = {false, false, false};

class KernelScan {
 public:
  __aicore__ inline KernelScan() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR h, GM_ADDR out, float first, float step) {
    this->first = first;
    this->step = step;
    xGm.SetGlobalBuffer((__gm__ float*)x, ROWS * COLS);
    hGm.SetGlobalBuffer((__gm__ half*)h, HROWS * HCOLS);
    outGm.SetGlobalBuffer((__gm__ uint8_t*)out, OUT_BYTES);
    pipe.InitBuffer(inQue, 1, ROWS * COLS * sizeof(float) + HROWS * HCOLS * sizeof(half));
    pipe.InitBuffer(outQue, 1, OUT_BYTES);
    pipe.InitBuffer(tmpBuf, 16 * COLS * sizeof(float) * 2);
  }
  __aicore__ inline void Process() {
    LocalTensor<float> in = inQue.AllocTensor<float>();
    LocalTensor<half> hIn = in[ROWS * COLS].ReinterpretCast<half>();
    DataCopy(in, xGm, ROWS * COLS);
    DataCopy(hIn, hGm, HROWS * HCOLS);
    inQue.EnQue(in);
    in = inQue.DeQue<float>();
    hIn = in[ROWS * COLS].ReinterpretCast<half>();

    LocalTensor<uint8_t> out = outQue.AllocTensor<uint8_t>();
    LocalTensor<float> arange = out.ReinterpretCast<float>();
    LocalTensor<int32_t> iarange = out[ARANGE_BYTES].ReinterpretCast<int32_t>();
    LocalTensor<float> scan = out[2 * ARANGE_BYTES].ReinterpretCast<float>();
    LocalTensor<float> lastRow = out[2 * ARANGE_BYTES + ROWS * COLS * 4].ReinterpretCast<float>();
    LocalTensor<half> hScan = out[2 * ARANGE_BYTES + ROWS * COLS * 4 + COLS * 4].ReinterpretCast<half>();
    ArithProgression<float>(arange, first, step, ARANGE_N);
    ArithProgression<int32_t>(iarange, -7, 3, ARANGE_N);
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    CumSumInfo info{ROWS, COLS};
    CumSum<float>(scan, lastRow, in, tmp, info);
    LocalTensor<half> unused;
    CumSum<half, columnScan>(hScan, unused, hIn, {HROWS, HCOLS});
    outQue.EnQue(out);
    inQue.FreeTensor(in);
    out = outQue.DeQue<uint8_t>();
    DataCopy(outGm, out, OUT_BYTES);
    outQue.FreeTensor(out);
  }
  // 1000 elements are whole 32-byte blocks, so the library writes exactly `count` elements here.
  static constexpr uint32_t ARANGE_BYTES = ARANGE_N * 4;
  static constexpr uint32_t OUT_BYTES = 2 * ARANGE_BYTES + ROWS * COLS * 4 + COLS * 4 + HROWS * HCOLS * 2;

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQue;
  TQue<QuePosition::VECOUT, 1> outQue;
  TBuf<QuePosition::VECCALC> tmpBuf;
  GlobalTensor<float> xGm;
  GlobalTensor<half> hGm;
  GlobalTensor<uint8_t> outGm;
  float first = 0.0f, step = 1.0f;
};

extern "C" __global__ __aicore__ void scan_custom(GM_ADDR x, GM_ADDR h, GM_ADDR out, float first, float step) {
  KernelScan op;
  op.Init(x, h, out, first, step);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t outBytes = KernelScan::OUT_BYTES, arangeBytes = KernelScan::ARANGE_BYTES;
  auto* x = static_cast<float*>(AscendC::GmAlloc(ROWS * COLS * sizeof(float)));
  auto* h = static_cast<half*>(AscendC::GmAlloc(HROWS * HCOLS * sizeof(half)));
  auto* out = static_cast<uint8_t*>(AscendC::GmAlloc(outBytes));
  std::mt19937 rng(59);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  for (uint32_t i = 0; i < ROWS * COLS; i++) x[i] = dist(rng);
  for (uint32_t i = 0; i < HROWS * HCOLS; i++) h[i] = half(dist(rng));
  const float first = -3.5f, step = 0.25f;  // every partial value is exact in float
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(scan_custom, 1, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(h), out, first, step);

  uint32_t bad = 0;
  const auto* arange = reinterpret_cast<const float*>(out);
  const auto* iarange = reinterpret_cast<const int32_t*>(out + arangeBytes);
  const auto* scan = reinterpret_cast<const float*>(out + 2 * arangeBytes);
  const auto* lastRow = scan + ROWS * COLS;
  const auto* hScan = reinterpret_cast<const half*>(lastRow + COLS);
  for (uint32_t i = 0; i < ARANGE_N; i++) {
    if (arange[i] != first + step * static_cast<float>(i)) ++bad;
    if (iarange[i] != -7 + 3 * static_cast<int32_t>(i)) ++bad;
  }
  for (uint32_t r = 0; r < ROWS; r++) {
    float acc = 0.0f;
    for (uint32_t c = 0; c < COLS; c++) {
      acc = c == 0 ? x[r * COLS] : acc + x[r * COLS + c];
      if (std::memcmp(&acc, &scan[r * COLS + c], 4) != 0) ++bad;
      if (r == ROWS - 1 && std::memcmp(&acc, &lastRow[c], 4) != 0) ++bad;
    }
  }
  for (uint32_t c = 0; c < HCOLS; c++) {
    float acc = 0.0f;
    for (uint32_t r = 0; r < HROWS; r++) {
      acc = r == 0 ? static_cast<float>(h[c]) : acc + static_cast<float>(h[r * HCOLS + c]);
      if (static_cast<float>(hScan[r * HCOLS + c]) != static_cast<float>(half(acc))) ++bad;
    }
  }
  std::printf("arange_cumsum: arange %u (float, int32), float row scan %ux%u, half column scan %ux%u, %u wrong -> %s\n",
              ARANGE_N, ROWS, COLS, HROWS, HCOLS, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(h);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
