#include "harness/shard.h"

#include <algorithm>
#include <charconv>
#include <numeric>

#include <fmt/format.h>

namespace tilecraft::harness {
namespace {

// A non-negative decimal without sign, spaces or leading '+'; nullopt otherwise or on overflow.
std::optional<int> parseCount(std::string_view text) {
  if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<Shard> parseShard(std::string_view text, std::string* error) {
  size_t slash = text.find('/');
  std::optional<int> index, count;
  if (slash != std::string_view::npos) {
    index = parseCount(text.substr(0, slash));
    count = parseCount(text.substr(slash + 1));
  }
  if (!index || !count) {
    *error = fmt::format("--shard: expected i/N with 0 <= i < N (e.g. 0/4), got '{}'", text);
    return std::nullopt;
  }
  if (*count < 1) {
    *error = fmt::format("--shard: N must be at least 1, got '{}'", text);
    return std::nullopt;
  }
  if (*index >= *count) {
    *error = fmt::format("--shard: i must be below N (0 to {}), got '{}'", *count - 1, text);
    return std::nullopt;
  }
  return Shard{*index, *count};
}

std::vector<size_t> shardItems(const std::vector<std::string>& keys, Shard shard) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  // Block i is [i*M/N, (i+1)*M/N): sizes floor or ceil of M/N, the blocks tiling 0..M exactly.
  size_t m = keys.size(), n = static_cast<size_t>(shard.count), i = static_cast<size_t>(shard.index);
  size_t begin = i * m / n, end = (i + 1) * m / n;
  return {order.begin() + static_cast<std::ptrdiff_t>(begin), order.begin() + static_cast<std::ptrdiff_t>(end)};
}

}  // namespace tilecraft::harness
