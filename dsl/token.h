// Tokens of the Tile DSL: Python's lexical structure (INDENT/DEDENT, implicit joining inside brackets).
#pragma once

#include <string>

#include "support/source.h"

namespace tilecraft::dsl {

// X-macro lists and packed enumerators are laid out by hand, several per line.
// clang-format off
#define TILECRAFT_TOKEN_KINDS(X)                                                                          \
  X(EndOfFile, "end of file") X(Newline, "newline") X(Indent, "indent") X(Dedent, "dedent")                \
  X(Name, "name") X(Int, "integer") X(Float, "float") X(String, "string")                                  \
  X(KwDef, "'def'") X(KwFor, "'for'") X(KwIn, "'in'") X(KwWith, "'with'") X(KwIf, "'if'")                  \
  X(KwElif, "'elif'") X(KwElse, "'else'") X(KwPass, "'pass'") X(KwAnd, "'and'") X(KwOr, "'or'")            \
  X(KwNot, "'not'") X(KwTrue, "'True'") X(KwFalse, "'False'") X(KwNone, "'None'")                          \
  X(LParen, "'('") X(RParen, "')'") X(LBracket, "'['") X(RBracket, "']'") X(Comma, "','")                  \
  X(Colon, "':'") X(Ellipsis, "'...'") X(Dot, "'.'") X(At, "'@'") X(Assign, "'='") X(Plus, "'+'") X(Minus, "'-'")               \
  X(Star, "'*'") X(Slash, "'/'") X(SlashSlash, "'//'") X(Percent, "'%'") X(StarStar, "'**'")               \
  X(PlusAssign, "'+='") X(MinusAssign, "'-='") X(StarAssign, "'*='") X(SlashAssign, "'/='")                \
  X(EqEq, "'=='") X(NotEq, "'!='") X(Less, "'<'") X(LessEq, "'<='") X(Greater, "'>'")                      \
  X(GreaterEq, "'>='") X(Arrow, "'->'") X(Error, "invalid token")
// clang-format on

enum class TokenKind : unsigned char {
#define X(kind, text) kind,
  TILECRAFT_TOKEN_KINDS(X)
#undef X
};

/// Enum name ("Name", "KwFor") for token dumps.
const char* tokenKindName(TokenKind kind);
/// How diagnostics spell the kind ("'('", "newline").
const char* tokenKindText(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  support::Span span;
  std::string text;  // the source text; for strings, the contents without quotes
};

}  // namespace tilecraft::dsl
