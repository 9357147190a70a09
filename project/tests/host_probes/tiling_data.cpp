// Host probe: the tiling data API (register/tilingdata_base.h) as op_host files use it. Type-checked against the
// emulator's headers and, with a CANN toolkit, against CANN 8.1's (scripts/referee_host.sh).
#include <cstdint>
#include <memory>

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ProbeParams)
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(int32_t, beta);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ProbeParamsOp, ProbeParams)

BEGIN_TILING_DATA_DEF(ProbeTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(int64_t, wide);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, perCore);
TILING_DATA_FIELD_DEF_STRUCT(ProbeParams, params);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ProbeOp, ProbeTilingData)
REGISTER_TILING_DATA_CLASS(ProbeOp_1, ProbeTilingData)
}  // namespace optiling

size_t probeTilingData(void* buffer, size_t capacity) {
  optiling::ProbeTilingData tiling;
  tiling.set_totalLength(1024);
  tiling.set_flag(1);
  tiling.set_wide(-1);
  uint32_t perCore[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  tiling.set_perCore(perCore);
  tiling.params.set_alpha(0.5f);
  tiling.params.set_beta(3);
  uint32_t sum = tiling.get_totalLength() + tiling.get_perCore()[7] + static_cast<uint32_t>(tiling.params.get_beta());
  tiling.SaveToBuffer(buffer, capacity);
  std::shared_ptr<optiling::TilingDef> made =
      optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("ProbeOp");
  const char* name = made ? made->GetTilingClassName() : "";
  return tiling.GetDataSize() + sum + (name[0] == 'P' ? 1 : 0);
}
