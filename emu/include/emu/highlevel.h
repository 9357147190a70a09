// The high-level API libraries of the emulator (CANN's highlevel_api/lib, which kernel_operator.h pulls in): the
// kernel tiling structs, activations (Sigmoid ... Silu, Swish, SwiGLU, GeGLU, ReGlu), math functions (Sin ... Power),
// SoftMax, LayerNorm/RmsNorm and Sum/Mean. Matmul lives in lib/matmul_intf.h, which kernels include themselves, as
// with CANN.
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "emu/hl_common.h"
#include "emu/hl_activation.h"
#include "emu/hl_glu.h"
#include "emu/hl_math.h"
#include "emu/hl_softmax.h"
#include "emu/hl_norm.h"
#include "emu/hl_reduce.h"
