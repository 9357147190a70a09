// Host tiling API of the high-level libraries (CANN's tiling/tiling_api.h, libtiling_api.a): tiling structs with
// set_/get_ accessors in namespace optiling, AscendC::...TilingFunc / Get...TmpSize queries, matmul_tiling.
#pragma once

#include "tiling/hl_tiling.h"
#include "tiling/hl_tiling_math.h"
#include "tiling/hl_tiling_pad.h"
#include "tiling/hl_tiling_softmax2.h"
#include "tiling/hl_tiling_quant.h"
#include "tiling/matmul_tiling.h"
#include "tiling/platform/platform_ascendc.h"
