// Source files held in memory, addressed by id, with offset -> line/column lookup.
// Every diagnostic and AST node refers to source through a Span, never through a pointer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::support {

/// Index of a file in a SourceManager; 0 is reserved for "no file".
using FileId = uint32_t;
inline constexpr FileId kNoFile = 0;

/// A half-open byte range [begin, end) in one file.
struct Span {
  FileId file = kNoFile;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != kNoFile; }
  uint32_t length() const { return end - begin; }
  /// The smallest span covering both (same file required).
  Span to(const Span& other) const;
  bool operator==(const Span&) const = default;
};

/// 1-based line and column; the column counts characters (a UTF-8 sequence is one, an invalid byte is one).
struct LineCol {
  uint32_t line = 0;
  uint32_t col = 0;
};

/// The largest source file read (a DSL program is kilobytes; this stops /dev/zero and runaway files).
inline constexpr uint64_t kMaxSourceBytes = 64ull << 20;

/// The length (1-4) of the valid UTF-8 sequence at text[offset], or 0 when that byte starts none.
size_t utf8SequenceLength(std::string_view text, size_t offset);

class SourceManager {
 public:
  /// Adds a buffer; `name` is what diagnostics print (as given, never made absolute). A leading UTF-8 byte order
  /// mark is dropped; "\n", "\r\n" and a lone "\r" end lines.
  FileId addBuffer(std::string name, std::string text);
  /// Reads a file from disk; nullopt (and `error` set) when it cannot be read.
  std::optional<FileId> addFile(const std::string& path, std::string* error);

  const std::string& name(FileId file) const;
  std::string_view text(FileId file) const;
  std::string_view text(Span span) const;
  LineCol lineCol(FileId file, uint32_t offset) const;
  LineCol lineCol(Span span) const { return lineCol(span.file, span.begin); }
  /// The text of a 1-based line, without its newline.
  std::string_view lineText(FileId file, uint32_t line) const;
  size_t fileCount() const { return files_.size(); }

 private:
  struct File {
    std::string name;
    std::string text;
    std::vector<uint32_t> lineStarts;  // offset of the first byte of every line
    bool ascii = true;                 // no byte >= 0x80: a column is a byte offset
  };
  const File& file(FileId id) const;

  std::vector<File> files_;
};

}  // namespace tilecraft::support
