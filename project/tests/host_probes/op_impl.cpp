// Host probe: tiling and shape inference registered through gert::OpImplRegisterV2 (IMPL_OP_OPTILING,
// IMPL_OP_INFERSHAPE) instead of the OpDef, with a compile-info struct, as CANN's built-in operators do.
#include "register/op_impl_registry.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"

namespace optiling {
struct ProbeCompileInfo {
  int64_t coreNum = 0;
};

static ge::graphStatus ProbeTiling(gert::TilingContext* context) {
  const ProbeCompileInfo* info = context->GetCompileInfo<ProbeCompileInfo>();
  context->SetBlockDim(info == nullptr || info->coreNum == 0 ? 1 : static_cast<uint32_t>(info->coreNum));
  return ge::GRAPH_SUCCESS;
}

static ge::graphStatus ProbeTilingParse(gert::TilingParseContext* context) {
  (void)context;
  return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(ProbeImpl).Tiling(ProbeTiling).TilingParse<ProbeCompileInfo>(ProbeTilingParse);
}  // namespace optiling

namespace ge {
static graphStatus ProbeInferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(ProbeImpl).InferShape(ProbeInferShape).InputsDataDependency({1});
}  // namespace ge
