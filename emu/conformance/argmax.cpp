// argmax: for each row of a [rows, cols] half matrix, the maximum and its column index (as int32), with the
// whole-tensor ReduceMax and calIndex = true. The index comes back bit-cast into dst[1], read on the scalar unit
// after a V->S flag; the results go out through a scalar-written UB buffer after an S->MTE3 flag.
#include "kernel_operator.h"

using namespace AscendC;

struct ArgmaxTiling {
  uint32_t cols;
  uint32_t rowsPerBlock;
};

class KernelArgmax {
 public:
  __aicore__ inline KernelArgmax() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR maxVal, GM_ADDR maxIdx, const ArgmaxTiling& tiling) {
    cols = tiling.cols;
    rows = tiling.rowsPerBlock;
    uint64_t rowBase = static_cast<uint64_t>(GetBlockIdx()) * rows;
    xGm.SetGlobalBuffer((__gm__ half*)x + rowBase * cols, rows * cols);
    valGm.SetGlobalBuffer((__gm__ half*)maxVal + rowBase, rows);
    idxGm.SetGlobalBuffer((__gm__ int32_t*)maxIdx + rowBase, rows);
    pipe.InitBuffer(inQueueX, 2, cols * sizeof(half));
    pipe.InitBuffer(reduceBuf, 32);
    pipe.InitBuffer(workBuf, cols * sizeof(half));
    pipe.InitBuffer(valBuf, 32 * sizeof(half));
    pipe.InitBuffer(idxBuf, 32 * sizeof(int32_t));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> reduced = reduceBuf.Get<half>();
    LocalTensor<half> work = workBuf.Get<half>();
    LocalTensor<half> vals = valBuf.Get<half>();
    LocalTensor<int32_t> idxs = idxBuf.Get<int32_t>();
    for (uint32_t r = 0; r < rows; r++) {
      LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
      DataCopy(xLocal, xGm[r * cols], cols);
      inQueueX.EnQue(xLocal);
      xLocal = inQueueX.DeQue<half>();
      ReduceMax<half>(reduced, xLocal, work, cols, true);
      inQueueX.FreeTensor(xLocal);

      event_t eventVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
      SetFlag<HardEvent::V_S>(eventVS);
      WaitFlag<HardEvent::V_S>(eventVS);
      half maxValue = reduced.GetValue(0);
      half indexBits = reduced.GetValue(1);
      uint16_t index = *reinterpret_cast<uint16_t*>(&indexBits);
      vals.SetValue(r, maxValue);
      idxs.SetValue(r, static_cast<int32_t>(index));
      // The next ReduceMax overwrites `reduced`: the scalar reads above must finish first.
      event_t eventSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
      SetFlag<HardEvent::S_V>(eventSV);
      WaitFlag<HardEvent::S_V>(eventSV);
    }
    event_t eventSMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(eventSMte3);
    WaitFlag<HardEvent::S_MTE3>(eventSMte3);
    DataCopy(valGm, vals, rows);
    DataCopy(idxGm, idxs, rows);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQueueX;
  TBuf<QuePosition::VECCALC> reduceBuf, workBuf, valBuf, idxBuf;
  GlobalTensor<half> xGm, valGm;
  GlobalTensor<int32_t> idxGm;
  uint32_t cols = 0, rows = 0;
};

extern "C" __global__ __aicore__ void argmax_custom(GM_ADDR x, GM_ADDR maxVal, GM_ADDR maxIdx, GM_ADDR workspace,
                                                    GM_ADDR tiling) {
  (void)workspace;
  ArgmaxTiling tilingData;
  tilingData.cols = ((__gm__ uint32_t*)tiling)[0];
  tilingData.rowsPerBlock = ((__gm__ uint32_t*)tiling)[1];
  KernelArgmax op;
  op.Init(x, maxVal, maxIdx, tilingData);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 2, rowsPerBlock = 16, rows = blockDim * rowsPerBlock, cols = 2048;
  auto* x = static_cast<half*>(AscendC::GmAlloc(rows * cols * sizeof(half)));
  auto* val = static_cast<half*>(AscendC::GmAlloc(rows * sizeof(half)));
  auto* idx = static_cast<int32_t*>(AscendC::GmAlloc(rows * sizeof(int32_t)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(32));
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(2 * sizeof(uint32_t)));
  tiling[0] = cols;
  tiling[1] = rowsPerBlock;
  // Values in [-100, 100) plus one planted maximum per row, so the argmax is unique.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::uniform_int_distribution<uint32_t> pos(0, cols - 1);
  for (uint32_t i = 0; i < rows * cols; i++) x[i] = half(dist(rng));
  for (uint32_t r = 0; r < rows; r++) x[r * cols + pos(rng)] = half(100.0f + static_cast<float>(r));

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(argmax_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(val),
              reinterpret_cast<uint8_t*>(idx), ws, reinterpret_cast<uint8_t*>(tiling));

  uint32_t bad = 0;
  for (uint32_t r = 0; r < rows; r++) {
    uint32_t best = 0;
    for (uint32_t c = 1; c < cols; c++)
      if (static_cast<float>(x[r * cols + c]) > static_cast<float>(x[r * cols + best])) best = c;
    if (idx[r] != static_cast<int32_t>(best) || static_cast<float>(val[r]) != static_cast<float>(x[r * cols + best]))
      ++bad;
  }
  std::printf("argmax: %u rows x %u half cols, %u rows wrong -> %s\n", rows, cols, bad, bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(val);
  AscendC::GmFree(idx);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
