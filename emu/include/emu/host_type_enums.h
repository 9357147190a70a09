// Included by the host headers that declare ge's and matmul_tiling's DT_*/FORMAT_* enumerators (graph/types.h,
// tiling/matmul_tiling.h): the kernel-side macros of the same names (emu/kernel_type.h) would turn them into
// numbers. Whichever comes first in a translation unit, the enumerators win (kernel_type.h then defines nothing).
#pragma once

#define TCEMU_HOST_TYPE_ENUMS
#ifdef TCEMU_KERNEL_TYPE_MACROS
#undef DT_FLOAT
#undef DT_FLOAT16
#undef DT_INT8
#undef DT_INT32
#undef DT_UINT8
#undef DT_INT16
#undef DT_UINT16
#undef DT_UINT32
#undef DT_INT64
#undef DT_UINT64
#undef DT_DOUBLE
#undef DT_BOOL
#undef DT_STRING
#undef DT_COMPLEX64
#undef DT_COMPLEX128
#undef DT_BF16
#undef DT_UNDEFINED
#undef DT_INT4
#undef DT_MAX
#undef FORMAT_NCHW
#undef FORMAT_NHWC
#undef FORMAT_ND
#undef FORMAT_NC1HWC0
#undef FORMAT_FRACTAL_Z
#undef FORMAT_FRACTAL_NZ
#undef FORMAT_NCDHW
#undef FORMAT_NDHWC
#undef FORMAT_RESERVED
#undef FORMAT_ALL
#endif
