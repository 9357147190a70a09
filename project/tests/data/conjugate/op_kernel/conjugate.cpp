// A test project's kernel: complex64 x addressed as float32 (real, imaginary) pairs, as CANN kernels do (DTYPE_X is
// no usable type for complex); the imaginary parts, the odd lanes, are negated by a masked Muls in place.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void conjugate(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  const uint32_t floats = 2 * t.totalLength;
  GlobalTensor<float> xGm, yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), floats);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), floats);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, floats * sizeof(float));
  LocalTensor<float> local = buf.Get<float>();
  DataCopy(local, xGm, floats);
  uint64_t imaginary[2] = {0xAAAAAAAAAAAAAAAAULL, 0};
  Muls(local, local, -1.0f, imaginary, static_cast<uint8_t>(floats / 64), {1, 1, 8, 8});
  DataCopy(yGm, local, floats);
}
