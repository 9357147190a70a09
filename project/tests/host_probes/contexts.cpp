// Host probe: the tiling and inference contexts and the platform query, as TilingFunc / InferShape /
// InferDataType use them.
#include <cstdint>

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus ProbeTilingFunc(gert::TilingContext* context) {
  const gert::StorageShape* xShape = context->GetInputShape(0);
  const gert::Shape& storage = xShape->GetStorageShape();
  const gert::Shape& origin = xShape->GetOriginShape();
  int64_t total = storage.GetShapeSize() + origin.GetDim(0) + static_cast<int64_t>(storage.GetDimNum());
  const gert::Tensor* shapeTensor = context->GetInputTensor(1);
  if (shapeTensor != nullptr) {
    const int64_t* dims = shapeTensor->GetData<int64_t>();
    total += dims == nullptr ? 0 : dims[0];
    total += shapeTensor->GetShapeSize();
  }
  ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
  ge::Format format = context->GetInputDesc(0)->GetStorageFormat();
  const gert::StorageShape* yShape = context->GetOutputShape(0);
  total += yShape->GetStorageShape().GetDim(0);
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const float* alpha = attrs->GetFloat(0);
  const int64_t* axis = attrs->GetInt(1);
  const bool* keep = attrs->GetBool(2);
  const char* mode = attrs->GetStr(3);
  const gert::TypedContinuousVector<int64_t>* dimsAttr = attrs->GetListInt(4);
  total += dimsAttr == nullptr ? 0 : static_cast<int64_t>(dimsAttr->GetSize()) + dimsAttr->GetData()[0];
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint32_t aiv = platform.GetCoreNumAiv();
  uint32_t aic = platform.GetCoreNumAic();
  uint64_t ub = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  uint32_t sys = platform.GetLibApiWorkSpaceSize();
  context->SetBlockDim(dtype == ge::DT_FLOAT16 && format == ge::FORMAT_ND ? aiv : aic);
  context->SetTilingKey(alpha != nullptr && *alpha > 0 ? 1 : 2);
  context->SetScheduleMode(context->GetDeterministic() == 1 ? 1 : 0);
  if (origin.GetDim(0) == ge::UNKNOWN_DIM || static_cast<int64_t>(storage.GetDimNum()) == ge::UNKNOWN_DIM_NUM) {
    return ge::GRAPH_FAILED;
  }
  gert::TilingData* raw = context->GetRawTilingData();
  raw->SetDataSize(raw->GetCapacity() < 8 ? 0 : 8);
  uint8_t* bytes = static_cast<uint8_t*>(raw->GetData());
  bytes[0] = static_cast<uint8_t>(total + (axis ? *axis : 0) + (keep && *keep ? 1 : 0) + (mode ? mode[0] : 0));
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = sys + static_cast<size_t>(ub / 1024);
  return context->GetBlockDim() > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
}  // namespace optiling

namespace ge {
graphStatus ProbeInferShape(gert::InferShapeContext* context) {
  const gert::Shape* x = context->GetInputShape(0);
  gert::Shape* y = context->GetOutputShape(0);
  if (x == nullptr || y == nullptr) return GRAPH_FAILED;
  y->SetDimNum(x->GetDimNum());
  for (size_t i = 0; i < x->GetDimNum(); ++i) y->SetDim(i, x->GetDim(i));
  y->AppendDim(1);
  *y = *x;
  return GRAPH_SUCCESS;
}

graphStatus ProbeInferDataType(gert::InferDataTypeContext* context) {
  return context->SetOutputDataType(0, context->GetInputDataType(0));
}
}  // namespace ge
