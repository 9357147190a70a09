// CANN's log API (toolchain/slog.h: DlogRecord, CheckLogLevel, the dlog_* / Dlog / DlogSub macros), which cann-ops'
// shared op_host headers log through (log/inner/dfx_base.h). CANN writes these records to its log folder; here they
// go to stderr (never stdout, which is the host program's), each as `[LEVEL] MODULE: message`. The level is CANN's
// default, ERROR, or ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 none) as in CANN; events (DLOG_EVENT, CANN's run
// log) are printed only with ASCEND_GLOBAL_EVENT_ENABLE=1.
#pragma once

#include <stdarg.h>
#include <stdint.h>

#include <cstdio>
#include <cstdlib>

#include "toolchain/log_types.h"

static const int32_t TMP_LOG = 0;

#define DLOG_NULL 0x4
#define DLOG_EVENT 0x10

#define DEBUG_LOG_MASK (0x00010000U)
#define SECURITY_LOG_MASK (0x00100000U)
#define RUN_LOG_MASK (0x01000000U)
#define STDOUT_LOG_MASK (0x10000000U)
#define LOG_SAVE_MODE_DEF (0x0U)
#define LOG_SAVE_MODE_UNI (0xFE756E69U)
#define LOG_SAVE_MODE_SEP (0xFE736570U)
#define ALL_MODULE (0x0000FFFFU)

typedef enum { APPLICATION = 0, SYSTEM } ProcessType;

typedef struct {
  ProcessType type;
  unsigned int pid;
  unsigned int deviceId;
  unsigned int mode;
  char reserved[48];
} LogAttr;

namespace tcemu::slog {

struct Levels {
  int32_t level[INVLID_MOUDLE_ID];
  int32_t event;
};

inline int32_t envLevel(const char* name, int32_t fallback, int32_t max) {
  const char* v = std::getenv(name);
  if (v == nullptr || v[0] < '0' || v[0] > '0' + max || v[1] != '\0') return fallback;
  return v[0] - '0';
}

inline Levels& levels() {
  static Levels l = [] {
    Levels init{};
    int32_t global = envLevel("ASCEND_GLOBAL_LOG_LEVEL", DLOG_ERROR, DLOG_NULL);
    for (int32_t& m : init.level) m = global;
    init.event = envLevel("ASCEND_GLOBAL_EVENT_ENABLE", 0, 1);
    return init;
  }();
  return l;
}

inline bool validModule(int32_t moduleId) { return moduleId >= 0 && moduleId < INVLID_MOUDLE_ID; }

inline const char* levelName(int32_t level) {
  switch (level) {
    case DLOG_DEBUG: return "DEBUG";
    case DLOG_INFO: return "INFO";
    case DLOG_WARN: return "WARNING";
    case DLOG_ERROR: return "ERROR";
    default: return "EVENT";
  }
}

inline const char* moduleName(int32_t moduleId) {
  switch (moduleId) {
    case OP: return "OP";
    case GE: return "GE";
    case FE: return "FE";
    case TBE: return "TBE";
    case APP: return "APP";
    case RUNTIME: return "RUNTIME";
    case ASCENDCL: return "ASCENDCL";
    case ASCENDCKERNEL: return "ASCENDCKERNEL";
    default: return "MODULE";
  }
}

}  // namespace tcemu::slog

extern "C" {

inline void dlog_init(void) {}

// 1 when a record of `logLevel` from the module is written, else 0 (also for an unknown module or level).
inline int32_t CheckLogLevel(int32_t moduleId, int32_t logLevel) {
  if (!tcemu::slog::validModule(moduleId)) return 0;
  if (logLevel == DLOG_EVENT) return tcemu::slog::levels().event == 1 ? 1 : 0;
  int32_t level = tcemu::slog::levels().level[moduleId];
  return logLevel >= DLOG_DEBUG && logLevel <= DLOG_ERROR && logLevel >= level ? 1 : 0;
}

inline int32_t dlog_getlevel(int32_t moduleId, int32_t* enableEvent) {
  if (enableEvent != nullptr) *enableEvent = tcemu::slog::levels().event;
  if (!tcemu::slog::validModule(moduleId)) return -1;
  return tcemu::slog::levels().level[moduleId];
}

// 0, or -1 for an unknown module or level. ALL_MODULE sets every module.
inline int32_t dlog_setlevel(int32_t moduleId, int32_t level, int32_t enableEvent) {
  bool all = static_cast<uint32_t>(moduleId) == ALL_MODULE;
  if ((!all && !tcemu::slog::validModule(moduleId)) || level < DLOG_DEBUG || level > DLOG_NULL) return -1;
  tcemu::slog::Levels& l = tcemu::slog::levels();
  for (int32_t m = 0; m < INVLID_MOUDLE_ID; ++m) {
    if (all || m == moduleId) l.level[m] = level;
  }
  l.event = enableEvent != 0 ? 1 : 0;
  return 0;
}

inline int32_t DlogSetAttr(LogAttr logAttrInfo) {
  (void)logAttrInfo;
  return 0;
}

inline void DlogVaList(int32_t moduleId, int32_t level, const char* fmt, va_list list) {
  if (fmt == nullptr || CheckLogLevel(moduleId, level) != 1) return;
  std::fprintf(stderr, "[%s] %s: ", tcemu::slog::levelName(level), tcemu::slog::moduleName(moduleId));
  std::vfprintf(stderr, fmt, list);
  std::fputc('\n', stderr);
}

inline void DlogFlush(void) { std::fflush(stderr); }

__attribute__((format(printf, 3, 4))) inline void DlogRecord(int32_t moduleId, int32_t level, const char* fmt, ...) {
  va_list list;
  va_start(list, fmt);
  DlogVaList(moduleId, level, fmt, list);
  va_end(list);
}

}  // extern "C"

#define dlog_error(moduleId, fmt, ...)                                                  \
  do {                                                                                  \
    DlogRecord(moduleId, DLOG_ERROR, "[%s:%d]" fmt, __FILE__, __LINE__, ##__VA_ARGS__); \
  } while (TMP_LOG != 0)
#define dlog_warn(moduleId, fmt, ...) Dlog(moduleId, DLOG_WARN, fmt, ##__VA_ARGS__)
#define dlog_info(moduleId, fmt, ...) Dlog(moduleId, DLOG_INFO, fmt, ##__VA_ARGS__)
#define dlog_debug(moduleId, fmt, ...) Dlog(moduleId, DLOG_DEBUG, fmt, ##__VA_ARGS__)
#define dlog_event(moduleId, fmt, ...)                                                  \
  do {                                                                                  \
    DlogRecord(moduleId, DLOG_EVENT, "[%s:%d]" fmt, __FILE__, __LINE__, ##__VA_ARGS__); \
  } while (TMP_LOG != 0)
#define Dlog(moduleId, level, fmt, ...)                                              \
  do {                                                                               \
    if (CheckLogLevel(moduleId, level) == 1) {                                       \
      DlogRecord(moduleId, level, "[%s:%d]" fmt, __FILE__, __LINE__, ##__VA_ARGS__); \
    }                                                                                \
  } while (TMP_LOG != 0)
#define DlogSub(moduleId, submodule, level, fmt, ...)                                               \
  do {                                                                                              \
    if (CheckLogLevel(moduleId, level) == 1) {                                                      \
      DlogRecord(moduleId, level, "[%s:%d][%s]" fmt, __FILE__, __LINE__, submodule, ##__VA_ARGS__); \
    }                                                                                               \
  } while (TMP_LOG != 0)

// Not CANN's: cann-ops' CMake defines these two for its op_host targets (OP_TILING for tiling, OP_PROTO for shape
// inference; "[Custom]" in its open build), and its log macros (log/inner/dfx_base.h, which includes this header)
// expand to them. `tilecraft project run` builds op_host without that CMake, so they default here.
#ifndef OPS_UTILS_LOG_SUB_MOD_NAME
#define OPS_UTILS_LOG_SUB_MOD_NAME "OP_TILING"
#endif
#ifndef OPS_UTILS_LOG_PACKAGE_TYPE
#define OPS_UTILS_LOG_PACKAGE_TYPE "[Custom]"
#endif
