#include "cli/flags.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "support/files.h"
#include "support/numbers.h"

namespace tilecraft::cli {

CLI::Option* checkSeconds(CLI::Option* option, bool zeroMeansNone) {
  return option->check(CLI::Validator(
      [zeroMeansNone](std::string& value) {
        double seconds = 0;
        return support::checkSeconds(value, zeroMeansNone, &seconds);
      },
      zeroMeansNone ? "SECONDS (0: none)" : "SECONDS"));
}

CLI::Option* checkCount(CLI::Option* option, int64_t lo, int64_t hi, const char* unit) {
  std::string what = unit;
  return option->check(CLI::Validator(
      [lo, hi, what](std::string& value) -> std::string {
        std::optional<int64_t> n = support::parseInt64(value);
        if (!n) return fmt::format("'{}' is not a whole number of {}", value, what);
        if (*n < lo || *n > hi) return fmt::format("{} {}: expected {} to {}", value, what, lo, hi);
        return "";
      },
      fmt::format("INT in [{}, {}]", lo, hi)));
}

CLI::Option* checkSeed(CLI::Option* option) {
  return option->check(CLI::Validator(
      [](std::string& value) -> std::string {
        uint64_t seed = 0;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed, 10);
        if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
          return fmt::format("'{}' is not a seed: a whole number from 0 to {}", value, UINT64_MAX);
        }
        return "";
      },
      "UINT64"));
}

bool prepareOutputFolder(const char* flag, const std::string& path, std::ostream& err) {
  if (path.empty()) return true;
  std::string error;
  if (support::prepareOutputFolder(path, &error)) return true;
  err << fmt::format("error: {} {}: {}\n", flag, path, error);
  return false;
}

std::string defaultCacheDir() {
  namespace fs = std::filesystem;
  if (const char* c = std::getenv("TILECRAFT_CACHE"); c != nullptr && *c != '\0') return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') return fs::path(x) / "tilecraft";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') return fs::path(h) / ".cache" / "tilecraft";
  return ".tilecraft-cache";
}

std::string emulatorIncludeDir() {
  const char* include = std::getenv("TILECRAFT_EMU_INCLUDE");
  return include != nullptr && *include != '\0' ? include : TILECRAFT_EMU_INCLUDE_DIR;
}

}  // namespace tilecraft::cli
