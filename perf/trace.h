// Reader for the emulator's instruction trace (format: emu/include/emu/trace.h, JSON lines, one block per
// ICPU_RUN_KF launch). Perf does not include the emulator: it reads the file the emulator writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::perf {

// Pipes in the emulator's order; All is a PIPE_ALL barrier.
enum class TracePipe : uint8_t { S, V, M, MTE1, MTE2, MTE3, FIX, All };
constexpr int kTracePipes = 7;  // without All
std::string_view tracePipeName(TracePipe p);

enum class TraceClass : uint8_t {
  Scalar,
  DmaIn,
  DmaOut,
  DmaLocal,
  Vector,
  Cube,
  Fixpipe,
  SetFlag,
  WaitFlag,
  Barrier,
  CoreSync
};
enum class TraceSpace : uint8_t { UB, L1, L0A, L0B, L0C, BT, FB, GM, None };

struct TraceInstr {
  TracePipe pipe = TracePipe::S;
  TraceClass cls = TraceClass::Scalar;
  uint32_t name = 0;  // index into TraceFile::names
  uint32_t file = 0;  // index into TraceFile::names
  int32_t line = 0;
  uint32_t dtypeBytes = 0, repeats = 0, bursts = 0, burstBytes = 0, gmAlign = 0;
  uint64_t elements = 0, bytes = 0;
  TraceSpace src = TraceSpace::None, dst = TraceSpace::None;
  uint32_t m = 0, n = 0, k = 0;
  uint32_t token = 0;
  int32_t crossFlag = -1;  // flag id of a CrossCoreSetFlag/CrossCoreWaitFlag (keys xf/xm, optional: older traces)
  uint32_t crossMode = 0;
  // GM footprint (keys gb/go/gl/gs/gn/gi, optional: older traces have none): gmTouches accesses of gmLen bytes,
  // gmStride apart, from byte gmOffset of GM buffer gmBlock (0: unknown); irregular ones have no usable footprint.
  uint32_t gmBlock = 0, gmTouches = 0;
  uint64_t gmOffset = 0, gmLen = 0, gmStride = 0;
  bool gmIrregular = false;
  bool l2Bypass = false;  // key l2b: the access goes around L2 (SetL2CacheHint(CACHE_MODE_DISABLE))
  // Keys aw/aw2 (optional): index + 1 of earlier instructions of this core, on other pipes, that must complete
  // before this one starts: the flags bisheng's auto-sync would insert (0 = none).
  uint32_t after[2] = {0, 0};
};

struct TraceCore {
  int index = 0;
  bool aic = false;
  int block = 0, sub = 0;
  std::vector<TraceInstr> instrs;
};

struct TraceLaunch {
  int launch = 0;
  std::string kernel, mode;
  int blocks = 0;
  std::vector<TraceCore> cores;
};

struct TraceFile {
  std::vector<TraceLaunch> launches;
  std::vector<std::string> names;  // interned API names and file names
};

// Parses trace text; a malformed line is a PerfError "FILE:LINE: ...".
TraceFile parseTrace(std::string_view text, const std::string& fileName);
TraceFile loadTrace(const std::string& path);

}  // namespace tilecraft::perf
