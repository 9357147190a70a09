// CANN's lib/math/kernel_operator_tan_intf.h, which kernels include for Tan: the emulator declares every high-level
// API in kernel_operator.h (emu/highlevel.h).
#pragma once

#include "kernel_operator.h"
