// The simulated timeline as Chrome trace-event JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open:
// one process per core and launch, one thread per pipe, one complete ("X") event per instruction.
#pragma once

#include <iosfwd>

#include "perf/timeline.h"

namespace tilecraft::perf {

// `result` must come from simulate(trace, ...) with TimelineOptions::keepEvents set.
void writeChromeTrace(const SimulationResult& result, const TraceFile& trace, const ArchSpec& arch, std::ostream& out);

}  // namespace tilecraft::perf
