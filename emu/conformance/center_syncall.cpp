// center_syncall: y = x - mean(x) over the whole tensor, across all cores, in two stages joined by SyncAll.
//   stage 1: each core loads its chunk into UB (kept for stage 2), sums it with ReduceSum and writes the partial
//            sum to its own 32-byte slot of the user workspace in GM;
//   SyncAll: every core's partial is in GM;
//   stage 2: each core reads all partials, adds them in block order on the scalar unit, and writes x - mean.
// The workspace argument is CANN's (system part first): the user part comes from GetUserWorkspace.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t SLOT = 8;  // floats per core slot: 32 bytes, so each DataCopy to GM is whole blocks

struct CenterTiling {
  uint32_t blockLength;  // elements per core, a multiple of 8
  uint32_t totalLength;
};

class KernelCenter {
 public:
  __aicore__ inline KernelCenter() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR usrWorkspace, const CenterTiling& t) {
    len = t.blockLength;
    total = t.totalLength;
    cores = GetBlockNum();
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * len, len);
    yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * len, len);
    wsGm.SetGlobalBuffer((__gm__ float*)usrWorkspace, cores * SLOT);
    pipe.InitBuffer(xBuf, len * sizeof(float));
    pipe.InitBuffer(yBuf, len * sizeof(float));
    pipe.InitBuffer(workBuf, len * sizeof(float));
    pipe.InitBuffer(slotBuf, SLOT * sizeof(float));
    pipe.InitBuffer(allBuf, cores * SLOT * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> xLocal = xBuf.Get<float>();
    LocalTensor<float> slot = slotBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();

    // Stage 1: partial sum of this core's chunk into its workspace slot.
    DataCopy(xLocal, xGm, len);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(slot, 0.0f, SLOT);
    PipeBarrier<PIPE_V>();
    ReduceSum(slot, xLocal, work, len);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(wsGm[GetBlockIdx() * SLOT], slot, SLOT);

    SyncAll();

    // Stage 2: every partial, summed in block order, then x - mean.
    LocalTensor<float> all = allBuf.Get<float>();
    DataCopy(all, wsGm, cores * SLOT);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    float sum = 0.0f;
    for (uint32_t i = 0; i < cores; i++) sum += all.GetValue(i * SLOT);
    float mean = sum / static_cast<float>(total);

    LocalTensor<float> yLocal = yBuf.Get<float>();
    Adds(yLocal, xLocal, -mean, len);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(yGm, yLocal, len);
  }

 private:
  TPipe pipe;
  TBuf<QuePosition::VECCALC> xBuf, yBuf, workBuf, slotBuf, allBuf;
  GlobalTensor<float> xGm, yGm, wsGm;
  uint32_t len = 0, total = 0, cores = 0;
};

extern "C" __global__ __aicore__ void center_syncall(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  GM_ADDR usrWorkspace = GetUserWorkspace(workspace);
  CenterTiling t;
  t.blockLength = ((__gm__ uint32_t*)tiling)[0];
  t.totalLength = ((__gm__ uint32_t*)tiling)[1];
  KernelCenter op;
  op.Init(x, y, usrWorkspace, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 8, blockLength = 2000, total = blockDim * blockLength;
  auto* x = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  // In CPU mode GetUserWorkspace returns the workspace pointer itself; on the device the host sizes it as the
  // system part plus the user part.
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(blockDim * SLOT * sizeof(float)));
  auto* tiling = static_cast<uint32_t*>(AscendC::GmAlloc(2 * sizeof(uint32_t)));
  tiling[0] = blockLength;
  tiling[1] = total;
  // Multiples of 1/8 in [4, 12): every sum is exact in float, so the mean does not depend on the summation order.
  std::mt19937 rng(101);
  std::uniform_int_distribution<int> dist(32, 95);
  for (uint32_t i = 0; i < total; i++) x[i] = static_cast<float>(dist(rng)) / 8.0f;

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(center_syncall, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y), ws,
              reinterpret_cast<uint8_t*>(tiling));

  double sum = 0;
  for (uint32_t i = 0; i < total; i++) sum += x[i];
  float mean = static_cast<float>(sum) / static_cast<float>(total);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++)
    if (y[i] != x[i] - mean) ++bad;
  std::printf("center_syncall: %u floats on %u cores, mean %.6f, %u mismatches -> %s\n", total, blockDim, mean, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
