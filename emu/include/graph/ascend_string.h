// The string type of the host API (CANN's graph/ascend_string.h).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace ge {
using char_t = char;

class AscendString {
 public:
  AscendString() = default;
  AscendString(const char_t* const name) : text_(name == nullptr ? "" : name) {}
  AscendString(const char_t* const name, size_t length) : text_(name == nullptr ? "" : std::string(name, length)) {}
  const char_t* GetString() const { return text_.c_str(); }
  size_t GetLength() const { return text_.size(); }
  size_t Find(const AscendString& s) const { return text_.find(s.text_); }
  size_t Hash() const { return std::hash<std::string>()(text_); }
  bool operator<(const AscendString& d) const { return text_ < d.text_; }
  bool operator>(const AscendString& d) const { return text_ > d.text_; }
  bool operator<=(const AscendString& d) const { return text_ <= d.text_; }
  bool operator>=(const AscendString& d) const { return text_ >= d.text_; }
  bool operator==(const AscendString& d) const { return text_ == d.text_; }
  bool operator!=(const AscendString& d) const { return text_ != d.text_; }

 private:
  std::string text_;
};
}  // namespace ge
