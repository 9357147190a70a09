// Graph status codes of the host API (CANN's graph/ge_error_codes.h).
#pragma once

#include <cstdint>

namespace ge {
using graphStatus = uint32_t;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_SUCCESS = 0;
const graphStatus GRAPH_NOT_CHANGED = 1343242304;
const graphStatus GRAPH_PARAM_INVALID = 50331649;
using Status = uint32_t;
const Status SUCCESS = 0;
const Status FAILED = 0xFFFFFFFF;
}  // namespace ge
