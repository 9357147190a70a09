// A test project with tensor lists (msopgen DYNAMIC): z[i] = x[i] + alpha * y[i] + bias[0], one block per tensor.
// The required `bias` sits between the two lists, so its instance index is not its IR index.
#include "list_axpy_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::AnchorInstanceInfo* xs = context->GetComputeNodeInfo()->GetInputInstanceInfo(0);
  const gert::AnchorInstanceInfo* bias = context->GetComputeNodeInfo()->GetInputInstanceInfo(1);
  const gert::AnchorInstanceInfo* ys = context->GetComputeNodeInfo()->GetInputInstanceInfo(2);
  if (xs == nullptr || bias == nullptr || ys == nullptr || context->GetComputeNodeInfo()->GetInputInstanceInfo(3)) {
    return ge::GRAPH_FAILED;
  }
  if (ys->GetInstanceNum() != xs->GetInstanceNum() || bias->GetInstanceStart() != xs->GetInstanceNum()) {
    return ge::GRAPH_FAILED;
  }
  const gert::CompileTimeTensorDesc* biasDesc = context->GetInputDesc(bias->GetInstanceStart());
  if (biasDesc == nullptr || biasDesc->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
  const float* alpha = context->GetAttrs()->GetFloat(0);
  if (alpha == nullptr) return ge::GRAPH_FAILED;
  ListAxpyTilingData tiling;
  uint32_t lengths[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t count = 0;
  for (; count < 8 && context->GetDynamicInputShape(0, count) != nullptr; ++count) {
    const gert::StorageShape* y = context->GetDynamicInputShape(2, count);
    int64_t n = context->GetDynamicInputShape(0, count)->GetStorageShape().GetShapeSize();
    if (y == nullptr || y->GetStorageShape().GetShapeSize() != n) return ge::GRAPH_FAILED;
    lengths[count] = static_cast<uint32_t>(n);
  }
  if (count != xs->GetInstanceNum() || context->GetDynamicInputTensor(0, count) != nullptr) return ge::GRAPH_FAILED;
  tiling.set_count(count);
  tiling.set_alpha(*alpha);
  tiling.set_lengths(lengths);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(count);
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  for (size_t i = 0; context->GetDynamicInputShape(0, i) != nullptr; ++i) {
    gert::Shape* z = context->GetOutputShape(i);
    if (z == nullptr) return GRAPH_FAILED;
    *z = *context->GetDynamicInputShape(0, i);
  }
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ListAxpy : public OpDef {
 public:
  explicit ListAxpy(const char* name) : OpDef(name) {
    this->Input("x").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("y").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
    this->SetInferShape(ge::InferShape);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ListAxpy);
}  // namespace ops
