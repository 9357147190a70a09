// tiling_copy: the single-file custom-op shape with its own tiling plumbing. The file defines a TilingData struct,
// a CopyTiling helper that copies it word by word from the GM tiling pointer, and its own GET_TILING_DATA macro on
// top of it (CANN's CPU-debug headers have none; kernel-launch samples write one), used in a
// (x, y, z, workspace, tiling) entry. Uneven split: the first `formerNum` cores take one extra tile-aligned chunk,
// the rest the smaller one (a "former/tail" tiling), and the last tile of each core is short. Compute: float
// z = (x - y) * (x - y) via Sub then Mul, exactly rounded.
#include "kernel_operator.h"

using namespace AscendC;

struct SquaredDiffTilingData {
  uint32_t formerNum;
  uint32_t formerLength;
  uint32_t tailLength;
  uint32_t tileLength;
};

__aicore__ inline void CopyTiling(SquaredDiffTilingData* tiling, GM_ADDR tilingGm) {
  uint32_t* dst = reinterpret_cast<uint32_t*>(tiling);
  auto src = reinterpret_cast<__gm__ uint32_t*>(tilingGm);
  for (size_t i = 0; i < sizeof(SquaredDiffTilingData) / sizeof(uint32_t); i++) dst[i] = src[i];
}

// The emulator predefines GET_TILING_DATA (CANN's CPU-debug headers do not): without the #undef our definition
// would be a "redefined" warning, an error under -Werror. With the real headers the guard does nothing.
#ifdef GET_TILING_DATA
#undef GET_TILING_DATA
#endif
#define GET_TILING_DATA(tilingData, tilingArg) \
  SquaredDiffTilingData tilingData;            \
  CopyTiling(&tilingData, tilingArg)

class KernelSquaredDiff {
 public:
  __aicore__ inline KernelSquaredDiff() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const SquaredDiffTilingData& t) {
    const uint32_t idx = GetBlockIdx();
    uint64_t start;
    if (idx < t.formerNum) {
      length = t.formerLength;
      start = static_cast<uint64_t>(idx) * t.formerLength;
    } else {
      length = t.tailLength;
      start =
          static_cast<uint64_t>(t.formerNum) * t.formerLength + static_cast<uint64_t>(idx - t.formerNum) * t.tailLength;
    }
    tile = t.tileLength;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
    zGm.SetGlobalBuffer((__gm__ float*)z + start, length);
    pipe.InitBuffer(inX, 2, tile * sizeof(float));
    pipe.InitBuffer(inY, 2, tile * sizeof(float));
    pipe.InitBuffer(outZ, 2, tile * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint32_t off = 0; off < length; off += tile) {
      const uint32_t n = length - off < tile ? length - off : tile;  // a multiple of 8 floats here
      LocalTensor<float> x = inX.AllocTensor<float>();
      LocalTensor<float> y = inY.AllocTensor<float>();
      DataCopy(x, xGm[off], n);
      DataCopy(y, yGm[off], n);
      inX.EnQue(x);
      inY.EnQue(y);
      x = inX.DeQue<float>();
      y = inY.DeQue<float>();
      LocalTensor<float> z = outZ.AllocTensor<float>();
      Sub(z, x, y, n);
      Mul(z, z, z, n);
      outZ.EnQue<float>(z);
      inX.FreeTensor(x);
      inY.FreeTensor(y);
      z = outZ.DeQue<float>();
      DataCopy(zGm[off], z, n);
      outZ.FreeTensor(z);
    }
  }

 private:
  TPipe pipe;
  TQue<TPosition::VECIN, 2> inX, inY;
  TQue<TPosition::VECOUT, 2> outZ;
  GlobalTensor<float> xGm, yGm, zGm;
  uint32_t length = 0, tile = 0;
};

extern "C" __global__ __aicore__ void squared_diff_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                          GM_ADDR tiling) {
  (void)workspace;
  GET_TILING_DATA(tilingData, tiling);
  KernelSquaredDiff op;
  op.Init(x, y, z, tilingData);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstring>
#include <random>

int main() {
  constexpr uint32_t blockDim = 5, formerNum = 2, formerLength = 2056, tailLength = 1600, tileLength = 512;
  constexpr uint32_t total = formerNum * formerLength + (blockDim - formerNum) * tailLength;
  auto* x = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* y = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* z = static_cast<float*>(AscendC::GmAlloc(total * sizeof(float)));
  auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(1024));
  auto* tiling = static_cast<SquaredDiffTilingData*>(AscendC::GmAlloc(sizeof(SquaredDiffTilingData)));
  *tiling = SquaredDiffTilingData{formerNum, formerLength, tailLength, tileLength};
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (uint32_t i = 0; i < total; i++) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(squared_diff_custom, blockDim, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z), ws, reinterpret_cast<uint8_t*>(tiling));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < total; i++) {
    const float d = x[i] - y[i];
    const float want = d * d;
    if (std::memcmp(&want, &z[i], sizeof(float)) != 0) ++bad;
  }
  std::printf("tiling_copy: %u floats, former/tail split over %u cores, %u wrong -> %s\n", total, blockDim, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(ws);
  AscendC::GmFree(tiling);
  return bad == 0 ? 0 : 1;
}
#endif
