// broken/syncall_deadlock.cpp: a two-phase sum. Each block reduces its slice to a partial sum in a GM workspace,
// all blocks meet in SyncAll, then block 0 adds the partials. Slices are rounded up to whole repeats (64 floats),
// so the last block gets no elements, and it returns before SyncAll: the others wait for it forever.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 2100;
constexpr uint32_t SLOT = 8;  // floats per partial-sum slot: one 32-byte block

class KernelTwoPhaseSum {
 public:
  __aicore__ inline KernelTwoPhaseSum() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace) {
    uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
    uint32_t blockLength = (TOTAL_LENGTH / blocks + 63) / 64 * 64;
    uint32_t start = blockLength * static_cast<uint32_t>(GetBlockIdx());
    myLength_ = start >= TOTAL_LENGTH ? 0 : (TOTAL_LENGTH - start < blockLength ? TOTAL_LENGTH - start : blockLength);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + start, myLength_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), SLOT);
    partialGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(workspace), blocks * SLOT);
    pipe_.InitBuffer(inQueue_, 1, blockLength * sizeof(float));
    pipe_.InitBuffer(outQueue_, 1, SLOT * sizeof(float));
    pipe_.InitBuffer(workBuf_, blockLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    if (myLength_ == 0) return;  // bug: this block never reaches SyncAll
    PartialSum();
    SyncAll();  // expected-error {{deadlock: core 0 waits in SyncAll, but 1 of 8 cores finished without reaching it and the rest are blocked; hint: every core must call SyncAll the same number of times}}
    if (GetBlockIdx() == 0) FinalSum();
  }

 private:
  __aicore__ inline void PartialSum() {
    LocalTensor<float> xLocal = inQueue_.AllocTensor<float>();
    DataCopyPad(xLocal, xGm_, {1, static_cast<uint32_t>(myLength_ * sizeof(float)), 0, 0, 0}, {false, 0, 0, 0.0f});
    inQueue_.EnQue(xLocal);
    xLocal = inQueue_.DeQue<float>();
    LocalTensor<float> sumLocal = outQueue_.AllocTensor<float>();
    Duplicate(sumLocal, 0.0f, SLOT);
    ReduceSum(sumLocal, xLocal, workBuf_.Get<float>(), static_cast<int32_t>(myLength_));
    outQueue_.EnQue(sumLocal);
    inQueue_.FreeTensor(xLocal);
    sumLocal = outQueue_.DeQue<float>();
    DataCopy(partialGm_[GetBlockIdx() * SLOT], sumLocal, SLOT);
    outQueue_.FreeTensor(sumLocal);
  }
  __aicore__ inline void FinalSum() {
    uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
    LocalTensor<float> partials = inQueue_.AllocTensor<float>();
    DataCopy(partials, partialGm_, blocks * SLOT);
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    float total = 0.0f;
    for (uint32_t b = 0; b < blocks; b++) total += partials.GetValue(b * SLOT);
    inQueue_.FreeTensor(partials);
    LocalTensor<float> result = outQueue_.AllocTensor<float>();
    Duplicate(result, total, SLOT);
    outQueue_.EnQue(result);
    result = outQueue_.DeQue<float>();
    DataCopy(yGm_, result, SLOT);
    outQueue_.FreeTensor(result);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> inQueue_;
  TQue<QuePosition::VECOUT, 1> outQueue_;
  TBuf<TPosition::VECCALC> workBuf_;
  GlobalTensor<float> xGm_, yGm_, partialGm_;
  uint32_t myLength_ = 0;
};

extern "C" __global__ __aicore__ void two_phase_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace) {
  KernelTwoPhaseSum op;
  op.Init(x, y, workspace);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>

int main() {
  constexpr uint32_t blockDim = 8;
  auto* x = static_cast<float*>(AscendC::GmAlloc(TOTAL_LENGTH * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(SLOT * sizeof(float)));
  auto* workspace = static_cast<float*>(AscendC::GmAlloc(blockDim * SLOT * sizeof(float)));
  for (uint32_t i = 0; i < TOTAL_LENGTH; ++i) x[i] = static_cast<float>(i % 4);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(two_phase_sum, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(workspace));
  std::printf("two_phase_sum: %g\n", static_cast<double>(y[0]));
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(workspace);
  return 0;
}
#endif
