#include "agent/extract.h"

#include <fmt/format.h>

#include <cctype>
#include <cstring>
#include <vector>

namespace tilecraft::agent {
namespace {

struct Block {
  std::string text;
  bool closed = false;
};

// Fences per CommonMark: a line starting (after up to 3 spaces) with 3+ backticks or tildes opens a block; a line of
// at least as many of the same character closes it.
std::vector<Block> fencedBlocks(std::string_view reply) {
  std::vector<Block> blocks;
  char fence = 0;
  size_t fenceLength = 0;
  size_t pos = 0;
  while (pos < reply.size()) {
    size_t end = reply.find('\n', pos);
    if (end == std::string_view::npos) end = reply.size();
    std::string_view line = reply.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    size_t indent = 0;
    while (indent < line.size() && indent < 3 && line[indent] == ' ') ++indent;
    std::string_view rest = line.substr(indent);
    size_t run = 0;
    char ch = rest.empty() ? 0 : rest[0];
    if (ch == '`' || ch == '~') {
      while (run < rest.size() && rest[run] == ch) ++run;
    }
    if (fence == 0) {
      if (run >= 3) {
        fence = ch;
        fenceLength = run;
        blocks.push_back({});
      }
      continue;
    }
    bool closes = ch == fence && run >= fenceLength && rest.find_first_not_of(" \t", run) == std::string_view::npos;
    if (closes) {
      blocks.back().closed = true;
      fence = 0;
      continue;
    }
    blocks.back().text.append(line);
    blocks.back().text += '\n';
  }
  return blocks;
}

// The name in the first `def NAME(` after the first `@kernel`.
std::string kernelName(const std::string& text) {
  size_t at = text.find("@kernel");
  size_t def = text.find("def ", at);
  if (def == std::string::npos) return "";
  size_t begin = def + 4;
  while (begin < text.size() && text[begin] == ' ') ++begin;
  size_t end = begin;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
  return text.substr(begin, end - begin);
}

}  // namespace

ExtractedProgram extractProgram(std::string_view reply) {
  ExtractedProgram out;
  bool cut = false;
  for (const Block& b : fencedBlocks(reply)) {
    if (b.text.find("@kernel") == std::string::npos) continue;
    if (!b.closed) {
      cut = true;
      continue;
    }
    std::string name = kernelName(b.text);
    if (name.empty()) name = "kernel";
    std::string file = name + ".tile";
    for (int n = 2; out.files.count(file); ++n) file = fmt::format("{}_{}.tile", name, n);
    out.files[file] = b.text;
  }
  if (out.files.empty()) {
    out.problem = cut ? "the reply ends inside its code block (cut by max_tokens?): no complete kernel"
                      : "the reply holds no fenced code block with a @kernel";
  }
  return out;
}

ExtractedProgram extractSubmission(std::string_view reply) {
  static const char* const kStrings[] = {"project_json_src", "host_tiling_src", "host_operator_src",
                                         "kernel_src",       "python_bind_src", "model_src"};
  auto assignsOne = [](const std::string& text) {
    for (const char* name : kStrings) {
      for (size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
        bool lineStart = at == 0 || text[at - 1] == '\n';
        size_t eq = text.find_first_not_of(" \t", at + std::strlen(name));
        if (lineStart && eq != std::string::npos && text[eq] == '=' && text.compare(eq, 2, "==") != 0) return true;
      }
    }
    return false;
  };
  ExtractedProgram out;
  bool cut = false;
  std::string joined;
  for (const Block& b : fencedBlocks(reply)) {
    if (!assignsOne(b.text)) continue;
    if (!b.closed) {
      cut = true;
      continue;
    }
    joined += (joined.empty() ? "" : "\n") + b.text;
  }
  if (!joined.empty()) {
    out.files["submission.py"] = joined;
  } else {
    out.problem = cut ? "the reply ends inside its code block (cut by max_tokens?): no complete submission"
                      : "the reply holds no fenced code block assigning the six strings (project_json_src, "
                        "host_tiling_src, host_operator_src, kernel_src, python_bind_src, model_src)";
  }
  return out;
}

}  // namespace tilecraft::agent
