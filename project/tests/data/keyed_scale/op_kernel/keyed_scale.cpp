// A test project's kernel: reads every field of the tiling (a wrong layout zeroes the output), dispatches on the
// tiling key, stages x through the user workspace with scalar GM accesses.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void keyed_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  if (t.flag != 7 || t.marker != 1234567890123LL || t.chunk[4] != 0) return;
  uint32_t block = static_cast<uint32_t>(GetBlockIdx());
  uint32_t start = 0;
  for (uint32_t b = 0; b < block; ++b) start += t.chunk[b];
  uint32_t count = t.chunk[block];
  GlobalTensor<DTYPE_X> xGm, wsGm;
  GlobalTensor<DTYPE_Y> yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X*>(x) + start, count);
  wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X*>(GetUserWorkspace(workspace)) + start, count);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_Y*>(y) + start, count);
  for (uint32_t i = 0; i < count; ++i) wsGm.SetValue(i, xGm.GetValue(i));
  float sign = 0.0f;
  if (TILING_KEY_IS(1)) sign = t.params.negate == 0 ? 1.0f : 0.0f;
  if (TILING_KEY_IS(2)) sign = t.params.negate == 1 ? -1.0f : 0.0f;
  for (uint32_t i = 0; i < count; ++i) yGm.SetValue(i, wsGm.GetValue(i) * t.params.scale * sign);
}
