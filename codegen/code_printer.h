// An indentation-aware line printer for emitted C++ (the shape of Halide's CodeGen_C stream): callers say what a
// line is, the printer says where it starts.
#pragma once

#include <string>

namespace tilecraft::codegen {

class CodePrinter {
 public:
  void line(const std::string& text) {
    if (!text.empty()) out_.append(static_cast<size_t>(2 * depth_), ' ');
    out_ += text;
    out_ += '\n';
  }
  void blank() { out_ += '\n'; }
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
  void raw(const std::string& text) { out_ += text; }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
  int depth_ = 0;
};

}  // namespace tilecraft::codegen
