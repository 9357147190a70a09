// CPU-debug launcher header: GmAlloc/GmFree, ICPU_RUN_KF, SetKernelMode (CANN's tikicpulib.h).
#pragma once

#include "kernel_operator.h"
