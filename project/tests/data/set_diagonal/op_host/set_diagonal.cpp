// A test project with a ref output, as Eye's: the output `y` has the name of the input `y`, so CANN binds both to
// one buffer. The kernel writes only the diagonal of the n x n matrix y (from x); every other element of the
// output is what the input held. x is float16 or float32, which the kernel tells apart at preprocessing time.
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SetDiagonalTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SetDiagonal, SetDiagonalTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& y = context->GetInputShape(1)->GetStorageShape();
  const int64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  if (y.GetDimNum() != 2 || y.GetDim(0) != n || y.GetDim(1) != n) return ge::GRAPH_FAILED;
  SetDiagonalTilingData tiling;
  tiling.set_n(static_cast<uint32_t>(n));
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(1);
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(1);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SetDiagonal : public OpDef {
 public:
  explicit SetDiagonal(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("y")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->SetInferShape(ge::InferShape);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SetDiagonal);
}  // namespace ops
