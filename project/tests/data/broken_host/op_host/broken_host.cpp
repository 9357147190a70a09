// A test project whose op_host does not build: GetInputShapes is not part of the host API.
#include "register/op_def_registry.h"

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  return context->GetInputShapes(0) == nullptr ? ge::GRAPH_FAILED : ge::GRAPH_SUCCESS;
}
