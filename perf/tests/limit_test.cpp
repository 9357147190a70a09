// The hardware limit and the eager model on hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>

#include "perf/arch.h"
#include "perf/eager.h"
#include "perf/limit.h"
#include "perf/work.h"

namespace tilecraft::perf {
namespace {

ArchSpec arch910b2() { return loadArchByName("910b2", std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch"); }

// One CSV row: shapes, dtypes and attrs as JSON (without CSV quoting).
TaskCase makeCase(const std::string& op, const std::string& shapes, const std::string& dtypes,
                  const std::string& attrs = "{}", const std::string& kernels = "") {
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string text =
      "level,op_dir,operator,category,case_id,input_shapes,dtypes,attrs,value_range,baseline_kernels,baseline_us,"
      "baseline_kind,t_hw_us\n"
      "level1,x," + op + ",C,1," + quote(shapes) + "," + quote(dtypes) + "," + quote(attrs) + ",," + kernels + ",10,measured,1\n";
  return parseCasesCsv(text, "test.csv").at(0);
}

OpWork workOf(const TaskCase& c) {
  WorkFn fn = findWork(c.op);
  if (fn == nullptr) throw std::runtime_error("no work function for " + c.op);
  WorkResult r = fn(c);
  if (!r.ok) throw std::runtime_error(r.skipReason);
  return r.work;
}

TEST(Limit, UnaryFp16IsInPlusOutBytesOver3_84TBs) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Exp", "[[8192, 8192]]", "[\"float16\"]", "{\"base\": -1.0, \"scale\": 1.0, \"shift\": 0.0}");
  LimitResult r = computeLimit(workOf(c), a);
  double bytes = 8192.0 * 8192 * 2;
  EXPECT_NEAR(r.hapS, (bytes + bytes) / 3.84e12, 1e-12);
  EXPECT_EQ(r.hapUnits.bottleneck(), "mte2");
  // Pessimistic: reads and writes share 1.8 TB/s.
  EXPECT_NEAR(r.pessimisticS, 2 * bytes / 1.8e12, 1e-12);
}

TEST(Limit, BinaryAddFp16IsBoundByItsReadChannel) {
  // MTE2 and MTE3 are separate 1.92 TB/s channels: a binary op reads twice what it writes, so the
  // read channel sets the limit (CANN Bench's Maximum cases confirm it, 10 of 10 within 1%).
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Maximum", "[[4096, 4096], [4096, 4096]]", "[\"float16\", \"float16\"]");
  LimitResult r = computeLimit(workOf(c), a);
  double tensor = 4096.0 * 4096 * 2;
  EXPECT_NEAR(r.hapUnits.mte2, 2 * tensor / 1.92e12, 1e-12);
  EXPECT_NEAR(r.hapUnits.mte3, tensor / 1.92e12, 1e-12);
  EXPECT_NEAR(r.hapS, 2 * tensor / 1.92e12, 1e-12);
  EXPECT_NEAR(r.pessimisticS, 3 * tensor / 1.8e12, 1e-12);
}

TEST(Limit, GemmIsFlopsOverCubePeak) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("GroupedMatmul", "[[4096, 4096], [1, 4096, 4096]]", "[\"float16\", \"float16\"]",
                        "{\"group_list\": [4096], \"transpose_weight\": false}");
  LimitResult r = computeLimit(workOf(c), a);
  double flops = 2.0 * 4096 * 4096 * 4096;
  EXPECT_NEAR(r.hapS, flops / 353.894e12, 1e-9);
  EXPECT_EQ(r.hapUnits.bottleneck(), "cube");
  EXPECT_NEAR(r.hapS * 1e6, 388.4, 0.1);
}

TEST(Limit, Int8GemmRunsAtTwiceTheFp16Rate) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("QuantMatmul", "[[1024, 3584], [3584, 3584], [3584]]", "[\"int8\", \"int8\", \"float32\"]");
  LimitResult r = computeLimit(workOf(c), a);
  EXPECT_NEAR(r.hapS, 2.0 * 1024 * 3584 * 3584 / (2 * 353.894e12), 1e-9);
  EXPECT_NEAR(r.hapS * 1e6, 37.16, 0.01);  // CANN Bench t_hw_us of QuantMatmul case 1
}

TEST(Limit, TinyCasesHitTheOneMicrosecondFloor) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Maximum", "[[16, 16], [16, 16]]", "[\"float32\", \"float32\"]");
  LimitResult r = computeLimit(workOf(c), a);
  EXPECT_LT(r.hapUnits.max(), 1e-8);
  EXPECT_DOUBLE_EQ(r.hapS, 1e-6);
  EXPECT_DOUBLE_EQ(r.pessimisticS, 1e-6);
}

TEST(Limit, Bf16SigmoidIsVectorBound) {
  // bf16 computes in fp32 lanes (64 per 256 B repeat): cast, muls, exp (2), adds, div (4), cast = 10 cycles
  // per repeat on 48 AIV at 1.8 GHz.
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Sigmoid", "[[4096, 4096]]", "[\"bfloat16\"]");
  LimitResult r = computeLimit(workOf(c), a);
  double n = 4096.0 * 4096;
  EXPECT_NEAR(r.hapUnits.vector, n / 64 * 10 / (48 * 1.8e9), 1e-12);
  EXPECT_EQ(r.hapUnits.bottleneck(), "vector");
  // The pessimistic variant has no binary ops to slow down here, but the shared channel is slower.
  EXPECT_GE(r.pessimisticS, r.hapS);
}

TEST(Limit, PessimisticBinaryOpsRunAtTheirMeasuredRate) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Maximum", "[[4096, 4096], [4096, 4096]]", "[\"float32\", \"float32\"]");
  LimitResult r = computeLimit(workOf(c), a);
  EXPECT_NEAR(r.pessimisticUnits.vector, 2 * r.hapUnits.vector, 1e-15);
}

TEST(Eager, EveryListedKernelPaysItsFloorAndRoundTrip) {
  ArchSpec a = arch910b2();
  TaskCase one = makeCase("Exp", "[[1024, 1024]]", "[\"float32\"]", "{}", "Exp\xC3\x97" "1");
  TaskCase three = makeCase("Exp", "[[1024, 1024]]", "[\"float32\"]", "{}", "Muls\xC3\x97" "1 + Add\xC3\x97" "1 + Exp\xC3\x97" "1");
  EagerResult e1 = computeEager(workOf(one), one.baselineKernels, a);
  EagerResult e3 = computeEager(workOf(three), three.baselineKernels, a);
  ASSERT_EQ(e3.kernels.size(), 3u);
  EXPECT_TRUE(e3.kernels[2].main);
  EXPECT_FALSE(e3.kernels[0].main);
  double roundTrip = a.eagerKernelFloorS + 2 * 1024.0 * 1024 * 4 / a.eagerGmBw;
  EXPECT_NEAR(e3.kernels[0].seconds, roundTrip, 1e-12);
  EXPECT_NEAR(e3.deviceS, e1.deviceS + 2 * roundTrip, 1e-12);
  // A large memory-bound kernel runs near the eager stream bandwidth.
  TaskCase big = makeCase("Exp", "[[8192, 8192]]", "[\"float32\"]");
  EagerResult eb = computeEager(workOf(big), big.baselineKernels, a);
  double stream = 2 * 8192.0 * 8192 * 4 / a.eagerGmBw;
  EXPECT_GT(eb.deviceS, stream);
  EXPECT_LT(eb.deviceS, 1.25 * stream);
  // Host dispatch only matters when the device time is shorter.
  EXPECT_NEAR(e1.withHostS, std::max(a.hostDispatchS, e1.deviceS), 1e-12);
}

TEST(Work, UnknownOperatorsHaveAReason) {
  EXPECT_EQ(findWork("NoSuchOp"), nullptr);
  EXPECT_EQ(unmodelledReason("NoSuchOp"), "no work function for operator 'NoSuchOp'");
  EXPECT_EQ(unmodelledReason("Unique"), "data-dependent output size (sort plus compaction)");
  EXPECT_NE(findWork("Softmax"), nullptr);
}

}  // namespace
}  // namespace tilecraft::perf

namespace tilecraft::perf {
namespace {

// Cases beyond the public ones can have any shapes: scalars and empty tensors must give finite figures (or a
// skip reason), never a crash or NaN.
TEST(Work, EveryOperatorSurvivesScalarAndEmptyInputs) {
  ArchSpec a = arch910b2();
  for (const std::string& shapes : {std::string("[[], [], [], [], [], [], []]"), std::string("[[0, 4], [0, 4], [4], [4], [4], [4], [4]]")}) {
    for (const std::string& op : modelledOperators()) {
      TaskCase c = makeCase(op, shapes, "[\"float16\"]");
      WorkResult r = findWork(op)(c);
      if (!r.ok) {
        EXPECT_FALSE(r.skipReason.empty()) << op;
        continue;
      }
      LimitResult l = computeLimit(r.work, a);
      EagerResult e = computeEager(r.work, c.baselineKernels, a);
      EXPECT_TRUE(std::isfinite(l.hapS) && l.hapS >= 1e-6) << op << " " << shapes;
      EXPECT_TRUE(std::isfinite(l.pessimisticS)) << op << " " << shapes;
      EXPECT_TRUE(std::isfinite(e.deviceS) && e.deviceS > 0) << op << " " << shapes;
    }
  }
}

}  // namespace
}  // namespace tilecraft::perf
