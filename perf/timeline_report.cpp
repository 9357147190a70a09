// The timeline's short profile, as text and as JSON.
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "perf/timeline.h"

namespace tilecraft::perf {
namespace {

double meanBusy(const LaunchProfile& l, int pipe) {
  double sum = 0;
  for (const CoreProfile& c : l.cores) sum += c.busy[static_cast<size_t>(pipe)];
  return l.cores.empty() ? 0 : sum / static_cast<double>(l.cores.size());
}

std::string readPath(const LaunchProfile& l) {
  if (l.l2BypassReads) return "bypass L2";
  if (l.gmReadBytes > 0 && l.bypassReadBytes >= l.gmReadBytes) return "around L2 (SetL2CacheHint)";
  if (l.bypassReadBytes > 0) {
    return fmt::format("{:.0f} B around L2 (SetL2CacheHint), the rest through L2 (allocating)", l.bypassReadBytes);
  }
  return "through L2 (allocating)";
}

std::string gmPath(const LaunchProfile& l) {
  return fmt::format("reads {}, writes {}", readPath(l), l.writesInL2 ? "absorbed by L2" : "to HBM (beyond L2)");
}

// "R B read" and, when L2 held some of it, how much came from there.
std::string gmReads(const LaunchProfile& l) {
  std::string out = fmt::format("{:.0f} B read", l.gmReadBytes);
  if (l.l2HitBytes > 0) out += fmt::format(" ({:.0f} B of it held in L2)", l.l2HitBytes);
  return out;
}

}  // namespace

std::string renderProfile(const SimulationResult& result, const std::string& archName) {
  std::string out;
  for (const LaunchProfile& l : result.launches) {
    out += fmt::format("launch {} {} on {}: {:.2f} us (device {:.2f} us + launch {:.2f} us), {} cores\n", l.launch,
                       l.kernel, archName, l.totalS * 1e6, l.deviceS * 1e6, l.launchS * 1e6, l.cores.size());
    if (l.cores.empty()) continue;
    const CoreProfile& slow = l.cores[static_cast<size_t>(l.slowestCore)];
    const CoreProfile& fast = l.cores[static_cast<size_t>(l.fastestCore)];
    double clock = l.clockHz;
    out += fmt::format("  per core: min {:.2f} us (core {}), max {:.2f} us (core {})\n", fast.cycles / clock * 1e6,
                       fast.index, slow.cycles / clock * 1e6, slow.index);
    double share = *std::max_element(slow.busy.begin(), slow.busy.end()) / std::max(slow.cycles, 1.0);
    out += fmt::format("  bottleneck: {} ({:.0f}% busy on the slowest core)", l.bottleneck, 100 * share);
    if (l.hbmSaturatedS > 0)
      out += fmt::format("; HBM saturated {:.0f}% of the time", 100 * l.hbmSaturatedS / l.deviceS);
    out += "\n";
    out += fmt::format("  {:<5} {:>10} {:>6} {:>13}\n", "pipe", "busy_us", "busy%", "mean_busy_us");
    for (int p = 0; p < kTracePipes; ++p) {
      double busy = slow.busy[static_cast<size_t>(p)];
      double mean = meanBusy(l, p);
      if (busy == 0 && mean == 0) continue;
      out += fmt::format("  {:<5} {:>10.2f} {:>5.0f}% {:>13.2f}\n", tracePipeName(static_cast<TracePipe>(p)),
                         busy / clock * 1e6, 100 * busy / std::max(slow.cycles, 1.0), mean / clock * 1e6);
    }
    out += fmt::format("  GM: {}, {:.0f} B written; {}\n", gmReads(l), l.gmWriteBytes, gmPath(l));
  }
  out += fmt::format("total: {:.2f} us over {} launch{}\n", result.totalS * 1e6, result.launches.size(),
                     result.launches.size() == 1 ? "" : "es");
  return out;
}

std::string renderProfileJson(const SimulationResult& result, const std::string& archName) {
  using nlohmann::ordered_json;
  ordered_json launches = ordered_json::array();
  for (const LaunchProfile& l : result.launches) {
    ordered_json j;
    j["launch"] = l.launch;
    j["kernel"] = l.kernel;
    j["cores"] = l.cores.size();
    j["total_us"] = l.totalS * 1e6;
    j["device_us"] = l.deviceS * 1e6;
    j["launch_us"] = l.launchS * 1e6;
    if (!l.cores.empty()) {
      const CoreProfile& slow = l.cores[static_cast<size_t>(l.slowestCore)];
      const CoreProfile& fast = l.cores[static_cast<size_t>(l.fastestCore)];
      double clock = l.clockHz;
      j["core_us"] = {
          {"min", fast.cycles / clock * 1e6}, {"max", slow.cycles / clock * 1e6}, {"slowest_core", slow.index}};
      ordered_json perCore = ordered_json::array();
      for (const CoreProfile& c : l.cores) perCore.push_back(c.cycles / clock * 1e6);
      j["core_times_us"] = std::move(perCore);  // in core order
      j["bottleneck"] = l.bottleneck;
      ordered_json pipes = ordered_json::object();
      for (int p = 0; p < kTracePipes; ++p) {
        double busy = slow.busy[static_cast<size_t>(p)];
        pipes[std::string(tracePipeName(static_cast<TracePipe>(p)))] = {
            {"busy_us", busy / clock * 1e6},
            {"busy_ratio", busy / std::max(slow.cycles, 1.0)},
            {"mean_busy_us", meanBusy(l, p) / clock * 1e6}};
      }
      j["pipes"] = std::move(pipes);
    }
    j["gm_read_bytes"] = l.gmReadBytes;
    j["gm_write_bytes"] = l.gmWriteBytes;
    j["l2_hit_bytes"] = l.l2HitBytes;
    j["bypass_read_bytes"] = l.bypassReadBytes;
    j["l2_bypass_reads"] = l.l2BypassReads;
    j["writes_in_l2"] = l.writesInL2;
    j["hbm_saturated_us"] = l.hbmSaturatedS * 1e6;
    launches.push_back(std::move(j));
  }
  ordered_json root = {{"arch", archName}, {"total_us", result.totalS * 1e6}, {"launches", std::move(launches)}};
  return root.dump(2) + "\n";
}

}  // namespace tilecraft::perf
