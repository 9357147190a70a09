// CANN 8.1 installs the host tiling API as highlevel_api/lib/tiling_api.h, so kernels built against the toolkit
// include it as "lib/tiling_api.h"; full installs also have include/tiling/tiling_api.h. Both names reach the same
// emulator header.
#pragma once

#include "tiling/tiling_api.h"
