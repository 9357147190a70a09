// CANN's impl/dav_c220/kernel_operator_reg_others_impl.h (special-register reads: GetSubBlockId, GetRsvdCnt, ...),
// which NPUKernelBench's norm kernels include without calling any of it. The emulator models none of those
// registers: a kernel that calls one gets the compiler's "not declared", not a made-up value.
#pragma once

#include "kernel_operator.h"
