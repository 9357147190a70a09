// Text from the DSL program that reaches generated files: source lines carried as comments, the .tile file's name
// in banners, READMEs and build scripts (the DSL's names used as C++ identifiers: dsl/cpp_names.h). The program comes from
// untrusted authors (LLMs, RL rollouts), so nothing it writes may change what the generated code does.
#pragma once

#include <string>
#include <string_view>

namespace tilecraft::codegen {

/// `text` as it may appear inside a one-line comment of C++ or shell, or a Markdown line: printable ASCII only.
/// Every other byte (control characters, CR and LF, DEL, non-ASCII) and the backslash itself are written as
/// `\xNN`, so the result can neither end its line (a CR or LF would start a line of code), splice the next line
/// into the comment (a trailing backslash), nor reorder what a reader sees (Unicode bidirectional controls).
std::string escapeSourceText(std::string_view text);

}  // namespace tilecraft::codegen
