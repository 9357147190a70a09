// The DSL's names that the generated C++ spells as they are: the kernel, its parameters, the dims, and the scalars
// that become tiling fields. One table says which names C++ or the generated code already gives a meaning; the
// checker reads it for the names it can classify, the emitter for the host scalars only lowering identifies.
#pragma once

#include <string>
#include <string_view>

namespace tilecraft::dsl {

/// Where a name lands in the generated code. A tensor may be named `t` (the tiling function's struct): tensors
/// are not parameters of that function; a dim or a scalar cannot.
enum class CppNameUse { Kernel, Tensor, HostScalar };

/// Why `name` cannot be a C++ identifier of the generated code used as `use`, or nullptr when it can: "a C++
/// keyword", "reserved in C++ (a leading or double underscore)", or what the generated code or its headers already
/// call so ("the name the generated host code gives the launcher's status", ...).
const char* cppNameProblem(std::string_view name, CppNameUse use);

/// The diagnostic for a name with a problem, "<what> '<name>' cannot be spelled in the generated C++: it is
/// <problem>", or "" when the name is fine: the checker and the emitter word it alike.
std::string cppNameError(std::string_view what, std::string_view name, CppNameUse use);

}  // namespace tilecraft::dsl
