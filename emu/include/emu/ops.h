// Every API family of the emulator. Data movement, vector, cube and high-level libraries each have their headers.
#pragma once

#if __has_include("emu/datacopy.h")
#include "emu/datacopy.h"
#endif
#if __has_include("emu/vec.h")
#include "emu/vec.h"
#endif
#if __has_include("emu/cube.h")
#include "emu/cube.h"
#endif
#if __has_include("emu/highlevel.h")
#include "emu/highlevel.h"
#endif
#include "emu/misc.h"
