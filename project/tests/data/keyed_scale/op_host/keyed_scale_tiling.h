// A test project's tiling: every kind of field, in an order that needs CANN's padding (uint8 before uint32,
// uint32[5] before int64, a struct field at a multiple of 8).
#ifndef KEYED_SCALE_TILING_H
#define KEYED_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleParams)
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(uint8_t, negate);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleParamsOp, ScaleParams)

BEGIN_TILING_DATA_DEF(KeyedScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 5, chunk);
TILING_DATA_FIELD_DEF(int64_t, marker);
TILING_DATA_FIELD_DEF_STRUCT(ScaleParams, params);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeyedScale, KeyedScaleTilingData)
}  // namespace optiling
#endif
