// broken/mte3_no_flag.cpp: the copy-out reads z with no V_MTE3 flag after the add that writes it.
// The kernel keeps its tiles in TBufs and orders the pipes itself with SetFlag/WaitFlag, as hand-tuned kernels do.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TOTAL_LENGTH = 8192;
constexpr uint32_t TILE_LENGTH = 512;

class KernelAddFlags {
 public:
  __aicore__ inline KernelAddFlags() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    blockLength_ = TOTAL_LENGTH / GetBlockNum();
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + blockLength_ * GetBlockIdx(), blockLength_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + blockLength_ * GetBlockIdx(), blockLength_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + blockLength_ * GetBlockIdx(), blockLength_);
    pipe_.InitBuffer(xBuf_, TILE_LENGTH * sizeof(float));
    pipe_.InitBuffer(yBuf_, TILE_LENGTH * sizeof(float));
    pipe_.InitBuffer(zBuf_, TILE_LENGTH * sizeof(float));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> x = xBuf_.Get<float>();
    LocalTensor<float> y = yBuf_.Get<float>();
    LocalTensor<float> z = zBuf_.Get<float>();
    uint32_t tiles = blockLength_ / TILE_LENGTH;
    for (uint32_t i = 0; i < tiles; i++) {
      if (i > 0) WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);  // the previous add has read x and y
      DataCopy(x, xGm_[i * TILE_LENGTH], TILE_LENGTH);
      DataCopy(y, yGm_[i * TILE_LENGTH], TILE_LENGTH);
      SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
      if (i > 0) WaitFlag<HardEvent::MTE3_V>(EVENT_ID0);  // the previous copy-out has read z
      Add(z, x, y, TILE_LENGTH);  // expected-note {{Add on pipe V is here}}
      if (i + 1 < tiles) SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
      DataCopy(zGm_[i * TILE_LENGTH], z, TILE_LENGTH);  // expected-error {{cross-pipe hazard: DataCopy src on pipe MTE3 reads data that Add on pipe V wrote, with no queue, flag or barrier between them (block at byte 4096); hint: pass the tensor through a TQue (EnQue/DeQue), or SetFlag<HardEvent::V_MTE3>/WaitFlag<HardEvent::V_MTE3> between the two calls}}
      if (i + 1 < tiles) SetFlag<HardEvent::MTE3_V>(EVENT_ID0);
    }
  }

 private:
  TPipe pipe_;
  TBuf<TPosition::VECCALC> xBuf_, yBuf_, zBuf_;
  GlobalTensor<float> xGm_, yGm_, zGm_;
  uint32_t blockLength_ = 0;
};

extern "C" __global__ __aicore__ void add_flags(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAddFlags op;
  op.Init(x, y, z);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

int main() {
  constexpr size_t bytes = TOTAL_LENGTH * sizeof(float);
  auto* x = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<float*>(AscendC::GmAlloc(bytes));
  for (uint32_t i = 0; i < TOTAL_LENGTH; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f;
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_flags, 4, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z));
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return 0;
}
#endif
