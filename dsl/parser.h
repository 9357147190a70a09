// The Tile DSL parser: recursive descent over the token list, producing an Ast.
#pragma once

#include <cstdint>
#include <vector>

#include "dsl/ast.h"
#include "dsl/token.h"
#include "support/diagnostic.h"

namespace tilecraft::dsl {

// Limits that keep every recursive walk of the tree shallow (docs/language.md §12). Each is far above any
// real program (the examples nest blocks at most 5 levels deep).
/// Parentheses, call arguments, subscripts, prefix operators, '**' and postfix chains, counted together.
inline constexpr uint32_t kMaxExprNesting = 200;
/// Indented blocks (kernel body, for, with, if) and elif chains.
inline constexpr uint32_t kMaxBlockNesting = 100;
/// Operators, calls, subscripts and attributes in one expression, nested parts included.
inline constexpr uint32_t kMaxExprOperations = 20000;
/// Statements in one kernel, nested ones included (compile time grows about linearly with them).
inline constexpr uint32_t kMaxKernelStatements = 20000;

/// Parses a whole file. Syntax errors are reported and the parser resynchronises at the next statement, so
/// one run reports every independent error; the returned Ast holds whatever parsed.
Ast parse(const std::vector<Token>& tokens, support::DiagnosticEngine& diagnostics);

}  // namespace tilecraft::dsl
