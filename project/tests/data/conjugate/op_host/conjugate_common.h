// Shared by the project's two op_host files. As in cann-ops' tiling headers, a function is defined here without
// `inline`: each op_host library CANN links has its own copy, and so does each file here (project run links them
// into one program with --allow-multiple-definition).
#pragma once

#include <cstdint>

#include "register/op_def_registry.h"

namespace optiling {
uint32_t ConjugateRepeats(uint32_t complexCount) { return complexCount / 32; }  // 64 floats per repeat
ge::graphStatus ConjugateTiling(gert::TilingContext* context);
}  // namespace optiling

namespace ge {
graphStatus ConjugateInferShape(gert::InferShapeContext* context);
}  // namespace ge
