#include "perf/trace.h"

#include <fmt/format.h>

#include <charconv>
#include <iterator>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perf/error.h"

namespace tilecraft::perf {

using nlohmann::json;

std::string_view tracePipeName(TracePipe p) {
  static const char* const names[] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"};
  return names[static_cast<int>(p)];
}

namespace {

template <typename E>
E lookup(const std::string& text, std::initializer_list<const char*> names, const char* what) {
  uint8_t i = 0;
  for (const char* n : names) {
    if (text == n) return static_cast<E>(i);
    ++i;
  }
  throw std::invalid_argument(fmt::format("unknown {} '{}'", what, text));
}

TracePipe parsePipe(const std::string& s) {
  return lookup<TracePipe>(s, {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX", "ALL"}, "pipe");
}
TraceClass parseClass(const std::string& s) {
  return lookup<TraceClass>(s,
                            {"scalar", "dma_in", "dma_out", "dma_local", "vector", "cube", "fixpipe", "set_flag",
                             "wait_flag", "barrier", "core_sync"},
                            "instruction class");
}
TraceSpace parseSpace(const std::string& s) {
  return lookup<TraceSpace>(s, {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "GM", "-"}, "memory");
}

class Interner {
 public:
  explicit Interner(std::vector<std::string>& names) : names_(names) {}
  uint32_t operator()(const std::string& s) {
    auto [it, inserted] = index_.try_emplace(s, static_cast<uint32_t>(names_.size()));
    if (inserted) names_.push_back(s);
    return it->second;
  }

 private:
  std::vector<std::string>& names_;
  std::map<std::string, uint32_t> index_;
};

// One value of a flat JSON object: an integer or a string without escapes (all the emulator writes on
// instruction lines). Instruction lines are most of a trace, so they skip the JSON DOM.
struct FlatValue {
  std::string_view key;
  bool isString = false;
  int64_t number = 0;
  std::string_view text;
};

// Scans {"k":v,...}; returns false if the line is not such an object (the caller then reports it via nlohmann).
bool scanFlat(std::string_view line, std::vector<FlatValue>& out) {
  out.clear();
  size_t i = 0;
  auto skipSpace = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\r')) ++i;
  };
  auto readString = [&](std::string_view& s) {
    if (i >= line.size() || line[i] != '"') return false;
    size_t start = ++i;
    while (i < line.size() && line[i] != '"') {
      if (line[i] == '\\') return false;
      ++i;
    }
    if (i >= line.size()) return false;
    s = line.substr(start, i - start);
    ++i;
    return true;
  };
  skipSpace();
  if (i >= line.size() || line[i++] != '{') return false;
  skipSpace();
  if (i < line.size() && line[i] == '}') return true;
  while (i < line.size()) {
    FlatValue v;
    skipSpace();
    if (!readString(v.key)) return false;
    skipSpace();
    if (i >= line.size() || line[i++] != ':') return false;
    skipSpace();
    if (i < line.size() && line[i] == '"') {
      v.isString = true;
      if (!readString(v.text)) return false;
    } else {
      const char* first = line.data() + i;
      const char* last = line.data() + line.size();
      auto [ptr, ec] = std::from_chars(first, last, v.number);
      if (ec != std::errc() || (ptr < last && *ptr == '.')) return false;
      i += static_cast<size_t>(ptr - first);
    }
    out.push_back(v);
    skipSpace();
    if (i < line.size() && line[i] == ',') {
      ++i;
      continue;
    }
    if (i < line.size() && line[i] == '}') {
      ++i;
      skipSpace();
      return i == line.size();
    }
    return false;
  }
  return false;
}

uint64_t u64(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < 0)
    throw std::invalid_argument(fmt::format("key '{}' is not a count", key));
  return v.get<uint64_t>();
}

int32_t crossFlagOf(int64_t v) {
  if (v < -1 || v > 15)
    throw std::invalid_argument(fmt::format("key 'xf' is {}, not a cross-core flag id (-1 to 15)", v));
  return static_cast<int32_t>(v);
}
uint32_t crossModeOf(int64_t v) {
  if (v < 0 || v > 2) throw std::invalid_argument(fmt::format("key 'xm' is {}, not a cross-core mode (0 to 2)", v));
  return static_cast<uint32_t>(v);
}

// An instruction line from its scanned keys; every key of the format must be present.
TraceInstr fromFlat(const std::vector<FlatValue>& values, Interner& intern) {
  TraceInstr in;
  unsigned seen = 0;
  auto count = [](const FlatValue& v) {
    if (v.isString || v.number < 0) throw std::invalid_argument(fmt::format("key '{}' is not a count", v.key));
    return static_cast<uint64_t>(v.number);
  };
  auto text = [](const FlatValue& v) {
    if (!v.isString) throw std::invalid_argument(fmt::format("key '{}' is not a string", v.key));
    return std::string(v.text);
  };
  // The first 20 keys are required; xf and xm (cross-core flags), the GM footprint (gb .. l2b) and the auto-sync
  // dependencies (aw, aw2) are newer and optional.
  static const char* const keys[] = {"i",  "p",  "c",   "n",   "f",  "l",  "dt",  "rep", "el",  "by", "bu",
                                     "bl", "ga", "src", "dst", "m",  "k",  "nn",  "ev",  "tok", "xf", "xm",
                                     "gb", "go", "gl",  "gs",  "gn", "gi", "l2b", "aw",  "aw2"};
  constexpr int kKeys = static_cast<int>(std::size(keys));
  for (const FlatValue& v : values) {
    int key = -1;
    for (int k = 0; k < kKeys; ++k) {
      if (v.key == keys[k]) {
        key = k;
        break;
      }
    }
    if (key < 0) continue;
    seen |= 1u << key;
    switch (key) {
      case 0: count(v); break;
      case 1: in.pipe = parsePipe(text(v)); break;
      case 2: in.cls = parseClass(text(v)); break;
      case 3: in.name = intern(text(v)); break;
      case 4: in.file = intern(text(v)); break;
      case 5: in.line = static_cast<int32_t>(v.number); break;
      case 6: in.dtypeBytes = static_cast<uint32_t>(count(v)); break;
      case 7: in.repeats = static_cast<uint32_t>(count(v)); break;
      case 8: in.elements = count(v); break;
      case 9: in.bytes = count(v); break;
      case 10: in.bursts = static_cast<uint32_t>(count(v)); break;
      case 11: in.burstBytes = static_cast<uint32_t>(count(v)); break;
      case 12: in.gmAlign = static_cast<uint32_t>(count(v)); break;
      case 13: in.src = parseSpace(text(v)); break;
      case 14: in.dst = parseSpace(text(v)); break;
      case 15: in.m = static_cast<uint32_t>(count(v)); break;
      case 16: in.k = static_cast<uint32_t>(count(v)); break;
      case 17: in.n = static_cast<uint32_t>(count(v)); break;
      case 18: break;  // the HardEvent: the token already pairs set and wait
      case 19: in.token = static_cast<uint32_t>(count(v)); break;
      case 20: in.crossFlag = crossFlagOf(v.isString ? -2 : v.number); break;
      case 21: in.crossMode = crossModeOf(static_cast<int64_t>(count(v))); break;
      case 22: in.gmBlock = static_cast<uint32_t>(count(v)); break;
      case 23: in.gmOffset = count(v); break;
      case 24: in.gmLen = count(v); break;
      case 25: in.gmStride = count(v); break;
      case 26: in.gmTouches = static_cast<uint32_t>(count(v)); break;
      case 27: in.gmIrregular = count(v) != 0; break;
      case 28: in.l2Bypass = count(v) != 0; break;
      case 29: in.after[0] = static_cast<uint32_t>(count(v)); break;
      case 30: in.after[1] = static_cast<uint32_t>(count(v)); break;
    }
  }
  for (int k = 0; k < 20; ++k) {
    if (!(seen & (1u << k))) throw std::invalid_argument(fmt::format("instruction lacks the key '{}'", keys[k]));
  }
  return in;
}

// An auto-sync dependency names an earlier instruction of the same core.
const TraceInstr& checkAfter(const TraceInstr& in, size_t position) {
  for (uint32_t a : in.after) {
    if (a > position) {
      throw std::invalid_argument(
          fmt::format("key 'aw' names instruction {}, not one before this one ({})", a - 1, position));
    }
  }
  return in;
}

}  // namespace

TraceFile parseTrace(std::string_view text, const std::string& fileName) {
  TraceFile trace;
  Interner intern(trace.names);
  int lineNo = 0;
  std::vector<FlatValue> flat;
  size_t remaining = 0;  // instructions still expected for the current core
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    if (line.empty() || line == "\r") continue;
    if (line.size() > 5 && line.substr(0, 5) == "{\"i\":" && scanFlat(line, flat)) {
      try {
        if (trace.launches.empty() || trace.launches.back().cores.empty() || remaining == 0) {
          throw std::invalid_argument("an instruction outside a core's block");
        }
        auto& instrs = trace.launches.back().cores.back().instrs;
        instrs.push_back(checkAfter(fromFlat(flat, intern), instrs.size()));
        --remaining;
        continue;
      } catch (const std::invalid_argument& e) {
        throw PerfError(fmt::format("{}:{}: {}", fileName, lineNo, e.what()));
      }
    }
    try {
      json j = json::parse(line);
      if (!j.is_object()) throw std::invalid_argument("not a JSON object");
      if (j.contains("launch")) {
        if (remaining != 0)
          throw std::invalid_argument(fmt::format("a launch starts while {} instructions are missing", remaining));
        TraceLaunch l;
        l.launch = j.at("launch").get<int>();
        l.kernel = j.at("kernel").get<std::string>();
        l.mode = j.at("mode").get<std::string>();
        l.blocks = j.at("blocks").get<int>();
        trace.launches.push_back(std::move(l));
      } else if (j.contains("core")) {
        if (trace.launches.empty()) throw std::invalid_argument("a core line before any launch line");
        if (remaining != 0)
          throw std::invalid_argument(fmt::format("a core starts while {} instructions are missing", remaining));
        TraceCore c;
        c.index = j.at("core").get<int>();
        c.aic = j.at("kind").get<std::string>() == "AIC";
        c.block = j.at("block").get<int>();
        c.sub = j.at("sub").get<int>();
        remaining = u64(j, "instrs");
        c.instrs.reserve(remaining);
        trace.launches.back().cores.push_back(std::move(c));
      } else if (j.contains("i")) {
        if (trace.launches.empty() || trace.launches.back().cores.empty() || remaining == 0) {
          throw std::invalid_argument("an instruction outside a core's block");
        }
        TraceInstr in;
        in.pipe = parsePipe(j.at("p").get<std::string>());
        in.cls = parseClass(j.at("c").get<std::string>());
        in.name = intern(j.at("n").get<std::string>());
        in.file = intern(j.at("f").get<std::string>());
        in.line = j.at("l").get<int32_t>();
        in.dtypeBytes = static_cast<uint32_t>(u64(j, "dt"));
        in.repeats = static_cast<uint32_t>(u64(j, "rep"));
        in.elements = u64(j, "el");
        in.bytes = u64(j, "by");
        in.bursts = static_cast<uint32_t>(u64(j, "bu"));
        in.burstBytes = static_cast<uint32_t>(u64(j, "bl"));
        in.gmAlign = static_cast<uint32_t>(u64(j, "ga"));
        in.src = parseSpace(j.at("src").get<std::string>());
        in.dst = parseSpace(j.at("dst").get<std::string>());
        in.m = static_cast<uint32_t>(u64(j, "m"));
        in.k = static_cast<uint32_t>(u64(j, "k"));
        in.n = static_cast<uint32_t>(u64(j, "nn"));
        in.token = static_cast<uint32_t>(u64(j, "tok"));
        if (j.contains("xf")) {
          if (!j.at("xf").is_number_integer()) throw std::invalid_argument("key 'xf' is not an integer");
          in.crossFlag = crossFlagOf(j.at("xf").get<int64_t>());
        }
        if (j.contains("xm")) in.crossMode = crossModeOf(static_cast<int64_t>(u64(j, "xm")));
        auto optional = [&](const char* key) { return j.contains(key) ? u64(j, key) : 0; };
        in.gmBlock = static_cast<uint32_t>(optional("gb"));
        in.gmOffset = optional("go");
        in.gmLen = optional("gl");
        in.gmStride = optional("gs");
        in.gmTouches = static_cast<uint32_t>(optional("gn"));
        in.gmIrregular = optional("gi") != 0;
        in.l2Bypass = optional("l2b") != 0;
        in.after[0] = static_cast<uint32_t>(optional("aw"));
        in.after[1] = static_cast<uint32_t>(optional("aw2"));
        auto& instrs = trace.launches.back().cores.back().instrs;
        instrs.push_back(checkAfter(in, instrs.size()));
        --remaining;
      } else {
        throw std::invalid_argument("neither a launch, a core nor an instruction");
      }
    } catch (const json::exception& e) {
      throw PerfError(fmt::format("{}:{}: {}", fileName, lineNo, e.what()));
    } catch (const std::invalid_argument& e) {
      throw PerfError(fmt::format("{}:{}: {}", fileName, lineNo, e.what()));
    }
  }
  if (remaining != 0)
    throw PerfError(fmt::format("{}:{}: the trace ends {} instructions short", fileName, lineNo, remaining));
  return trace;
}

TraceFile loadTrace(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw PerfError(fmt::format("{}: cannot open the trace", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parseTrace(text.str(), path);
}

}  // namespace tilecraft::perf
