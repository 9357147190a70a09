#include "codegen/source_text.h"

#include <fmt/format.h>

namespace tilecraft::codegen {

std::string escapeSourceText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x20 && byte < 0x7f && ch != '\\') {
      out += ch;
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  return out;
}

}  // namespace tilecraft::codegen
