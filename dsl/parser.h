// The Tile DSL parser: recursive descent over the token list, producing an Ast.
#pragma once

#include <vector>

#include "dsl/ast.h"
#include "dsl/token.h"
#include "support/diagnostic.h"

namespace tilecraft::dsl {

/// Parses a whole file. Syntax errors are reported and the parser resynchronises at the next statement, so
/// one run reports every independent error; the returned Ast holds whatever parsed.
Ast parse(const std::vector<Token>& tokens, support::DiagnosticEngine& diagnostics);

}  // namespace tilecraft::dsl
