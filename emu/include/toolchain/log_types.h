// The log levels and module ids of CANN's log API (CANN's toolchain/log_types.h, included by toolchain/slog.h).
#pragma once

#define LOG_FUNC_VISIBILITY __attribute__((visibility("default")))

#define DLOG_DEBUG 0x0
#define DLOG_INFO 0x1
#define DLOG_WARN 0x2
#define DLOG_ERROR 0x3

enum { DLOG_TYPE_DEBUG = 0, DLOG_TYPE_RUN = 1, DLOG_TYPE_MAX };

// The longest message one log record holds.
#define MSG_LENGTH 1024

enum {
  SLOG = 0,
  IDEDD = 1,
  HCCL = 3,
  FMK = 4,
  DVPP = 6,
  RUNTIME = 7,
  CCE = 8,
  HDC = 9,
  DRV = 10,
  DEVMM = 22,
  KERNEL = 23,
  LIBMEDIA = 24,
  CCECPU = 25,
  ROS = 27,
  HCCP = 28,
  ROCE = 29,
  TEFUSION = 30,
  PROFILING = 31,
  DP = 32,
  APP = 33,
  TS = 34,
  TSDUMP = 35,
  AICPU = 36,
  LP = 37,
  TDT = 38,
  FE = 39,
  MD = 40,
  MB = 41,
  ME = 42,
  IMU = 43,
  IMP = 44,
  GE = 45,
  CAMERA = 47,
  ASCENDCL = 48,
  TEEOS = 49,
  ISP = 50,
  SIS = 51,
  HSM = 52,
  DSS = 53,
  PROCMGR = 54,
  BBOX = 55,
  AIVECTOR = 56,
  TBE = 57,
  FV = 58,
  TUNE = 60,
  HSS = 61,
  FFTS = 62,
  OP = 63,
  UDF = 64,
  HICAID = 65,
  TSYNC = 66,
  AUDIO = 67,
  TPRT = 68,
  ASCENDCKERNEL = 69,
  ASYS = 70,
  ATRACE = 71,
  RTC = 72,
  SYSMONITOR = 73,
  AML = 74,
  ADETECT = 75,
  INVLID_MOUDLE_ID = 76  // CANN's spelling
};
