// The set_diagonal test project's kernel (see op_host/set_diagonal.cpp). CANN's build defines ORIG_DTYPE_<NAME>,
// FORMAT_<NAME> and DTYPE_<NAME>, with the ref output's as Y_REF: a kernel that picks its code path by them does
// not build when one is missing or wrong.
#include "kernel_operator.h"
using namespace AscendC;

#if !defined(ORIG_DTYPE_X) || !defined(ORIG_DTYPE_Y_REF) || FORMAT_Y != FORMAT_ND || FORMAT_Y_REF != FORMAT_ND
#error "the build defines no ORIG_DTYPE_X, ORIG_DTYPE_Y_REF, FORMAT_Y or FORMAT_Y_REF"
#endif
#if ORIG_DTYPE_X == DT_FLOAT16
static_assert(IsSameType<DTYPE_X, half>::value, "ORIG_DTYPE_X is DT_FLOAT16 but DTYPE_X is not half");
#elif ORIG_DTYPE_X == DT_FLOAT
static_assert(IsSameType<DTYPE_X, float>::value, "ORIG_DTYPE_X is DT_FLOAT but DTYPE_X is not float");
#else
#error "ORIG_DTYPE_X is neither DT_FLOAT16 nor DT_FLOAT"
#endif

extern "C" __global__ __aicore__ void set_diagonal(GM_ADDR x, GM_ADDR y, GM_ADDR y_ref, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  GET_TILING_DATA(t, tiling);
  GlobalTensor<DTYPE_X> xGm;
  GlobalTensor<DTYPE_Y_REF> yGm;
  xGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_X*>(x), t.n);
  yGm.SetGlobalBuffer(reinterpret_cast<__gm__ DTYPE_Y_REF*>(y_ref), t.n * t.n);
  for (uint32_t i = 0; i < t.n; ++i) yGm.SetValue(i * t.n + i, xGm.GetValue(i));
}
