// raw_address: a kernel that works on raw UB addresses, as AddLayerNorm's and GeGluV2's answers do: the mask
// register set with set_vector_mask, a constant block made with vector_dup, a UB -> UB copy_ubuf_to_ubuf, a vor
// that reads that block with a source stride of 0 in every repeat, then CANN's DuplicateImpl and DataCopyUB2GMImpl
// for a tail written straight to GM. Output: out[i] = x[i] | 0x0100 for the first 512, then 64 sevens.
#include "kernel_operator.h"

using namespace AscendC;

class KernelRawAddress {
 public:
  __aicore__ inline KernelRawAddress() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR out) {
    xGm.SetGlobalBuffer((__gm__ int16_t*)x, 512);
    outGm.SetGlobalBuffer((__gm__ int16_t*)out, 576);
    pipe.InitBuffer(inQue, 1, 512 * sizeof(int16_t));
    pipe.InitBuffer(work, (512 + 16 + 64) * sizeof(int16_t));
    pipe.InitBuffer(outQue, 1, 512 * sizeof(int16_t));
  }
  __aicore__ inline void Process() {
    LocalTensor<int16_t> in = inQue.AllocTensor<int16_t>();
    DataCopy(in, xGm, 512);
    inQue.EnQue(in);
    in = inQue.DeQue<int16_t>();
    LocalTensor<int16_t> copy = work.Get<int16_t>();
    LocalTensor<int16_t> bits = copy[512];
    LocalTensor<int16_t> tail = copy[528];
    LocalTensor<int16_t> out = outQue.AllocTensor<int16_t>();

    // Lanes 0..15: one block of the constant.
    set_vector_mask(0x0, 0xffff);
    vector_dup((__ubuf__ int16_t*)bits.GetPhyAddr(), (int16_t)0x0100, 1, 1, 1, (uint8_t)8, (uint8_t)8);
    copy_ubuf_to_ubuf((__ubuf__ int16_t*)copy.GetPhyAddr(), (__ubuf__ int16_t*)in.GetPhyAddr(), 0, 1, 32, 0, 0);
    pipe_barrier(PIPE_V);
    // Four repeats of 128 lanes; the constant block is read for every block of every repeat.
    set_vector_mask((uint64_t)-1, (uint64_t)-1);
    vor((__ubuf__ int16_t*)out.GetPhyAddr(), (__ubuf__ int16_t*)copy.GetPhyAddr(), (__ubuf__ int16_t*)bits.GetPhyAddr(),
        4, 1, 1, 0, 8, 8, 0);
    DuplicateImpl<int16_t>((__ubuf__ int16_t*)tail.GetPhyAddr(), 7, 64);
    outQue.EnQue(out);
    out = outQue.DeQue<int16_t>();
    DataCopy(outGm, out, 512);
    DataCopyParams tailCopy(1, 4, 0, 0);
    DataCopyUB2GMImpl((__gm__ int16_t*)outGm.GetPhyAddr() + 512, (__ubuf__ int16_t*)tail.GetPhyAddr(), tailCopy);
    outQue.FreeTensor(out);
    inQue.FreeTensor(in);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQue;
  TQue<QuePosition::VECOUT, 1> outQue;
  TBuf<QuePosition::VECCALC> work;
  GlobalTensor<int16_t> xGm, outGm;
};

extern "C" __global__ __aicore__ void raw_address_custom(GM_ADDR x, GM_ADDR out) {
  KernelRawAddress op;
  op.Init(x, out);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  auto* x = static_cast<int16_t*>(AscendC::GmAlloc(512 * sizeof(int16_t)));
  auto* out = static_cast<int16_t*>(AscendC::GmAlloc(576 * sizeof(int16_t)));
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-32768, 32767);
  for (uint32_t i = 0; i < 512; i++) x[i] = static_cast<int16_t>(dist(rng));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(raw_address_custom, 1, (uint8_t*)x, (uint8_t*)out);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < 576; i++) {
    int16_t want = i < 512 ? static_cast<int16_t>(x[i] | 0x0100) : static_cast<int16_t>(7);
    if (out[i] != want) ++bad;
  }
  std::printf("raw_address: %u of 576 values differ\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
