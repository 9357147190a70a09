// Reference figures from captured ATen ops: hand-built op lists for the arithmetic, and real goldens (run by
// the Python worker on full-size cases) checked against perf's own work functions for the same operators.
#include "harness/reference.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "perf/arch.h"
#include "perf/cases.h"
#include "perf/limit.h"
#include "perf/work.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using dsl::DType;

const fs::path kData = fs::path(TILECRAFT_SOURCE_DIR) / "harness" / "tests" / "data";

const perf::ArchSpec& arch() {
  static const perf::ArchSpec a = perf::loadArchByName("910b2", perf::defaultArchDir());
  return a;
}

NamedTensor zeros(std::string name, DType dtype, std::vector<int64_t> shape) {
  return NamedTensor{std::move(name), interp::HostTensor::zeros(dtype, std::move(shape))};
}

AtenOp op(std::string name, std::vector<std::vector<int64_t>> in, std::vector<std::vector<int64_t>> out,
          std::string dtype = "float64") {
  AtenOp o;
  o.name = std::move(name);
  o.inDtypes.assign(in.size(), dtype);
  o.outDtypes.assign(out.size(), dtype);
  o.inShapes = std::move(in);
  o.outShapes = std::move(out);
  return o;
}

Task taskAt(const fs::path& dir, std::string name) {
  Task t;
  t.name = std::move(name);
  t.dir = dir;
  return t;
}

Case caseWithId(std::string id) {
  Case c;
  c.id = std::move(id);
  return c;
}

TEST(Reference, MemoryBoundElementwiseLimitIsInputBytesOverTheReadChannel) {
  // exp(x + y) over 4M f32 elements: 32 MiB read, 16 MiB written; add and exp are 3 cycles per 64 lanes.
  const int64_t n = 4 << 20;
  std::vector<NamedTensor> in = {zeros("x", DType::F32, {n}), zeros("y", DType::F32, {n})};
  GoldenResult g;
  g.ok = true;
  g.outputs = {zeros("z", DType::F32, {n})};
  g.ops = {op("aten::add.Tensor", {{n}, {n}}, {{n}}), op("aten::exp", {{n}}, {{n}}), op("aten::view", {{n}}, {{n}})};
  ReferenceFigures r = estimateReference(taskAt(kData / "add_exp", "add_exp"), caseWithId("1"), in, g, arch());
  ASSERT_TRUE(r.ok) << r.why;
  double read = 2.0 * n * 4;
  double vector = 3.0 * n / 64 / (arch().hapVectorRate / 64);
  EXPECT_NEAR(r.limitUs, std::max(read / arch().hapMte2Bw, vector) * 1e6, 1e-6);
  EXPECT_EQ(r.bottleneck, "mte2");
  EXPECT_EQ(r.eagerKernels, 2);  // the view launches nothing
  EXPECT_EQ(r.eagerSource, "model");
  EXPECT_TRUE(r.unknownOps.empty());
  // Two kernels, each a floor plus its own GM round trip (f32: the golden's float64 stands for the case's f32).
  double add = arch().eagerKernelFloorS + 3.0 * n * 4 / arch().eagerGmBw;
  double exp = arch().eagerKernelFloorS + 2.0 * n * 4 / arch().eagerGmBw;
  EXPECT_GT(r.eagerUs, (add + exp) * 1e6);
  EXPECT_LT(r.eagerUs, (add + exp) * 1e6 * 1.5);
  EXPECT_DOUBLE_EQ(r.modelEagerUs, r.eagerUs);
}

TEST(Reference, MatmulIsCubeBound) {
  const int64_t m = 4096, k = 4096, n = 4096;
  std::vector<NamedTensor> in = {zeros("a", DType::F16, {m, k}), zeros("b", DType::F16, {k, n})};
  GoldenResult g;
  g.ok = true;
  g.outputs = {zeros("c", DType::F16, {m, n})};
  g.ops = {op("aten::mm", {{m, k}, {k, n}}, {{m, n}})};
  ReferenceFigures r = estimateReference(taskAt(kData / "add_exp", "mm"), caseWithId("1"), in, g, arch());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.bottleneck, "cube");
  EXPECT_NEAR(r.limitUs, 2.0 * m * n * k / arch().cubeFlopsPerSecond(1) * 1e6, 1e-6);
}

TEST(Reference, UnknownOpsAreListedAndPricedAsOneUnaryOp) {
  std::vector<NamedTensor> in = {zeros("x", DType::F32, {1024})};
  GoldenResult g;
  g.ok = true;
  g.outputs = {zeros("y", DType::F32, {1024})};
  g.ops = {op("aten::some_new_op", {{1024}}, {{1024}}), op("aten::exp", {{1024}}, {{1024}})};
  ReferenceFigures r = estimateReference(taskAt(kData / "add_exp", "x"), caseWithId("1"), in, g, arch());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.unknownOps, (std::vector<std::string>{"aten::some_new_op"}));
  EXPECT_EQ(r.eagerKernels, 2);
}

TEST(Reference, FailedGoldenHasNoFigures) {
  GoldenResult g;
  g.error = "boom";
  ReferenceFigures r = estimateReference(taskAt(kData / "add_exp", "x"), caseWithId("1"), {}, g, arch());
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.why, "the golden did not run");
}

TEST(MeasuredBaseline, FoundByWalkingUpToTheCheckoutsMetadata) {
  Task t = taskAt(kData / "checkout" / "tasks" / "level1" / "add_exp", "add_exp");
  EXPECT_EQ(measuredBaselineUs(t, caseWithId("2")), std::optional<double>(40.0));
  EXPECT_EQ(measuredBaselineUs(t, caseWithId("9")), std::nullopt);
  EXPECT_EQ(measuredBaselineUs(taskAt(kData / "add_exp", "add_exp"), caseWithId("1")), std::nullopt);
  // A bench_lab suite keeps its own metadata folder.
  Task suite = taskAt(kData / "checkout" / "bench_lab" / "suite" / "level4" / "mm_op", "mm_op");
  EXPECT_EQ(measuredBaselineUs(suite, caseWithId("3")), std::optional<double>(2577.74));

  GoldenResult g;
  g.ok = true;
  g.outputs = {zeros("z", DType::F32, {2, 3})};
  g.ops = {op("aten::add.Tensor", {{2, 3}, {2, 3}}, {{2, 3}})};
  ReferenceFigures r = estimateReference(t, caseWithId("1"), {zeros("x", DType::F32, {2, 3})}, g, arch());
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.eagerSource, "measured");
  EXPECT_DOUBLE_EQ(r.eagerUs, 21.5);
  EXPECT_GT(r.modelEagerUs, 0);
}

// The real goldens through the worker, against perf's work function for the same operator and case: the
// generic ATen-op estimate and the per-operator model are two sources of truth that must agree.
class AgainstPerf : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string why;
    std::optional<std::string> python = findTorchPython(&why);
    ASSERT_TRUE(python.has_value()) << why;
    PythonGoldenOptions o;
    o.python = *python;
    o.workDir = fs::temp_directory_path() / fmt::format("reference_test_{}", ::getpid());
    runner_ = makePythonGoldenRunner(o).release();
  }
  static void TearDownTestSuite() {
    delete runner_;
    runner_ = nullptr;
  }

  struct Check {
    std::string folder, op;
    std::vector<std::vector<int64_t>> shapes;
    DType dtype;
    std::string attrsJson;
  };

  void expectAgreement(const Check& k) {
    ASSERT_NE(runner_, nullptr);
    Task t = taskAt(kData / k.folder, k.folder);
    t.op = k.op;
    t.schema = k.folder + "(...)";
    Case c = caseWithId("1");
    c.attrsJson = k.attrsJson;
    std::vector<NamedTensor> in;
    perf::TaskCase pc;
    pc.op = k.op;
    for (size_t i = 0; i < k.shapes.size(); ++i) {
      std::string name = fmt::format("in{}", i);
      t.inputs.push_back(TensorDecl{name, {k.dtype}, false, false});
      CaseTensor ct;
      ct.shapes = {k.shapes[i]};
      ct.dtype = k.dtype;
      c.inputs.push_back(ct);
      in.push_back(zeros(name, k.dtype, k.shapes[i]));
      perf::TensorArg a;
      a.present = true;
      a.shapes = {k.shapes[i]};
      a.dtype = k.dtype == DType::F16    ? perf::DType::F16
                : k.dtype == DType::BF16 ? perf::DType::BF16
                                         : perf::DType::F32;
      pc.inputs.push_back(a);
    }
    t.outputs.push_back(TensorDecl{"y", {k.dtype}, false, false});
    GoldenResult g = runner_->run(t, c, in);
    ASSERT_TRUE(g.ok) << g.error;
    ReferenceFigures ours = estimateReference(t, c, in, g, arch());
    ASSERT_TRUE(ours.ok) << ours.why;
    EXPECT_TRUE(ours.unknownOps.empty()) << ours.unknownOps.front();

    perf::WorkFn fn = perf::findWork(k.op);
    ASSERT_NE(fn, nullptr) << k.op;
    perf::WorkResult w = fn(pc);
    ASSERT_TRUE(w.ok) << w.skipReason;
    double perfUs = perf::computeLimit(w.work, arch()).hapS * 1e6;
    double ratio = ours.limitUs / perfUs;
    std::printf("%s %s: limit from ATen ops %.2f us, perf's %.2f us, ratio %.3f\n", k.op.c_str(),
                dsl::dtypeName(k.dtype), ours.limitUs, perfUs, ratio);
    EXPECT_GT(ratio, 1 / 1.5) << k.op << " ours " << ours.limitUs << " us, perf " << perfUs << " us";
    EXPECT_LT(ratio, 1.5) << k.op << " ours " << ours.limitUs << " us, perf " << perfUs << " us";
  }

  static GoldenRunner* runner_;
};

GoldenRunner* AgainstPerf::runner_ = nullptr;

// Shapes and dtypes of CANN Bench cases (RmsNorm 1, Softmax 1, Gelu 1) and bf16 variants, which are
// vector-bound in perf's model.
TEST_F(AgainstPerf, RmsNorm) {
  expectAgreement({"rms_norm", "RmsNorm", {{32, 128, 768}, {768}}, DType::F16, R"({"epsilon": 1e-6})"});
  expectAgreement({"rms_norm", "RmsNorm", {{32, 128, 768}, {768}}, DType::BF16, R"({"epsilon": 1e-6})"});
}

TEST_F(AgainstPerf, Softmax) {
  expectAgreement({"softmax", "Softmax", {{1024, 1024}}, DType::F16, R"({"dim": -1})"});
  expectAgreement({"softmax", "Softmax", {{1024, 1024}}, DType::BF16, R"({"dim": -1})"});
}

TEST_F(AgainstPerf, Gelu) {
  expectAgreement({"gelu", "Gelu", {{1024, 1024}}, DType::F16, R"({"approximate": "none"})"});
  expectAgreement({"gelu", "Gelu", {{1024, 1024}}, DType::BF16, R"({"approximate": "none"})"});
}

}  // namespace
}  // namespace tilecraft::harness
