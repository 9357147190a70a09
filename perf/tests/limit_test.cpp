// The hardware limit and the eager model on hand-computed cases.
#include <gtest/gtest.h>

#include <cmath>

#include "perf/arch.h"
#include "perf/eager.h"
#include "perf/limit.h"
#include "perf/work.h"

namespace tilecraft::perf {
namespace {

ArchSpec arch910b2() {
  return loadArchByName("910b2", std::filesystem::path(TILECRAFT_SOURCE_DIR) / "configs" / "arch");
}

// One CSV row: shapes, dtypes and attrs as JSON (without CSV quoting).
TaskCase makeCase(const std::string& op, const std::string& shapes, const std::string& dtypes,
                  const std::string& attrs = "{}", const std::string& kernels = "", const std::string& range = "") {
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::string text =
      "level,op_dir,operator,category,case_id,input_shapes,dtypes,attrs,value_range,baseline_kernels,baseline_us,"
      "baseline_kind,t_hw_us\n"
      "level1,x," +
      op + ",C,1," + quote(shapes) + "," + quote(dtypes) + "," + quote(attrs) + "," +
      (range.empty() ? "" : quote(range)) + "," + kernels + ",10,measured,1\n";
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

TEST(Limit, Bf16SigmoidIsVectorBoundAtCannBenchsVectorRate) {
  // bf16 computes in fp32 lanes (64 per 256 B repeat): cast, muls, exp (2), adds, div (4), cast = 10 cycles
  // per repeat, at CANN Bench's 6 T lane operations/s: 10/6 ps per element.
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Sigmoid", "[[4096, 4096]]", "[\"bfloat16\"]");
  LimitResult r = computeLimit(workOf(c), a);
  double n = 4096.0 * 4096;
  EXPECT_NEAR(r.hapUnits.vector, n * 10 / 6e12, 1e-12);
  EXPECT_NEAR(r.hapS * 1e6, 27.96, 0.01);  // CANN Bench t_hw_us of Sigmoid case 3
  EXPECT_EQ(r.hapUnits.bottleneck(), "vector");
  // The pessimistic variant runs the same recipe on 48 AIV at 1.8 GHz.
  EXPECT_NEAR(r.pessimisticUnits.vector, n / 64 * 10 / (48 * 1.8e9), 1e-12);
  EXPECT_GE(r.pessimisticS, r.hapS);
}

TEST(Limit, PessimisticBinaryOpsRunAtTheirMeasuredRate) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Maximum", "[[4096, 4096], [4096, 4096]]", "[\"float32\", \"float32\"]");
  LimitResult r = computeLimit(workOf(c), a);
  double n = 4096.0 * 4096;
  EXPECT_NEAR(r.hapUnits.vector, n * 1.0 / 6e12, 1e-15);
  EXPECT_NEAR(r.pessimisticUnits.vector, n / 64 * 2.0 / (48 * 1.8e9), 1e-15);
}

TEST(Limit, GeluFollowsPyTorchsFormulaForEachApproximation) {
  // bf16 in fp32 lanes, two casts: erf form 5 instructions with erf priced like exp (8 cycles per repeat),
  // tanh form 9 with tanh priced like exp (12).
  ArchSpec a = arch910b2();
  TaskCase none = makeCase("Gelu", "[[4096, 4096]]", "[\"bfloat16\"]", "{\"approximate\": \"none\"}");
  TaskCase tanh = makeCase("Gelu", "[[1023, 1023]]", "[\"bfloat16\"]", "{\"approximate\": \"tanh\"}");
  EXPECT_NEAR(computeLimit(workOf(none), a).hapS * 1e6, 22.37, 0.01);  // t_hw_us of Gelu case 3
  EXPECT_NEAR(computeLimit(workOf(tanh), a).hapS * 1e6, 2.09, 0.01);   // case 6
  // fp16 runs natively and stays memory-bound.
  TaskCase f16 = makeCase("Gelu", "[[8192, 8192]]", "[\"float16\"]", "{\"approximate\": \"tanh\"}");
  EXPECT_EQ(computeLimit(workOf(f16), a).hapUnits.bottleneck(), "mte2");
}

TEST(Limit, CumminCountsOnlyTheValuesAndScansInLogPasses) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Cummin", "[[4096, 4096]]", "[\"bfloat16\"]", "{\"dim\": -1}");
  LimitResult r = computeLimit(workOf(c), a);
  double n = 4096.0 * 4096;
  EXPECT_NEAR(r.hapUnits.mte3, n * 2 / 1.92e12, 1e-12);                           // the int64 indices are left out
  EXPECT_NEAR(r.hapUnits.vector, n * 12 / 6e12, 1e-12);                           // log2(4096) = 12 passes
  EXPECT_NEAR(r.hapS * 1e6, 33.554, 0.01);                                        // t_hw_us of Cummin case 3
  EXPECT_NEAR(r.pessimisticUnits.mte2, (n * 2 + n * 2 + n * 8) / 1.8e12, 1e-12);  // ... but not here
}

TEST(Limit, GcdPassesFollowTheBitsOfTheValueRange) {
  // int32 magnitudes up to 10000: 14 bits, 7 instructions each, in 32-bit lanes.
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Gcd", "[[2048, 2048], [2048, 2048]]", "[\"int32\", \"int32\"]", "{}", "",
                        "[[-10000, 10000], [-10000, 10000]]");
  LimitResult r = computeLimit(workOf(c), a);
  EXPECT_NEAR(r.hapUnits.vector, 2048.0 * 2048 * 7 * 14 / 6e12, 1e-12);
  EXPECT_NEAR(r.hapS * 1e6 / 69.91, 1.0, 0.03);  // t_hw_us of Gcd case 2
  // No value range: the dtype's full range (int16: 16 bits), in 16-bit lanes at half the cost per element.
  TaskCase full = makeCase("Gcd", "[[1024, 1024], [1024, 1024]]", "[\"int16\", \"int16\"]");
  EXPECT_NEAR(computeLimit(workOf(full), a).hapUnits.vector, 1024.0 * 1024 * 7 * 16 / 2 / 6e12, 1e-12);
}

TEST(Limit, DynamicQuantDividesByTheRowScaleAndClamps) {
  // cast in, abs, row max, reciprocal + mul, round, clamp (2), cast to int8: 9 cycles per fp32 repeat.
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("DynamicQuant", "[[8192, 8192]]", "[\"float16\"]");
  LimitResult r = computeLimit(workOf(c), a);
  EXPECT_NEAR(r.hapUnits.vector, 8192.0 * 8192 * 9 / 6e12, 1e-12);
  EXPECT_NEAR(r.hapS * 1e6, 100.67, 0.02);  // t_hw_us of DynamicQuant case 4
}

TEST(Limit, Dilation2DAddsAndMaxesEveryTapInFp16Lanes) {
  // VALID, 3 x 3 taps at rate 3 (window 7): out 503 x 121 per image and channel; 9 adds + 8 maxes in 16-bit lanes.
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("Dilation2D", "[[4, 509, 127, 131], [3, 3, 131]]", "[\"float16\", \"float16\"]",
                        "{\"strides\": [1, 1, 1, 1], \"rates\": [1, 3, 3, 1], \"padding_mode\": \"VALID\", "
                        "\"pads\": [0, 0, 0, 0], \"data_format\": \"NHWC\"}");
  LimitResult r = computeLimit(workOf(c), a);
  double out = 4.0 * 503 * 121 * 131;
  EXPECT_NEAR(r.hapUnits.mte3, out * 2 / 1.92e12, 1e-12);
  EXPECT_NEAR(r.hapUnits.vector, out * 17 / 2 / 6e12, 1e-12);
  EXPECT_NEAR(r.hapS * 1e6, 45.18, 0.01);  // t_hw_us of Dilation2D case 4
}

TEST(Limit, NmsCountsThePairwiseIntersectionOfAllPairs) {
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("NMS", "[[4096, 4], [4096]]", "[\"float32\", \"float32\"]", "{\"iou_threshold\": 0.5}");
  LimitResult r = computeLimit(workOf(c), a);
  EXPECT_NEAR(r.hapUnits.vector, 4096.0 * 4096 * 9 / 6e12, 1e-12);
  EXPECT_NEAR(r.hapS * 1e6, 25.17, 0.01);  // t_hw_us of NMS cases 2-6
}

TEST(Limit, MoeGatingIsSoftmaxThenStreamingTopK) {
  // bf16, 64 experts, k = 8: Softmax's 9 cycles per repeat plus 1 + log2(8) compares per element.
  ArchSpec a = arch910b2();
  TaskCase c = makeCase("MoeGatingTopKSoftmax", "[[131072, 64]]", "[\"bfloat16\"]", "{\"k\": 8}");
  OpWork w = workOf(c);
  EXPECT_DOUBLE_EQ(w.bytesWritten, 131072.0 * 8 * (2 + 4 + 4));
  LimitResult r = computeLimit(w, a);
  EXPECT_NEAR(r.hapUnits.vector, 131072.0 * 64 * 13 / 6e12, 1e-12);
  EXPECT_NEAR(r.hapS * 1e6 / 18.53, 1.0, 0.02);  // t_hw_us of MoeGatingTopKSoftmax case 3
}

TEST(Eager, EveryListedKernelPaysItsFloorAndRoundTrip) {
  ArchSpec a = arch910b2();
  TaskCase one = makeCase("Exp", "[[1024, 1024]]", "[\"float32\"]", "{}",
                          "Exp\xC3\x97"
                          "1");
  TaskCase three = makeCase("Exp", "[[1024, 1024]]", "[\"float32\"]", "{}",
                            "Muls\xC3\x97"
                            "1 + Add\xC3\x97"
                            "1 + Exp\xC3\x97"
                            "1");
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
  for (const std::string& shapes :
       {std::string("[[], [], [], [], [], [], []]"), std::string("[[0, 4], [0, 4], [4], [4], [4], [4], [4]]")}) {
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
