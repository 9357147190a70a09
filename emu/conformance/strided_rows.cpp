// strided_rows: picks every other row of a [rows, 64] half matrix with a strided DataCopy (DataCopyParams in
// 32-byte blocks: 4 blocks per row, source gap 4 blocks), scales it by a factor read from GM on the scalar unit
// (GlobalTensor::GetValue), adds the bias row with LocalTensor operator sugar, copies the result UB -> UB into the
// output queue, and scatters it to the even rows of the output with a destination gap (odd rows untouched).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 64;  // 128 bytes = 4 blocks per row
constexpr uint16_t ROW_BLOCKS = COLS * sizeof(half) / 32;

class KernelStridedRows {
 public:
  __aicore__ inline KernelStridedRows() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR scale, GM_ADDR y, uint32_t rowsPerBlock) {
    picked = rowsPerBlock / 2;
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * rowsPerBlock * COLS;
    xGm.SetGlobalBuffer((__gm__ half*)x + base, rowsPerBlock * COLS);
    yGm.SetGlobalBuffer((__gm__ half*)y + base, rowsPerBlock * COLS);
    biasGm.SetGlobalBuffer((__gm__ half*)bias, picked * COLS);
    scaleGm.SetGlobalBuffer((__gm__ half*)scale, 1);
    pipe.InitBuffer(inQueue, 1, picked * COLS * sizeof(half));
    pipe.InitBuffer(biasQueue, 1, picked * COLS * sizeof(half));
    pipe.InitBuffer(outQueue, 1, picked * COLS * sizeof(half));
    pipe.InitBuffer(tmpBuf, picked * COLS * sizeof(half));
  }
  __aicore__ inline void Process() {
    half scale = scaleGm.GetValue(0);
    LocalTensor<half> xl = inQueue.AllocTensor<half>();
    LocalTensor<half> bl = biasQueue.AllocTensor<half>();
    DataCopyParams pick{static_cast<uint16_t>(picked), ROW_BLOCKS, ROW_BLOCKS, 0};
    DataCopy(xl, xGm, pick);
    DataCopy(bl, biasGm, picked * COLS);
    inQueue.EnQue(xl);
    biasQueue.EnQue(bl);
    xl = inQueue.DeQue<half>();
    bl = biasQueue.DeQue<half>();

    LocalTensor<half> tmp = tmpBuf.Get<half>();
    Muls(tmp, xl, scale, picked * COLS);
    PipeBarrier<PIPE_V>();
    xl = tmp + bl;  // operator sugar: Add over xl.GetSize() elements
    PipeBarrier<PIPE_V>();
    LocalTensor<half> yl = outQueue.AllocTensor<half>();
    DataCopy(yl, xl, picked * COLS);
    outQueue.EnQue(yl);
    inQueue.FreeTensor(xl);
    biasQueue.FreeTensor(bl);

    yl = outQueue.DeQue<half>();
    DataCopyParams scatter{static_cast<uint16_t>(picked), ROW_BLOCKS, 0, ROW_BLOCKS};
    DataCopy(yGm, yl, scatter);
    outQueue.FreeTensor(yl);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue, biasQueue;
  TQue<QuePosition::VECOUT, 1> outQueue;
  TBuf<QuePosition::VECCALC> tmpBuf;
  GlobalTensor<half> xGm, yGm, biasGm, scaleGm;
  uint32_t picked = 0;
};

extern "C" __global__ __aicore__ void strided_rows(GM_ADDR x, GM_ADDR bias, GM_ADDR scale, GM_ADDR y,
                                                   uint32_t rowsPerBlock) {
  KernelStridedRows op;
  op.Init(x, bias, scale, y, rowsPerBlock);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, rowsPerBlock = 16, rows = blockDim * rowsPerBlock, picked = rowsPerBlock / 2;
  auto* x = static_cast<half*>(AscendC::GmAlloc(rows * COLS * sizeof(half)));
  auto* bias = static_cast<half*>(AscendC::GmAlloc(picked * COLS * sizeof(half)));
  auto* scale = static_cast<half*>(AscendC::GmAlloc(32));
  auto* y = static_cast<half*>(AscendC::GmAlloc(rows * COLS * sizeof(half)));
  std::mt19937 rng(139);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (uint32_t i = 0; i < rows * COLS; i++) {
    x[i] = half(dist(rng));
    y[i] = half(-7.0f);
  }
  for (uint32_t i = 0; i < picked * COLS; i++) bias[i] = half(dist(rng));
  scale[0] = half(1.7f);

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(strided_rows, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(bias),
              reinterpret_cast<uint8_t*>(scale), reinterpret_cast<uint8_t*>(y), rowsPerBlock);

  // Muls rounds to half, then Add rounds to half: two roundings, as two instructions.
  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    for (uint32_t c = 0; c < COLS; c++) {
      half want = half(-7.0f);
      if (r % 2 == 0) {
        uint32_t p = (r % rowsPerBlock) / 2;
        half scaled = half(static_cast<float>(x[r * COLS + c]) * static_cast<float>(scale[0]));
        want = half(static_cast<float>(scaled) + static_cast<float>(bias[p * COLS + c]));
      }
      if (y[r * COLS + c].val != want.val) ++bad;
    }
  }
  std::printf("strided_rows: %u rows x %u half, every other row, %u mismatches -> %s\n", rows, COLS, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(bias);
  AscendC::GmFree(scale);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
