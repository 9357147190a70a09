// A test project: y = x * scale, or -(x * scale) under tiling key 2 (attribute negate), split unevenly over 4
// blocks by a tiling array, staged through the user workspace.
#include "keyed_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  const float* scale = context->GetAttrs()->GetFloat(0);
  const bool* negate = context->GetAttrs()->GetBool(1);
  if (scale == nullptr || negate == nullptr) return ge::GRAPH_FAILED;
  if (*scale == 0.0f) return ge::GRAPH_FAILED;  // refused, to test the message
  KeyedScaleTilingData tiling;
  uint32_t chunk[5] = {0, 0, 0, 0, 0};
  for (uint32_t b = 0; b < 4; ++b) chunk[b] = total / 4 + (b < total % 4 ? 1 : 0);
  tiling.set_totalLength(total);
  tiling.set_flag(7);
  tiling.set_chunk(chunk);
  tiling.set_marker(1234567890123LL);
  tiling.params.set_scale(*scale);
  tiling.params.set_negate(*negate ? 1 : 0);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(4);
  context->SetTilingKey(*negate ? 2 : 1);
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = platform.GetLibApiWorkSpaceSize() + total * sizeof(float);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// Ranks up to 4, as operators that check their inputs in InferShape refuse the others (an aclnn caller, who
// allocates the output itself, never runs it: project run goes on with --expect's or --shape's shape).
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  if (context->GetInputShape(0)->GetDimNum() > 4) return GRAPH_FAILED;
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class KeyedScale : public OpDef {
 public:
  explicit KeyedScale(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(2.0f);
    this->Attr("negate").AttrType(OPTIONAL).Bool(false);
    this->SetInferShape(ge::InferShape);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(KeyedScale);
}  // namespace ops
