// The internal assert of the toolchain: a failed TC_ASSERT is a bug in Tilecraft, never a user mistake (those go
// through support::DiagnosticEngine or a precise error message). Unlike assert() it stays in every build, NDEBUG
// included, because a release build that silently carries on past a broken invariant produces wrong kernels or
// wrong verdicts instead of a crash pointing at the bug. It prints where, what and why to stderr and aborts.
//
//   TC_ASSERT(step > 0);
//   TC_ASSERT(id < size, "buffer id {} out of range ({} buffers)", id, size);   // fmt syntax, checked at compile time
//
// The message arguments are evaluated only when the check fails. The emulator (emu/) has its own TCEMU_ASSERT: its
// headers are compiled into user kernels and depend on nothing of the toolchain.
#pragma once

#include <fmt/format.h>

#include <concepts>
#include <string>
#include <type_traits>
#include <utility>

namespace tilecraft::support {

// Prints "tilecraft internal error: FILE:LINE: check 'CONDITION' failed: MESSAGE" and a hint, then aborts.
[[noreturn]] void assertFailed(const char* file, int line, const char* condition, const std::string& message);

namespace detail {
inline std::string assertMessage() { return {}; }
// An already formatted message (a std::string built by the caller).
template <typename S>
requires std::same_as<std::remove_cvref_t<S>, std::string> std::string assertMessage(S&& message) {
  return std::forward<S>(message);
}
template <typename... Args>
std::string assertMessage(fmt::format_string<Args...> format, Args&&... args) {
  return fmt::format(format, std::forward<Args>(args)...);
}
}  // namespace detail

}  // namespace tilecraft::support

#define TC_ASSERT(cond, ...)                                                                        \
  do {                                                                                              \
    if (!(cond)) [[unlikely]] {                                                                     \
      ::tilecraft::support::assertFailed(__FILE__, __LINE__, #cond,                                 \
                                         ::tilecraft::support::detail::assertMessage(__VA_ARGS__)); \
    }                                                                                               \
  } while (0)
