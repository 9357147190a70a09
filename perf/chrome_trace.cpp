#include "perf/chrome_trace.h"

#include <fmt/format.h>

#include <ostream>
#include <string>

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
  // Written by hand, not through a JSON DOM: a 48-core trace holds hundreds of thousands of events.
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const std::string& event) {
    out << (first ? "" : ",\n") << event;
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
      emit(fmt::format(R"j({{"name":"process_name","ph":"M","pid":{},"args":{{"name":"launch {} {} core {} ({} block {} sub {})"}}}})j",
                       pid, launch.launch, escape(launch.kernel), core.index, core.aic ? "AIC" : "AIV", core.block, core.sub));
      emit(fmt::format(R"j({{"name":"process_sort_index","ph":"M","pid":{},"args":{{"sort_index":{}}}}})j", pid, pid));
      for (int p = 0; p < kTracePipes; ++p) {
        emit(fmt::format(R"j({{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":"{}"}}}})j", pid, p,
                         tracePipeName(static_cast<TracePipe>(p))));
        emit(fmt::format(R"j({{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})j", pid, p, p));
      }
    }
    // The device starts after the launch cost.
    double deviceUs = offsetUs + launch.launchS * 1e6;
    for (const TimelineEvent& e : launch.events) {
      const TraceInstr& in = tl.cores[static_cast<size_t>(e.core)].instrs[e.instr];
      std::string args = fmt::format(R"j("at":"{}:{}","i":{})j", names[in.file], in.line, e.instr);
      if (in.bytes > 0) args += fmt::format(R"j(,"bytes":{})j", in.bytes);
      if (in.repeats > 0) args += fmt::format(R"j(,"repeats":{})j", in.repeats);
      if (in.token > 0) args += fmt::format(R"j(,"token":{})j", in.token);
      emit(fmt::format(R"j({{"name":"{}","ph":"X","pid":{},"tid":{},"ts":{:.4f},"dur":{:.4f},"args":{{{}}}}})j",
                       names[in.name], pidBase + e.core, e.pipe, deviceUs + e.start * usPerCycle,
                       e.cycles * usPerCycle, args));
    }
    offsetUs += launch.totalS * 1e6;
    pidBase += static_cast<int>(launch.cores.size());
  }
  out << "\n]}\n";
}

}  // namespace tilecraft::perf
