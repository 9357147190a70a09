#include "fuzz/minimise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <vector>

namespace tilecraft::fuzz {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

size_t indentOf(const std::string& line) { return line.find_first_not_of(' '); }

// Line i alone, or, for a block header (a line ending in ':'), the header and every deeper line after it.
std::set<size_t> unitAt(const std::vector<std::string>& lines, size_t i) {
  std::set<size_t> unit{i};
  const std::string& line = lines[i];
  if (line.empty() || line.back() != ':') return unit;
  size_t depth = indentOf(line);
  for (size_t j = i + 1; j < lines.size(); ++j) {
    if (!lines[j].empty() && indentOf(lines[j]) <= depth) break;
    unit.insert(j);
  }
  return unit;
}

std::string without(const std::vector<std::string>& lines, const std::set<size_t>& drop) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!drop.count(i)) out += lines[i] + "\n";
  }
  return out;
}

// The candidate under its own kernel name (the batch holds them all), with the found program's shapes,
// attributes, ranges and input seed.
FuzzProgram candidate(const FuzzProgram& base, const std::string& source, const std::string& kernel) {
  FuzzProgram p = base;
  p.kernel = kernel;
  p.source = source;
  std::string from = "def " + base.kernel + "(";
  size_t at = p.source.find(from);
  if (at != std::string::npos) p.source.replace(at, from.size(), "def " + kernel + "(");
  return p;
}

const char* kindFolder(Stage stage) {
  switch (stage) {
    case Stage::Compare: return "wrong-values";
    case Stage::Run: return "emulator-error";
    case Stage::Compile:
    case Stage::Build: return "compile-error";
    case Stage::Reference: return "generator-bug";
  }
  return "";
}

}  // namespace

std::string withoutLocation(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  size_t error = line.find("error: ");
  return error == std::string::npos ? line : line.substr(error);
}

std::string failureSignature(const Failure& failure) {
  // The location (a work folder's path, a line that moves as lines go) is not part of how it fails.
  std::string line =
      withoutLocation(failure.stage == Stage::Run && !failure.detail.empty() ? failure.detail : failure.message);
  if (failure.stage == Stage::Compare) line = line.substr(0, line.find(':'));  // which output
  std::string out = std::string(stageName(failure.stage)) + ": ";
  for (size_t i = 0; i < line.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(line[i]))) {
      if (out.back() != '#') out += '#';
    } else {
      out += line[i];
    }
  }
  return out;
}

Minimised minimiseFailure(const FuzzProgram& program, const Failure& failure, const EmulateOptions& options,
                          runner::BuildRunService& service, int maxRounds) {
  Minimised best{program, failure};
  const std::string want = failureSignature(failure);
  std::vector<std::string> lines = splitLines(program.source);
  best.linesBefore = static_cast<int64_t>(lines.size());
  EmulateOptions batch = options;
  batch.batchSize = 1000;  // a round is one build
  int serial = 0;
  // Runs the candidates (each a set of lines to drop); returns the index of the one that drops the most lines
  // and still fails the same way, or -1.
  auto tryDrops = [&](const std::vector<std::set<size_t>>& drops) -> int {
    std::vector<FuzzProgram> programs;
    for (const auto& drop : drops) {
      programs.push_back(candidate(program, without(lines, drop), fmt::format("{}_m{}", program.kernel, serial++)));
    }
    best.candidates += static_cast<int>(programs.size());
    EmulateSummary summary = emulatePrograms(programs, batch, service);
    int chosen = -1;
    for (const Failure& f : summary.failures) {
      if (failureSignature(f) != want) continue;
      if (chosen < 0 || drops[f.index].size() > drops[static_cast<size_t>(chosen)].size()) {
        chosen = static_cast<int>(f.index);
        best.failure = f;
      }
    }
    return chosen;
  };
  for (int round = 0; round < maxRounds; ++round) {
    std::vector<std::set<size_t>> singles;
    for (size_t i = 0; i < lines.size(); ++i) singles.push_back(unitAt(lines, i));
    // First the units one at a time; then all that reproduced together, and halves of them.
    std::vector<std::set<size_t>> reproducing;
    {
      std::vector<FuzzProgram> programs;
      for (const auto& drop : singles) {
        programs.push_back(candidate(program, without(lines, drop), fmt::format("{}_m{}", program.kernel, serial++)));
      }
      best.candidates += static_cast<int>(programs.size());
      EmulateSummary summary = emulatePrograms(programs, batch, service);
      for (const Failure& f : summary.failures) {
        if (failureSignature(f) == want) reproducing.push_back(singles[f.index]);
      }
    }
    if (reproducing.empty()) break;
    std::vector<std::set<size_t>> unions;
    for (size_t n = reproducing.size(); n >= 2; n /= 2) {
      std::set<size_t> u;
      for (size_t k = 0; k < n; ++k) u.insert(reproducing[k].begin(), reproducing[k].end());
      unions.push_back(u);
    }
    std::set<size_t> drop = reproducing.front();
    if (!unions.empty()) {
      int chosen = tryDrops(unions);
      if (chosen >= 0) drop = unions[static_cast<size_t>(chosen)];
    }
    if (drop == reproducing.front()) {
      // The largest single unit that reproduced.
      for (const auto& r : reproducing) {
        if (r.size() > drop.size()) drop = r;
      }
    }
    std::vector<std::string> kept;
    for (size_t i = 0; i < lines.size(); ++i) {
      if (!drop.count(i)) kept.push_back(lines[i]);
    }
    lines = kept;
    ++best.rounds;
  }
  best.program = candidate(program, without(lines, {}), program.kernel);
  best.program.source = without(lines, {});
  best.linesAfter = static_cast<int64_t>(lines.size());
  return best;
}

std::string runCommand(const FuzzProgram& program, const std::string& path) {
  std::string cmd = "tilecraft run " + path;
  for (const auto& [name, value] : program.dims) cmd += fmt::format(" --shape {}={}", name, value);
  for (const auto& [name, value] : program.attrs) cmd += fmt::format(" --attr {}={}", name, value);
  for (const auto& [name, range] : program.ranges) cmd += fmt::format(" --range {}={},{}", name, range.lo, range.hi);
  return cmd + fmt::format(" --seed {}", program.seed);
}

std::string saveToCorpus(const Minimised& minimised, const FuzzProgram& found, const std::string& dir, Mix mix) {
  fs::path folder = fs::path(dir) / kindFolder(minimised.failure.stage);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create '{}': {}", folder.string(), ec.message()));
  std::string name = found.kernel + ".tile";
  std::string header = fmt::format(
      "# {} ({}), found by {}\n# {}: {}\n# minimised from {} to {} lines in {} rounds ({} candidates); run: {}\n",
      failureKind(minimised.failure.stage), label(found), emulateReplayCommand(found.seed, "", mix),
      stageName(minimised.failure.stage), withoutLocation(minimised.failure.message), minimised.linesBefore,
      minimised.linesAfter, minimised.rounds, minimised.candidates, runCommand(minimised.program, name));
  auto write = [&](const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error(fmt::format("cannot write '{}'", path.string()));
  };
  // The kernel keeps its name: the header comment lines go before the program's own.
  write(folder / name, header + minimised.program.source);
  write(folder / (found.kernel + ".found.tile"), found.source);
  return (folder / name).string();
}

}  // namespace tilecraft::fuzz
