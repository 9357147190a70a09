// The reference interpreter of the Tile DSL: runs a checked kernel on host arrays, with the semantics of
// docs/language.md ("Reference semantics"). It shares no code with the compiler's lowering, so end-to-end tests
// can use it as their oracle.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dsl/ast.h"
#include "dsl/sema.h"
#include "interp/tensor.h"
#include "support/diagnostic.h"
#include "support/source.h"

namespace tilecraft::interp {

/// A program run through the front end: sources, AST, the checker's facts and the front end's diagnostics.
struct CheckedProgram {
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  dsl::Ast ast;
  dsl::SemaResult sema;
  std::string usageError;  // --param bindings that do not leave one instantiation (dsl/generic.h)
  bool ok() const { return !diagnostics.hasErrors() && usageError.empty(); }
  /// The front end's diagnostics as text, as `tilecraft compile` prints them.
  std::string renderDiagnostics() const;
  /// The dim() names in declaration order.
  std::vector<std::string> dims() const;
  const dsl::KernelInfo* kernel(const std::string& name) const;
};

/// Lexes, parses and checks `text` (named `name` in diagnostics). Check ok() before running it: the semantic
/// checks run only when the file parsed, and a program with errors cannot be run.
/// `params` (--param NAME=VALUE) bind a generic program's parameters; they must leave one instantiation.
std::unique_ptr<CheckedProgram> checkProgram(const std::string& name, const std::string& text,
                                             const std::vector<std::string>& params = {});

struct RunRequest {
  std::map<std::string, int64_t> dims;       // every dim() of the module
  std::map<std::string, double> attrs;       // scalar attributes; a missing one takes its default
  std::map<std::string, HostTensor> inputs;  // every tensor the kernel loads (inputs and in/out tensors)
};

/// The tensors the kernel stores to (outputs and in/out tensors), by parameter name.
using RunOutputs = std::map<std::string, HostTensor>;

/// The shape of a tensor parameter under the request's dims; nullopt if a dim is missing.
std::optional<std::vector<int64_t>> paramShape(const CheckedProgram& program, const dsl::ParamInfo& param,
                                               const std::map<std::string, int64_t>& dims);

/// Runs kernel `kernel` (empty: the only kernel). Run-time errors (a missing input, an input of the wrong shape
/// or dtype, a gather index out of range, a non-positive range step) are reported to `diagnostics` at the source
/// location that caused them, and the result is nullopt.
std::optional<RunOutputs> run(const CheckedProgram& program, const std::string& kernel, const RunRequest& request,
                              support::DiagnosticEngine& diagnostics);

}  // namespace tilecraft::interp
