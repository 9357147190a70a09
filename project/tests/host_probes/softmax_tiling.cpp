// Host probe: the softmax family's host queries, as op_host tiling code calls them (InplaceFusedMatmulSoftmaxGrad
// sizes SoftmaxGrad's temporary space and fills its SoftMaxTiling field; attention kernels do the same for SoftMax).
#include "register/tilingdata_base.h"
#include "lib/tiling_api.h"  // CANN 8.1's path (the emulator also has tiling/tiling_api.h)

namespace optiling {
BEGIN_TILING_DATA_DEF(ProbeSoftmaxTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, forward);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, backward);
TILING_DATA_FIELD_DEF_STRUCT(LogSoftMaxTiling, logForward);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ProbeSoftmax, ProbeSoftmaxTilingData)
}  // namespace optiling

inline uint32_t probeSoftmaxTiling(optiling::ProbeSoftmaxTilingData& tiling) {
  const ge::Shape shape({64, 128});
  const uint32_t forwardTmp = AscendC::GetSoftMaxMinTmpSize(shape, sizeof(float), false);
  AscendC::SoftMaxTilingFunc(shape, sizeof(float), AscendC::GetSoftMaxMaxTmpSize(shape, sizeof(float), false),
                             tiling.forward);
  const uint32_t gradMin = AscendC::GetSoftMaxGradMinTmpSize(shape, sizeof(uint16_t), false, false);
  const uint32_t gradMax = AscendC::GetSoftMaxGradMaxTmpSize(shape, sizeof(uint16_t), true, false);
  AscendC::SoftMaxGradTilingFunc(shape, sizeof(uint16_t), gradMin, tiling.backward, false);
  AscendC::SoftMaxGradTilingFunc(shape, sizeof(float), gradMax, tiling.backward);
  AscendC::LogSoftMaxTilingFunc(shape, sizeof(float), AscendC::GetLogSoftMaxMinTmpSize(shape, sizeof(float), false),
                                tiling.logForward);
  tiling.set_rows(64);
  return forwardTmp + gradMin + gradMax + tiling.backward.get_splitM();
}
