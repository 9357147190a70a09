#include "perf/arch.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "perf/error.h"

namespace tilecraft::perf {

using nlohmann::json;

double VectorCosts::cyclesPerRepeat(VecClass cls, int laneBytes) const {
  bool narrow = laneBytes <= 2;
  // 64-bit lanes: half as many lanes per repeat, so a 64-bit element costs two 32-bit repeats' share.
  double wide = laneBytes >= 8 ? 2.0 : 1.0;
  switch (cls) {
    case VecClass::Cast: return cast * wide;
    case VecClass::Unary: return unary * wide;
    case VecClass::Binary: return binary * wide;
    case VecClass::Exp: return narrow ? expF16 : expF32 * wide;
    case VecClass::Sqrt: return narrow ? sqrtF16 : sqrtF32 * wide;
    case VecClass::Div: return narrow ? divF16 : divF32 * wide;
    case VecClass::Reduce: return reduce * wide;
    case VecClass::Gather: return gather * wide;
    case VecClass::Sort: return sort * wide;
  }
  return 0;
}

VectorCosts ArchSpec::vectorMeasured() const {
  VectorCosts costs = vectorPeak;
  costs.binary = binaryAsBenchmarked;
  return costs;
}

ReadTextFn diskReader() {
  return [](const std::filesystem::path& path) -> std::optional<std::string> {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  };
}

std::filesystem::path defaultArchDir() {
  if (const char* dir = std::getenv("TILECRAFT_ARCH_DIR"); dir != nullptr && *dir != '\0') return dir;
  return std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch";
}

namespace {

json parseFile(const std::filesystem::path& file, const ReadTextFn& read) {
  std::optional<std::string> text = read(file);
  if (!text) throw PerfError(fmt::format("{}: cannot read the architecture spec", file.string()));
  try {
    return json::parse(*text);
  } catch (const json::parse_error& e) {
    throw PerfError(fmt::format("{}: invalid JSON at byte {}: {}", file.string(), e.byte, e.what()));
  }
}

// Override numbers replace the base's leaf by leaf; a leaf is an object holding "value".
void mergeNumbers(json& base, const json& over) {
  for (auto it = over.begin(); it != over.end(); ++it) {
    if (it->is_object() && !it->contains("value") && base.contains(it.key()) && base[it.key()].is_object()) {
      mergeNumbers(base[it.key()], *it);
    } else {
      base[it.key()] = *it;
    }
  }
}

struct Loaded {
  std::string name;  // the file's own "name", else its stem
  json numbers;
  std::string chain;  // "910b4.json (base 910b2.json)" for messages about merged numbers
};

Loaded loadChain(const std::filesystem::path& file, const ReadTextFn& read, std::set<std::string>& seen) {
  if (!seen.insert(file.string()).second) {
    throw PerfError(fmt::format("{}: the base chain loops back to this file", file.string()));
  }
  json doc = parseFile(file, read);
  if (!doc.is_object() || !doc.contains("numbers") || !doc["numbers"].is_object()) {
    throw PerfError(
        fmt::format("{}: /numbers: missing (an arch spec holds its numbers in an object \"numbers\")", file.string()));
  }
  Loaded result{doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>() : file.stem().string(),
                json::object(), file.string()};
  if (doc.contains("base")) {
    if (!doc["base"].is_string())
      throw PerfError(fmt::format("{}: /base: expected a string naming the base spec", file.string()));
    std::string baseName = doc["base"].get<std::string>();
    std::filesystem::path baseFile = file.parent_path() / (baseName + ".json");
    if (!read(baseFile)) {
      throw PerfError(fmt::format("{}: /base: base spec '{}' not found (looked for {})", file.string(), baseName,
                                  baseFile.string()));
    }
    Loaded base = loadChain(baseFile, read, seen);
    result.numbers = std::move(base.numbers);
    result.chain = fmt::format("{} (base {})", file.string(), base.chain);
  }
  mergeNumbers(result.numbers, doc["numbers"]);
  return result;
}

class NumberReader {
 public:
  NumberReader(const json& numbers, std::string chain) : numbers_(numbers), chain_(std::move(chain)) {}

  // `path` is a JSON pointer below /numbers; `unit` the only unit accepted for it.
  double get(const std::string& path, std::string_view unit) const {
    json::json_pointer ptr(path);
    std::string where = "/numbers" + path;
    if (!numbers_.contains(ptr)) {
      throw PerfError(
          fmt::format("{}: missing number {} (expected {{\"value\": ..., \"unit\": \"{}\", \"source\": ...}})", chain_,
                      where, unit));
    }
    const json& leaf = numbers_.at(ptr);
    if (!leaf.is_object() || !leaf.contains("value")) {
      throw PerfError(fmt::format("{}: {}: expected an object {{\"value\", \"unit\", \"source\"}}, got {}", chain_,
                                  where, leaf.type_name()));
    }
    const json& value = leaf["value"];
    if (!value.is_number()) {
      throw PerfError(
          fmt::format("{}: {}/value: expected a number, got {} {}", chain_, where, value.type_name(), value.dump()));
    }
    if (!leaf.contains("unit") || !leaf["unit"].is_string()) {
      throw PerfError(fmt::format("{}: {}/unit: missing (expected \"{}\")", chain_, where, unit));
    }
    if (std::string got = leaf["unit"].get<std::string>(); got != unit) {
      throw PerfError(fmt::format("{}: {}/unit: '{}' does not match the expected unit '{}'", chain_, where, got, unit));
    }
    if (!leaf.contains("source") || !leaf["source"].is_string() || leaf["source"].get<std::string>().empty()) {
      throw PerfError(fmt::format("{}: {}/source: missing (every number needs a source)", chain_, where));
    }
    double v = value.get<double>();
    if (!(v >= 0)) throw PerfError(fmt::format("{}: {}/value: {} is negative", chain_, where, v));
    return v;
  }

 private:
  const json& numbers_;
  std::string chain_;
};

constexpr double kKiB = 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGBs = 1e9;
constexpr double kUs = 1e-6;

}  // namespace

ArchSpec loadArchSpec(const std::filesystem::path& file, const ReadTextFn& read) {
  std::set<std::string> seen;
  Loaded loaded = loadChain(file, read, seen);
  NumberReader n(loaded.numbers, loaded.chain);

  ArchSpec s;
  s.name = loaded.name;
  s.aicCores = static_cast<int>(n.get("/cores/aic", "count"));
  s.aivCores = static_cast<int>(n.get("/cores/aiv", "count"));
  s.clockHz = n.get("/clock/frequency", "MHz") * 1e6;

  s.ubBytes = n.get("/buffers/ub", "KiB") * kKiB;
  s.l1Bytes = n.get("/buffers/l1", "KiB") * kKiB;
  s.l0aBytes = n.get("/buffers/l0a", "KiB") * kKiB;
  s.l0bBytes = n.get("/buffers/l0b", "KiB") * kKiB;
  s.l0cBytes = n.get("/buffers/l0c", "KiB") * kKiB;
  s.ubAlign = n.get("/alignment/ub", "B");
  s.l0Align = n.get("/alignment/l0", "B");
  s.l0cAlign = n.get("/alignment/l0c", "B");
  s.gmBurstAlign = n.get("/alignment/gm_burst", "B");

  s.mte2GmUbBw = n.get("/dma/mte2_gm_ub_bandwidth", "B/cycle");
  s.mte2GmL1Bw = n.get("/dma/mte2_gm_l1_bandwidth", "B/cycle");
  s.mte3UbGmBw = n.get("/dma/mte3_ub_gm_bandwidth", "B/cycle");
  s.mte1L0aBw = n.get("/dma/mte1_l0a_bandwidth", "B/cycle");
  s.mte1L0bBw = n.get("/dma/mte1_l0b_bandwidth", "B/cycle");
  s.fixBw = n.get("/dma/fix_bandwidth", "B/cycle");
  s.mte2Startup = n.get("/dma/mte2_startup", "cycle");
  s.mte3Startup = n.get("/dma/mte3_startup", "cycle");
  s.mte1Startup = n.get("/dma/mte1_startup", "cycle");
  s.fixStartup = n.get("/dma/fix_startup", "cycle");
  s.unalignedBurstFactor = n.get("/dma/unaligned_burst_factor", "ratio");

  s.hbmPeakBw = n.get("/memory/hbm_peak_bandwidth", "GB/s") * kGBs;
  s.hbmStreamBw = n.get("/memory/hbm_stream_bandwidth", "GB/s") * kGBs;
  s.l2Bytes = n.get("/memory/l2_size", "MiB") * kMiB;
  s.l2Bw = n.get("/memory/l2_bandwidth", "GB/s") * kGBs;
  s.l2LineBytes = n.get("/memory/l2_line", "B");
  s.l2AllocateReadFactor = n.get("/memory/l2_allocate_read_factor", "ratio");

  s.cubeMacPerCycleF16 = n.get("/cube/mac_per_cycle_fp16", "MAC/cycle");
  s.cubeInt8Factor = n.get("/cube/int8_rate_factor", "ratio");
  s.cubeF32Factor = n.get("/cube/fp32_rate_factor", "ratio");
  s.mmadIssueCycles = n.get("/cube/mmad_issue", "cycle");

  s.vectorRepeatBytes = n.get("/vector/repeat_bytes", "B");
  s.vectorInstrFixedCycles = n.get("/vector/instruction_fixed_cost", "cycle");
  VectorCosts& c = s.vectorPeak;
  c.cast = n.get("/vector/cost/cast", "cycle/repeat");
  c.unary = n.get("/vector/cost/unary", "cycle/repeat");
  c.binary = n.get("/vector/cost/binary", "cycle/repeat");
  c.expF32 = n.get("/vector/cost/exp_fp32", "cycle/repeat");
  c.expF16 = n.get("/vector/cost/exp_fp16", "cycle/repeat");
  c.sqrtF32 = n.get("/vector/cost/sqrt_fp32", "cycle/repeat");
  c.sqrtF16 = n.get("/vector/cost/sqrt_fp16", "cycle/repeat");
  c.divF32 = n.get("/vector/cost/div_fp32", "cycle/repeat");
  c.divF16 = n.get("/vector/cost/div_fp16", "cycle/repeat");
  c.reduce = n.get("/vector/cost/reduce", "cycle/repeat");
  c.gather = n.get("/vector/cost/gather", "cycle/repeat");
  c.sort = n.get("/vector/cost/sort", "cycle/repeat");
  s.binaryAsBenchmarked = n.get("/vector/binary_as_benchmarked", "cycle/repeat");

  s.scalarIssueCycles = n.get("/scalar/issue", "cycle");
  s.scalarUbAccessCycles = n.get("/scalar/ub_access", "cycle");
  s.setFlagCycles = n.get("/sync/set_flag", "cycle");
  s.waitFlagCycles = n.get("/sync/wait_flag", "cycle");
  s.pipeBarrierCycles = n.get("/sync/pipe_barrier", "cycle");
  s.kernelDeviceFloorS = n.get("/launch/kernel_device_floor", "us") * kUs;
  s.hostDispatchS = n.get("/launch/host_dispatch", "us") * kUs;
  s.coreDispatchIntervalS = n.get("/launch/core_dispatch_interval", "ns") * 1e-9;

  s.hapMte2Bw = n.get("/limit/hap_mte2_bandwidth", "GB/s") * kGBs;
  s.hapMte3Bw = n.get("/limit/hap_mte3_bandwidth", "GB/s") * kGBs;
  s.limitFloorS = n.get("/limit/floor", "us") * kUs;
  s.hapVectorRate = n.get("/limit/hap_vector_rate", "Gop/s") * 1e9;

  s.eagerKernelFloorS = n.get("/eager/kernel_floor", "us") * kUs;
  s.eagerGmBw = n.get("/eager/gm_bandwidth", "GB/s") * kGBs;
  s.eagerCubeKernelFloorS = n.get("/eager/cube_kernel_floor", "us") * kUs;
  s.eagerTransposeFactor = n.get("/eager/transpose_bandwidth_factor", "ratio");
  s.eagerOverlapLoss = n.get("/eager/overlap_loss", "ratio");
  s.eagerCubeEfficiency = n.get("/eager/cube_efficiency", "ratio");

  if (s.aicCores < 1 || s.aivCores < 1 || s.clockHz <= 0 || s.hapMte2Bw <= 0 || s.hapMte3Bw <= 0 ||
      s.hapVectorRate <= 0 || s.eagerGmBw <= 0) {
    throw PerfError(fmt::format("{}: core counts, clock and bandwidths must be positive", loaded.chain));
  }
  return s;
}

ArchSpec loadArchByName(std::string_view name, const std::filesystem::path& dir, const ReadTextFn& read) {
  std::filesystem::path file = dir / (std::string(name) + ".json");
  if (!read(file)) {
    throw PerfError(fmt::format("unknown architecture '{}': no spec file {}", name, file.string()));
  }
  return loadArchSpec(file, read);
}

}  // namespace tilecraft::perf
