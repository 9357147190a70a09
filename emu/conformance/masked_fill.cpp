// masked_fill: the ops-style masked_fill with the high-level SelectWithBytesMask. Each core takes rows of a
// [rows, 48] half matrix and a bool mask stored with its rows padded to 64 bytes (maskLastAxis = 64 >
// srcLastAxis = 48), fills -60000 where the mask is true (tensor-first form, mask reused in place), then keeps only
// the masked values of a second float input with the scalar-first form, the same mask loaded as uint8_t through a
// multi-row DataCopyPad, and isReuseMask = false. SelectWithBytesMaskShapeInfo filled field by field, a 2 KiB
// sharedTmpBuffer. Selects are exact.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 48, MASK_COLS = 64;

class KernelMaskedFill {
 public:
  __aicore__ inline KernelMaskedFill() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR f, GM_ADDR mask, GM_ADDR y, GM_ADDR g, uint32_t rowsPerCore) {
    rows = rowsPerCore;
    const uint64_t r0 = static_cast<uint64_t>(GetBlockIdx()) * rowsPerCore;
    xGm.SetGlobalBuffer((__gm__ half*)x + r0 * COLS, rows * COLS);
    fGm.SetGlobalBuffer((__gm__ float*)f + r0 * COLS, rows * COLS);
    maskGm.SetGlobalBuffer((__gm__ bool*)mask + r0 * MASK_COLS, rows * MASK_COLS);
    maskBytesGm.SetGlobalBuffer((__gm__ uint8_t*)mask + r0 * MASK_COLS, rows * MASK_COLS);
    yGm.SetGlobalBuffer((__gm__ half*)y + r0 * COLS, rows * COLS);
    gGm.SetGlobalBuffer((__gm__ float*)g + r0 * COLS, rows * COLS);
    pipe.InitBuffer(inQue, 1, rows * (COLS * 2 + COLS * 4 + MASK_COLS + MASK_COLS));
    pipe.InitBuffer(outQue, 1, rows * (COLS * 2 + COLS * 4));
    pipe.InitBuffer(tmpBuf, 2048);
  }
  __aicore__ inline void Process() {
    LocalTensor<uint8_t> in = inQue.AllocTensor<uint8_t>();
    LocalTensor<half> x = in.ReinterpretCast<half>();
    LocalTensor<float> f = in[rows * COLS * 2].ReinterpretCast<float>();
    LocalTensor<bool> mask = in[rows * COLS * 6].ReinterpretCast<bool>();
    LocalTensor<uint8_t> byteMask = in[rows * (COLS * 6 + MASK_COLS)];
    DataCopy(x, xGm, rows * COLS);
    DataCopy(f, fGm, rows * COLS);
    DataCopy(mask, maskGm, rows * MASK_COLS);
    // The same mask as bytes: 48 bytes of each GM row, each landing in its own 64-byte (32-byte aligned) UB row.
    DataCopyPad(byteMask, maskBytesGm, {static_cast<uint16_t>(rows), COLS, MASK_COLS - COLS, 0, 0}, {false, 0, 0, 0});
    inQue.EnQue(in);
    in = inQue.DeQue<uint8_t>();
    x = in.ReinterpretCast<half>();
    x.SetSize(rows * COLS);
    f = in[rows * COLS * 2].ReinterpretCast<float>();
    f.SetSize(rows * COLS);
    mask = in[rows * COLS * 6].ReinterpretCast<bool>();
    mask.SetSize(rows * MASK_COLS);
    byteMask = in[rows * (COLS * 6 + MASK_COLS)];
    byteMask.SetSize(rows * MASK_COLS);

    LocalTensor<uint8_t> out = outQue.AllocTensor<uint8_t>();
    LocalTensor<half> y = out.ReinterpretCast<half>();
    LocalTensor<float> g = out[rows * COLS * 2].ReinterpretCast<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    SelectWithBytesMaskShapeInfo padded;
    padded.firstAxis = rows;
    padded.srcLastAxis = COLS;
    padded.maskLastAxis = MASK_COLS;
    SelectWithBytesMask(y, x, static_cast<half>(-60000.0f), mask, tmp, padded);
    // The byte mask keeps its padding bytes unwritten: isReuseMask = false compacts it into sharedTmpBuffer
    // (1024 + rows * 48 rounded to 32 bytes) and never reads them.
    SelectWithBytesMask<float, uint8_t, false>(g, 0.0f, f, byteMask, tmp, padded);
    outQue.EnQue(out);
    inQue.FreeTensor(in);
    out = outQue.DeQue<uint8_t>();
    DataCopy(yGm, out.ReinterpretCast<half>(), rows * COLS);
    DataCopy(gGm, out[rows * COLS * 2].ReinterpretCast<float>(), rows * COLS);
    outQue.FreeTensor(out);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQue;
  TQue<QuePosition::VECOUT, 1> outQue;
  TBuf<QuePosition::VECCALC> tmpBuf;
  GlobalTensor<half> xGm, yGm;
  GlobalTensor<float> fGm, gGm;
  GlobalTensor<bool> maskGm;
  GlobalTensor<uint8_t> maskBytesGm;
  uint32_t rows = 0;
};

extern "C" __global__ __aicore__ void masked_fill_custom(GM_ADDR x, GM_ADDR f, GM_ADDR mask, GM_ADDR y, GM_ADDR g,
                                                         uint32_t rowsPerCore) {
  KernelMaskedFill op;
  op.Init(x, f, mask, y, g, rowsPerCore);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, rowsPerCore = 16, rows = blockDim * rowsPerCore;
  auto* x = static_cast<half*>(AscendC::GmAlloc(rows * COLS * sizeof(half)));
  auto* f = static_cast<float*>(AscendC::GmAlloc(rows * COLS * sizeof(float)));
  auto* mask = static_cast<bool*>(AscendC::GmAlloc(rows * MASK_COLS));
  auto* y = static_cast<half*>(AscendC::GmAlloc(rows * COLS * sizeof(half)));
  auto* g = static_cast<float*>(AscendC::GmAlloc(rows * COLS * sizeof(float)));
  std::mt19937 rng(67);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  std::bernoulli_distribution coin(0.3);
  for (uint32_t i = 0; i < rows * COLS; i++) {
    x[i] = half(dist(rng));
    f[i] = dist(rng);
  }
  for (uint32_t i = 0; i < rows * MASK_COLS; i++) mask[i] = i % MASK_COLS < COLS ? coin(rng) : true;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(masked_fill_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(f),
              reinterpret_cast<uint8_t*>(mask), reinterpret_cast<uint8_t*>(y), reinterpret_cast<uint8_t*>(g),
              rowsPerCore);
  uint32_t bad = 0, filled = 0;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < COLS; c++) {
      const bool m = mask[r * MASK_COLS + c];
      filled += m ? 1 : 0;
      const float wantY = m ? static_cast<float>(half(-60000.0f)) : static_cast<float>(x[r * COLS + c]);
      const float wantG = m ? f[r * COLS + c] : 0.0f;
      if (static_cast<float>(y[r * COLS + c]) != wantY || std::memcmp(&wantG, &g[r * COLS + c], 4) != 0) ++bad;
    }
  std::printf("masked_fill: %u x %u (%u masked), half fill and float keep, %u wrong -> %s\n", rows, COLS, filled, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(f);
  AscendC::GmFree(mask);
  AscendC::GmFree(y);
  AscendC::GmFree(g);
  return bad == 0 ? 0 : 1;
}
#endif
