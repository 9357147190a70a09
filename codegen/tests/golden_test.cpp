// Golden AscendC for a few examples (reviewed by hand when they change). Regenerate with
// TILECRAFT_UPDATE_GOLDEN=1 ./codegen_tests --gtest_filter='Golden*', then review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "codegen/driver.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, EmittedAscendCMatchesTheGoldenFile) {
  fs::path tile = fs::path(TILECRAFT_SOURCE_DIR) / "examples" / (GetParam() + ".tile");
  fs::path golden = fs::path(TILECRAFT_SOURCE_DIR) / "codegen/tests/golden" / (tile.stem().string() + ".cpp");
  std::ostringstream out, err;
  ASSERT_EQ(runCompileAscendC({tile.string(), "text"}, out, err), 0) << err.str();
  if (std::getenv("TILECRAFT_UPDATE_GOLDEN")) {
    std::ofstream(golden) << out.str();
    GTEST_SKIP() << "golden file rewritten: " << golden.filename();
  }
  std::ifstream in(golden);
  ASSERT_TRUE(in.good()) << "missing golden file " << golden;
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(out.str(), want.str()) << "regenerate with TILECRAFT_UPDATE_GOLDEN=1 and review the diff";
}

INSTANTIATE_TEST_SUITE_P(Examples, Golden,
                         ::testing::Values("elementwise/add", "broadcast/bias_add", "reduction/sum_rows",
                                           "softmax/softmax_rows", "normalization/layer_norm", "matmul/matmul",
                                           "mixed/matmul_bias_relu"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return fs::path(info.param).filename().string();
                         });

}  // namespace
}  // namespace tilecraft::codegen
