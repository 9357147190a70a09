// embedding_rows: an embedding lookup. Token ids are read one by one from GM on the scalar unit with
// GlobalTensor::GetValue, each id selects a row of the table at an int64_t element offset (the table is larger
// than 2^31 bytes would allow in int32 arithmetic for big vocabularies), and the row is scaled and copied out.
// Rows with an out-of-range id are written as zeros with GlobalTensor::SetValue + DataCacheCleanAndInvalid, the
// way padding tokens are handled. Debug leftovers as kernels keep them: ASCENDC_ASSERT with a KERNEL_LOG behaviour
// on the row size, TRACE_START/TRACE_STOP around the loop.
#include "kernel_operator.h"

using namespace AscendC;

class KernelEmbedding {
 public:
  __aicore__ inline KernelEmbedding() {}
  __aicore__ inline void Init(GM_ADDR ids, GM_ADDR table, GM_ADDR out, uint32_t tokensPerCore, uint32_t vocab,
                              uint32_t dim, float scale) {
    tokens = tokensPerCore;
    this->vocab = vocab;
    this->dim = dim;
    this->scale = scale;
    ASCENDC_ASSERT((dim * sizeof(float) % 32 == 0),
                   { KERNEL_LOG(KERNEL_ERROR, "dim %u floats is not a whole number of 32-byte blocks", dim); });
    idsGm.SetGlobalBuffer((__gm__ int32_t*)ids + GetBlockIdx() * tokensPerCore, tokensPerCore);
    tableGm.SetGlobalBuffer((__gm__ float*)table, static_cast<uint64_t>(vocab) * dim);
    outGm.SetGlobalBuffer((__gm__ float*)out + static_cast<int64_t>(GetBlockIdx()) * tokensPerCore * dim,
                          static_cast<uint64_t>(tokensPerCore) * dim);
    pipe.InitBuffer(inQue, 2, dim * sizeof(float));
    pipe.InitBuffer(outQue, 2, dim * sizeof(float));
  }
  __aicore__ inline void Process() {
    TRACE_START(0x1);
    for (uint32_t t = 0; t < tokens; t++) {
      const int32_t id = idsGm.GetValue(t);
      const int64_t outOff = static_cast<int64_t>(t) * dim;
      if (id < 0 || id >= static_cast<int32_t>(vocab)) {
        for (uint32_t c = 0; c < dim; c++) outGm.SetValue(outOff + c, 0.0f);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(outGm[outOff]);
        continue;
      }
      const int64_t rowOff = static_cast<int64_t>(id) * dim;
      LocalTensor<float> row = inQue.AllocTensor<float>();
      DataCopy(row, tableGm[rowOff], dim);
      inQue.EnQue(row);
      row = inQue.DeQue<float>();
      LocalTensor<float> res = outQue.AllocTensor<float>();
      Muls(res, row, scale, dim);
      outQue.EnQue(res);
      inQue.FreeTensor(row);
      res = outQue.DeQue<float>();
      DataCopy(outGm[outOff], res, dim);
      outQue.FreeTensor(res);
    }
    TRACE_STOP(0x1);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inQue;
  TQue<QuePosition::VECOUT, 2> outQue;
  GlobalTensor<int32_t> idsGm;
  GlobalTensor<float> tableGm, outGm;
  uint32_t tokens = 0, vocab = 0, dim = 0;
  float scale = 1.0f;
};

extern "C" __global__ __aicore__ void embedding_custom(GM_ADDR ids, GM_ADDR table, GM_ADDR out, uint32_t tokens,
                                                       uint32_t vocab, uint32_t dim, float scale) {
  KernelEmbedding op;
  op.Init(ids, table, out, tokens, vocab, dim, scale);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 4, tokensPerCore = 24, vocab = 300, dim = 64, tokens = blockDim * tokensPerCore;
  constexpr float scale = 8.0f;  // sqrt(dim): a power of two, so the scaled rows are exact
  auto* ids = static_cast<int32_t*>(AscendC::GmAlloc(tokens * sizeof(int32_t)));
  auto* table = static_cast<float*>(AscendC::GmAlloc(vocab * dim * sizeof(float)));
  auto* out = static_cast<float*>(AscendC::GmAlloc(tokens * dim * sizeof(float)));
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::uniform_int_distribution<int32_t> idDist(-3, vocab + 2);
  for (uint32_t i = 0; i < vocab * dim; i++) table[i] = dist(rng);
  for (uint32_t t = 0; t < tokens; t++) ids[t] = idDist(rng);
  ids[5] = -1;
  ids[40] = static_cast<int32_t>(vocab);
  for (uint32_t i = 0; i < tokens * dim; i++) out[i] = 99.0f;
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(embedding_custom, blockDim, reinterpret_cast<uint8_t*>(ids), reinterpret_cast<uint8_t*>(table),
              reinterpret_cast<uint8_t*>(out), tokensPerCore, vocab, dim, scale);
  uint32_t bad = 0, padded = 0;
  for (uint32_t t = 0; t < tokens; t++) {
    const bool valid = ids[t] >= 0 && ids[t] < static_cast<int32_t>(vocab);
    padded += valid ? 0 : 1;
    for (uint32_t c = 0; c < dim; c++) {
      const float want = valid ? table[ids[t] * dim + c] * scale : 0.0f;
      if (std::memcmp(&want, &out[t * dim + c], sizeof(float)) != 0) ++bad;
    }
  }
  std::printf("embedding_rows: %u tokens (%u padding) x %u floats, %u wrong -> %s\n", tokens, padded, dim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(ids);
  AscendC::GmFree(table);
  AscendC::GmFree(out);
  return bad == 0 ? 0 : 1;
}
#endif
