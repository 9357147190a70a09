// The emitter's source map (TileLineMap): every generated line's DSL line, what `tilecraft run` points emulator
// errors back with.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "codegen/code_printer.h"
#include "codegen/driver.h"

namespace tilecraft::codegen {
namespace {

std::string example(const std::string& path) { return std::string(TILECRAFT_SOURCE_DIR) + "/examples/" + path; }

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CodePrinter, RecordsTheTileLineOfEveryLine) {
  CodePrinter p;
  p.line("a();");
  p.setTileLine(7);
  p.open("if (x)");
  p.blank();
  p.raw("  b();\n  c();\n");
  p.close();
  EXPECT_EQ(p.tileLines(), (std::vector<uint32_t>{0, 7, 0, 0, 0, 7}));
}

// The line of `code` (1-based) holding `what`, the first one after `after`.
size_t find(const std::vector<std::string>& code, const std::string& what, size_t after = 0) {
  for (size_t i = after; i < code.size(); ++i) {
    if (code[i].find(what) != std::string::npos) return i + 1;
  }
  return 0;
}

TEST(SourceMap, EachStatementMapsToTheDslLineItWasMadeFrom) {
  std::string code, kernel;
  TileLineMap map;
  std::ostringstream err;
  ASSERT_EQ(compileToAscendC({example("elementwise/add.tile"), "text"}, code, kernel, err, &map), 0) << err.str();
  std::vector<std::string> lines = linesOf(code);
  ASSERT_EQ(map.size(), lines.size());
  // examples/elementwise/add.tile: line 9 `a = load(x[t])`, 12 `c = a + b`, 14 `store(z[t], c)`, 11 `with compute:`.
  size_t copyIn = find(lines, "DataCopyPad(aLocal"), add = find(lines, "    Add("),
         copyOut = find(lines, "DataCopyPad(zGm_");
  ASSERT_NE(copyIn * add * copyOut, 0u);
  EXPECT_EQ(map[copyIn - 1], 9u);
  EXPECT_EQ(map[add - 1], 12u);
  EXPECT_EQ(map[copyOut - 1], 14u);
  // A queue operation the compiler inserted belongs to its stage's `with` line.
  size_t deque = find(lines, ".DeQue<", find(lines, "void Compute()"));
  ASSERT_NE(deque, 0u);
  EXPECT_EQ(map[deque - 1], 11u);
  // The include, the tiling and the launcher come from no DSL line.
  EXPECT_EQ(map[find(lines, "#include \"kernel_operator.h\"") - 1], 0u);
  EXPECT_EQ(map[find(lines, "int main(") - 1], 0u);
  EXPECT_EQ(map[find(lines, "pipe_.InitBuffer") - 1], 0u);
}

TEST(SourceMap, EveryLineCommentMatchesTheMapOfTheLineBelowIt) {
  std::string code, kernel;
  TileLineMap map;
  std::ostringstream err;
  ASSERT_EQ(compileToAscendC({example("softmax/softmax_rows.tile"), "text"}, code, kernel, err, &map), 0);
  std::vector<std::string> lines = linesOf(code);
  int checked = 0;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    size_t at = lines[i].find("// softmax_rows.tile:");
    if (at == std::string::npos) continue;
    uint32_t line = static_cast<uint32_t>(std::stoul(lines[i].substr(at + 21)));
    EXPECT_EQ(map[i + 1], line) << "after " << lines[i] << ": " << lines[i + 1];
    ++checked;
  }
  EXPECT_GT(checked, 5);
}

}  // namespace
}  // namespace tilecraft::codegen
