// elementwise_tail: z = x * y + x on half, custom-op style (inputs, outputs, workspace, tiling). The length is split
// over blocks unevenly: the first `formerNum` blocks get `formerLength` elements, the rest `tailLength`; each block
// loops over double-buffered tiles and copies its last, non-32-byte-aligned tile with DataCopyPad.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

struct ElementwiseTilingData {
  uint32_t totalLength;
  uint32_t formerNum;  // blocks that get formerLength elements
  uint32_t formerLength;
  uint32_t tailLength;  // the other blocks
  uint32_t tileLength;  // elements per tile, 32-byte aligned
};

class KernelMulAdd {
 public:
  __aicore__ inline KernelMulAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ElementwiseTilingData& tiling) {
    uint32_t blockIdx = AscendC::GetBlockIdx();
    uint64_t offset;
    if (blockIdx < tiling.formerNum) {
      blockLength = tiling.formerLength;
      offset = static_cast<uint64_t>(tiling.formerLength) * blockIdx;
    } else {
      blockLength = tiling.tailLength;
      offset = static_cast<uint64_t>(tiling.formerLength) * tiling.formerNum +
               static_cast<uint64_t>(tiling.tailLength) * (blockIdx - tiling.formerNum);
    }
    tileLength = tiling.tileLength;
    tileNum = (blockLength + tileLength - 1) / tileLength;
    lastTileLength = blockLength - (tileNum - 1) * tileLength;

    xGm.SetGlobalBuffer((__gm__ half*)x + offset, blockLength);
    yGm.SetGlobalBuffer((__gm__ half*)y + offset, blockLength);
    zGm.SetGlobalBuffer((__gm__ half*)z + offset, blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(half));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(half));
    pipe.InitBuffer(tmpBuf, tileLength * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tileNum; i++) {
      uint32_t len = (i == tileNum - 1) ? lastTileLength : tileLength;
      CopyIn(i, len);
      Compute(len);
      CopyOut(i, len);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress, uint32_t len) {
    AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    if (len * sizeof(half) % 32 == 0) {
      AscendC::DataCopy(xLocal, xGm[progress * tileLength], len);
      AscendC::DataCopy(yLocal, yGm[progress * tileLength], len);
    } else {
      AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
      AscendC::DataCopyPadExtParams<half> padParams{false, 0, 0, 0};
      AscendC::DataCopyPad(xLocal, xGm[progress * tileLength], copyParams, padParams);
      AscendC::DataCopyPad(yLocal, yGm[progress * tileLength], copyParams, padParams);
    }
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(uint32_t len) {
    AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
    AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    AscendC::LocalTensor<half> tmp = tmpBuf.Get<half>();
    AscendC::Mul(tmp, xLocal, yLocal, len);
    AscendC::Add(zLocal, tmp, xLocal, len);
    outQueueZ.EnQue<half>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress, uint32_t len) {
    AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
    if (len * sizeof(half) % 32 == 0) {
      AscendC::DataCopy(zGm[progress * tileLength], zLocal, len);
    } else {
      AscendC::DataCopyExtParams copyParams{1, static_cast<uint32_t>(len * sizeof(half)), 0, 0, 0};
      AscendC::DataCopyPad(zGm[progress * tileLength], zLocal, copyParams);
    }
    outQueueZ.FreeTensor(zLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf;
  AscendC::GlobalTensor<half> xGm, yGm, zGm;
  uint32_t blockLength = 0, tileLength = 0, tileNum = 0, lastTileLength = 0;
};

extern "C" __global__ __aicore__ void mul_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                     GM_ADDR tiling) {
  (void)workspace;
  ElementwiseTilingData tilingData;
  auto tilingSrc = reinterpret_cast<__gm__ uint32_t*>(tiling);
  auto tilingDst = reinterpret_cast<uint32_t*>(&tilingData);
  for (uint32_t i = 0; i < sizeof(ElementwiseTilingData) / sizeof(uint32_t); i++) tilingDst[i] = tilingSrc[i];
  KernelMulAdd op;
  op.Init(x, y, z, tilingData);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 6;
  constexpr uint32_t total = 9999;  // 6 blocks: 3 of 1667, 3 of 1666; tiles of 512 leave odd tails
  ElementwiseTilingData t;
  t.totalLength = total;
  t.formerNum = total % blockDim;
  t.formerLength = (total + blockDim - 1) / blockDim;
  t.tailLength = total / blockDim;
  t.tileLength = 512;

  size_t bytes = total * sizeof(half);
  auto* x = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(1024));
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(t)));
  std::memcpy(tiling, &t, sizeof(t));
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  for (uint32_t i = 0; i < total; i++) {
    x[i] = half(dist(rng));
    y[i] = half(dist(rng));
  }

  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(mul_add_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z), ws, tiling);

  // Each vector instruction computes in float and rounds once to half: Mul rounds, then Add rounds.
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    half prod = half(static_cast<float>(x[i]) * static_cast<float>(y[i]));
    half want = half(static_cast<float>(prod) + static_cast<float>(x[i]));
    uint16_t got, exp;
    std::memcpy(&got, &z[i], 2);
    std::memcpy(&exp, &want, 2);
    if (got != exp) ++bad;
  }
  std::printf("elementwise_tail: %u blocks, %u half elements, %u bit mismatches -> %s\n", blockDim, total, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
