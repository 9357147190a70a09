#include "harness/judge.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace tilecraft::harness {
namespace {

interp::HostTensor tensor(dsl::DType t, std::vector<double> values) {
  interp::HostTensor h;
  h.dtype = t;
  h.shape = {static_cast<int64_t>(values.size())};
  h.data = std::move(values);
  return h;
}

TEST(Tolerance, FollowsCannBenchAndKernelBench) {
  Task task;
  EXPECT_DOUBLE_EQ(tolerance(Rule::Cann, task, dsl::DType::F16), std::ldexp(1.0, -10));
  EXPECT_DOUBLE_EQ(tolerance(Rule::Cann, task, dsl::DType::BF16), std::ldexp(1.0, -7));
  EXPECT_DOUBLE_EQ(tolerance(Rule::Cann, task, dsl::DType::F32), std::ldexp(1.0, -13));
  EXPECT_DOUBLE_EQ(tolerance(Rule::Cann, task, dsl::DType::I32), 0);
  EXPECT_DOUBLE_EQ(tolerance(Rule::AllClose, task, dsl::DType::F16), 1e-2);
  EXPECT_DOUBLE_EQ(tolerance(Rule::AllClose, task, dsl::DType::F32), 1e-4);
  task.precision[dsl::DType::F16] = {0.01, 0.1};
  EXPECT_DOUBLE_EQ(tolerance(Rule::Cann, task, dsl::DType::F16), 0.01);
}

TEST(CompareOutput, PassesWithinTauAndFailsBeyond) {
  Task task;
  auto golden = tensor(dsl::DType::F32, {1, 2, 4, 8});
  Comparison ok = compareOutput("y", tensor(dsl::DType::F32, {1, 2, 4, 8.0001}), golden, Rule::Cann, task);
  EXPECT_TRUE(ok.pass) << ok.message;
  Comparison bad = compareOutput("y", tensor(dsl::DType::F32, {1, 2, 4.5, 8}), golden, Rule::Cann, task);
  EXPECT_FALSE(bad.pass);
  EXPECT_NEAR(bad.maxRelError, 0.125, 1e-6);  // CANN Bench divides by |golden| + 1e-7
  EXPECT_EQ(bad.message,
            "y: mean rel error 0.0312 (limit 0.000122), max rel error 0.125 (limit 0.00122), 1 of 4 values over the "
            "max; first: [2] 4.5 vs 4");
  // Within the max everywhere, over the mean: the message points at the worst value.
  Comparison mean =
      compareOutput("y", tensor(dsl::DType::F32, {1.0009, 2.001, 4.002, 8.004}), golden, Rule::Cann, task);
  EXPECT_FALSE(mean.pass);
  EXPECT_EQ(mean.message.substr(mean.message.find("0 of 4")), "0 of 4 values over the max; worst: [0] 1.0009 vs 1");
}

TEST(CompareOutput, NanAndInfPositionsMustMatch) {
  Task task;
  double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  auto golden = tensor(dsl::DType::F16, {nan, inf, -inf, 1});
  EXPECT_TRUE(compareOutput("y", tensor(dsl::DType::F16, {nan, inf, -inf, 1}), golden, Rule::Cann, task).pass);
  Comparison nanMoved = compareOutput("y", tensor(dsl::DType::F16, {0, inf, -inf, nan}), golden, Rule::Cann, task);
  EXPECT_FALSE(nanMoved.pass);
  EXPECT_NE(nanMoved.message.find("2 of 4 values over the max"), std::string::npos) << nanMoved.message;
  EXPECT_FALSE(compareOutput("y", tensor(dsl::DType::F16, {nan, -inf, -inf, 1}), golden, Rule::Cann, task).pass);
  // Saturation: inf where the golden is 65504 compares as 65504.
  EXPECT_TRUE(
      compareOutput("y", tensor(dsl::DType::F16, {inf}), tensor(dsl::DType::F16, {65504}), Rule::Cann, task).pass);
}

TEST(CompareOutput, IntegersAreExact) {
  Task task;
  Comparison c =
      compareOutput("idx", tensor(dsl::DType::I32, {1, 2, 3}), tensor(dsl::DType::I32, {1, 2, 4}), Rule::Cann, task);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.message, "idx: 1 of 3 values differ (integers must match exactly): [2] 3 vs 4");
}

TEST(CompareOutput, SmallValuesUseAnAbsoluteBound) {
  Task task;
  // |golden| below 2^-11 (f16's small-value region): relative error is meaningless there.
  auto golden = tensor(dsl::DType::F16, {1e-5, 1, 1, 1});
  EXPECT_TRUE(compareOutput("y", tensor(dsl::DType::F16, {2e-5, 1, 1, 1}), golden, Rule::Cann, task).pass);
  Comparison c = compareOutput("y", tensor(dsl::DType::F16, {0.01, 1, 1, 1}), golden, Rule::Cann, task);
  EXPECT_FALSE(c.pass);
  EXPECT_NE(c.message.find("(1 near zero)"), std::string::npos) << c.message;
}

TEST(CompareOutput, AllCloseUsesAtolPlusRtol) {
  Task task;
  auto golden = tensor(dsl::DType::F16, {1, 100});
  EXPECT_TRUE(compareOutput("y", tensor(dsl::DType::F16, {1.015, 100.5}), golden, Rule::AllClose, task).pass);
  Comparison c = compareOutput("y", tensor(dsl::DType::F16, {1.03, 100}), golden, Rule::AllClose, task);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.message.substr(0, 46), "y: 1 of 2 values outside allclose(atol=rtol=0.");
}

TEST(TrivialOutput, CatchesZerosConstantsAndCopies) {
  auto golden = tensor(dsl::DType::F32, {0.001, 0.002, 0.0});
  std::vector<NamedTensor> inputs = {{"x", tensor(dsl::DType::F32, {5, 6, 7})}};
  EXPECT_EQ(trivialOutput("y", tensor(dsl::DType::F32, {0, 0, 0}), golden, inputs),
            "y is all zeros but the golden is not");
  EXPECT_EQ(trivialOutput("y", tensor(dsl::DType::F32, {3, 3, 3}), golden, inputs),
            "y is the constant 3 everywhere but the golden is not");
  EXPECT_EQ(trivialOutput("y", tensor(dsl::DType::F32, {5, 6, 7}), golden, inputs),
            "y is a copy of input 'x' but the golden is not");
  EXPECT_EQ(trivialOutput("y", golden, golden, inputs), std::nullopt);
  // A golden that is all zeros (relu of negatives) lets a zero output through.
  auto zeros = tensor(dsl::DType::F32, {0, 0, 0});
  EXPECT_EQ(trivialOutput("y", zeros, zeros, inputs), std::nullopt);
}

TEST(Classify, CompileMessages) {
  EXPECT_EQ(classifyCompileError("k.cpp:3:5: error: 'class AscendC::LocalTensor<half>' has no member named 'Foo'"),
            Failure::UnknownApi);
  EXPECT_EQ(classifyCompileError("k.cpp:9: error: no matching function for call to 'Add(...)'"), Failure::Signature);
  EXPECT_EQ(classifyCompileError("k.cpp:9: error: expected ';' before '}' token"), Failure::Syntax);
  EXPECT_EQ(classifyCompileError("add.tile:4:9: error: dtype f64 is not a Tile DSL dtype"), Failure::Dtype);
  EXPECT_EQ(classifyCompileError("add.tile:4:9: error: UB capacity exceeded: 200000 of 196608 bytes"),
            Failure::MemoryCheck);
  // The first error decides.
  EXPECT_EQ(classifyCompileError("a: error: expected ')'\nb: error: no member named 'x'"), Failure::Syntax);
}

TEST(Classify, CheckMessages) {
  EXPECT_EQ(classifyCheckFailure("k.cpp:56: error: DeQue on an empty VECIN queue: nothing was EnQue'd"),
            Failure::Hazard);
  EXPECT_EQ(classifyCheckFailure("k.cpp:40: error: Add src0 on pipe V reads data that DataCopy on pipe MTE2 wrote, "
                                 "with no queue, flag or barrier between them"),
            Failure::Hazard);
  EXPECT_EQ(classifyCheckFailure("k.cpp:12: error: DataCopy reads GM bytes [0, 4096) past the end of the tensor"),
            Failure::MemoryCheck);
  EXPECT_EQ(classifyCheckFailure("k.cpp:12: error: local tensor address is misaligned"), Failure::MemoryCheck);
}

}  // namespace
}  // namespace tilecraft::harness
