// A test project with complex64 tensors: y = conj(x). The host sees ge::DT_COMPLEX64 and the complex shape (the
// tiling's count is of complex elements); the kernel reads the GM bytes as float32 (real, imaginary) pairs. Its
// op_host is two files, as cann-ops' are: this one (tiling, shape) and conjugate_def.cc (the OpDef; CMake takes a .cc source as C++), each with
// its own file-level constant of the same name, so they build only as separate translation units.
#include "conjugate_common.h"
#include "register/tilingdata_base.h"

namespace optiling {
static constexpr uint32_t kBlockDim = 1;

BEGIN_TILING_DATA_DEF(ConjugateTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Conjugate, ConjugateTilingData)

ge::graphStatus ConjugateTiling(gert::TilingContext* context) {
  // The kernel negates whole 64-float repeats: a count that leaves part of one is refused.
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  if (context->GetInputDesc(0)->GetDataType() != ge::DT_COMPLEX64 || ConjugateRepeats(total) == 0 || total % 32 != 0) {
    return ge::GRAPH_FAILED;
  }
  ConjugateTilingData tiling;
  tiling.set_totalLength(total);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(kBlockDim);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
graphStatus ConjugateInferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
}  // namespace ge
