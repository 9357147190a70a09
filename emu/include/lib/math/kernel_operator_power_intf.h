// CANN's lib/math/kernel_operator_power_intf.h, which kernels include for Power: the emulator declares every high-level
// API in kernel_operator.h (emu/highlevel.h).
#pragma once

#include "kernel_operator.h"
