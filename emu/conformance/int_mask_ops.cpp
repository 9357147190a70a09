// int_mask_ops: integer kernels in the mask/repeat style, checked bit for bit.
//   y[r, :] = clamp(x[r, :] + bias, lo, hi) on int32 rows of 100: each row is padded to 104 elements (13 blocks)
//     in UB by a multi-row DataCopyPad; a row is one repeat with repeat stride 13, and its 100 lanes are covered
//     by a mask-64 call and a mask-36 call on the row's second part. bias is re-read for every row (repeat
//     stride 0).
//   w = (a & b) | (a >> 3), v = ~a on uint16 with the count forms.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t COLS = 100, ROW = 104, ROW_BLOCKS = ROW * 4 / 32;
constexpr uint32_t BITS_LEN = 2048;

class KernelIntOps {
 public:
  __aicore__ inline KernelIntOps() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR v,
                              uint32_t rowsPerBlock, int32_t lo, int32_t hi) {
    rows = rowsPerBlock;
    this->lo = lo;
    this->hi = hi;
    uint64_t r0 = static_cast<uint64_t>(GetBlockIdx()) * rows;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x + r0 * COLS, rows * COLS);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y + r0 * COLS, rows * COLS);
    biasGm.SetGlobalBuffer((__gm__ int32_t*)bias, COLS);
    uint64_t e0 = static_cast<uint64_t>(GetBlockIdx()) * BITS_LEN;
    aGm.SetGlobalBuffer((__gm__ uint16_t*)a + e0, BITS_LEN);
    bGm.SetGlobalBuffer((__gm__ uint16_t*)b + e0, BITS_LEN);
    wGm.SetGlobalBuffer((__gm__ uint16_t*)w + e0, BITS_LEN);
    vGm.SetGlobalBuffer((__gm__ uint16_t*)v + e0, BITS_LEN);
    pipe.InitBuffer(inQueue, 1, rows * ROW * sizeof(int32_t));
    pipe.InitBuffer(biasQueue, 1, ROW * sizeof(int32_t));
    pipe.InitBuffer(outQueue, 1, rows * ROW * sizeof(int32_t));
    pipe.InitBuffer(inBits, 1, 2 * BITS_LEN * sizeof(uint16_t));
    pipe.InitBuffer(outBits, 1, 2 * BITS_LEN * sizeof(uint16_t));
    pipe.InitBuffer(tmpBits, BITS_LEN * sizeof(uint16_t));
  }
  __aicore__ inline void Process() {
    ClampRows();
    BitOps();
  }

 private:
  __aicore__ inline void ClampRows() {
    LocalTensor<int32_t> xl = inQueue.AllocTensor<int32_t>();
    LocalTensor<int32_t> bl = biasQueue.AllocTensor<int32_t>();
    DataCopyPadExtParams<int32_t> noPad{false, 0, 0, 0};
    DataCopyPad(xl, xGm, {static_cast<uint16_t>(rows), COLS * 4, 0, 0, 0}, noPad);
    DataCopyPad(bl, biasGm, {1, COLS * 4, 0, 0, 0}, noPad);
    inQueue.EnQue(xl);
    biasQueue.EnQue(bl);
    xl = inQueue.DeQue<int32_t>();
    bl = biasQueue.DeQue<int32_t>();

    LocalTensor<int32_t> yl = outQueue.AllocTensor<int32_t>();
    const uint8_t rep = static_cast<uint8_t>(rows);
    BinaryRepeatParams addParams(1, 1, 1, ROW_BLOCKS, ROW_BLOCKS, 0);
    UnaryRepeatParams rowParams(1, 1, ROW_BLOCKS, ROW_BLOCKS);
    Add(yl, xl, bl, 64, rep, addParams);
    Add(yl[64], xl[64], bl[64], COLS - 64, rep, addParams);
    PipeBarrier<PIPE_V>();
    Maxs(yl, yl, lo, 64, rep, rowParams);
    Maxs(yl[64], yl[64], lo, COLS - 64, rep, rowParams);
    PipeBarrier<PIPE_V>();
    Mins(yl, yl, hi, 64, rep, rowParams);
    Mins(yl[64], yl[64], hi, COLS - 64, rep, rowParams);
    outQueue.EnQue(yl);
    inQueue.FreeTensor(xl);
    biasQueue.FreeTensor(bl);

    yl = outQueue.DeQue<int32_t>();
    DataCopyPad(yGm, yl, {static_cast<uint16_t>(rows), COLS * 4, 0, 0, 0});
    outQueue.FreeTensor(yl);
  }
  __aicore__ inline void BitOps() {
    LocalTensor<uint16_t> in = inBits.AllocTensor<uint16_t>();
    DataCopy(in, aGm, BITS_LEN);
    DataCopy(in[BITS_LEN], bGm, BITS_LEN);
    inBits.EnQue(in);
    in = inBits.DeQue<uint16_t>();
    LocalTensor<uint16_t> out = outBits.AllocTensor<uint16_t>();
    LocalTensor<uint16_t> tmp = tmpBits.Get<uint16_t>();
    And(out, in, in[BITS_LEN], BITS_LEN);
    ShiftRight(tmp, in, static_cast<uint16_t>(3), BITS_LEN);
    Not(out[BITS_LEN], in, BITS_LEN);
    PipeBarrier<PIPE_V>();
    Or(out, out, tmp, BITS_LEN);
    outBits.EnQue(out);
    inBits.FreeTensor(in);
    out = outBits.DeQue<uint16_t>();
    DataCopy(wGm, out, BITS_LEN);
    DataCopy(vGm, out[BITS_LEN], BITS_LEN);
    outBits.FreeTensor(out);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueue, biasQueue, inBits;
  TQue<QuePosition::VECOUT, 1> outQueue, outBits;
  TBuf<QuePosition::VECCALC> tmpBits;
  GlobalTensor<int32_t> xGm, yGm, biasGm;
  GlobalTensor<uint16_t> aGm, bGm, wGm, vGm;
  uint32_t rows = 0;
  int32_t lo = 0, hi = 0;
};

extern "C" __global__ __aicore__ void int_mask_ops(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR a, GM_ADDR b, GM_ADDR w,
                                                   GM_ADDR v, uint32_t rowsPerBlock, int32_t lo, int32_t hi) {
  KernelIntOps op;
  op.Init(x, bias, y, a, b, w, v, rowsPerBlock, lo, hi);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <algorithm>
#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, rowsPerBlock = 20, rows = blockDim * rowsPerBlock, bitsTotal = blockDim * BITS_LEN;
  constexpr int32_t lo = -50000, hi = 70000;
  auto* x = static_cast<int32_t*>(AscendC::GmAlloc(rows * COLS * sizeof(int32_t)));
  auto* bias = static_cast<int32_t*>(AscendC::GmAlloc(COLS * sizeof(int32_t)));
  auto* y = static_cast<int32_t*>(AscendC::GmAlloc(rows * COLS * sizeof(int32_t)));
  uint16_t* bits[4];
  for (auto& p : bits) p = static_cast<uint16_t*>(AscendC::GmAlloc(bitsTotal * sizeof(uint16_t)));
  std::mt19937 rng(131);
  std::uniform_int_distribution<int32_t> dx(-100000, 100000);
  std::uniform_int_distribution<int> d16(0, 65535);
  for (uint32_t i = 0; i < rows * COLS; i++) x[i] = dx(rng);
  for (uint32_t i = 0; i < COLS; i++) bias[i] = dx(rng) / 4;
  for (uint32_t i = 0; i < bitsTotal; i++) {
    bits[0][i] = static_cast<uint16_t>(d16(rng));
    bits[1][i] = static_cast<uint16_t>(d16(rng));
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(int_mask_ops, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(bias),
              reinterpret_cast<uint8_t*>(y), reinterpret_cast<uint8_t*>(bits[0]), reinterpret_cast<uint8_t*>(bits[1]),
              reinterpret_cast<uint8_t*>(bits[2]), reinterpret_cast<uint8_t*>(bits[3]), rowsPerBlock, lo, hi);

  uint32_t badClamp = 0, badBits = 0;
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < COLS; c++)
      if (y[r * COLS + c] != std::min(std::max(x[r * COLS + c] + bias[c], lo), hi)) ++badClamp;
  for (uint32_t i = 0; i < bitsTotal; i++) {
    uint16_t a = bits[0][i], b = bits[1][i];
    if (bits[2][i] != static_cast<uint16_t>((a & b) | (a >> 3)) || bits[3][i] != static_cast<uint16_t>(~a)) ++badBits;
  }
  bool ok = badClamp == 0 && badBits == 0;
  std::printf("int_mask_ops: clamp %u x %u int32 (%u wrong), bit ops %u uint16 (%u wrong) -> %s\n", rows, COLS,
              badClamp, bitsTotal, badBits, ok ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(bias);
  AscendC::GmFree(y);
  for (auto& p : bits) AscendC::GmFree(p);
  return ok ? 0 : 1;
}
#endif
