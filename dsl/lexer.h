// The Tile DSL lexer: source text -> tokens, with Python's indentation rules.
#pragma once

#include <string>
#include <vector>

#include "dsl/token.h"
#include "support/diagnostic.h"

namespace tilecraft::dsl {

/// Tokenises a whole file. Always ends with Newline (if the last line had tokens), pending Dedents and
/// EndOfFile, so the parser never runs off the end. Lexical errors are reported and lexing continues.
std::vector<Token> lex(const support::SourceManager& sources, support::FileId file,
                       support::DiagnosticEngine& diagnostics);

/// One token per line, `LINE:COL Kind 'text'`, for `--emit=tokens` and golden tests.
std::string printTokens(const support::SourceManager& sources, const std::vector<Token>& tokens);

}  // namespace tilecraft::dsl
