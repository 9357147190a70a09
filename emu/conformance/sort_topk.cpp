// sort_topk: each core sorts a row of 512 floats in descending order with their positions (Sort<float, true>:
// Sort32 per 32 elements, then 4-way MrgSort rounds through a tmp buffer), splits values and indices with
// Extract, and copies the first k of each out. A second stage merges two sorted rows with MrgSort and reads how
// many records of each list went out with exhausted suspension. Positions come from GM as uint32.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kCols = 512;
constexpr uint32_t kTopK = 64;

class KernelSortTopk {
 public:
  __aicore__ inline KernelSortTopk() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR pos, GM_ADDR vals, GM_ADDR idx, GM_ADDR merged, GM_ADDR counts) {
    uint32_t b = GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float*)x + b * kCols, kCols);
    posGm.SetGlobalBuffer((__gm__ uint32_t*)pos, kCols);
    valGm.SetGlobalBuffer((__gm__ float*)vals + b * kTopK, kTopK);
    idxGm.SetGlobalBuffer((__gm__ uint32_t*)idx + b * kTopK, kTopK);
    mergedGm.SetGlobalBuffer((__gm__ float*)merged + b * 2 * kTopK * 2, 2 * kTopK * 2);
    countGm.SetGlobalBuffer((__gm__ uint32_t*)counts + b * 8, 8);
    pipe.InitBuffer(inBuf, kCols * sizeof(float));
    pipe.InitBuffer(posBuf, kCols * sizeof(uint32_t));
    pipe.InitBuffer(sortedBuf, GetSortLen<float>(kCols) * sizeof(float));
    pipe.InitBuffer(tmpBuf, GetSortLen<float>(kCols) * sizeof(float));
    pipe.InitBuffer(valBuf, kCols * sizeof(float));
    pipe.InitBuffer(idxBuf, kCols * sizeof(uint32_t));
    pipe.InitBuffer(mergeBuf, GetSortLen<float>(2 * kTopK) * sizeof(float));
    pipe.InitBuffer(countBuf, 8 * sizeof(uint32_t));
  }
  __aicore__ inline void Process() {
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<uint32_t> pos = posBuf.Get<uint32_t>();
    LocalTensor<float> sorted = sortedBuf.Get<float>();
    LocalTensor<float> tmp = tmpBuf.Get<float>();
    LocalTensor<float> vals = valBuf.Get<float>();
    LocalTensor<uint32_t> idx = idxBuf.Get<uint32_t>();
    LocalTensor<float> merged = mergeBuf.Get<float>();
    LocalTensor<uint32_t> cnt = countBuf.Get<uint32_t>();
    DataCopy(in, xGm, kCols);
    DataCopy(pos, posGm, kCols);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<float> concat;
    Concat(concat, in, tmp, kCols / 32);
    Sort<float, true>(sorted, concat, pos, tmp, kCols / 32);
    PipeBarrier<PIPE_V>();
    Extract(vals, idx, sorted, kCols / 32);
    // Merge the top 64 records with the next 64 (both sorted), stopping when the first list runs out.
    MrgSortSrcList<float> list(sorted, sorted[GetSortOffset<float>(kTopK)], sorted, sorted);
    const uint16_t lens[4] = {static_cast<uint16_t>(kTopK), static_cast<uint16_t>(kTopK), 0, 0};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSort<float, true>(merged, list, lens, sortedNum, 3, 1);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    for (int i = 0; i < 8; i++) cnt.SetValue(i, i < 4 ? sortedNum[i] : 0u);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(valGm, vals, kTopK);
    DataCopy(idxGm, idx, kTopK);
    DataCopy(mergedGm, merged, kTopK * 2);  // the 64 records the suspended merge wrote
    DataCopy(countGm, cnt, 8);
  }

 private:
  TPipe pipe;
  TBuf<QuePosition::VECCALC> inBuf, posBuf, sortedBuf, tmpBuf, valBuf, idxBuf, mergeBuf, countBuf;
  GlobalTensor<float> xGm, valGm, mergedGm;
  GlobalTensor<uint32_t> posGm, idxGm, countGm;
};

extern "C" __global__ __aicore__ void sort_topk(GM_ADDR x, GM_ADDR pos, GM_ADDR vals, GM_ADDR idx, GM_ADDR merged,
                                                GM_ADDR counts) {
  KernelSortTopk op;
  op.Init(x, pos, vals, idx, merged, counts);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

int main() {
  constexpr uint32_t blockDim = 2;
  auto* x = static_cast<float*>(AscendC::GmAlloc(blockDim * kCols * sizeof(float)));
  auto* pos = static_cast<uint32_t*>(AscendC::GmAlloc(kCols * sizeof(uint32_t)));
  auto* vals = static_cast<float*>(AscendC::GmAlloc(blockDim * kTopK * sizeof(float)));
  auto* idx = static_cast<uint32_t*>(AscendC::GmAlloc(blockDim * kTopK * sizeof(uint32_t)));
  auto* merged = static_cast<float*>(AscendC::GmAlloc(blockDim * 4 * kTopK * sizeof(float)));
  auto* counts = static_cast<uint32_t*>(AscendC::GmAlloc(blockDim * 8 * sizeof(uint32_t)));
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dist(-200, 200);  // many ties: the order among equals is checked too
  for (uint32_t i = 0; i < blockDim * kCols; i++) x[i] = static_cast<float>(dist(rng)) * 0.25f;
  for (uint32_t i = 0; i < kCols; i++) pos[i] = i;

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(sort_topk, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(pos),
              reinterpret_cast<uint8_t*>(vals), reinterpret_cast<uint8_t*>(idx), reinterpret_cast<uint8_t*>(merged),
              reinterpret_cast<uint8_t*>(counts));

  uint32_t bad = 0;
  for (uint32_t b = 0; b < blockDim; b++) {
    std::vector<uint32_t> order(kCols);
    for (uint32_t i = 0; i < kCols; i++) order[i] = i;
    const float* row = x + b * kCols;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t p, uint32_t q) { return row[p] > row[q]; });
    for (uint32_t k = 0; k < kTopK; k++) {
      if (vals[b * kTopK + k] != row[order[k]] || idx[b * kTopK + k] != order[k]) ++bad;
    }
    // Merging ranks 0..63 with 64..127 takes all of list 1 first (every value in it is >= list 2's, ties go to
    // list 1), then stops: 64 from list 1, 0 from list 2.
    if (counts[b * 8] != kTopK || counts[b * 8 + 1] != 0) ++bad;
    for (uint32_t k = 0; k < kTopK; k++) {
      uint32_t index;
      std::memcpy(&index, &merged[b * 4 * kTopK + 2 * k + 1], 4);
      if (merged[b * 4 * kTopK + 2 * k] != row[order[k]] || index != order[k]) ++bad;
    }
  }
  std::printf("sort_topk: %u rows of %u floats, top %u, %u wrong -> %s\n", blockDim, kCols, kTopK, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(pos);
  AscendC::GmFree(vals);
  AscendC::GmFree(idx);
  AscendC::GmFree(merged);
  AscendC::GmFree(counts);
  return bad == 0 ? 0 : 1;
}
#endif
