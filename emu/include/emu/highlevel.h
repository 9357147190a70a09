// The high-level API libraries of the emulator (CANN's highlevel_api/lib, which kernel_operator.h pulls in): the
// kernel tiling structs, activations (Sigmoid ... Silu, Swish, SwiGLU, GeGLU, ReGlu), math functions (Sin ... Power),
// SoftMax, SimpleSoftMax, LogSoftMax, SoftmaxGrad/SoftmaxGradFront, LayerNorm/RmsNorm, Sum/Mean, Broadcast, Pad/UnPad, AscendQuant and DropOut.
// Matmul lives in lib/matmul_intf.h, which kernels include themselves, as with CANN.
#pragma once

#include "kernel_tiling/kernel_tiling.h"
#include "emu/hl_common.h"
#include "emu/hl_activation.h"
#include "emu/hl_glu.h"
#include "emu/hl_math.h"
#include "emu/hl_math2.h"
#include "emu/hl_scan.h"
#include "emu/hl_select.h"
#include "emu/hl_softmax.h"
#include "emu/hl_norm.h"
#include "emu/hl_reduce.h"
#include "emu/hl_broadcast_pad.h"
#include "emu/hl_softmax2.h"
#include "emu/hl_softmax_grad.h"
#include "emu/hl_quant.h"
#include "emu/hl_dropout.h"
