#include "service/language_reference.h"

#include <algorithm>
#include <cctype>
#include <regex>

namespace tilecraft::service {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

std::vector<DocSection> splitSections(std::string_view markdown) {
  static const std::regex heading(R"(## (?:([0-9]+)\. )?(.*))");
  std::vector<DocSection> sections;
  bool fenced = false;
  size_t pos = 0;
  while (pos < markdown.size()) {
    size_t end = markdown.find('\n', pos);
    std::string line(markdown.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    pos = end == std::string_view::npos ? markdown.size() : end + 1;
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    std::smatch m;
    if (!fenced && std::regex_match(line, m, heading)) sections.push_back({m[1].str(), m[2].str(), ""});
    if (!sections.empty()) sections.back().text += line + "\n";
  }
  return sections;
}

std::optional<DocSection> findSection(std::string_view markdown, const std::string& key) {
  std::vector<DocSection> sections = splitSections(markdown);
  for (const DocSection& s : sections) {
    if (!s.number.empty() && s.number == key) return s;
  }
  for (const DocSection& s : sections) {
    if (!key.empty() && lower(s.title).find(lower(key)) != std::string::npos) return s;
  }
  return std::nullopt;
}

}  // namespace tilecraft::service
