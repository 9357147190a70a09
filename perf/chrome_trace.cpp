#include "perf/chrome_trace.h"

#include <fmt/format.h>

#include <iterator>
#include <ostream>
#include <string>
#include <vector>

namespace tilecraft::perf {
namespace {

// JSON string body: names come from the kernel's source (API and file names), so quote what JSON requires.
std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

void writeChromeTrace(const SimulationResult& result, const TraceFile& trace, const ArchSpec& arch, std::ostream& out) {
  // Formatted straight into one buffer, not through a JSON DOM: a 48-core trace holds hundreds of thousands of
  // events, and writing them is most of what --chrome-trace costs.
  fmt::memory_buffer buf;
  auto sink = std::back_inserter(buf);
  fmt::format_to(sink, "{{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  bool first = true;
  auto separate = [&] {
    if (!first) fmt::format_to(sink, ",\n");
    first = false;
  };
  std::vector<std::string> names(trace.names.size());
  for (size_t i = 0; i < names.size(); ++i) names[i] = escape(trace.names[i]);
  double offsetUs = 0;
  int pidBase = 0;
  double usPerCycle = 1e6 / arch.clockHz;
  for (size_t l = 0; l < result.launches.size() && l < trace.launches.size(); ++l) {
    const LaunchProfile& launch = result.launches[l];
    const TraceLaunch& tl = trace.launches[l];
    for (size_t c = 0; c < launch.cores.size(); ++c) {
      const CoreProfile& core = launch.cores[c];
      int pid = pidBase + static_cast<int>(c);
      separate();
      fmt::format_to(
          sink,
          R"j({{"name":"process_name","ph":"M","pid":{},"args":{{"name":"launch {} {} core {} ({} block {} sub {})"}}}})j",
          pid, launch.launch, escape(launch.kernel), core.index, core.aic ? "AIC" : "AIV", core.block, core.sub);
      separate();
      fmt::format_to(sink, R"j({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})j", pid,
                     pid);
      for (int p = 0; p < kTracePipes; ++p) {
        separate();
        fmt::format_to(sink, R"j({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"{}"}}}})j", pid, p,
                       tracePipeName(static_cast<TracePipe>(p)));
        separate();
        fmt::format_to(sink,
                       R"j({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})j", pid,
                       p, p);
      }
    }
    // The device starts after the launch cost.
    double deviceUs = offsetUs + launch.launchS * 1e6;
    for (const TimelineEvent& e : launch.events) {
      const TraceInstr& in = tl.cores[static_cast<size_t>(e.core)].instrs[e.instr];
      separate();
      fmt::format_to(
          sink, R"j({{"name":"{}","ph":"X","pid":{},"tid":{},"ts":{:.4f},"dur":{:.4f},"args":{{"at":"{}:{}","i":{})j",
          names[in.name], pidBase + e.core, e.pipe, deviceUs + e.start * usPerCycle, e.cycles * usPerCycle,
          names[in.file], in.line, e.instr);
      if (in.bytes > 0) fmt::format_to(sink, R"j(,"bytes":{})j", in.bytes);
      if (in.repeats > 0) fmt::format_to(sink, R"j(,"repeats":{})j", in.repeats);
      if (in.token > 0) fmt::format_to(sink, R"j(,"token":{})j", in.token);
      fmt::format_to(sink, "}}}}");
    }
    offsetUs += launch.totalS * 1e6;
    pidBase += static_cast<int>(launch.cores.size());
  }
  fmt::format_to(sink, "\n]}}\n");
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace tilecraft::perf
