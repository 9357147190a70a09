#include "support/diagnostic.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tilecraft::support {
namespace {

class DiagnosticTest : public ::testing::Test {
 protected:
  void SetUp() override { file_ = sm_.addBuffer("k.tile", "def f():\n    t = load(x[r, :])\n    pass\n"); }
  Span at(uint32_t begin, uint32_t end) const { return Span{file_, begin, end}; }

  SourceManager sm_;
  FileId file_ = kNoFile;
};

TEST_F(DiagnosticTest, TextHasLocationSourceLineCaretNoteAndHint) {
  DiagnosticEngine engine;
  // "load" starts at offset 17 (line 2, column 9).
  engine.error(at(17, 21), "tile needs 288 KiB of UB (192 KiB available)")
      .note(at(13, 14), "'t' is double-buffered")
      .hint("size <= 2048");
  std::string text = renderText(sm_, engine.diagnostics());
  EXPECT_EQ(text,
            "k.tile:2:9: error: tile needs 288 KiB of UB (192 KiB available)\n"
            "    t = load(x[r, :])\n"
            "        ^~~~\n"
            "k.tile:2:5: note: 't' is double-buffered\n"
            "    t = load(x[r, :])\n"
            "    ^\n"
            "hint: size <= 2048\n");
}

TEST_F(DiagnosticTest, MultiLineSpanUnderlinesToEndOfFirstLine) {
  DiagnosticEngine engine;
  engine.error(at(13, 40), "bad");
  EXPECT_EQ(renderText(sm_, engine.diagnostics()),
            "k.tile:2:5: error: bad\n"
            "    t = load(x[r, :])\n"
            "    ^~~~~~~~~~~~~~~~~\n");
}

TEST_F(DiagnosticTest, DiagnosticWithoutLocation) {
  DiagnosticEngine engine;
  engine.warning(Span{}, "no kernel in file");
  EXPECT_EQ(renderText(sm_, engine.diagnostics()), "warning: no kernel in file\n");
  EXPECT_EQ(engine.warningCount(), 1u);
  EXPECT_FALSE(engine.hasErrors());
}

TEST_F(DiagnosticTest, DuplicatesAreDroppedButDistinctReportsKept) {
  DiagnosticEngine engine;
  engine.error(at(13, 14), "a");
  engine.error(at(13, 14), "a").hint("ignored");
  engine.error(at(13, 14), "b");
  engine.error(at(17, 21), "a");
  ASSERT_EQ(engine.diagnostics().size(), 3u);
  EXPECT_EQ(engine.errorCount(), 3u);
  EXPECT_TRUE(engine.diagnostics()[0].hint.empty());
}

TEST_F(DiagnosticTest, ErrorLimitStopsCollecting) {
  DiagnosticEngine engine(2);
  engine.error(at(0, 1), "one");
  engine.error(at(1, 2), "two");
  engine.error(at(2, 3), "three");
  EXPECT_TRUE(engine.limitReached());
  EXPECT_EQ(engine.errorCount(), 2u);
}

TEST_F(DiagnosticTest, JsonCarriesTheSameContent) {
  DiagnosticEngine engine;
  engine.error(at(17, 21), "say \"hi\"\n").note(at(13, 14), "here").hint("fix it");
  engine.warning(Span{}, "w");
  auto json = nlohmann::json::parse(renderJson(sm_, engine.diagnostics()));
  EXPECT_EQ(json["errors"], 1);
  EXPECT_EQ(json["warnings"], 1);
  const auto& d = json["diagnostics"][0];
  EXPECT_EQ(d["severity"], "error");
  EXPECT_EQ(d["file"], "k.tile");
  EXPECT_EQ(d["line"], 2);
  EXPECT_EQ(d["column"], 9);
  EXPECT_EQ(d["endLine"], 2);
  EXPECT_EQ(d["endColumn"], 13);
  EXPECT_EQ(d["message"], "say \"hi\"\n");
  EXPECT_EQ(d["hint"], "fix it");
  EXPECT_EQ(d["notes"][0]["column"], 5);
  EXPECT_EQ(d["notes"][0]["message"], "here");
  EXPECT_TRUE(json["diagnostics"][1]["file"].is_null());
  EXPECT_TRUE(json["diagnostics"][1]["hint"].is_null());
}

TEST(DiagnosticSummary, Plurals) {
  EXPECT_EQ(renderSummary(0, 0), "");
  EXPECT_EQ(renderSummary(1, 0), "1 error generated\n");
  EXPECT_EQ(renderSummary(2, 1), "2 errors, 1 warning generated\n");
  EXPECT_EQ(renderSummary(0, 3), "3 warnings generated\n");
}

}  // namespace
}  // namespace tilecraft::support
