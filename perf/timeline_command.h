// The logic of `tilecraft perf simulate`, kept out of cli/ so tests drive it with string streams.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>

#include "perf/arch.h"
#include "perf/timeline.h"

namespace tilecraft::perf {

struct SimulateOptions {
  std::string trace;  // the emulator's TILECRAFT_EMU_TRACE file
  std::string arch = "910b2";
  std::filesystem::path archDir;  // empty: defaultArchDir()
  std::string chromeTrace;        // write the Chrome-trace timeline here when set
  bool json = false;              // print the profile as JSON
  bool l2BypassReads = false;     // the kernel reads GM through the L2-bypass alias
};

// Returns the exit status: 0 on success, 1 on a user error (printed to `err`).
int runSimulate(const SimulateOptions& options, std::ostream& out, std::ostream& err);

// Simulates a trace file and returns the short profile; for commands that ran a kernel and want its profile.
// Throws PerfError on an unreadable or malformed trace.
std::string profileTraceFile(const std::string& tracePath, const ArchSpec& arch, const TimelineOptions& options = {});

}  // namespace tilecraft::perf
