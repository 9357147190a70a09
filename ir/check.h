// Internal asserts of the compiler: a failed check is a compiler bug, never a user error, so it reports the
// broken invariant with its location and aborts (user mistakes go through support::DiagnosticEngine).
// TILECRAFT_CHECK is the IR's spelling of the toolchain's one internal assert, TC_ASSERT (support/assert.h); its
// message is a ready string (often built with fmt::format), never a format string.
#pragma once

#include "support/assert.h"

#define TILECRAFT_CHECK(cond, message) TC_ASSERT(cond, "{}", message)
