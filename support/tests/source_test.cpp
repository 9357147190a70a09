#include "support/source.h"

#include <gtest/gtest.h>

namespace tilecraft::support {
namespace {

TEST(SourceManager, LineAndColumnFromOffsets) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.tile", "ab\ncde\n\nf");
  EXPECT_EQ(sm.lineCol(f, 0).line, 1u);
  EXPECT_EQ(sm.lineCol(f, 0).col, 1u);
  EXPECT_EQ(sm.lineCol(f, 1).col, 2u);
  EXPECT_EQ(sm.lineCol(f, 3).line, 2u);
  EXPECT_EQ(sm.lineCol(f, 5).col, 3u);
  EXPECT_EQ(sm.lineCol(f, 7).line, 3u);
  EXPECT_EQ(sm.lineCol(f, 8).line, 4u);
  EXPECT_EQ(sm.lineCol(f, 8).col, 1u);
}

TEST(SourceManager, LineTextStripsNewlineAndCarriageReturn) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.tile", "first\r\nsecond\nlast");
  EXPECT_EQ(sm.lineText(f, 1), "first");
  EXPECT_EQ(sm.lineText(f, 2), "second");
  EXPECT_EQ(sm.lineText(f, 3), "last");
  EXPECT_EQ(sm.lineText(f, 4), "");
}

TEST(SourceManager, FilesHaveDistinctIdsAndNames) {
  SourceManager sm;
  FileId a = sm.addBuffer("a.tile", "x");
  FileId b = sm.addBuffer("dir/b.tile", "y");
  EXPECT_NE(a, b);
  EXPECT_NE(a, kNoFile);
  EXPECT_EQ(sm.name(b), "dir/b.tile");
  EXPECT_EQ(sm.text(Span{b, 0, 1}), "y");
}

TEST(SourceManager, MissingFileReportsError) {
  SourceManager sm;
  std::string error;
  EXPECT_FALSE(sm.addFile("/nonexistent/dir/x.tile", &error).has_value());
  EXPECT_NE(error.find("cannot open '/nonexistent/dir/x.tile'"), std::string::npos) << error;
}

TEST(Span, ToCoversBoth) {
  Span a{1, 4, 6};
  Span b{1, 10, 12};
  EXPECT_EQ(a.to(b), (Span{1, 4, 12}));
  EXPECT_EQ(b.to(a), (Span{1, 4, 12}));
  EXPECT_EQ(Span{}.to(a), a);
}

}  // namespace
}  // namespace tilecraft::support
