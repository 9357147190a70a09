// The keep_positive test project's kernel (see op_host/keep_positive.cpp): one core, scalar reads and writes, then
// y's shape into `shape_out` as CANN lays it out: the rank, then the dims, as uint64.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void keep_positive(GM_ADDR x, GM_ADDR y, GM_ADDR shape_out, GM_ADDR workspace,
                                                    GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> xGm, yGm;
  GlobalTensor<uint64_t> shapeGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.n);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.n);
  shapeGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(shape_out), 9);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < t.n; ++i) {
    float v = xGm.GetValue(i);
    if (v > 0) yGm.SetValue(kept++, v);
  }
  shapeGm.SetValue(0, t.claimedRank);
  shapeGm.SetValue(1, kept);
  for (uint32_t d = 2; d <= t.claimedRank && d < 9; ++d) shapeGm.SetValue(d, 1);
}
