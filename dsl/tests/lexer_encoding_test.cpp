// Files as editors and other systems write them: a UTF-8 byte order mark, CRLF and CR-only line ends, non-ASCII
// letters and bytes that are not UTF-8, reported once per character with columns that count characters.
#include <gtest/gtest.h>

#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

using K = TokenKind;

std::vector<TokenKind> kinds(const std::string& text) {
  testing::Frontend f(text, false);
  std::vector<TokenKind> out;
  for (const Token& t : f.tokens) out.push_back(t.kind);
  return out;
}

const std::string kProgram =
    "N = dim()  # the size\n"
    "\n"
    "@kernel\n"
    "def copy(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
    "    for t in tiles(N, size=64):\n"
    "        with copyin:\n"
    "            v = load(x[t])\n"
    "        with copyout:\n"
    "            store(y[t], v)\n";

std::string withLineEnds(const std::string& text, const std::string& end) {
  std::string out;
  for (char c : text) out += c == '\n' ? end : std::string(1, c);
  return out;
}

TEST(LexerEncoding, CrlfAndCrOnlyFilesLexLikeLfFiles) {
  std::vector<TokenKind> lf = kinds(kProgram);
  EXPECT_EQ(kinds(withLineEnds(kProgram, "\r\n")), lf);
  // CR-only (classic Mac): before, the first comment swallowed the whole file.
  EXPECT_EQ(kinds(withLineEnds(kProgram, "\r")), lf);
  testing::Frontend cr(withLineEnds(kProgram, "\r"));
  EXPECT_EQ(cr.text(), "");
}

TEST(LexerEncoding, CrOnlyLinesCountInDiagnostics) {
  testing::Frontend f("a = 1\rb = 2 $\r", false);
  EXPECT_EQ(f.text(), "t.tile:2:7: error: unexpected character '$'\nb = 2 $\n      ^\n");
}

TEST(LexerEncoding, ByteOrderMarkAtTheStartIsSkipped) {
  EXPECT_EQ(kinds("\xEF\xBB\xBF"
                  "a = 1\n"),
            kinds("a = 1\n"));
  testing::Frontend f(
      "\xEF\xBB\xBF"
      "a = $\n",
      false);
  EXPECT_EQ(f.text(), "t.tile:1:5: error: unexpected character '$'\na = $\n    ^\n");
}

TEST(LexerEncoding, AByteOrderMarkInsideTheFileIsOneError) {
  testing::Frontend f(
      "a = 1\n\xEF\xBB\xBF"
      "b = 2\n",
      false);
  EXPECT_EQ(f.messages(), "unexpected byte order mark (U+FEFF): only the first bytes of a file may hold one\n");
}

TEST(LexerEncoding, NonAsciiLettersAreOneDiagnosticEachWithCharacterColumns) {
  // "é" is two bytes and "→" three: one error each, and the column after them counts characters.
  testing::Frontend f("x = \xC3\xA9 + \xE2\x86\x92 $\n", false);
  EXPECT_EQ(f.messages(),
            "unexpected character U+00E9 '\xC3\xA9' (names and operators are ASCII)\n"
            "unexpected character U+2192 '\xE2\x86\x92' (names and operators are ASCII)\n"
            "unexpected character '$'\n");
  std::string text = f.text();
  EXPECT_NE(text.find("t.tile:1:5: error: unexpected character U+00E9"), std::string::npos) << text;
  EXPECT_NE(text.find("t.tile:1:9: error: unexpected character U+2192"), std::string::npos) << text;
  EXPECT_NE(text.find("t.tile:1:11: error: unexpected character '$'"), std::string::npos) << text;
}

TEST(LexerEncoding, InvalidUtf8BytesAndControlCharactersAreNamed) {
  testing::Frontend f("x = \xFF\xFE 1\x01\n", false);
  EXPECT_EQ(f.messages(),
            "invalid UTF-8 byte 0xFF\n"
            "invalid UTF-8 byte 0xFE\n"
            "unexpected control character U+0001\n");
}

TEST(LexerEncoding, JsonDiagnosticsReplaceBytesThatAreNotUtf8) {
  support::SourceManager sources;
  support::DiagnosticEngine diagnostics;
  // A Latin-1 file name; the message of a valid letter keeps it, the invalid byte is named in hex.
  support::FileId file = sources.addBuffer("caf\xE9.tile", "x = \x80 \xC3\xA9\n");
  lex(sources, file, diagnostics);
  std::string json = support::renderJson(sources, diagnostics.diagnostics());
  EXPECT_EQ(json,
            "{\"diagnostics\":[{\"severity\":\"error\",\"file\":\"caf\\ufffd.tile\",\"line\":1,\"column\":5,"
            "\"endLine\":1,\"endColumn\":6,\"message\":\"invalid UTF-8 byte 0x80\",\"notes\":[],\"hint\":null},"
            "{\"severity\":\"error\",\"file\":\"caf\\ufffd.tile\",\"line\":1,\"column\":7,\"endLine\":1,"
            "\"endColumn\":8,\"message\":\"unexpected character U+00E9 '\xC3\xA9' (names and operators are ASCII)\","
            "\"notes\":[],\"hint\":null}],\"errors\":2,\"warnings\":0}\n");
}

}  // namespace
}  // namespace tilecraft::dsl
