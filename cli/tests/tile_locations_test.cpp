// Emulator messages about generated code moved to the .tile lines the emitter's source map names.
#include "cli/tile_locations.h"

#include <gtest/gtest.h>

namespace tilecraft::cli {
namespace {

// Generated lines 1..6: line 4 made from DSL line 14, line 5 from line 12, the others by the compiler.
const codegen::TileLineMap kMap = {0, 0, 0, 14, 12, 0};

TileLocations where() { return {"k.cpp", "k.cpp", "dir/k.tile", &kMap}; }

TEST(TileLocations, ErrorMovesToTheTileLineAndKeepsTheGeneratedOneAsANote) {
  std::vector<std::string> got = pointAtTile({"/tmp/run-x/k.cpp:4: error: cross-pipe hazard; hint: add a flag",
                                              "/tmp/run-x/k.cpp:5: note: Cast on pipe V is here"},
                                             where());
  EXPECT_EQ(got, (std::vector<std::string>{
                     "dir/k.tile:14: error: cross-pipe hazard; hint: add a flag",
                     "note: generated code: k.cpp:4",
                     "dir/k.tile:12: note: Cast on pipe V is here (generated code: k.cpp:5)",
                 }));
}

TEST(TileLocations, CompilerMadeCodeKeepsTheGeneratedFileWithoutItsFolder) {
  EXPECT_EQ(pointAtTile({"/tmp/run-x/k.cpp:2: error: UB overflow at InitBuffer"}, where()),
            (std::vector<std::string>{"k.cpp:2: error: UB overflow at InitBuffer"}));
  // Past the map's end (a line the map does not know) is the compiler's too.
  EXPECT_EQ(pointAtTile({"k.cpp:99: error: x"}, where()), (std::vector<std::string>{"k.cpp:99: error: x"}));
}

TEST(TileLocations, KeptFolderNamesTheKeptFile) {
  TileLocations kept = where();
  kept.shownName = "kept/k.cpp";
  EXPECT_EQ(pointAtTile({"/tmp/a/k.cpp:4: error: e"}, kept),
            (std::vector<std::string>{"dir/k.tile:14: error: e", "note: generated code: kept/k.cpp:4"}));
}

TEST(TileLocations, OtherFilesAndOtherLinesAreLeftAlone) {
  std::vector<std::string> lines = {
      "/emu/include/emu/core.h:12: error: inside the emulator",  // not the generated file
      "/tmp/xk.cpp:4: note: another file whose name ends the same",
      "k.cpp:x: error: not a line number",
      "    the end of the program's stderr",
  };
  EXPECT_EQ(pointAtTile(lines, where()), lines);
}

}  // namespace
}  // namespace tilecraft::cli
