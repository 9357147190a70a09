// Huawei's bounds-checked C library (CANN's securec.h, libboundscheck: memcpy_s, strcpy_s, snprintf_s, ...), which
// cann-ops' shared op_host headers include (log/inner/dfx_base.h) and op_host code calls. Written here on the C
// library: each function checks its bounds as securec does and returns its codes (EOK, ERANGE, EINVAL, and the
// *_AND_RESET ones when the destination was cleared: a string's first byte set to '\0', memory to zero, memset_s's
// to its value). The printf family returns -1 on any error, as securec's does.
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef errno_t
typedef int errno_t;
#endif
#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL

namespace tcemu::securec {

inline bool overlaps(const void* a, size_t aLen, const void* b, size_t bLen) {
  auto x = reinterpret_cast<uintptr_t>(a);
  auto y = reinterpret_cast<uintptr_t>(b);
  return (x < y && x + aLen > y) || (y < x && y + bLen > x);
}

inline bool badDest(const void* dest, size_t destMax, size_t limit) {
  return dest == nullptr || destMax == 0 || destMax > limit;
}

// A format into strDest[0, size) with size <= destMax: the length, -1 on a format error, -2 when it was cut at
// size - 1 characters (securec keeps that much, terminated).
inline int format(char* strDest, size_t size, const char* fmt, va_list args) {
  int n = std::vsnprintf(strDest, size, fmt, args);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  return static_cast<size_t>(n) >= size ? -2 : n;
}

}  // namespace tcemu::securec

extern "C" {

inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr || count > destMax) {
    std::memset(dest, 0, destMax);
    return src == nullptr ? EINVAL_AND_RESET : ERANGE_AND_RESET;
  }
  if (dest != src && count > 0) std::memmove(dest, src, count);
  return EOK;
}

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  errno_t bad = src == nullptr                                      ? EINVAL_AND_RESET
                : count > destMax                                   ? ERANGE_AND_RESET
                : tcemu::securec::overlaps(dest, count, src, count) ? EOVERLAP_AND_RESET
                                                                    : EOK;
  if (bad != EOK) {
    std::memset(dest, 0, destMax);
    return bad;
  }
  // memmove, though the ranges are known apart: g++ cannot see that and warns (-Wrestrict) on a constant overlap.
  if (dest != src && count > 0) std::memmove(dest, src, count);
  return EOK;
}

// At most `count` characters of strSrc, always terminated; strSrc may be longer than count.
inline errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
  if (strDest == nullptr) return EINVAL;
  errno_t bad = EOK;
  size_t len = 0;
  if (strSrc == nullptr) {
    bad = EINVAL_AND_RESET;
  } else if (count > SECUREC_STRING_MAX_LEN) {
    bad = ERANGE_AND_RESET;
  } else if ((len = strnlen(strSrc, count < destMax ? count : destMax)) == destMax) {
    bad = ERANGE_AND_RESET;
  } else if (strDest != strSrc && tcemu::securec::overlaps(strDest, len + 1, strSrc, len + 1)) {
    bad = EOVERLAP_AND_RESET;
  }
  if (bad != EOK) {
    strDest[0] = '\0';
    return bad;
  }
  if (strDest != strSrc) std::memcpy(strDest, strSrc, len);
  strDest[len] = '\0';
  return EOK;
}

// strncpy_s with no limit of its own: the whole of strSrc, which must fit with its terminator.
inline errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncpy_s(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN);
}

// strcat_s and strncat_s: a strDest with no terminator within destMax is EINVAL_AND_RESET, a result that does not
// fit ERANGE_AND_RESET (strDest emptied in both).
inline errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
  if (strDest == nullptr) return EINVAL;
  errno_t bad = EOK;
  size_t destLen = 0;
  size_t srcLen = 0;
  if (strSrc == nullptr) {
    bad = EINVAL_AND_RESET;
  } else if (count > SECUREC_STRING_MAX_LEN) {
    bad = ERANGE_AND_RESET;
  } else {
    destLen = strnlen(strDest, destMax);
    size_t room = destMax - destLen;
    srcLen = strnlen(strSrc, count < room ? count : room);
    if (tcemu::securec::overlaps(strDest, destLen + srcLen + 1, strSrc, srcLen + 1)) {
      bad = destLen == destMax && strDest + destLen <= strSrc ? EINVAL_AND_RESET : EOVERLAP_AND_RESET;
    } else if (destLen == destMax) {
      bad = EINVAL_AND_RESET;
    } else if (destLen + srcLen >= destMax || strDest == strSrc) {
      bad = ERANGE_AND_RESET;
    }
  }
  if (bad != EOK) {
    strDest[0] = '\0';
    return bad;
  }
  std::memcpy(strDest + destLen, strSrc, srcLen);
  strDest[destLen + srcLen] = '\0';
  return EOK;
}

inline errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncat_s(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN);
}

// The formatted length, or -1 with strDest emptied (a null argument, or an output of destMax characters or more).
inline int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (format == nullptr || tcemu::securec::badDest(strDest, destMax, SECUREC_STRING_MAX_LEN)) {
    if (strDest != nullptr && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  int n = tcemu::securec::format(strDest, destMax, format, argList);
  if (n < 0) strDest[0] = '\0';
  return n < 0 ? -1 : n;
}

// At most `count` characters. Output cut at count (< destMax) keeps those count characters and returns -1;
// output that does not fit destMax (count >= destMax) returns -1 with strDest emptied.
inline int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (format == nullptr || tcemu::securec::badDest(strDest, destMax, SECUREC_STRING_MAX_LEN) ||
      (count > SECUREC_STRING_MAX_LEN - 1 && count != static_cast<size_t>(-1))) {
    if (strDest != nullptr && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  if (destMax > count) {
    int n = tcemu::securec::format(strDest, count + 1, format, argList);
    return n < 0 ? -1 : n;
  }
  int n = tcemu::securec::format(strDest, destMax, format, argList);
  if (n < 0) strDest[0] = '\0';
  return n < 0 ? -1 : n;
}

// Output that does not fit is cut at destMax - 1 characters, which is what it returns.
inline int vsnprintf_truncated_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (format == nullptr || tcemu::securec::badDest(strDest, destMax, SECUREC_STRING_MAX_LEN)) {
    if (strDest != nullptr && destMax > 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  int n = tcemu::securec::format(strDest, destMax, format, argList);
  return n == -2 ? static_cast<int>(destMax - 1) : n;
}

__attribute__((format(printf, 3, 4))) inline int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

__attribute__((format(printf, 4, 5))) inline int snprintf_s(char* strDest, size_t destMax, size_t count,
                                                            const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

__attribute__((format(printf, 3, 4))) inline int snprintf_truncated_s(char* strDest, size_t destMax, const char* format,
                                                                      ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf_truncated_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
