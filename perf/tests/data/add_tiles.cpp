// add_tiles: z = x + y on half, the kernel of the AscendC add-tuning case (hardware.md §6.1) with its tuning knobs
// as arguments, so one source gives the naive and the tuned kernel and their single/double-buffered twins.
//
//   add_tiles BLOCKS TOTAL TILE BUFFERS
//
// TOTAL elements are cut into TILE-element tiles (one DataCopy per input per tile); block b owns a contiguous run
// of whole tiles, the first TOTAL/TILE % BLOCKS blocks one more. BUFFERS is the number of UB buffers per queue:
// 1 serialises copy-in, add and copy-out; 2 lets the copy-in of tile i+1 overlap the add and copy-out of tile i.
#include "kernel_operator.h"

using namespace AscendC;

struct AddTilesTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  uint32_t buffers;
};

class KernelAddTiles {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTilesTiling& t) {
    uint32_t tiles = t.totalLength / t.tileLength;
    uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
    uint32_t b = static_cast<uint32_t>(GetBlockIdx());
    uint32_t base = tiles / blocks, extra = tiles % blocks;
    uint32_t firstTile = b * base + (b < extra ? b : extra);
    tiles_ = base + (b < extra ? 1 : 0);
    tile_ = t.tileLength;
    uint64_t offset = uint64_t{firstTile} * tile_;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, uint64_t{tiles_} * tile_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, uint64_t{tiles_} * tile_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, uint64_t{tiles_} * tile_);
    pipe_.InitBuffer(inX_, t.buffers, tile_ * sizeof(half));
    pipe_.InitBuffer(inY_, t.buffers, tile_ * sizeof(half));
    pipe_.InitBuffer(outZ_, t.buffers, tile_ * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t i) {
    LocalTensor<half> x = inX_.AllocTensor<half>();
    LocalTensor<half> y = inY_.AllocTensor<half>();
    DataCopy(x, xGm_[uint64_t{i} * tile_], tile_);
    DataCopy(y, yGm_[uint64_t{i} * tile_], tile_);
    inX_.EnQue(x);
    inY_.EnQue(y);
  }
  __aicore__ inline void Compute() {
    LocalTensor<half> x = inX_.DeQue<half>();
    LocalTensor<half> y = inY_.DeQue<half>();
    LocalTensor<half> z = outZ_.AllocTensor<half>();
    Add(z, x, y, static_cast<int32_t>(tile_));
    outZ_.EnQue<half>(z);
    inX_.FreeTensor(x);
    inY_.FreeTensor(y);
  }
  __aicore__ inline void CopyOut(uint32_t i) {
    LocalTensor<half> z = outZ_.DeQue<half>();
    DataCopy(zGm_[uint64_t{i} * tile_], z, tile_);
    outZ_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inX_, inY_;
  TQue<QuePosition::VECOUT, 2> outZ_;
  GlobalTensor<half> xGm_, yGm_, zGm_;
  uint32_t tiles_ = 0;
  uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
  AddTilesTiling t = *reinterpret_cast<__gm__ AddTilesTiling*>(tiling);
  KernelAddTiles op;
  op.Init(x, y, z, t);
  op.Process();
}

#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: add_tiles BLOCKS TOTAL TILE BUFFERS\n");
    return 2;
  }
  uint32_t blocks = static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10));
  uint32_t total = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  uint32_t tile = static_cast<uint32_t>(std::strtoul(argv[3], nullptr, 10));
  uint32_t buffers = static_cast<uint32_t>(std::strtoul(argv[4], nullptr, 10));
  if (blocks == 0 || tile == 0 || tile % 16 != 0 || total % tile != 0 || (buffers != 1 && buffers != 2)) {
    std::fprintf(stderr, "add_tiles: TILE must be a multiple of 16 dividing TOTAL, BUFFERS 1 or 2\n");
    return 2;
  }
  size_t bytes = size_t{total} * sizeof(half);
  auto* x = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* tiling = static_cast<AddTilesTiling*>(AscendC::GmAlloc(sizeof(AddTilesTiling)));
  *tiling = AddTilesTiling{total, tile, buffers};
  // Small integers add exactly in half, so the check is an equality.
  for (uint32_t i = 0; i < total; ++i) {
    x[i] = half(static_cast<float>(i % 61));
    y[i] = half(static_cast<float>(i % 37));
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_tiles, blocks, reinterpret_cast<uint8_t*>(x), reinterpret_cast<uint8_t*>(y),
              reinterpret_cast<uint8_t*>(z), reinterpret_cast<uint8_t*>(tiling));
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < total; ++i) {
    if (static_cast<float>(z[i]) != static_cast<float>(i % 61 + i % 37)) ++wrong;
  }
  std::printf("add_tiles: %u blocks, %u elements, %u-element tiles, %u buffers: %u wrong\n", blocks, total, tile,
              buffers, wrong);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  AscendC::GmFree(tiling);
  return wrong == 0 ? 0 : 1;
}
#endif
