// An indentation-aware line printer for emitted C++ (the shape of Halide's CodeGen_C stream): callers say what a
// line is, the printer says where it starts. It also records, for every line it prints, the DSL line the code
// was made from (the source map `tilecraft run` turns emulator locations back into .tile lines with).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilecraft::codegen {

class CodePrinter {
 public:
  void line(const std::string& text) {
    if (!text.empty()) out_.append(static_cast<size_t>(2 * depth_), ' ');
    out_ += text;
    out_ += '\n';
    tileLines_.push_back(tileLine_);
  }
  void blank() {
    out_ += '\n';
    tileLines_.push_back(0);
  }
  /// `text {` and one level deeper.
  void open(const std::string& text) {
    line(text + " {");
    ++depth_;
  }
  /// One level back and `}` (plus `tail`, e.g. ";" or " else {").
  void close(const std::string& tail = "") {
    --depth_;
    line("}" + tail);
  }
  void indent() { ++depth_; }
  void dedent() { --depth_; }
  /// Text emitted verbatim (already indented), e.g. a fixed runtime block.
  void raw(const std::string& text) {
    out_ += text;
    for (char ch : text) {
      if (ch == '\n') tileLines_.push_back(0);
    }
  }
  /// The DSL line the following lines are made from; 0 for code the compiler adds on its own.
  void setTileLine(uint32_t line) { tileLine_ = line; }
  const std::string& str() const { return out_; }
  /// Element i: the DSL line of output line i + 1 (0 for none).
  const std::vector<uint32_t>& tileLines() const { return tileLines_; }

 private:
  std::string out_;
  int depth_ = 0;
  uint32_t tileLine_ = 0;
  std::vector<uint32_t> tileLines_;
};

}  // namespace tilecraft::codegen
