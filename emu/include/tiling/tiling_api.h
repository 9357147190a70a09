// Host tiling API of the high-level libraries (CANN's tiling/tiling_api.h, libtiling_api.a): tiling structs with
// set_/get_ accessors in namespace optiling, AscendC::...TilingFunc / Get...TmpSize queries, matmul_tiling.
#pragma once

#include "tiling/hl_tiling.h"
#include "tiling/matmul_tiling.h"
#include "tiling/platform/platform_ascendc.h"
