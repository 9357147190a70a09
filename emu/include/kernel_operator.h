// Tilecraft's CPU emulation of the AscendC API (CANN 8.x classic names). One kernel source builds for CANN and,
// with -DASCENDC_CPU_DEBUG -I emu/include, for this emulator. See docs/emulator.md.
#pragma once

#include "emu/base.h"
#include "emu/kernel_type.h"
#include "emu/fp16.h"
#include "emu/enums.h"
#include "emu/core.h"
#include "emu/tensor.h"
#include "emu/tpipe.h"
#include "emu/sync.h"
#include "emu/launch.h"
#include "emu/ops.h"
