// A test project with complex64 tensors: y = conj(x). The host sees ge::DT_COMPLEX64 and the complex shape (the
// tiling's count is of complex elements); the kernel reads the GM bytes as float32 (real, imaginary) pairs.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConjugateTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Conjugate, ConjugateTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  // The kernel negates whole 64-float repeats: a count that leaves part of one is refused.
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  if (context->GetInputDesc(0)->GetDataType() != ge::DT_COMPLEX64 || total == 0 || total % 32 != 0) {
    return ge::GRAPH_FAILED;
  }
  ConjugateTilingData tiling;
  tiling.set_totalLength(total);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class Conjugate : public OpDef {
 public:
  explicit Conjugate(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
    this->SetInferShape(ge::InferShape);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Conjugate);
}  // namespace ops
