#include "fuzz/minimise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
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

// A change to a program's lines: line -> its replacement, or nullopt to delete it.
using Edit = std::map<size_t, std::optional<std::string>>;

int weight(const Edit& edit) {
  int w = 0;
  for (const auto& [line, text] : edit) w += text ? 1 : 2;
  return w;
}

std::vector<std::string> applied(const std::vector<std::string>& lines, const Edit& edit) {
  std::vector<std::string> out;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto it = edit.find(i);
    if (it == edit.end()) {
      out.push_back(lines[i]);
    } else if (it->second) {
      out.push_back(*it->second);
    }
  }
  return out;
}

std::string render(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` with every whole-word `from` replaced by `to`.
std::string replaceWord(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool starts = text.compare(i, from.size(), from) == 0 && (i == 0 || !isWordChar(text[i - 1])) &&
                  (i + from.size() == text.size() || !isWordChar(text[i + from.size()]));
    if (starts) {
      out += to;
      i += from.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

// The names an expression reads: identifiers not called and not keywords of a call (`axis=`).
std::vector<std::string> operandNames(const std::string& expr) {
  std::vector<std::string> names;
  for (size_t i = 0; i < expr.size();) {
    if (!std::isalpha(static_cast<unsigned char>(expr[i])) && expr[i] != '_') {
      while (i < expr.size() && isWordChar(expr[i])) ++i;  // skips numbers whole, `1e-5` included
      if (i < expr.size() && !isWordChar(expr[i])) ++i;
      continue;
    }
    size_t end = i;
    while (end < expr.size() && isWordChar(expr[end])) ++end;
    std::string name = expr.substr(i, end - i);
    size_t next = expr.find_first_not_of(' ', end);
    bool called = next != std::string::npos && expr[next] == '(';
    bool keyword = next != std::string::npos && expr[next] == '=' && (next + 1 >= expr.size() || expr[next + 1] != '=');
    if (!called && !keyword && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    i = end;
  }
  return names;
}

// Every single edit of a round: each unit deleted, and each assignment `x = f(a, b)` replaced by `x = a`,
// `x = b` (which lets the lines that only fed it go in the next round).
std::vector<Edit> singleEdits(const std::vector<std::string>& lines) {
  std::vector<Edit> edits;
  for (size_t i = 0; i < lines.size(); ++i) {
    Edit e;
    for (size_t j : unitAt(lines, i)) e[j] = std::nullopt;
    edits.push_back(e);
  }
  // Only tile values (names assigned inside stage blocks) stand in for an expression: a dim, an attribute or
  // a scalar in a tile's place would make programs the checker refuses or, worse, FINDINGS.md #15.
  std::vector<std::pair<size_t, std::string>> assignments;  // (line, target) inside a stage block
  std::set<std::string> tiles;
  size_t stageDepth = std::string::npos;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    if (stageDepth != std::string::npos && start <= stageDepth) stageDepth = std::string::npos;
    if (line.compare(start, 5, "with ") == 0) {
      stageDepth = start;
      continue;
    }
    size_t eq = line.find(" = ");
    if (stageDepth == std::string::npos || eq == std::string::npos) continue;
    std::string target = line.substr(start, eq - start);
    if (target.empty() || !std::all_of(target.begin(), target.end(), isWordChar)) continue;
    assignments.push_back({i, target});
    tiles.insert(target);
  }
  for (const auto& [i, target] : assignments) {
    const std::string& line = lines[i];
    size_t eq = line.find(" = ");
    std::string expr = line.substr(eq + 3);
    if (tiles.count(expr) && expr != target) {
      // A copy `a = b`: gone, and b read wherever a was.
      Edit e{{i, std::nullopt}};
      for (size_t j = i + 1; j < lines.size(); ++j) {
        std::string renamed = replaceWord(lines[j], target, expr);
        if (renamed != lines[j]) e[j] = renamed;
      }
      edits.push_back(e);
      continue;
    }
    if (std::all_of(expr.begin(), expr.end(), isWordChar)) continue;  // already a name or a number
    for (const std::string& name : operandNames(expr)) {
      if (name != target && tiles.count(name)) edits.push_back(Edit{{i, line.substr(0, eq + 3) + name}});
    }
  }
  return edits;
}

// The first n edits, as one, skipping any that touches a line an earlier one touched.
Edit merged(const std::vector<Edit>& edits, size_t n) {
  Edit out;
  for (size_t k = 0; k < n && k < edits.size(); ++k) {
    bool clash = std::any_of(edits[k].begin(), edits[k].end(), [&](const auto& e) { return out.count(e.first); });
    if (!clash) out.insert(edits[k].begin(), edits[k].end());
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
  // Runs the candidates; returns which of them fail the same way.
  auto reproducing = [&](const std::vector<Edit>& edits) {
    std::vector<FuzzProgram> programs;
    for (const Edit& edit : edits) {
      programs.push_back(
          candidate(program, render(applied(lines, edit)), fmt::format("{}_m{}", program.kernel, serial++)));
    }
    best.candidates += static_cast<int>(programs.size());
    std::vector<size_t> out;
    for (const Failure& f : emulatePrograms(programs, batch, service).failures) {
      if (failureSignature(f) == want) out.push_back(f.index);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  for (int round = 0; round < maxRounds; ++round) {
    std::vector<Edit> singles = singleEdits(lines);
    std::vector<Edit> kept;
    for (size_t i : reproducing(singles)) kept.push_back(singles[i]);
    if (kept.empty()) break;
    // The edits that kept the failure, all together and in halves (where they touch different lines); the
    // largest that still fails wins, else the largest single one.
    std::sort(kept.begin(), kept.end(), [](const Edit& a, const Edit& b) { return weight(a) > weight(b); });
    std::vector<Edit> unions;
    for (size_t n = kept.size(); n >= 2; n /= 2) unions.push_back(merged(kept, n));
    Edit chosen = kept.front();
    std::vector<size_t> ok = unions.empty() ? std::vector<size_t>{} : reproducing(unions);
    for (size_t i : ok) {
      if (weight(unions[i]) > weight(chosen)) chosen = unions[i];
    }
    lines = applied(lines, chosen);
    ++best.rounds;
  }
  best.program = candidate(program, render(lines), program.kernel);
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
  // An emulator error says more than "an emulator check failed": its first error line.
  const Failure& f = minimised.failure;
  const std::string& what = f.stage == Stage::Run && !f.detail.empty() ? f.detail : f.message;
  std::string header = fmt::format(
      "# {} ({}), found by {}\n# {}: {}\n# minimised from {} to {} lines in {} rounds ({} candidates); run: {}\n",
      failureKind(minimised.failure.stage), label(found), emulateReplayCommand(found.seed, "", mix),
      stageName(minimised.failure.stage), withoutLocation(what), minimised.linesBefore, minimised.linesAfter,
      minimised.rounds, minimised.candidates, runCommand(minimised.program, name));
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
