// Internal asserts of the compiler: a failed check is a compiler bug, never a user error, so it reports the
// broken invariant with its location and aborts (user mistakes go through support::DiagnosticEngine).
#pragma once

#include <string>

namespace tilecraft::ir {

[[noreturn]] void internalError(const char* file, int line, const char* condition,
                                const std::string& message);

}  // namespace tilecraft::ir

#define TILECRAFT_CHECK(cond, message)                                               \
  do {                                                                               \
    if (!(cond)) ::tilecraft::ir::internalError(__FILE__, __LINE__, #cond, message); \
  } while (0)
