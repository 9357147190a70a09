// CANN 8.1's path of the Matmul interface header (older releases and most samples use lib/matmul_intf.h).
#pragma once

#include "lib/matmul_intf.h"
