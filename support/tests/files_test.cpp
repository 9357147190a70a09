#include <gtest/gtest.h>

#include "support/files.h"

namespace tilecraft::support {
namespace {

TEST(Files, ListsMatchingFilesRecursivelyInSortedOrder) {
  std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "list_files";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "b/c");
  std::filesystem::create_directories(dir / "a.tile");  // a folder with the extension is not a file
  std::string error;
  for (const char* name : {"z.tile", "b/c/y.tile", "b/x.tile", "b/notes.txt", "tile"}) {
    ASSERT_TRUE(writeFileAtomically(dir / name, "x", &error)) << error;
  }
  std::vector<std::filesystem::path> files = listFilesRecursively(dir, ".tile");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], dir / "b/c/y.tile");
  EXPECT_EQ(files[1], dir / "b/x.tile");
  EXPECT_EQ(files[2], dir / "z.tile");
  EXPECT_TRUE(listFilesRecursively(dir / "missing", ".tile").empty());
}

}  // namespace
}  // namespace tilecraft::support
