// A test project's tiling: the element count of each tensor of the lists.
#ifndef LIST_AXPY_TILING_H
#define LIST_AXPY_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ListAxpyTilingData)
TILING_DATA_FIELD_DEF(uint32_t, count);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, lengths);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ListAxpy, ListAxpyTilingData)
}  // namespace optiling
#endif
