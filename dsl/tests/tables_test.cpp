#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "dsl/builtins.h"
#include "dsl/types.h"

namespace tilecraft::dsl {
namespace {

TEST(Types, CastTableFollowsTheA2Conversions) {
  EXPECT_TRUE(castSupported(DType::F16, DType::F32));
  EXPECT_TRUE(castSupported(DType::F32, DType::BF16));
  EXPECT_FALSE(castSupported(DType::F16, DType::BF16));  // no direct half <-> bf16
  EXPECT_FALSE(castSupported(DType::I32, DType::F16));   // needs SetDeqScale; the DSL goes through f32
  EXPECT_EQ(castVia(DType::F16, DType::BF16), DType::F32);
  EXPECT_EQ(castVia(DType::I32, DType::F16), DType::F32);
}

TEST(Types, CapacitiesOf910B) {
  EXPECT_EQ(memCapacityBytes(Mem::UB), 192 * 1024);
  EXPECT_EQ(memCapacityBytes(Mem::L1), 512 * 1024);
  EXPECT_EQ(memCapacityBytes(Mem::L0A), 64 * 1024);
  EXPECT_EQ(memCapacityBytes(Mem::L0B), 64 * 1024);
  EXPECT_EQ(memCapacityBytes(Mem::L0C), 128 * 1024);
}

TEST(Types, MmadAccumulators) {
  EXPECT_EQ(mmadAccumulator(DType::F16), DType::F32);
  EXPECT_EQ(mmadAccumulator(DType::I8), DType::I32);
  EXPECT_FALSE(mmadAccumulator(DType::I32).has_value());
}

TEST(Builtins, RegistryIsInEnumOrderAndNamesAreUnique) {
  auto all = allBuiltins();
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(all[i].id), i) << all[i].name;
    EXPECT_EQ(findBuiltin(all[i].name), &all[i]);
  }
  EXPECT_EQ(findBuiltin("vadd"), nullptr);
}

TEST(Builtins, KeywordsAndSuggestions) {
  EXPECT_TRUE(acceptsKeyword(*findBuiltin("tiles"), "buffers"));
  EXPECT_FALSE(acceptsKeyword(*findBuiltin("tiles"), "buf"));
  std::vector<std::string> names{"load", "store", "copy"};
  EXPECT_EQ(closestName("lod", names), "load");
  EXPECT_EQ(closestName("strore", names), "store");
  EXPECT_FALSE(closestName("matmul", names).has_value());
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

// The language reference lists every builtin with the dtypes the checker enforces (lesson: one source of truth;
// a doc that drifts from the table fails here).
TEST(Builtins, LanguageReferenceMatchesTheRegistry) {
  std::ifstream in(std::string(TILECRAFT_SOURCE_DIR) + "/docs/language.md");
  ASSERT_TRUE(in) << "docs/language.md is missing";
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string doc = buffer.str();
  for (const BuiltinInfo& info : allBuiltins()) {
    std::string row = std::string("| `") + info.signature + "` |";
    size_t at = doc.find(row);
    ASSERT_NE(at, std::string::npos) << "no table row for " << info.signature;
    std::string line = doc.substr(at, doc.find('\n', at) - at);
    std::string dtypes = info.dtypes.str();
    if (!dtypes.empty()) {
      EXPECT_NE(line.find("| " + dtypes + " |"), std::string::npos) << "dtypes of " << info.name << " in: " << line;
    }
  }
}

}  // namespace
}  // namespace tilecraft::dsl
