#include "perf/timeline_command.h"

#include <fmt/format.h>

#include <fstream>
#include <ostream>

#include "perf/chrome_trace.h"
#include "perf/error.h"
#include "perf/trace.h"

namespace tilecraft::perf {

std::string profileTraceFile(const std::string& tracePath, const ArchSpec& arch, const TimelineOptions& options) {
  TraceFile trace = loadTrace(tracePath);
  return renderProfile(simulate(trace, arch, options), arch.name);
}

int runSimulate(const SimulateOptions& options, std::ostream& out, std::ostream& err) {
  try {
    std::filesystem::path archDir = options.archDir.empty() ? defaultArchDir() : options.archDir;
    ArchSpec arch = loadArchByName(options.arch, archDir);
    TraceFile trace = loadTrace(options.trace);
    if (trace.launches.empty()) {
      err << fmt::format(
          "error: {}: the trace holds no launch\nhint: run the kernel with TILECRAFT_EMU_TRACE={} set, "
          "or `tilecraft emu run --trace-dir DIR`\n",
          options.trace, options.trace);
      return 1;
    }
    TimelineOptions timeline;
    timeline.keepEvents = !options.chromeTrace.empty();
    timeline.l2BypassReads = options.l2BypassReads;
    SimulationResult result = simulate(trace, arch, timeline);
    if (!options.chromeTrace.empty()) {
      std::ofstream file(options.chromeTrace, std::ios::binary);
      if (!file) {
        err << fmt::format("error: cannot write the timeline to {}\n", options.chromeTrace);
        return 1;
      }
      writeChromeTrace(result, trace, arch, file);
    }
    out << (options.json ? renderProfileJson(result, arch.name) : renderProfile(result, arch.name));
    if (!options.chromeTrace.empty() && !options.json) {
      out << fmt::format("timeline written to {} (open it in https://ui.perfetto.dev)\n", options.chromeTrace);
    }
    return 0;
  } catch (const PerfError& e) {
    err << "error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace tilecraft::perf
