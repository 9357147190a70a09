// A stand-in for NPUKernelBench's reference kernel: the importer copies answer/0/ as it is.
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void sqrt(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling) {}
