// CANN's basic_api/impl/kernel_utils.h, which some kernels include by that name (NPUKernelBench's norm-grad
// platform.h): AscendCUtils and the helpers it declares are in kernel_operator.h (emu/kernel_utils.h).
#pragma once

#include "kernel_operator.h"
