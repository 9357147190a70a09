#include "codegen/source_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

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

namespace {

// C++20's keywords and alternative tokens, then the names the generated file declares or includes at the scope
// of the DSL's names (the launcher's main, the kernel class, the entry): a DSL name among them would not build or
// would mean something else.
// clang-format off
constexpr std::array<std::string_view, 92> kCppKeywords = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char16_t", "char32_t", "char8_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "const", "const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend",
    "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires",
    "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
    "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
    "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};
constexpr std::array<std::string_view, 43> kGeneratedNames = {
    "AscendC", "ASCEND_IS_AIC", "ASCEND_IS_AIV", "ASCENDC_CPU_DEBUG", "EOF", "GET_TILING_DATA", "GM_ADDR",
    "ICPU_RUN_KF", "INFINITY", "NAN", "NULL", "TcAlignUp", "TcCdiv", "TcMax", "TcMin", "TcPow", "argc", "argv",
    "assert", "bfloat16_t", "errno", "half", "int16_t", "int32_t", "int64_t", "int8_t", "main", "ok", "opts",
    "pipe_", "size_t", "std", "stderr", "stdin", "stdout", "tclaunch", "tiling", "tilingGm", "tiling_",
    "uint16_t", "uint32_t", "uint64_t", "uint8_t",
};
// clang-format on

bool contains(const auto& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

const char* cppNameProblem(std::string_view name) {
  if (contains(kCppKeywords, name)) return "a C++ keyword";
  if (name.starts_with('_') || name.find("__") != std::string_view::npos) {
    return "reserved in C++ (a leading or double underscore)";
  }
  if (contains(kGeneratedNames, name)) return "a name the generated C++ already uses";
  return nullptr;
}

}  // namespace tilecraft::codegen
