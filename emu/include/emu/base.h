// Tilecraft AscendC emulator: qualifiers, source locations and the error channel.
//
// Every emulated API takes a trailing `SrcLoc loc = SrcLoc::current()` so that a failed check names the kernel's
// own call site. GCC evaluates __builtin_FILE/__builtin_LINE in a default argument at the outermost call, which is
// what std::source_location does in C++20; the builtins also work under -std=c++17, the standard kernels use.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "emu/channel.h"

// Device qualifiers are empty on the CPU, as in CANN's CPU-debug mode (stub_def.h).
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#define __gm__
#define __ubuf__
#define __cbuf__
#define __cc__
#define __ca__
#define __cb__
#define __fbuf__
#define __sync_alias__
#define __sync_noalias__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)
#define GM_ADDR __gm__ uint8_t*

// CANN's CPU-debug build (tikicpulib) defines __CCE_KT_TEST__, and a kernel file built here as a CPU-debug program
// gets it too. `project run` builds a project's kernel as bisheng builds it for the device
// (TILECRAFT_DEVICE_BUILD), without it: answers skip device-only code under `#ifndef __CCE_KT_TEST__`
// (GroupNormSwish's DataCopyPad, the SyncAll of CrossEntropyLossGrad) in the CPU-debug build only.
#if !defined(__CCE_KT_TEST__) && !defined(TILECRAFT_DEVICE_BUILD)
#define __CCE_KT_TEST__ 1
#endif
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif

namespace tcemu {

struct SrcLoc {
  const char* file = "<unknown>";
  int line = 0;
  static constexpr SrcLoc current(const char* f = __builtin_FILE(), int l = __builtin_LINE()) { return {f, l}; }
};

// A failed check. Kernels built as programs print it and exit with status 3; unit tests install a throwing handler.
struct CheckError {
  SrcLoc loc;
  std::string message;
  std::vector<std::pair<SrcLoc, std::string>> notes;
  std::string render(const char* severity = "error") const {
    std::string s = std::string(loc.file) + ":" + std::to_string(loc.line) + ": " + severity + ": " + message + "\n";
    for (const auto& n : notes)
      s += std::string(n.first.file) + ":" + std::to_string(n.first.line) + ": note: " + n.second + "\n";
    return s;
  }
};

constexpr int kCheckExitStatus = 3;

using FailHandler = void (*)(const CheckError&);

[[noreturn]] inline void defaultFail(const CheckError& e) {
  std::fflush(stdout);
  std::fputs(e.render().c_str(), stderr);
  std::fflush(stderr);
  std::_Exit(kCheckExitStatus);
}

inline FailHandler& failHandler() {
  static FailHandler handler = nullptr;
  return handler;
}

inline std::string vformat(const char* fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  std::string s(static_cast<size_t>(n > 0 ? n : 0), '\0');
  if (n > 0) std::vsnprintf(s.data(), s.size() + 1, fmt, ap);
  return s;
}

inline std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

// Raises the error through the installed handler; never returns.
[[noreturn]] inline void raise(CheckError e) {
  // Told to the judging parent first: a handler the kernel installed cannot hide the failure.
  channelCheckFailed(e.render());
  if (FailHandler h = failHandler()) h(e);  // a test handler throws
  defaultFail(e);
}

// Faults the device runs through without stopping, and that a kernel which passes there may hold (a cross-pipe
// race that the pipes' timing settles in program order, a read of stale local memory whose value is then
// masked or multiplied away, an access past a GM tensor inside the 512-byte block its allocation was rounded
// to, an InitBuffer of 0 bytes). Under setFaultsAsWarnings(true) (`tilecraft project run --faults warn`) each
// is a warning, once per call site, and the run goes on; otherwise an error like any other check.
inline bool& faultsAsWarningsSetting() {
  static bool on = false;
  return on;
}
inline void setFaultsAsWarnings(bool on) { faultsAsWarningsSetting() = on; }

// Raises a device-tolerated fault, or as a warning prints it (and tells the judging parent) and returns.
inline void raiseFault(CheckError e) {
  if (!faultsAsWarningsSetting()) raise(std::move(e));
  static std::vector<std::pair<const char*, int>> seen;  // call sites already reported (file names are literals)
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  for (const auto& site : seen)
    if (site.second == e.loc.line && std::strcmp(site.first, e.loc.file) == 0) return;
  seen.emplace_back(e.loc.file, e.loc.line);
  std::string text = e.render("warning");
  if (reportChannel().fd >= 0) return channelCheckWarning(text);  // the judging parent shows it
  std::fflush(stdout);
  std::fputs(text.c_str(), stderr);
}

inline void fault(const SrcLoc& loc, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
inline void fault(const SrcLoc& loc, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  CheckError e{loc, vformat(fmt, ap), {}};
  va_end(ap);
  raiseFault(std::move(e));
}

[[noreturn]] inline void fail(const SrcLoc& loc, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
[[noreturn]] inline void fail(const SrcLoc& loc, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  CheckError e{loc, vformat(fmt, ap), {}};
  va_end(ap);
  raise(std::move(e));
}

// The last template parameters of an API's overload that has CANN's exact parameter list (no trailing SrcLoc), so
// that a kernel can take the API's address as a function pointer of CANN's type (`ForeachOp<half, Adds>`). A call
// still picks the overload with the SrcLoc (a function without a trailing pack is the more specialized); through
// the pointer, checks name the emulator's line.
#define TCEMU_NO_LOC_PACK typename... NoLoc, typename std::enable_if<sizeof...(NoLoc) == 0, bool>::type = true

// Internal invariant of the emulator itself (a bug here, not in the kernel).
#define TCEMU_ASSERT(cond, msg)                                                                                      \
  do {                                                                                                               \
    if (!(cond)) {                                                                                                   \
      std::fprintf(stderr, "tilecraft emulator internal error: %s (%s) at %s:%d\n", msg, #cond, __FILE__, __LINE__); \
      std::abort();                                                                                                  \
    }                                                                                                                \
  } while (0)

inline uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline uint64_t roundUp(uint64_t a, uint64_t b) { return ceilDiv(a, b) * b; }

}  // namespace tcemu
