// The fixed part of every CPU-debug launcher: argument parsing, deterministic input generation, .bin/.npy input
// files, output files and the printed summary. Emitted verbatim so a generated kernel is one self-contained file.
#include "codegen/launcher_runtime.h"

namespace tilecraft::codegen::detail {

// The runtime below is text emitted verbatim, laid out as the generated file shows it.
// clang-format off
const char* launcherRuntime() {
  return R"CPP(// ---- launcher runtime: the same in every kernel tilecraft generates ----
namespace tclaunch {

struct Options {
  std::vector<std::pair<std::string, std::string>> values;  // NAME=VALUE (dims and attributes)
  std::vector<std::pair<std::string, std::string>> files;   // --in NAME=FILE (.bin raw or .npy)
  std::string outDir;                                       // --out-dir DIR: every output as DIR/NAME.npy
  uint64_t seed = 1;                                        // --seed S: generated inputs
  int64_t show = 8;                                         // --show K: values printed per output
  bool hasRange = false;                                    // --range LO,HI: generated inputs in [LO, HI)
  double rangeLo = 0, rangeHi = 0;
};

inline bool Parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--seed" || a == "--in" || a == "--out-dir" || a == "--show" || a == "--range") {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", a.c_str());
        return false;
      }
      std::string v = argv[++i];
      if (a == "--seed") {
        o.seed = std::strtoull(v.c_str(), nullptr, 10);
      } else if (a == "--show") {
        o.show = std::strtoll(v.c_str(), nullptr, 10);
      } else if (a == "--range") {
        char* end = nullptr;
        o.rangeLo = std::strtod(v.c_str(), &end);
        bool ok = *end == ',';
        if (ok) o.rangeHi = std::strtod(end + 1, &end);
        if (!ok || *end != '\0' || !(o.rangeLo < o.rangeHi)) {
          std::fprintf(stderr, "error: --range takes LO,HI with LO < HI, got '%s'\n", v.c_str());
          return false;
        }
        o.hasRange = true;
      } else if (a == "--out-dir") {
        o.outDir = v;
      } else {
        size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0) {
          std::fprintf(stderr, "error: --in takes NAME=FILE, got '%s'\n", v.c_str());
          return false;
        }
        o.files.push_back({v.substr(0, eq), v.substr(eq + 1)});
      }
      continue;
    }
    size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "error: unexpected argument '%s' (expected NAME=VALUE, --seed S, --in NAME=FILE, "
                   "--out-dir DIR or --show K)\n", a.c_str());
      return false;
    }
    o.values.push_back({a.substr(0, eq), a.substr(eq + 1)});
  }
  return true;
}

inline const std::string* Find(const Options& o, const char* name) {
  for (const auto& v : o.values) {
    if (v.first == name) return &v.second;
  }
  return nullptr;
}

// Dims are sizes (never negative); integer attributes may be negative (`signedValue`).
inline bool GetInt(const Options& o, const char* name, int64_t* out, bool required, const char* what,
                   bool signedValue = false) {
  const std::string* v = Find(o, name);
  if (!v) {
    if (required) std::fprintf(stderr, "error: missing %s=<value> (%s)\n", name, what);
    return !required;
  }
  char* end = nullptr;
  long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0' || (x < 0 && !signedValue)) {
    std::fprintf(stderr, "error: %s=%s is not a%s integer\n", name, v->c_str(), signedValue ? "n" : " non-negative");
    return false;
  }
  *out = x;
  return true;
}

inline bool GetFloat(const Options& o, const char* name, float* out, bool required) {
  const std::string* v = Find(o, name);
  if (!v) {
    if (required) std::fprintf(stderr, "error: missing %s=<value> (an attribute without a default)\n", name);
    return !required;
  }
  char* end = nullptr;
  float x = std::strtof(v->c_str(), &end);
  if (v->empty() || *end != '\0') {
    std::fprintf(stderr, "error: %s=%s is not a number\n", name, v->c_str());
    return false;
  }
  *out = x;
  return true;
}

inline bool CheckNames(const Options& o, const std::vector<std::string>& values,
                       const std::vector<std::string>& tensors) {
  bool ok = true;
  for (const auto& v : o.values) {
    bool known = false;
    for (const std::string& n : values) known = known || n == v.first;
    if (!known) {
      std::fprintf(stderr, "error: unknown value '%s'\n", v.first.c_str());
      ok = false;
    }
  }
  for (const auto& f : o.files) {
    bool known = false;
    for (const std::string& n : tensors) known = known || n == f.first;
    if (!known) {
      std::fprintf(stderr, "error: --in names '%s', which is not an input tensor\n", f.first.c_str());
      ok = false;
    }
  }
  return ok;
}

inline size_t AllocBytes(int64_t count, size_t elem) {
  size_t bytes = static_cast<size_t>(count) * elem;
  return bytes < 32 ? 32 : bytes;
}

// SplitMix64: the same numbers on every platform. Input k (its position among the kernel's parameters) uses
// stream Next(seed) ^ (k + 1) * 2^64/phi: the values `tilecraft interp --seed S` generates for the same kernel.
inline uint64_t Next(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Floats uniform in [-1, 1) rounded to T; signed integers uniform in [-8, 8], u8 in [0, 8]. With --range LO,HI:
// floats in [LO, HI), integers in [ceil(LO), floor(HI)] (clamped to u8's 0 for unsigned).
template <typename T>
inline void Generate(T* data, int64_t count, uint64_t seed, uint64_t index, int kind, const Options* o = nullptr) {
  uint64_t base = seed;
  uint64_t s = Next(base) ^ (index + 1) * 0x9E3779B97F4A7C15ull;
  int64_t lo = kind == 2 ? 0 : -8, span = kind == 2 ? 9 : 17;
  double flo = -1.0, fspan = 2.0;
  if (o != nullptr && o->hasRange) {
    flo = o->rangeLo;
    fspan = o->rangeHi - o->rangeLo;
    int64_t ilo = static_cast<int64_t>(std::ceil(o->rangeLo)), ihi = static_cast<int64_t>(std::floor(o->rangeHi));
    if (kind == 2 && ilo < 0) ilo = 0;
    lo = ilo;
    span = ihi >= ilo ? ihi - ilo + 1 : 1;
  }
  for (int64_t i = 0; i < count; ++i) {
    if (kind == 0) {
      double u = static_cast<double>(Next(s) >> 11) * (1.0 / 9007199254740992.0);
      data[i] = static_cast<T>(flo + fspan * u);
    } else {
      data[i] = static_cast<T>(static_cast<double>(lo + static_cast<int64_t>(Next(s) % static_cast<uint64_t>(span))));
    }
  }
}

inline bool ReadFile(const std::string& path, void* data, size_t bytes, const char* descr) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "error: cannot open '%s'\n", path.c_str());
    return false;
  }
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t offset = 0;
  if (content.size() >= 10 && content.compare(0, 6, "\x93NUMPY") == 0) {
    size_t headerLen = content[6] == 1 ? static_cast<unsigned char>(content[8]) |
                                             static_cast<size_t>(static_cast<unsigned char>(content[9])) << 8
                                       : static_cast<unsigned char>(content[8]) |
                                             static_cast<size_t>(static_cast<unsigned char>(content[9])) << 8 |
                                             static_cast<size_t>(static_cast<unsigned char>(content[10])) << 16;
    offset = (content[6] == 1 ? 10 : 12) + headerLen;
    std::string header = content.substr(0, offset);
    if (header.find(descr) == std::string::npos || header.find("'fortran_order': True") != std::string::npos) {
      std::fprintf(stderr, "error: '%s' is not a C-order %s array\n", path.c_str(), descr);
      return false;
    }
  }
  if (content.size() - offset != bytes) {
    std::fprintf(stderr, "error: '%s' holds %zu bytes of data; the tensor needs %zu\n", path.c_str(),
                 content.size() - offset, bytes);
    return false;
  }
  std::memcpy(data, content.data() + offset, bytes);
  return true;
}

template <typename T>
inline bool Input(T* data, int64_t count, const char* name, const char* descr, int kind, const Options& o,
                  uint64_t index) {
  for (const auto& f : o.files) {
    if (f.first == name) return ReadFile(f.second, data, static_cast<size_t>(count) * sizeof(T), descr);
  }
  Generate(data, count, o.seed, index, kind, &o);
  return true;
}

// Prints a summary line and, with --out-dir, writes DIR/NAME.npy (numpy format 1.0, C order).
template <typename T>
inline bool Output(const T* data, const char* name, const char* dtype, const char* descr,
                   const std::vector<int64_t>& shape, const Options& o) {
  int64_t count = 1;
  std::string dims, tuple;
  for (int64_t d : shape) {
    count *= d;
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    tuple += std::to_string(d) + ", ";
  }
  double sum = 0;
  for (int64_t i = 0; i < count; ++i) sum += static_cast<double>(static_cast<float>(data[i]));
  std::printf("%s %s[%s]: sum %.6g, first", name, dtype, dims.c_str(), sum);
  for (int64_t i = 0; i < count && i < o.show; ++i) std::printf(" %.6g", static_cast<double>(static_cast<float>(data[i])));
  std::printf("\n");
  if (o.outDir.empty()) return true;
  std::string header = std::string("{'descr': ") + descr + ", 'fortran_order': False, 'shape': (" + tuple + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string path = o.outDir + "/" + name + ".npy";
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * static_cast<int64_t>(sizeof(T))));
  if (!out) {
    std::fprintf(stderr, "error: cannot write '%s'\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace tclaunch
)CPP";
}
// clang-format on

}  // namespace tilecraft::codegen::detail
