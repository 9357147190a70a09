// Lowering: the checked AST (Ast + SemaResult) to the kernel IR. It reads the checker's facts (types, shapes,
// builtins, stages) instead of re-deriving them, makes broadcasts and scalar operands explicit, and reports
// the constructs it cannot lower yet as user diagnostics (never a silent wrong IR).
#pragma once

#include "dsl/ast.h"
#include "dsl/sema.h"
#include "ir/ir.h"
#include "support/diagnostic.h"

namespace tilecraft::passes {

/// Lowers every kernel of a program that passed the checker. Unsupported constructs are reported to
/// `diagnostics`; the returned module then holds only the kernels that lowered.
ir::Module lower(const dsl::Ast& ast, const dsl::SemaResult& sema, const support::SourceManager& sources,
                 support::DiagnosticEngine& diagnostics);

}  // namespace tilecraft::passes
