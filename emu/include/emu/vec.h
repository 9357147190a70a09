// The vector compute API (ascendc_api.md §3): the shared engine, then each family of instructions.
#pragma once

#include "emu/vec_engine.h"
#include "emu/vec_elementwise.h"
#include "emu/vec_cast_cmp.h"
#include "emu/vec_reduce.h"
#include "emu/vec_intrinsics.h"
#include "emu/vec_gather.h"
#include "emu/vec_transdata.h"
#include "emu/vec_symbol.h"
#include "emu/sort.h"
