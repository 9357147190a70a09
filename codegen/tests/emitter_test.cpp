// The emitter's own behaviour: the code printer, determinism, the DSL line comments, and the text and location of
// every error the AscendC path reports.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "codegen/code_printer.h"
#include "codegen/driver.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

std::string example(const std::string& path) { return std::string(TILECRAFT_SOURCE_DIR) + "/examples/" + path; }
std::string testData(const std::string& file) {
  return std::string(TILECRAFT_SOURCE_DIR) + "/codegen/tests/data/" + file;
}

struct Compiled {
  int status;
  std::string out;
  std::string err;
};

Compiled compile(const std::string& file) {
  std::ostringstream out, err;
  int status = runCompileAscendC({file, "text"}, out, err);
  return {status, out.str(), err.str()};
}

TEST(CodePrinter, IndentsBlocksAndKeepsBlankLinesEmpty) {
  CodePrinter p;
  p.open("if (x)");
  p.line("y();");
  p.blank();
  p.close(";");
  EXPECT_EQ(p.str(), "if (x) {\n  y();\n\n};\n");
}

TEST(Emitter, OutputIsDeterministicAndHasNoAbsolutePaths) {
  Compiled a = compile(example("softmax/softmax_rows.tile"));
  Compiled b = compile(example("softmax/softmax_rows.tile"));
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.find(TILECRAFT_SOURCE_DIR), std::string::npos);
}

// cache-hints marks x and y of the add example (each core reads its share once), not the output.
TEST(Emitter, StreamedInputsReadAroundL2) {
  Compiled c = compile(example("elementwise/add.tile"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("xGm_.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // read once: around L2 (cache-hints)"),
            std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("yGm_.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);"), std::string::npos);
  EXPECT_EQ(c.out.find("zGm_.SetL2CacheHint"), std::string::npos);
}

TEST(Emitter, EveryStatementFromTheDslCarriesItsLine) {
  Compiled c = compile(example("elementwise/add.tile"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(
      c.out.find("    // add.tile:12: c = a + b\n    Add(cLocal, aLocal, bLocal, static_cast<int32_t>(tLen_));\n"),
      std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("// add.tile:9: a = load(x[t])\n"), std::string::npos);
  EXPECT_NE(
      c.out.find("extern \"C\" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, "
                 "GM_ADDR tiling)"),
      std::string::npos);
}

// legalize's padded form: the Compare runs over whole repeats after one masked Duplicate clears the lanes past the
// tile, and the Select is one count-mode call: no scalar tail, no V_S/S_V round trip.
TEST(Emitter, APaddedCompareFillsItsLastRepeatAndItsSelectHasNoScalarTail) {
  Compiled c = compile(testData("where_tails.tile"));
  ASSERT_EQ(c.status, 0) << c.err;
  const char* compare =
      "      const int64_t paVec = TcAlignUp(tLen_, 64);\n"
      "      if (paVec > tLen_) {\n"
      "        const int64_t paUsed = tLen_ % 64;\n"
      "        uint64_t paLanes[2] = {~0ULL << paUsed, 0};\n"
      "        Duplicate(aLocal[tLen_ - paUsed], static_cast<float>(0), paLanes, 1, 1, 8);\n"
      "      }\n"
      "      if (paVec > 0) {\n"
      "        CompareScalar(paLocal, aLocal, 0.5f, CMPMODE::GT, static_cast<uint32_t>(paVec));\n";
  EXPECT_NE(c.out.find(compare), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("    Select(yaLocal, paLocal, aLocal, tmp0Local, SELMODE::VSEL_TENSOR_TENSOR_MODE, "
                       "static_cast<uint32_t>(tLen_));\n"),
            std::string::npos);
  // f16: 128 lanes a repeat, two mask words.
  EXPECT_NE(c.out.find("uint64_t pgLanes[2] = {pgUsed < 64 ? ~0ULL << pgUsed : 0, pgUsed < 64 ? ~0ULL : ~0ULL << "
                       "(pgUsed - 64)};"),
            std::string::npos);
  // mg reads an f32 Compare's mask with an f16 Select: only it keeps a scalar tail.
  EXPECT_EQ(c.out.find("for (int64_t j = mgVec; j < tLen_; ++j) {"), c.out.rfind("for (int64_t j = "));
  EXPECT_NE(c.out.find("for (int64_t j = mgVec; j < tLen_; ++j) {"), std::string::npos);
}

// legalize's column form: the column packed (BlockReduceMax of each block's first lane) and spread (Brcb) in place,
// then a row a repeat with the column's block read at stride 0; here the column is the left operand.
TEST(Emitter, AColumnFormSpreadsTheColumnThenReadsItsBlockAtStrideZero) {
  Compiled c = compile(testData("column_rows.tile"));
  ASSERT_EQ(c.status, 0) << c.err;
  const char* spread =
      "      for (int64_t hi = TcCdiv(qRows, 8); hi > 0;) {\n"
      "        const int64_t lo = hi == 1 ? 0 : TcCdiv(hi, 8);\n"
      "        Brcb(mLocal[lo * 64], mLocal[lo * 8], static_cast<uint8_t>(hi - lo), BrcbRepeatParams(1, 8));\n";
  EXPECT_NE(c.out.find(spread), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("BlockReduceMax<float>(mLocal, mLocal, static_cast<int32_t>(qRows / 8), qPack, 1, 1, 8);"),
            std::string::npos);
  EXPECT_NE(c.out.find("Div(qLocal[i * TcAlignUp(tiling_.N, 8) + j], mLocal[i * 8], tmp1Local[i * TcAlignUp(tiling_.N, "
                       "8) + j], static_cast<uint64_t>(TcMin(TcAlignUp(tiling_.N, 8) - j, 64)), repeats, "
                       "BinaryRepeatParams(1, 0, 1, blocks, 1, blocks));"),
            std::string::npos);
  // No column operand is read by the scalar unit any more.
  EXPECT_EQ(c.out.find("const float s = "), std::string::npos);
}

TEST(Emitter, UnsupportedCopyIsAnErrorAtTheDslConstruct) {
  Compiled c = compile(testData("strided_column.tile"));
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.out, "");
  EXPECT_NE(c.err.find("strided_column.tile:11:13: error: the AscendC emitter does not support a copy whose innermost "
                       "index is not the tensor's last dimension (strided columns) yet\n"
                       "            v = load(x[r, 0])\n"
                       "            ^~~~~~~~~~~~~~~~~\n"
                       "hint: compile with --emit=ir to inspect the kernel; see docs/compiler.md \"AscendC emitter\" "
                       "for what is supported\n"),
            std::string::npos)
      << c.err;
}

TEST(Emitter, MoreThanOneKernelPerFileIsAnError) {
  fs::path file = fs::temp_directory_path() / "tilecraft_codegen_two_kernels.tile";
  std::ofstream(file) << "N = dim()\n\n@kernel\ndef one(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                         "    for t in tiles(N, size=256):\n        with copyin:\n            a = load(x[t])\n"
                         "        with copyout:\n            store(y[t], a)\n\n"
                         "@kernel\ndef two(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                         "    for t in tiles(N, size=256):\n        with copyin:\n            a = load(x[t])\n"
                         "        with copyout:\n            store(y[t], a)\n";
  Compiled c = compile(file.string());
  fs::remove(file);
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find("tilecraft_codegen_two_kernels.tile:1:1: error: --emit=ascendc needs exactly one kernel per "
                       "file; tilecraft_codegen_two_kernels.tile has 2\n"),
            std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find("hint: put each @kernel in its own .tile file"), std::string::npos);
}

TEST(Emitter, UnreadableFileIsAUsageError) {
  Compiled c = compile("/nonexistent/x.tile");
  EXPECT_EQ(c.status, 2);
  EXPECT_NE(c.err.find("error: "), std::string::npos);
}

}  // namespace
}  // namespace tilecraft::codegen
