#include <gtest/gtest.h>

#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

std::vector<TokenKind> kinds(const std::string& text) {
  testing::Frontend f(text, false);
  std::vector<TokenKind> out;
  for (const Token& t : f.tokens) out.push_back(t.kind);
  return out;
}

using K = TokenKind;

TEST(Lexer, IndentAndDedentFollowBlocks) {
  EXPECT_EQ(kinds("for i in x:\n    pass\n    pass\npass\n"),
            (std::vector<K>{K::KwFor, K::Name, K::KwIn, K::Name, K::Colon, K::Newline, K::Indent, K::KwPass, K::Newline,
                            K::KwPass, K::Newline, K::Dedent, K::KwPass, K::Newline, K::EndOfFile}));
}

TEST(Lexer, PendingDedentsAtEndOfFileAndNoFinalNewlineNeeded) {
  EXPECT_EQ(kinds("if a:\n    if b:\n        pass"),
            (std::vector<K>{K::KwIf, K::Name, K::Colon, K::Newline, K::Indent, K::KwIf, K::Name, K::Colon, K::Newline,
                            K::Indent, K::KwPass, K::Newline, K::Dedent, K::Dedent, K::EndOfFile}));
}

TEST(Lexer, BlankAndCommentLinesDoNotChangeIndentation) {
  EXPECT_EQ(kinds("if a:\n\n  # note\n    pass\n"), (std::vector<K>{K::KwIf, K::Name, K::Colon, K::Newline, K::Indent,
                                                                    K::KwPass, K::Newline, K::Dedent, K::EndOfFile}));
}

TEST(Lexer, NewlinesInsideBracketsAreJoined) {
  EXPECT_EQ(kinds("f(a,\n      b)\n"),
            (std::vector<K>{K::Name, K::LParen, K::Name, K::Comma, K::Name, K::RParen, K::Newline, K::EndOfFile}));
}

TEST(Lexer, OperatorsLongestMatchFirst) {
  EXPECT_EQ(kinds("a ** b // c <= d != e += 1 -> @\n"),
            (std::vector<K>{K::Name, K::StarStar, K::Name, K::SlashSlash, K::Name, K::LessEq, K::Name, K::NotEq,
                            K::Name, K::PlusAssign, K::Int, K::Arrow, K::At, K::Newline, K::EndOfFile}));
}

TEST(Lexer, NumbersAndStrings) {
  testing::Frontend f("x = 1_024 + 2.5e-3 + .5 + 3e2\ns = '''doc\nstring'''\n", false);
  EXPECT_FALSE(f.diagnostics.hasErrors()) << f.text();
  std::vector<std::string> numbers;
  for (const Token& t : f.tokens) {
    if (t.kind == K::Int || t.kind == K::Float) numbers.push_back(std::string(tokenKindName(t.kind)) + ":" + t.text);
  }
  EXPECT_EQ(numbers, (std::vector<std::string>{"Int:1_024", "Float:2.5e-3", "Float:.5", "Float:3e2"}));
  auto str = std::find_if(f.tokens.begin(), f.tokens.end(), [](const Token& t) { return t.kind == K::String; });
  ASSERT_NE(str, f.tokens.end());
  EXPECT_EQ(str->text, "doc\nstring");
}

TEST(Lexer, KeywordsAreNotNames) {
  EXPECT_EQ(kinds("not True and None or False\n"),
            (std::vector<K>{K::KwNot, K::KwTrue, K::KwAnd, K::KwNone, K::KwOr, K::KwFalse, K::Newline, K::EndOfFile}));
}

TEST(Lexer, ErrorsCarryLocationsAndLexingContinues) {
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  support::FileId file = sources.addBuffer("t.tile", "a = 1 $ 2\nb = 3x\nif a:\n        x\n    y\n");
  std::vector<Token> tokens = lex(sources, file, diagnostics);
  EXPECT_EQ(tokens.back().kind, TokenKind::EndOfFile);
  EXPECT_EQ(support::renderText(sources, diagnostics.diagnostics()),
            "t.tile:1:7: error: unexpected character '$'\n"
            "a = 1 $ 2\n"
            "      ^\n"
            "t.tile:2:5: error: invalid number '3x'\n"
            "b = 3x\n"
            "    ^~\n"
            "t.tile:5:1: error: unindent to column 5 does not match any outer indentation level (column 1)\n"
            "    y\n"
            "^~~~\n"
            "hint: indent this line by 0 spaces\n");
}

TEST(Lexer, TokenDumpHasPositions) {
  testing::Frontend f("x = f(1)\n", false);
  EXPECT_EQ(printTokens(f.sources, f.tokens),
            "1:1 Name 'x'\n1:3 Assign '='\n1:5 Name 'f'\n1:6 LParen '('\n1:7 Int '1'\n1:8 RParen ')'\n1:9 Newline\n"
            "2:1 EndOfFile\n");
}

}  // namespace
}  // namespace tilecraft::dsl
