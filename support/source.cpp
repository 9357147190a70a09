#include "support/source.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "support/assert.h"
#include "support/files.h"

namespace tilecraft::support {

Span Span::to(const Span& other) const {
  if (!valid()) return other;
  if (!other.valid()) return *this;
  TC_ASSERT(file == other.file, "span across files");
  return Span{file, std::min(begin, other.begin), std::max(end, other.end)};
}

namespace {

// The length of the UTF-8 sequence starting at text[i], or 0 when the byte does not start a valid one (a stray
// continuation byte, an overlong or surrogate encoding, a truncated sequence).
size_t utf8Length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b = byte(i);
  if (b < 0x80) return 1;
  size_t n = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  // Overlong three- and four-byte forms, UTF-16 surrogates and code points past U+10FFFF.
  if (b == 0xE0 && byte(i + 1) < 0xA0) return 0;
  if (b == 0xED && byte(i + 1) > 0x9F) return 0;
  if (b == 0xF0 && byte(i + 1) < 0x90) return 0;
  if (b == 0xF4 && byte(i + 1) > 0x8F) return 0;
  return n;
}

}  // namespace

size_t utf8SequenceLength(std::string_view text, size_t offset) { return utf8Length(text, offset); }

FileId SourceManager::addBuffer(std::string name, std::string text) {
  File f;
  f.name = std::move(name);
  // A UTF-8 byte order mark is an encoding marker, not text: offsets and columns start after it.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  f.text = std::move(text);
  f.ascii = std::all_of(f.text.begin(), f.text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  f.lineStarts.push_back(0);
  // "\n", "\r\n" and a lone "\r" (old Mac files) all end a line.
  for (uint32_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] == '\n' || (f.text[i] == '\r' && (i + 1 == f.text.size() || f.text[i + 1] != '\n'))) {
      f.lineStarts.push_back(i + 1);
    }
  }
  files_.push_back(std::move(f));
  return static_cast<FileId>(files_.size());
}

std::optional<FileId> SourceManager::addFile(const std::string& path, std::string* error) {
  std::string why;
  std::optional<std::string> text = readInputFile(path, kMaxSourceBytes, &why);
  if (!text) {
    // Diagnostics have always said "cannot open" for a source file.
    if (why.rfind("cannot read ", 0) == 0) why.replace(0, 11, "cannot open");
    if (error) *error = why;
    return std::nullopt;
  }
  return addBuffer(path, std::move(*text));
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
  // Columns count characters: a UTF-8 sequence is one, an invalid byte is one. An ASCII file (nearly every one)
  // needs no scan, so a 100k-character line costs nothing per lookup.
  if (f.ascii) return LineCol{line, offset - f.lineStarts[line - 1] + 1};
  uint32_t col = 1;
  size_t end = std::min<size_t>(offset, f.text.size());
  for (size_t i = f.lineStarts[line - 1]; i < end; ++col) i += std::max<size_t>(1, utf8Length(f.text, i));
  if (offset > f.text.size()) col += offset - static_cast<uint32_t>(f.text.size());
  return LineCol{line, col};
}

std::string_view SourceManager::lineText(FileId id, uint32_t line) const {
  const File& f = file(id);
  if (line == 0 || line > f.lineStarts.size()) return {};
  uint32_t begin = f.lineStarts[line - 1];
  uint32_t end = line < f.lineStarts.size() ? f.lineStarts[line] : static_cast<uint32_t>(f.text.size());
  std::string_view text(f.text);
  std::string_view result = text.substr(begin, end - begin);
  if (!result.empty() && result.back() == '\n') result.remove_suffix(1);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

}  // namespace tilecraft::support
