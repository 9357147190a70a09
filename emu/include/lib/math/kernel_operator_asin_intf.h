// CANN's lib/math/kernel_operator_asin_intf.h, which kernels include for Asin: the emulator declares every high-level
// API in kernel_operator.h (emu/highlevel.h).
#pragma once

#include "kernel_operator.h"
