#include "support/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "support/assert.h"

namespace tilecraft::support {

Span Span::to(const Span& other) const {
  if (!valid()) return other;
  if (!other.valid()) return *this;
  TC_ASSERT(file == other.file, "span across files");
  return Span{file, std::min(begin, other.begin), std::max(end, other.end)};
}

FileId SourceManager::addBuffer(std::string name, std::string text) {
  File f;
  f.name = std::move(name);
  f.text = std::move(text);
  f.lineStarts.push_back(0);
  for (uint32_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] == '\n') f.lineStarts.push_back(i + 1);
  }
  files_.push_back(std::move(f));
  return static_cast<FileId>(files_.size());
}

std::optional<FileId> SourceManager::addFile(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot open '" + path + "': " + std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  return addBuffer(path, text.str());
}

const SourceManager::File& SourceManager::file(FileId id) const {
  TC_ASSERT(id != kNoFile && id <= files_.size(), "bad FileId");
  return files_[id - 1];
}

const std::string& SourceManager::name(FileId id) const { return file(id).name; }

std::string_view SourceManager::text(FileId id) const { return file(id).text; }

std::string_view SourceManager::text(Span span) const {
  std::string_view all = text(span.file);
  if (span.begin > all.size()) return {};
  return all.substr(span.begin, std::min<size_t>(span.length(), all.size() - span.begin));
}

LineCol SourceManager::lineCol(FileId id, uint32_t offset) const {
  const File& f = file(id);
  auto it = std::upper_bound(f.lineStarts.begin(), f.lineStarts.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - f.lineStarts.begin());
  return LineCol{line, offset - f.lineStarts[line - 1] + 1};
}

std::string_view SourceManager::lineText(FileId id, uint32_t line) const {
  const File& f = file(id);
  if (line == 0 || line > f.lineStarts.size()) return {};
  uint32_t begin = f.lineStarts[line - 1];
  uint32_t end = line < f.lineStarts.size() ? f.lineStarts[line] - 1 : static_cast<uint32_t>(f.text.size());
  std::string_view text(f.text);
  std::string_view result = text.substr(begin, end - begin);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

}  // namespace tilecraft::support
