// The host half of the AscendC example for tasks/level1/add (z = x + y, float16 and float32), a CANN custom-operator
// project: the AscendC agent shows it as its worked example, and the harness's tests judge it and variants of it.
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t kMaxBlocks = 8;
constexpr uint32_t kTileLength = 2048;
constexpr uint32_t kAlignElements = 16;  // 32 bytes of float16: block shares start on a DataCopy block

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  uint32_t perBlock = (total + kMaxBlocks - 1) / kMaxBlocks;
  perBlock = (perBlock + kAlignElements - 1) / kAlignElements * kAlignElements;
  const uint32_t blocks = perBlock == 0 ? 1 : (total + perBlock - 1) / perBlock;
  AddCustomTilingData tiling;
  tiling.set_totalLength(total);
  tiling.set_blockLength(perBlock);
  tiling.set_tileLength(kTileLength);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(blocks);
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
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
class AddCustom : public OpDef {
 public:
  explicit AddCustom(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("y")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("z")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->SetInferShape(ge::InferShape);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AddCustom);
}  // namespace ops
