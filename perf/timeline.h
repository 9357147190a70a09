// Timeline simulator (owned by the timeline helper).
// Replays an emulator instruction trace (perf/trace.h) on an arch spec as a discrete-event simulation. Each core
// has in-order pipes (S, V, M, MTE1, MTE2, MTE3, FIX) that run concurrently; the scalar unit issues every
// instruction in program order; a wait starts after its paired set (queues and flags); PIPE_ALL barriers and
// SyncAll drain the pipes; SyncAll joins the cores; a cross-core wait starts after the sets that raise its flag on
// the other cores (by flag id and mode) plus one FFTS hop. GM transfers of all cores share HBM (or L2 for writes L2
// absorbs and reads of data L2 holds, perf/l2_residency.h) by max-min fair rates. The model and its sources: docs/perf-model.md, "Timeline simulator".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "perf/arch.h"
#include "perf/trace.h"

namespace tilecraft::perf {

struct TimelineOptions {
  bool keepEvents = false;  // one TimelineEvent per instruction, for the Chrome trace
  // GM reads take the L2-bypass path (the kernel reads through the bypass alias, which the emulator cannot see).
  bool l2BypassReads = false;
};

struct TimelineEvent {
  int core = 0;        // index into LaunchProfile::cores
  int pipe = 0;        // TracePipe as int
  uint32_t instr = 0;  // index into the core's TraceCore::instrs
  double start = 0;    // cycles from the launch start
  double cycles = 0;
};

struct CoreProfile {
  int index = 0;
  bool aic = false;
  int block = 0, sub = 0;
  double cycles = 0;                       // when the core's last instruction finishes
  std::array<double, kTracePipes> busy{};  // busy cycles per pipe (a wait's blocked time is not busy)
};

struct LaunchProfile {
  std::string kernel;
  int launch = 0;
  double deviceS = 0;  // the slowest core
  double launchS = 0;  // kernel launch cost
  double totalS = 0;
  double clockHz = 0;  // cycles per second of the arch simulated
  std::vector<CoreProfile> cores;
  int slowestCore = 0;
  int fastestCore = 0;
  std::string bottleneck;  // busiest pipe of the slowest core
  double gmReadBytes = 0, gmWriteBytes = 0;
  bool writesInL2 = false;            // the launch's GM writes fit L2 and are absorbed there
  bool l2BypassReads = false;         // as simulated
  double l2HitBytes = 0;              // GM bytes read from L2, which held them (read or absorbed before)
  double bypassReadBytes = 0;         // GM bytes read around L2 by SetL2CacheHint(CACHE_MODE_DISABLE)
  double hbmSaturatedS = 0;           // time during which HBM ran at its full bandwidth
  std::vector<TimelineEvent> events;  // only with TimelineOptions::keepEvents
};

struct SimulationResult {
  std::vector<LaunchProfile> launches;
  double totalS = 0;
};

// Simulates every launch of `trace`. A trace whose waits can never be satisfied is a PerfError.
SimulationResult simulate(const TraceFile& trace, const ArchSpec& arch, const TimelineOptions& options = {});

// The short profile `tilecraft perf simulate` prints, and its --json form.
std::string renderProfile(const SimulationResult& result, const std::string& archName);
std::string renderProfileJson(const SimulationResult& result, const std::string& archName);

}  // namespace tilecraft::perf
