// A test project whose output shape depends on the compute, as MaskedSelectV3's: y keeps the positive elements of
// x in order, so its length is known only after the kernel ran. The OpDef marks y OutputShapeDependOnCompute;
// InferShape gives the bound (x's length); the kernel writes the real shape into the argument after the outputs.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeepPositiveTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, claimedRank);  // what the kernel writes as the rank: 1, or the `rank` attribute
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(KeepPositive, KeepPositiveTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  KeepPositiveTilingData tiling;
  tiling.set_n(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
  tiling.set_claimedRank(static_cast<uint32_t>(*context->GetAttrs()->GetAttrPointer<int64_t>(0)));
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
class KeepPositive : public OpDef {
 public:
  explicit KeepPositive(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).OutputShapeDependOnCompute();
    this->Attr("rank").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(ge::InferShape);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(KeepPositive);
}  // namespace ops
