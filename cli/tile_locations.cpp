#include "cli/tile_locations.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>

namespace tilecraft::cli {
namespace {

struct Located {
  size_t line = 0;   // in the generated file
  std::string kind;  // "error" or "note"
  std::string text;  // after "KIND: "
};

// "PATH:N: KIND: TEXT" where PATH is the generated file (its name, with or without a folder).
std::optional<Located> parse(const std::string& message, const std::string& generatedName) {
  for (const char* kind : {"error", "note"}) {
    std::string marker = fmt::format(": {}: ", kind);
    size_t at = message.find(marker);
    if (at == std::string::npos || at == 0) continue;
    size_t colon = message.rfind(':', at - 1);
    if (colon == std::string::npos) continue;
    std::string path = message.substr(0, colon);
    bool named = path == generatedName ||
                 (path.size() > generatedName.size() &&
                  path.compare(path.size() - generatedName.size(), generatedName.size(), generatedName) == 0 &&
                  path[path.size() - generatedName.size() - 1] == '/');
    if (!named) continue;
    Located found;
    const char* first = message.data() + colon + 1;
    const char* last = message.data() + at;
    auto [end, ec] = std::from_chars(first, last, found.line);
    if (ec != std::errc() || end != last || first == last) continue;
    found.kind = kind;
    found.text = message.substr(at + marker.size());
    return found;
  }
  return std::nullopt;
}

uint32_t tileLineOf(const TileLocations& where, size_t generatedLine) {
  if (where.lines == nullptr || generatedLine == 0 || generatedLine > where.lines->size()) return 0;
  return (*where.lines)[generatedLine - 1];
}

}  // namespace

std::vector<std::string> pointAtTile(const std::vector<std::string>& lines, const TileLocations& where) {
  std::vector<std::string> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::optional<Located> at = parse(lines[i], where.generatedName);
    if (!at) {
      out.push_back(lines[i]);
      continue;
    }
    std::string generated = fmt::format("{}:{}", where.shownName, at->line);
    uint32_t tileLine = tileLineOf(where, at->line);
    if (tileLine == 0) {
      out.push_back(fmt::format("{}: {}: {}", generated, at->kind, at->text));
    } else if (i == 0) {
      out.push_back(fmt::format("{}:{}: {}: {}", where.tileName, tileLine, at->kind, at->text));
      out.push_back(fmt::format("note: generated code: {}", generated));
    } else {
      out.push_back(
          fmt::format("{}:{}: {}: {} (generated code: {})", where.tileName, tileLine, at->kind, at->text, generated));
    }
  }
  return out;
}

}  // namespace tilecraft::cli
