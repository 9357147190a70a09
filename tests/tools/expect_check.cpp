// expect_check: the project's inline-annotation test harness (in the spirit of MLIR's -verify-diagnostics).
//
//   expect_check [--strict-warnings] SOURCE -- COMMAND ARGS...
//
// Runs COMMAND, reads SOURCE for annotations in comments (`#` or `//`):
//   expected-error {{TEXT}}        an `error:` on this line with exactly TEXT
//   expected-error@+N {{TEXT}}     ... N lines below (@-N: above)
//   expected-error:COL {{TEXT}}    ... and at column COL (combinable: expected-error@+1:9 {{TEXT}})
//   expected-warning, expected-note  the same for `warning:` and `note:` lines
// and passes only if every annotation is matched by an output line `<path>/<basename>:LINE[:COL]: KIND: TEXT`,
// no error for that file is left unannotated, the command exited non-zero exactly when errors are expected, and
// it was not killed. Warnings and notes are checked only where annotated (most errors carry several notes);
// with --strict-warnings an unannotated warning fails too.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"

namespace {

struct Expectation {
  std::string kind;  // "error", "warning" or "note"
  int line = 0;
  int col = 0;  // 0 = any column
  std::string text;
  int annotationLine = 0;
  bool matched = false;
};

struct Reported {
  std::string kind;
  int line = 0;
  int col = 0;
  std::string text;
  bool matched = false;
};

std::string baseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

// Annotations live in comments; a `{{` that is not in a comment is ignored.
std::vector<Expectation> readExpectations(const std::vector<std::string>& lines, std::vector<std::string>& problems) {
  static const std::regex kAnnotation(R"(expected-(error|warning|note)(@[+-][0-9]+)?(:[0-9]+)?\s*\{\{(.*?)\}\})");
  std::vector<Expectation> result;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    size_t hash = line.find('#');
    size_t slashes = line.find("//");
    size_t comment = std::min(hash, slashes);
    if (comment == std::string::npos) continue;
    std::string tail = line.substr(comment);
    bool any = false;
    for (std::sregex_iterator it(tail.begin(), tail.end(), kAnnotation), end; it != end; ++it) {
      const std::smatch& m = *it;
      Expectation e;
      e.kind = m[1].str();
      e.annotationLine = static_cast<int>(i) + 1;
      e.line = e.annotationLine + (m[2].matched ? std::stoi(m[2].str().substr(1)) : 0);
      e.col = m[3].matched ? std::stoi(m[3].str().substr(1)) : 0;
      e.text = m[4].str();
      result.push_back(e);
      any = true;
    }
    if (!any && tail.find("expected-") != std::string::npos &&
        std::regex_search(tail, std::regex(R"(expected-(error|warning|note))"))) {
      problems.push_back(fmt::format("{}: malformed annotation (want: expected-error[@+N][:COL] {{{{TEXT}}}})", i + 1));
    }
  }
  return result;
}

// Diagnostics of `base` in the output: `<anything>base:LINE[:COL]: KIND: TEXT`.
std::vector<Reported> readReported(const std::vector<std::string>& lines, const std::string& base) {
  static const std::regex kDiag(R"(^(.*?):([0-9]+)(:([0-9]+))?: (error|warning|note): (.*)$)");
  std::vector<Reported> result;
  for (const std::string& line : lines) {
    std::smatch m;
    if (!std::regex_match(line, m, kDiag)) continue;
    std::string path = m[1].str();
    if (baseName(path) != base) continue;
    if (path.size() > base.size() && path[path.size() - base.size() - 1] != '/') continue;
    Reported r;
    r.line = std::stoi(m[2].str());
    r.col = m[4].matched ? std::stoi(m[4].str()) : 0;
    r.kind = m[5].str();
    r.text = m[6].str();
    result.push_back(r);
  }
  return result;
}

int usage() {
  std::fprintf(stderr, "usage: expect_check [--strict-warnings] SOURCE -- COMMAND [ARGS...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int first = 1;
  bool strictWarnings = false;
  if (argc > 1 && std::string(argv[1]) == "--strict-warnings") {
    strictWarnings = true;
    first = 2;
  }
  if (argc < first + 3 || std::string(argv[first + 1]) != "--") return usage();
  std::string source = argv[first];
  std::ifstream in(source, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "expect_check: cannot read '%s'\n", source.c_str());
    return 2;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();

  std::vector<std::string> problems;
  std::vector<Expectation> expected = readExpectations(splitLines(buffer.str()), problems);

  tilecraft::support::ProcessSpec spec;
  for (int i = first + 2; i < argc; ++i) spec.argv.push_back(argv[i]);
  spec.timeoutSeconds = 120;
  tilecraft::support::SystemProcessRunner runner;
  tilecraft::support::ProcessResult result = runner.run(spec);
  std::string output = result.out + result.err;
  std::string base = baseName(source);
  std::vector<Reported> reported = readReported(splitLines(result.out), base);
  std::vector<Reported> fromErr = readReported(splitLines(result.err), base);
  reported.insert(reported.end(), fromErr.begin(), fromErr.end());

  for (Expectation& e : expected) {
    for (Reported& r : reported) {
      if (r.matched || r.kind != e.kind || r.line != e.line || r.text != e.text) continue;
      if (e.col != 0 && r.col != e.col) continue;
      r.matched = e.matched = true;
      break;
    }
    if (e.matched) continue;
    std::string where = e.col ? fmt::format("{}:{}:{}", base, e.line, e.col) : fmt::format("{}:{}", base, e.line);
    std::string problem = fmt::format("{}: expected {} not produced: {{{{{}}}}}", where, e.kind, e.text);
    for (const Reported& r : reported) {
      if (r.kind == e.kind && r.line == e.line) {
        problem += fmt::format("\n    got at {}:{}:{}: {}: {}", base, r.line, r.col, r.kind, r.text);
      }
    }
    problems.push_back(problem);
  }
  for (const Reported& r : reported) {
    if (r.matched || r.kind == "note" || (r.kind == "warning" && !strictWarnings)) continue;
    problems.push_back(fmt::format("{}:{}:{}: unexpected {}: {}", base, r.line, r.col, r.kind, r.text));
  }
  bool wantFailure =
      std::any_of(expected.begin(), expected.end(), [](const Expectation& e) { return e.kind == "error"; });
  if (result.termSignal != 0 || result.timedOut) {
    problems.push_back(
        fmt::format("command was killed (signal {}{})", result.termSignal, result.timedOut ? ", timed out" : ""));
  } else if (wantFailure && result.exitCode == 0) {
    problems.push_back("command exited 0 but errors are expected");
  } else if (!wantFailure && result.exitCode != 0) {
    problems.push_back(fmt::format("command exited {} but no error is expected", result.exitCode));
  }

  if (problems.empty()) {
    std::printf("expect_check: ok: %s (%zu annotations)\n", source.c_str(), expected.size());
    return 0;
  }
  std::printf("expect_check: FAIL: %s\n", source.c_str());
  for (const std::string& p : problems) std::printf("  %s\n", p.c_str());
  std::printf("--- command output (exit %d) ---\n%s", result.exitCode, output.c_str());
  return 1;
}
