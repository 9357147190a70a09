// The OpDef of the conjugate test project (see conjugate.cpp).
#include "conjugate_common.h"

namespace ops {
static constexpr uint32_t kBlockDim = 1;  // conjugate.cpp's constant again: fine in a translation unit of its own

class Conjugate : public OpDef {
 public:
  explicit Conjugate(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_COMPLEX64}).Format({ge::FORMAT_ND});
    this->SetInferShape(ge::ConjugateInferShape);
    this->AICore().SetTiling(optiling::ConjugateTiling);
    this->AICore().AddConfig(kBlockDim == 1 ? "ascend910b" : "ascend910");
  }
};
OP_ADD(Conjugate);
}  // namespace ops
