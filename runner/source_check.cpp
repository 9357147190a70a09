// The source check reads the text as the preprocessor's first phases do (line splices joined, comments and
// literals blanked) so that a name split by a backslash-newline or hidden in a macro still counts, and tracks
// each character's original line for the message.
#include "runner/source_check.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxIncludeDepth = 16;

// Standard headers with no I/O, processes or system calls in them; kernels use them for types and constants.
const std::set<std::string> kPureStandardHeaders = {"cstdint",     "cstddef", "cmath",   "climits", "cfloat",
                                                    "type_traits", "limits",  "utility", "array",   "algorithm"};

struct Logical {
  std::string text;        // splices joined, comments and string/char literals blanked (newlines kept)
  std::vector<int> lines;  // original line of each character
};

Logical logicalText(const std::string& raw) {
  Logical out;
  int line = 1;
  enum class State { Code, LineComment, BlockComment, String, Char } state = State::Code;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '\\' && i + 1 < raw.size() &&
        (raw[i + 1] == '\n' || (raw[i + 1] == '\r' && i + 2 < raw.size() && raw[i + 2] == '\n'))) {
      i += raw[i + 1] == '\r' ? 2 : 1;
      ++line;
      continue;
    }
    auto emit = [&](char ch) {
      out.text.push_back(ch);
      out.lines.push_back(line);
    };
    char next = i + 1 < raw.size() ? raw[i + 1] : '\0';
    switch (state) {
      case State::Code:
        if (c == '/' && next == '/') {
          state = State::LineComment;
          emit(' ');
        } else if (c == '/' && next == '*') {
          state = State::BlockComment;
          emit(' ');
          ++i;
        } else if (c == '"') {
          state = State::String;
          emit('"');
        } else if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(raw[i - 1])))) {
          state = State::Char;  // not a digit separator (1'000)
          emit('\'');
        } else {
          emit(c);
        }
        break;
      case State::LineComment:
        if (c == '\n') {
          state = State::Code;
          emit('\n');
        }
        break;
      case State::BlockComment:
        if (c == '*' && next == '/') {
          state = State::Code;
          ++i;
        } else if (c == '\n') {
          emit('\n');
        }
        break;
      case State::String:
      case State::Char:
        if (c == '\\' && i + 1 < raw.size()) {
          emit(' ');
          ++i;
          emit(' ');
        } else if ((state == State::String && c == '"') || (state == State::Char && c == '\'')) {
          state = State::Code;
          emit(c);
        } else if (c == '\n') {
          state = State::Code;  // an unterminated literal: the compiler will say so
          emit('\n');
        } else {
          emit(c == '\n' ? '\n' : 'x');
        }
        break;
    }
    if (c == '\n') ++line;
  }
  return out;
}

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string apiHint() {
  return "hint: a kernel may include kernel_operator.h, lib/..., tiling/..., kernel_tiling/... (the kernel "
         "API), "
         "a few standard headers without I/O (<cstdint>, <cmath>, ...) and its own project's files by a "
         "relative "
         "path inside its folder";
}

class Checker {
 public:
  explicit Checker(std::string apiDir) : apiDir_(std::move(apiDir)) {}

  void checkFile(const fs::path& path, const fs::path& projectRoot, int depth) {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    if (!seen_.insert(canonical.string()).second) return;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      problems_.push_back(
          fmt::format("{}: error: cannot read the kernel source: {}", path.string(), std::strerror(errno)));
      return;
    }
    std::stringstream text;
    text << in.rdbuf();
    checkText(path, text.str(), projectRoot, depth);
  }

  void checkText(const fs::path& path, const std::string& raw, const fs::path& projectRoot, int depth) {
    Logical logical = logicalText(raw);
    const std::string& t = logical.text;
    std::string file = path.string();
    auto at = [&](size_t pos) {
      return logical.lines.empty() ? 1 : logical.lines[std::min(pos, logical.lines.size() - 1)];
    };
    // Directives: a line whose first non-blank is '#' (or the digraph "%:").
    size_t lineStart = 0;
    while (lineStart < t.size()) {
      size_t lineEnd = t.find('\n', lineStart);
      if (lineEnd == std::string::npos) lineEnd = t.size();
      size_t p = t.find_first_not_of(" \t", lineStart);
      if (p < lineEnd) {
        size_t afterHash = std::string::npos;
        if (t[p] == '#') afterHash = p + 1;
        if (t.compare(p, 2, "%:") == 0) afterHash = p + 2;
        if (afterHash != std::string::npos) {
          size_t w = t.find_first_not_of(" \t", afterHash);
          if (w < lineEnd && t.compare(w, 7, "include") == 0) {
            checkInclude(path, raw, logical, w + 7, lineEnd, at(p), projectRoot, depth);
          }
        }
      }
      lineStart = lineEnd + 1;
    }
    for (size_t i = 0; i < t.size(); ++i) {
      if (t.compare(i, 2, "##") == 0 || t.compare(i, 4, "%:%:") == 0) {
        problems_.push_back(
            fmt::format("{}:{}: error: token pasting ('##') is not allowed in a submitted kernel\n"
                        "hint: it can build names the check forbids; write the names out",
                        file, at(i)));
        break;
      }
    }
    for (size_t i = 0; i < t.size();) {
      if (!identChar(t[i]) || (i > 0 && identChar(t[i - 1]))) {
        ++i;
        continue;
      }
      size_t end = i;
      while (end < t.size() && identChar(t[end])) ++end;
      std::string word = t.substr(i, end - i);
      if (word == "tcemu") {
        problems_.push_back(
            fmt::format("{}:{}: error: 'tcemu' names the emulator's internals, which a kernel must "
                        "not touch\nhint: use the AscendC API (AscendC::...) only",
                        file, at(i)));
      } else if (word == "main") {
        size_t next = t.find_first_not_of(" \t\n", end);
        if (next != std::string::npos && t[next] == '(') {
          problems_.push_back(
              fmt::format("{}:{}: error: a submitted kernel must not define 'main'\n"
                          "hint: submit the kernel only; the harness builds its own launcher "
                          "around it",
                          file, at(i)));
        }
      }
      i = end;
    }
  }

  std::vector<std::string> problems() && { return std::move(problems_); }

 private:
  // The header name is taken from the raw text: literals are blanked in the logical one.
  void checkInclude(const fs::path& path, const std::string& raw, const Logical& logical, size_t from, size_t to,
                    int line, const fs::path& projectRoot, int depth) {
    (void)raw;
    std::string rest = logical.text.substr(from, to - from);
    // Re-read the same stretch of the original line, where the quoted name survives.
    std::string original = originalLine(raw, line);
    size_t open = original.find_first_of("<\"", original.find("include") + 7);
    std::string file = path.string();
    auto reject = [&](const std::string& spelled) {
      problems_.push_back(
          fmt::format("{}:{}: error: '#include {}' is outside the kernel API\n{}", file, line, spelled, apiHint()));
    };
    size_t first = rest.find_first_not_of(" \t");
    if (open == std::string::npos || first == std::string::npos || (rest[first] != '<' && rest[first] != '"')) {
      std::string spelled = rest.substr(first == std::string::npos ? rest.size() : first);
      while (!spelled.empty() && std::isspace(static_cast<unsigned char>(spelled.back()))) spelled.pop_back();
      problems_.push_back(fmt::format("{}:{}: error: '#include {}' does not name a header literally\n{}", file, line,
                                      spelled, apiHint()));
      return;
    }
    char close = original[open] == '<' ? '>' : '"';
    size_t end = original.find(close, open + 1);
    if (end == std::string::npos) return;  // the compiler will say so
    std::string name = original.substr(open + 1, end - open - 1);
    std::string spelled = original.substr(open, end - open + 1);
    if (name.empty() || name.front() == '/' || name.find("..") != std::string::npos ||
        name.find('\\') != std::string::npos) {
      reject(spelled);
      return;
    }
    if (close == '>' && kPureStandardHeaders.count(name) != 0) return;
    if (isApiHeader(name)) return;
    if (close == '"') {
      fs::path local = path.parent_path() / name;
      std::error_code ec;
      fs::path canonical = fs::weakly_canonical(local, ec);
      fs::path root = fs::weakly_canonical(projectRoot, ec);
      auto [rootEnd, ignored] = std::mismatch(root.begin(), root.end(), canonical.begin(), canonical.end());
      if (rootEnd == root.end() && fs::is_regular_file(canonical, ec)) {
        if (depth < kMaxIncludeDepth) checkFile(local, projectRoot, depth + 1);
        return;
      }
    }
    reject(spelled);
  }

  bool isApiHeader(const std::string& name) const {
    for (const char* prefix : {"lib/", "tiling/", "kernel_tiling/"}) {
      if (name.rfind(prefix, 0) == 0) return true;
    }
    if (name == "kernel_operator.h" || name == "tikicpulib.h") return true;
    std::error_code ec;
    return !apiDir_.empty() && name.find('/') == std::string::npos && fs::is_regular_file(fs::path(apiDir_) / name, ec);
  }

  static std::string originalLine(const std::string& raw, int line) {
    size_t pos = 0;
    for (int l = 1; l < line && pos != std::string::npos; ++l) {
      pos = raw.find('\n', pos);
      if (pos != std::string::npos) ++pos;
    }
    if (pos == std::string::npos) return "";
    size_t end = raw.find('\n', pos);
    return raw.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
  }

  std::string apiDir_;
  std::set<std::string> seen_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> checkKernelSource(const std::string& path, const std::string& apiDir) {
  Checker checker(apiDir);
  checker.checkFile(path, fs::path(path).parent_path(), 0);
  return std::move(checker).problems();
}

std::vector<std::string> checkKernelText(const std::string& path, const std::string& text, const std::string& apiDir) {
  Checker checker(apiDir);
  checker.checkText(path, text, fs::path(path).parent_path(), 0);
  return std::move(checker).problems();
}

}  // namespace tilecraft::runner
