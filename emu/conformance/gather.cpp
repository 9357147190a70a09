// gather: embedding-style lookups inside UB. Each block loads a float table and a half table whole into UB, turns
// int32 row indices into byte offsets with ShiftLeft (Gather's offsets are in bytes from srcBaseAddr) and gathers
// with the count form (float) and the mask/repeat form (half, 128 lanes per repeat).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t TABLE = 4096;  // entries in each table
constexpr uint32_t N = 1024;      // lookups per block

class KernelGather {
 public:
  __aicore__ inline KernelGather() {}
  __aicore__ inline void Init(GM_ADDR tableF, GM_ADDR tableH, GM_ADDR idx, GM_ADDR outF, GM_ADDR outH) {
    uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * N;
    tableFGm.SetGlobalBuffer((__gm__ float*)tableF, TABLE);
    tableHGm.SetGlobalBuffer((__gm__ half*)tableH, TABLE);
    idxGm.SetGlobalBuffer((__gm__ int32_t*)idx + base, N);
    outFGm.SetGlobalBuffer((__gm__ float*)outF + base, N);
    outHGm.SetGlobalBuffer((__gm__ half*)outH + base, N);
    pipe.InitBuffer(tableFBuf, TABLE * sizeof(float));
    pipe.InitBuffer(tableHBuf, TABLE * sizeof(half));
    pipe.InitBuffer(idxQueue, 1, N * sizeof(int32_t));
    pipe.InitBuffer(offFBuf, N * sizeof(int32_t));
    pipe.InitBuffer(offHBuf, N * sizeof(int32_t));
    pipe.InitBuffer(outFQueue, 1, N * sizeof(float));
    pipe.InitBuffer(outHQueue, 1, N * sizeof(half));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> tf = tableFBuf.Get<float>();
    LocalTensor<half> th = tableHBuf.Get<half>();
    DataCopy(tf, tableFGm, TABLE);
    DataCopy(th, tableHGm, TABLE);
    LocalTensor<int32_t> idxLocal = idxQueue.AllocTensor<int32_t>();
    DataCopy(idxLocal, idxGm, N);
    idxQueue.EnQue(idxLocal);
    idxLocal = idxQueue.DeQue<int32_t>();  // waits for MTE2; the table copies were issued before it

    LocalTensor<int32_t> offF = offFBuf.Get<int32_t>();
    LocalTensor<int32_t> offH = offHBuf.Get<int32_t>();
    ShiftLeft(offF, idxLocal, static_cast<int32_t>(2), N);
    ShiftLeft(offH, idxLocal, static_cast<int32_t>(1), N);
    PipeBarrier<PIPE_V>();

    LocalTensor<float> of = outFQueue.AllocTensor<float>();
    LocalTensor<half> oh = outHQueue.AllocTensor<half>();
    Gather(of, tf, offF.ReinterpretCast<uint32_t>(), 0, N);
    Gather(oh, th, offH.ReinterpretCast<uint32_t>(), 0, static_cast<uint64_t>(128), N / 128, 8);
    idxQueue.FreeTensor(idxLocal);
    outFQueue.EnQue(of);
    outHQueue.EnQue(oh);
    of = outFQueue.DeQue<float>();
    oh = outHQueue.DeQue<half>();
    DataCopy(outFGm, of, N);
    DataCopy(outHGm, oh, N);
    outFQueue.FreeTensor(of);
    outHQueue.FreeTensor(oh);
  }

 private:
  TPipe pipe;
  TBuf<QuePosition::VECCALC> tableFBuf, tableHBuf, offFBuf, offHBuf;
  TQue<QuePosition::VECIN, 1> idxQueue;
  TQue<QuePosition::VECOUT, 1> outFQueue, outHQueue;
  GlobalTensor<float> tableFGm, outFGm;
  GlobalTensor<half> tableHGm, outHGm;
  GlobalTensor<int32_t> idxGm;
};

extern "C" __global__ __aicore__ void gather_custom(GM_ADDR tableF, GM_ADDR tableH, GM_ADDR idx, GM_ADDR outF,
                                                    GM_ADDR outH) {
  KernelGather op;
  op.Init(tableF, tableH, idx, outF, outH);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  constexpr uint32_t blockDim = 3, total = blockDim * N;
  auto* tf = static_cast<float*>(AscendC::GmAlloc(TABLE * sizeof(float)));
  auto* th = static_cast<half*>(AscendC::GmAlloc(TABLE * sizeof(half)));
  auto* idx = static_cast<int32_t*>(AscendC::GmAlloc(total * sizeof(int32_t)));
  auto* of = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* oh = static_cast<half*>(AscendC::GmAlloc(total * sizeof(half)));
  std::mt19937 rng(71);
  std::uniform_real_distribution<float> dist(-50.0f, 50.0f);
  std::uniform_int_distribution<int32_t> pick(0, TABLE - 1);
  for (uint32_t i = 0; i < TABLE; i++) {
    tf[i] = dist(rng);
    th[i] = half(dist(rng));
  }
  for (uint32_t i = 0; i < total; i++) idx[i] = pick(rng);
  idx[0] = 0;
  idx[1] = TABLE - 1;

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(gather_custom, blockDim, reinterpret_cast<uint8_t*>(tf), reinterpret_cast<uint8_t*>(th),
              reinterpret_cast<uint8_t*>(idx), reinterpret_cast<uint8_t*>(of), reinterpret_cast<uint8_t*>(oh));

  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++)
    if (of[i] != tf[idx[i]] || oh[i].val != th[idx[i]].val) ++bad;
  std::printf("gather: %u lookups into %u-entry tables, %u mismatches -> %s\n", total, TABLE, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(tf);
  AscendC::GmFree(th);
  AscendC::GmFree(idx);
  AscendC::GmFree(of);
  AscendC::GmFree(oh);
  return bad == 0 ? 0 : 1;
}
#endif
