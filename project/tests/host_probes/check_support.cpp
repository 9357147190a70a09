// Host probe: a CheckSupported function on ge::Operator, as cann-ops' op_host files register them for graph mode
// (NPUKernelBench's ReverseSequence): input and output descriptions by name, their shapes and dtypes, attributes.
#include <string>

#include "register/op_def_registry.h"

namespace ge {
static graphStatus ProbeCheckSupported(const Operator& op, AscendString& result) {
  TensorDesc x = op.GetInputDescByName("x");
  Shape shape = x.GetShape();
  int64_t axis = 0;
  if (op.GetAttr("axis", axis) != GRAPH_SUCCESS || shape.GetDimNum() == 0) {
    result = AscendString(R"({"isSupported": "False", "dynamicCompileStatic": "True", "reason": "no axis"})");
    return GRAPH_FAILED;
  }
  bool sameShape = op.GetOutputDescByName("y").GetShape().GetDims() == shape.GetDims();
  int size = GetSizeByDataType(x.GetDataType());
  std::string verdict = sameShape && size > 0 ? "True" : "False";
  result =
      AscendString((R"({"isSupported": ")" + verdict + R"(", "dynamicCompileStatic": "True", "reason": ""})").c_str());
  return op.GetInputsSize() == 1 ? GRAPH_SUCCESS : GRAPH_NOT_CHANGED;
}
}  // namespace ge

namespace ops {
class ProbeCheckSupport : public OpDef {
 public:
  explicit ProbeCheckSupport(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("axis").AttrType(REQUIRED).Int();
    this->AICore().SetCheckSupport(ge::ProbeCheckSupported);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ProbeCheckSupport);
}  // namespace ops
