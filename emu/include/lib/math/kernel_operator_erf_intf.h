// CANN's lib/math/kernel_operator_erf_intf.h, which kernels include for Erf: the emulator declares every high-level
// API in kernel_operator.h (emu/highlevel.h).
#pragma once

#include "kernel_operator.h"
