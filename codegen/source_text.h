// Text from the DSL program that reaches generated files: source lines carried as comments, the .tile file's name
// in banners, READMEs and build scripts, and the DSL's names used as C++ identifiers. The program comes from
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

/// Why a DSL name cannot be a C++ identifier in the generated code, or nullptr when it can: a C++ keyword, a name
/// reserved to the implementation (a leading underscore or a double underscore), or a name the generated code or
/// the headers it includes already give a meaning (macros such as `GM_ADDR`, the launcher's own locals).
const char* cppNameProblem(std::string_view name);

}  // namespace tilecraft::codegen
