// Generic programs: module-level dtype parameters (`T = dtype(f16, bf16, f32)`), const parameters
// (`K = const(3)`) and the definitions that follow them (`C = f32 if T == bf16 else T`), and their
// instantiation. Instantiation binds every parameter to one value and rewrites the parsed program so that the
// checker and everything after it see only concrete dtypes and integer constants (docs/language.md, "Generic
// programs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/ast.h"
#include "dsl/sema.h"
#include "dsl/types.h"
#include "support/diagnostic.h"

namespace tilecraft::dsl {

/// Instantiations one compile may check: far above a task's dtype x attribute product, far below what makes a
/// compile slow (each is a full check).
inline constexpr size_t kMaxInstantiations = 64;

struct GenericParam {
  NodeId def = kNoNode;  // the ConstDef
  std::string name;
  bool isDType = false;
  std::vector<DType> choices;           // a dtype parameter's allowed dtypes, in declaration order
  std::optional<int64_t> defaultValue;  // a const parameter's default
};

/// One value per parameter, in declaration order: ("T", "f16"), ("K", "3").
struct Instantiation {
  std::vector<std::pair<std::string, std::string>> values;
  /// "T=f16, K=3"; empty for a program without parameters.
  std::string str() const;
  /// NAME=VALUE per parameter, as --param takes them.
  std::vector<std::string> flags() const;
};

/// The module's parameters in declaration order. A malformed declaration is reported and left out.
std::vector<GenericParam> genericParams(const Ast& ast, support::DiagnosticEngine& diagnostics);

/// The instantiations `bindings` (NAME=VALUE, from --param) leave: the parameters they bind take that value, the
/// other dtype parameters range over their choices (the product, in declaration order) and the other const
/// parameters take their default. A name the program does not declare or a value of the wrong kind is a usage
/// error (`usageError` set, nothing returned); a dtype outside the choices or a const without a default is
/// reported at the declaration.
std::vector<Instantiation> instantiations(const Ast& ast, const std::vector<GenericParam>& params,
                                          const std::vector<std::string>& bindings,
                                          support::DiagnosticEngine& diagnostics, std::string* usageError);

/// The program with `inst` bound: dtype parameters and dtype definitions leave the module and each use of their
/// name becomes the dtype; a const parameter becomes its integer; a module-level `a if c else b` becomes the
/// branch its condition picks. Errors in conditions are reported. A program without parameters or conditional
/// definitions comes back unchanged.
Ast instantiate(const Ast& ast, const std::vector<GenericParam>& params, const Instantiation& inst,
                support::DiagnosticEngine& diagnostics);

/// Replaces each `cast(x, D)` where x already has dtype D (as generic code writes for its f32 instantiation) by
/// `x`, so the cast costs no instruction and no buffer; true when something changed and the program must be
/// checked again.
bool dropSameDTypeCasts(Ast& ast, const SemaResult& sema);

/// For a front end that runs one instantiation (the interpreter): `bindings` must leave exactly one. Otherwise
/// `usageError` says which parameters to bind (or what is wrong with a binding) and the result is empty.
Ast instantiateOne(const Ast& ast, const std::vector<std::string>& bindings, support::DiagnosticEngine& diagnostics,
                   std::string* usageError);

/// "T (f16, bf16, f32)": the dtype parameters `bindings` leave a choice, for messages.
std::string unboundParams(const std::vector<GenericParam>& params, const std::vector<std::string>& bindings);

}  // namespace tilecraft::dsl
