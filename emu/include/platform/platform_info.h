// The platform description type of the host API (CANN's platform/platform_info.h): op_host files include it for
// fe::PlatFormInfos, which the emulator's PlatformAscendC answers for (a 910B2).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tiling/platform/platform_ascendc.h"

// CANN's platform_info_def.h (which platform_info.h includes) declares these at global scope, and op_host code
// relies on them (`vector<int64_t> shape;`).
using std::map;
using std::string;
using std::vector;
