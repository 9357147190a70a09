// The platform description type of the host API (CANN's platform/platform_info.h): op_host files include it for
// fe::PlatFormInfos, which the emulator's PlatformAscendC answers for (a 910B2).
#pragma once

#include "tiling/platform/platform_ascendc.h"
