// The comparison of a device result with the reference: counts, largest errors and the first wrong elements,
// and the per-output check `tilecraft run` and `fuzz --emulate` share.
#include <gtest/gtest.h>

#include "interp/compare.h"
#include "interp/npy.h"
#include "interp/oracle.h"

namespace tilecraft::interp {
namespace {

using dsl::DType;

TEST(Compare, KeepsTheLargestErrorsAndTheFirstWrongElements) {
  HostTensor want{DType::F32, {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}};
  HostTensor got{DType::F32, {2, 4}, {1, 2.5, 3, 0, 5, 6, 7, -8}};
  CompareResult r = compare(want, got, Tolerance::forDType(DType::F32));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches, 3);
  EXPECT_DOUBLE_EQ(r.maxAbsError, 16);
  EXPECT_DOUBLE_EQ(r.maxRelError, 2);
  ASSERT_EQ(r.firstWrong.size(), 3u);
  EXPECT_EQ(r.firstWrong[0].index, 1);
  EXPECT_DOUBLE_EQ(r.firstWrong[0].got, 2.5);
  EXPECT_DOUBLE_EQ(r.firstWrong[0].want, 2);
  EXPECT_EQ(r.firstWrong[2].index, 7);
  EXPECT_EQ(positionText(want.shape, r.firstWrong[2].index), "[1, 3]");
}

TEST(Compare, KeepsAtMostTheFirstFewWrongElements) {
  HostTensor want = HostTensor::zeros(DType::I32, {20});
  HostTensor got = want;
  for (double& v : got.data) v = 1;
  CompareResult r = compare(want, got, Tolerance::forDType(DType::I32));
  EXPECT_EQ(r.mismatches, 20);
  ASSERT_EQ(r.firstWrong.size(), kFirstWrongKept);
  EXPECT_EQ(r.firstWrong.back().index, static_cast<int64_t>(kFirstWrongKept) - 1);
}

TEST(CheckOutputs, ReadsEachOutputAndSaysWhatIsMissingOrWrong) {
  OracleCase oracle;
  oracle.expected["y"] = HostTensor{DType::F32, {2}, {1, 2}};
  oracle.expected["z"] = HostTensor{DType::F32, {2}, {1, 2}};
  oracle.expected["w"] = HostTensor{DType::F32, {2}, {1, 2}};
  for (const auto& [name, t] : oracle.expected) oracle.tolerances[name] = Tolerance::forDType(t.dtype);
  auto read = [](const std::string& name) -> std::optional<std::string> {
    if (name == "y") return encodeNpy(HostTensor{DType::F32, {2}, {1, 2}});
    if (name == "z") return encodeNpy(HostTensor{DType::F32, {2}, {1, 3}});
    return std::nullopt;
  };
  std::vector<OutputCheck> checks = checkOutputs(oracle, read);
  ASSERT_EQ(checks.size(), 3u);
  EXPECT_EQ(checks[0].name, "w");
  EXPECT_FALSE(checks[0].pass());
  EXPECT_EQ(checks[0].summary(), "w: the program wrote no w.npy");
  EXPECT_TRUE(checks[1].pass());
  EXPECT_FALSE(checks[2].pass());
  EXPECT_EQ(checks[2].result.mismatches, 1);
  EXPECT_EQ(checks[2].result.firstWrong.at(0).index, 1);
}

}  // namespace
}  // namespace tilecraft::interp
