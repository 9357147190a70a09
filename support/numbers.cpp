#include "support/numbers.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdlib>

namespace tilecraft::support {

std::optional<int64_t> parseInt64(std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') {
    digits.remove_prefix(1);  // from_chars takes '-' only
    if (!digits.empty() && digits.front() == '-') return std::nullopt;
  }
  if (digits.empty() || digits.front() == '+') return std::nullopt;
  if (digits.front() == '-' && (digits.size() == 1 || digits[1] == '-' || digits[1] == '+')) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 10);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return value;
}

std::optional<double> parseFiniteDouble(std::string_view text) {
  if (text.empty() || text.front() == ' ' || text.front() == '\t') return std::nullopt;
  std::string copy(text);  // strtod needs a terminated string
  // Hexadecimal floats and "infinity"/"nan" spellings are refused: only what a person writes as a number.
  for (char c : copy) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) {
      return std::nullopt;
    }
  }
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  // strtod returns +-HUGE_VAL on overflow (caught above) and sets ERANGE on underflow too: 1e-999 reads as 0,
  // which is what the number means.
  return value;
}

std::string checkSeconds(std::string_view text, bool zeroMeansNone, double* seconds) {
  std::optional<double> value = parseFiniteDouble(text);
  std::string range =
      fmt::format("a finite number of seconds in (0, {:g}]{}", kMaxSeconds, zeroMeansNone ? ", or 0 for no limit" : "");
  if (!value) return fmt::format("'{}' is not {}", text, range);
  if (*value == 0 && zeroMeansNone) {
    *seconds = 0;
    return "";
  }
  if (*value <= 0 || *value > kMaxSeconds) return fmt::format("{} s is out of range: expected {}", text, range);
  *seconds = *value;
  return "";
}

std::optional<std::pair<std::string, std::string>> splitAssignment(std::string_view text) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size()) return std::nullopt;
  return std::make_pair(std::string(text.substr(0, eq)), std::string(text.substr(eq + 1)));
}

std::optional<uint64_t> checkedProduct(uint64_t count, uint64_t each, uint64_t limit) {
  if (each != 0 && count > limit / each) return std::nullopt;
  return count * each;
}

}  // namespace tilecraft::support
