// Strict reading of the numbers a user writes (flags, NAME=VALUE pairs, file fields): the whole text or nothing,
// and never a silent wrap, clamp or partial read (std::strtoll saturates, std::stoll throws, std::atoi wraps).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilecraft::support {

/// A decimal integer (optional sign, digits only) that fits int64; nullopt otherwise ("12x", "1e3", 2^63).
std::optional<int64_t> parseInt64(std::string_view text);

/// A finite decimal or scientific number ("0.5", "-1e-3"); nullopt for "inf", "nan", overflow ("1e999") or junk.
std::optional<double> parseFiniteDouble(std::string_view text);

/// The largest value a seconds flag (--timeout) takes: one day.
inline constexpr double kMaxSeconds = 86400;

/// Checks a seconds flag: a finite number in (0, kMaxSeconds], or 0 when `zeroMeansNone`. Returns "" when
/// `text` is fine (and sets `seconds`), else the message ("'inf' is not a number of seconds (...)").
std::string checkSeconds(std::string_view text, bool zeroMeansNone, double* seconds);

/// "NAME=VALUE" split at the first '='; nullopt when either side is empty.
std::optional<std::pair<std::string, std::string>> splitAssignment(std::string_view text);

/// `count` times `each` without overflow; nullopt when the product passes `limit`.
std::optional<uint64_t> checkedProduct(uint64_t count, uint64_t each, uint64_t limit);

}  // namespace tilecraft::support
