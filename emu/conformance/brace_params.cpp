// brace_params: API parameters written the way LLM-generated kernels write them, as braced initialisers at the
// call site: DataCopy(dst, src, {blockCount, blockLen, srcStride, dstStride}) (a strided GM gather of 16x16
// tiles), UB -> GM DataCopyPad with a braced DataCopyExtParams (GM byte stride between rows), Add with a braced
// BinaryRepeatParams and a uint64_t mask[2] array, Muls with a braced UnaryRepeatParams and a scalar mask, and
// Transpose of 16x16 half tiles. The matrix is [64, 64] half: out = x^T tile by tile, plus y = x with the first 8
// and last 8 lanes of every 128-lane repeat doubled.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t N = 64;

class KernelBraces {
 public:
  __aicore__ inline KernelBraces() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR xt, GM_ADDR y) {
    xGm.SetGlobalBuffer((__gm__ half*)x, N * N);
    xtGm.SetGlobalBuffer((__gm__ half*)xt, N * N);
    yGm.SetGlobalBuffer((__gm__ half*)y, N * N);
    pipe.InitBuffer(inQue, 1, N * N * sizeof(half));
    pipe.InitBuffer(blkQue, 1, N * N * sizeof(half));
    pipe.InitBuffer(outQue, 1, 2 * N * N * sizeof(half));
  }
  __aicore__ inline void Process() {
    LocalTensor<half> x = inQue.AllocTensor<half>();
    LocalTensor<half> blocks = blkQue.AllocTensor<half>();
    // Whole matrix in row order, and the same matrix regrouped into 16x16 tiles (tile (bi, bj) contiguous, 512 B):
    // row r of tile column bj is 16 halves = one 32-byte block, the GM rows 64 halves = 4 blocks apart.
    DataCopy(x, xGm, {1, static_cast<uint16_t>(N * N * sizeof(half) / 32), 0, 0});
    for (uint32_t bi = 0; bi < N / 16; bi++)
      for (uint32_t bj = 0; bj < N / 16; bj++)
        DataCopy(blocks[(bi * (N / 16) + bj) * 256], xGm[bi * 16 * N + bj * 16], {16, 1, 3, 0});
    inQue.EnQue(x);
    blkQue.EnQue(blocks);
    x = inQue.DeQue<half>();
    blocks = blkQue.DeQue<half>();

    LocalTensor<half> out = outQue.AllocTensor<half>();
    LocalTensor<half> xt = out;
    LocalTensor<half> y = out[N * N];
    // Transposed tile (bi, bj) is tile (bj, bi) of x^T.
    for (uint32_t bi = 0; bi < N / 16; bi++)
      for (uint32_t bj = 0; bj < N / 16; bj++)
        Transpose(xt[(bj * (N / 16) + bi) * 256], blocks[(bi * (N / 16) + bj) * 256]);
    // y: copy x, then double the lanes of the mask array (first 8 and last 8 of every 128-lane repeat).
    Muls(y, x, half(1.0f), static_cast<uint64_t>(128), static_cast<uint8_t>(N * N / 128), {1, 1, 8, 8});
    PipeBarrier<PIPE_V>();
    uint64_t mask[2] = {0xFFull, 0xFF00000000000000ull};
    Add(y, y, y, mask, static_cast<uint8_t>(N * N / 128), {1, 1, 1, 8, 8, 8});
    outQue.EnQue(out);
    inQue.FreeTensor(x);
    blkQue.FreeTensor(blocks);
    out = outQue.DeQue<half>();
    // x^T tiles back to GM rows: tile (ti, tj) row r -> GM row ti * 16 + r, columns tj * 16 ..
    for (uint32_t ti = 0; ti < N / 16; ti++)
      for (uint32_t tj = 0; tj < N / 16; tj++)
        DataCopyPad(
            xtGm[ti * 16 * N + tj * 16], out[(ti * (N / 16) + tj) * 256],
            {16, static_cast<uint32_t>(16 * sizeof(half)), 0, static_cast<uint32_t>((N - 16) * sizeof(half)), 0});
    DataCopy(yGm, out[N * N], N * N);
    outQue.FreeTensor(out);
  }

 private:
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> inQue, blkQue;
  TQue<QuePosition::VECOUT, 1> outQue;
  GlobalTensor<half> xGm, xtGm, yGm;
};

extern "C" __global__ __aicore__ void braces_custom(GM_ADDR x, GM_ADDR xt, GM_ADDR y) {
  KernelBraces op;
  op.Init(x, xt, y);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <random>

int main() {
  auto* x = static_cast<half*>(AscendC::GmAlloc(N * N * sizeof(half)));
  auto* xt = static_cast<half*>(AscendC::GmAlloc(N * N * sizeof(half)));
  auto* y = static_cast<half*>(AscendC::GmAlloc(N * N * sizeof(half)));
  std::mt19937 rng(43);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (uint32_t i = 0; i < N * N; i++) x[i] = half(dist(rng));
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(braces_custom, 1, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(xt),
              reinterpret_cast<uint8_t*>(y));
  uint32_t bad = 0;
  for (uint32_t r = 0; r < N; r++)
    for (uint32_t c = 0; c < N; c++) {
      if (static_cast<float>(xt[r * N + c]) != static_cast<float>(x[c * N + r])) ++bad;
      const uint32_t lane = (r * N + c) % 128;
      const float v = static_cast<float>(x[r * N + c]);
      const float want = (lane < 8 || lane >= 120) ? static_cast<float>(half(v + v)) : v;
      if (static_cast<float>(y[r * N + c]) != want) ++bad;
    }
  std::printf("brace_params: %ux%u half transpose by 16x16 tiles and masked add, %u wrong -> %s\n", N, N, bad,
              bad == 0 ? "OK" : "MISMATCH");
  AscendC::GmFree(x);
  AscendC::GmFree(xt);
  AscendC::GmFree(y);
  return bad == 0 ? 0 : 1;
}
#endif
