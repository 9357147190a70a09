// A test project's kernel with no flag between its pipes: MTE2 fills a TBuf, V doubles it, MTE3 copies it out.
// Correct as CANN builds it (the compiler inserts MTE2_V and V_MTE3); a hazard where the flags are left to the code.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void unsynced_double(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), t.totalLength);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.totalLength);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, t.totalLength * sizeof(float));
  LocalTensor<float> local = buf.Get<float>();
  DataCopy(local, xGm, t.totalLength);
  Muls(local, local, 2.0f, t.totalLength);
  DataCopy(yGm, local, t.totalLength);
}
