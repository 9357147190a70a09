// Every API family of the emulator. Data movement, vector, cube and high-level libraries each have their headers.
#pragma once

#include "emu/datacopy.h"
#include "emu/vec.h"
#include "emu/cube.h"
#include "emu/highlevel.h"
#include "emu/misc.h"
#include "emu/kernel_utils.h"
#include "emu/raw_address_calls.h"
