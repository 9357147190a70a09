// Host probe: the operator definition (register/op_def_registry.h) as op_host files write it.
#include "register/op_def_registry.h"

namespace ge {
static graphStatus ProbeInferShape(gert::InferShapeContext* context) {
  (void)context;
  return GRAPH_SUCCESS;
}
static graphStatus ProbeInferDataType(gert::InferDataTypeContext* context) {
  (void)context;
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace optiling {
static ge::graphStatus ProbeTiling(gert::TilingContext* context) {
  (void)context;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ProbeCustom : public OpDef {
 public:
  explicit ProbeCustom(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16, ge::DT_INT32})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
        .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("shape")
        .ParamType(OPTIONAL)
        .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
        .ValueDepend(OPTIONAL)
        .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16, ge::DT_INT32})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("axis").AttrType(REQUIRED).Int();
    this->Attr("keep").AttrType(OPTIONAL).Bool(false);
    this->Attr("mode").AttrType(OPTIONAL).String("sum");
    this->Attr("dims").AttrType(OPTIONAL).ListInt({0, 1});
    this->Attr("weights").AttrType(OPTIONAL).ListFloat({0.5f});
    this->SetInferShape(ge::ProbeInferShape).SetInferDataType(ge::ProbeInferDataType);
    this->AICore().SetTiling(optiling::ProbeTiling);
    OpAICoreConfig config;
    config.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true).NeedCheckSupportFlag(false);
    this->AICore().AddConfig("ascend910b").AddConfig("ascend910_93", config);
  }
};

OP_ADD(ProbeCustom);
}  // namespace ops
