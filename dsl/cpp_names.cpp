#include "dsl/cpp_names.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace tilecraft::dsl {
namespace {

// C++20's keywords and alternative tokens.
// clang-format off
constexpr std::string_view kCppKeywords[] = {
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

struct GeneratedName {
  std::string_view name;
  const char* problem;
};

// What the generated files declare or include at the scope of the DSL's names (codegen/emit_host.cpp,
// emit_launcher.cpp, emit_kernel.cpp, the emulator's headers): a DSL name among them would be declared twice, which
// g++ refuses, or would mean something else. `t` is handled apart (tensors may take it).
constexpr GeneratedName kGeneratedNames[] = {
    {"tiling", "the name the generated host code gives the tiling struct"},
    {"opts", "the name the generated host code gives the launcher's options"},
    {"ok", "the name the generated host code gives the launcher's status"},
    {"workspace", "the name the generated host code gives the workspace"},
    {"argc", "the name the generated host code gives the launcher's arguments"},
    {"argv", "the name the generated host code gives the launcher's arguments"},
    {"main", "the name the generated host code gives the launcher"},
    {"tilingGm", "the name the generated host code gives the tiling copy in global memory"},
    {"tclaunch", "the name the generated host code gives its namespace"},
    {"pipe_", "a member of the generated kernel class"},
    {"tiling_", "a member of the generated kernel class"},
    {"TcAlignUp", "a helper of the generated kernel"}, {"TcCdiv", "a helper of the generated kernel"},
    {"TcMax", "a helper of the generated kernel"}, {"TcMin", "a helper of the generated kernel"},
    {"TcPow", "a helper of the generated kernel"},
    {"AscendC", "a namespace of the AscendC headers"},
    {"ASCEND_IS_AIC", "a macro of the AscendC headers"}, {"ASCEND_IS_AIV", "a macro of the AscendC headers"},
    {"ASCENDC_CPU_DEBUG", "a macro of the AscendC headers"}, {"GET_TILING_DATA", "a macro of the AscendC headers"},
    {"GM_ADDR", "a macro of the AscendC headers"}, {"ICPU_RUN_KF", "a macro of the AscendC headers"},
    {"half", "a type of the AscendC headers"}, {"bfloat16_t", "a type of the AscendC headers"},
    {"int8_t", "a C++ type"}, {"int16_t", "a C++ type"}, {"int32_t", "a C++ type"}, {"int64_t", "a C++ type"},
    {"uint8_t", "a C++ type"}, {"uint16_t", "a C++ type"}, {"uint32_t", "a C++ type"}, {"uint64_t", "a C++ type"},
    {"size_t", "a C++ type"},
    {"std", "the C++ standard library's namespace"},
    {"EOF", "a macro of the C library"}, {"INFINITY", "a macro of the C library"}, {"NAN", "a macro of the C library"},
    {"NULL", "a macro of the C library"}, {"assert", "a macro of the C library"}, {"errno", "a macro of the C library"},
    {"stderr", "a macro of the C library"}, {"stdin", "a macro of the C library"},
    {"stdout", "a macro of the C library"},
};

// The kernel is an extern "C" function at global scope, next to the C library's functions that the emulator's and
// the launcher's headers declare (<cmath>, <cstdlib>, <cstring>, <cstdio>): a kernel named `tanh` was a conflicting
// declaration of `tanh` that g++ refused. Tensors, dims and scalars are locals and members there, which may
// shadow these.
constexpr std::string_view kCLibraryFunctions[] = {
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh",
    "erf", "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "frexp", "hypot",
    "ldexp", "lgamma", "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint", "lround", "modf",
    "nan", "nearbyint", "nextafter", "pow", "remainder", "rint", "round", "scalbn", "sin", "sinh", "sqrt", "tan",
    "tanh", "tgamma", "trunc", "abort", "atexit", "atof", "atoi", "atol", "calloc", "div", "exit", "free",
    "getenv", "labs", "malloc", "qsort", "rand", "realloc", "srand", "system", "memcmp", "memcpy", "memmove",
    "memset", "strcmp", "strcpy", "strlen", "strncmp", "fclose", "fopen", "fprintf", "fread", "fwrite", "printf",
    "puts", "remove", "rename", "sprintf", "snprintf",
};
// clang-format on

}  // namespace

const char* cppNameProblem(std::string_view name, CppNameUse use) {
  if (std::find(std::begin(kCppKeywords), std::end(kCppKeywords), name) != std::end(kCppKeywords))
    return "a C++ keyword";
  if (name.starts_with('_') || name.find("__") != std::string_view::npos) {
    return "reserved in C++ (a leading or double underscore)";
  }
  if (name == "t")
    return use == CppNameUse::HostScalar ? "the name the generated host code gives the tiling struct" : nullptr;
  for (const GeneratedName& g : kGeneratedNames) {
    if (g.name == name) return g.problem;
  }
  if (use == CppNameUse::Kernel &&
      std::find(std::begin(kCLibraryFunctions), std::end(kCLibraryFunctions), name) != std::end(kCLibraryFunctions))
    return "a function of the C library, and the kernel is an extern \"C\" function beside it";
  return nullptr;
}

std::string cppNameError(std::string_view what, std::string_view name, CppNameUse use) {
  const char* problem = cppNameProblem(name, use);
  if (!problem) return "";
  return fmt::format("{} '{}' cannot be spelled in the generated C++: it is {}", what, name, problem);
}

}  // namespace tilecraft::dsl
