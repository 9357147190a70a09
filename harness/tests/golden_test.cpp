// The Python golden runner against the real worker and Debian's torch (CI installs python3-torch: these tests
// fail, not skip, without it). Task folders live in harness/tests/data/.
#include "harness/golden.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "interp/numeric.h"
#include "support/process.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using dsl::DType;

const fs::path kData = fs::path(TILECRAFT_SOURCE_DIR) / "harness" / "tests" / "data";

std::string torchPython() {
  static const std::string python = [] {
    std::string why;
    std::optional<std::string> p = findTorchPython(&why);
    return p.value_or("");
  }();
  return python;
}

TensorDecl decl(std::string name, std::vector<DType> dtypes, bool optional = false, bool isList = false) {
  return TensorDecl{std::move(name), std::move(dtypes), optional, isList};
}

Task makeTask(const std::string& name, std::vector<TensorDecl> inputs, std::vector<TensorDecl> outputs) {
  Task t;
  t.name = name;
  t.dir = kData / name;
  t.inputs = std::move(inputs);
  t.outputs = std::move(outputs);
  t.schema = name + "(...)";
  return t;
}

CaseTensor caseTensor(std::vector<int64_t> shape, DType dtype) {
  CaseTensor t;
  t.shapes = {std::move(shape)};
  t.dtype = dtype;
  t.valueRange = std::make_pair(-1.0, 1.0);
  return t;
}

Case makeCase(std::vector<CaseTensor> inputs, std::string attrs = "{}") {
  Case c;
  c.id = "1";
  c.inputs = std::move(inputs);
  c.attrsJson = std::move(attrs);
  return c;
}

NamedTensor tensor(std::string name, DType dtype, std::vector<int64_t> shape, std::vector<double> values) {
  return NamedTensor{std::move(name), interp::HostTensor{dtype, std::move(shape), std::move(values)}};
}

class GoldenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(torchPython().empty()) << "no Python with torch: install python3-torch";
    scratch_ = fs::temp_directory_path() / fmt::format("golden_test_{}_{}", ::getpid(),
                                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
  }
  void TearDown() override {
    runner_.reset();
    fs::remove_all(scratch_);
  }
  GoldenRunner& runner(bool cache = false, double timeout = 120) {
    PythonGoldenOptions o;
    o.python = torchPython();
    o.workDir = scratch_ / "work";
    if (cache) o.cacheDir = scratch_ / "cache";
    o.timeoutSeconds = timeout;
    runner_ = makePythonGoldenRunner(o);
    return *runner_;
  }

  Task addExp_ = makeTask(
      "add_exp", {decl("x", {DType::F16, DType::F32, DType::BF16}), decl("y", {DType::F16, DType::F32, DType::BF16})},
      {decl("z", {DType::F16, DType::F32, DType::BF16})});
  Case addExpCase_ = makeCase({caseTensor({2, 3}, DType::F32), caseTensor({2, 3}, DType::F32)});
  std::vector<NamedTensor> addExpInputs_ = {tensor("x", DType::F32, {2, 3}, {0, 0.5, -1, 1, 0.25, -0.5}),
                                            tensor("y", DType::F32, {2, 3}, {0, 0.5, 0.5, -1, 0.25, 2})};

  fs::path scratch_;
  std::unique_ptr<GoldenRunner> runner_;
};

TEST_F(GoldenTest, AddExpComputesInFloat64AndCastsToTheOutputDtype) {
  GoldenResult r = runner().run(addExp_, addExpCase_, addExpInputs_);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.cached);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].name, "z");
  EXPECT_EQ(r.outputs[0].tensor.dtype, DType::F32);
  EXPECT_EQ(r.outputs[0].tensor.shape, (std::vector<int64_t>{2, 3}));
  for (size_t i = 0; i < 6; ++i) {
    double expected =
        interp::roundTo(std::exp(addExpInputs_[0].tensor.data[i] + addExpInputs_[1].tensor.data[i]), DType::F32);
    EXPECT_EQ(r.outputs[0].tensor.data[i], expected) << i;
  }
}

TEST_F(GoldenTest, CapturesTheAtenOpsWithShapesAndDtypes) {
  GoldenResult r = runner().run(addExp_, addExpCase_, addExpInputs_);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.ops.size(), 2u);
  EXPECT_EQ(r.ops[0].name, "aten::add.Tensor");
  EXPECT_EQ(r.ops[0].inShapes, (std::vector<std::vector<int64_t>>{{2, 3}, {2, 3}}));
  EXPECT_EQ(r.ops[0].inDtypes, (std::vector<std::string>{"float64", "float64"}));
  EXPECT_EQ(r.ops[0].outShapes, (std::vector<std::vector<int64_t>>{{2, 3}}));
  EXPECT_EQ(r.ops[1].name, "aten::exp");
  EXPECT_EQ(r.ops[1].inShapes, (std::vector<std::vector<int64_t>>{{2, 3}}));
  EXPECT_EQ(r.ops[1].outDtypes, (std::vector<std::string>{"float64"}));
}

TEST_F(GoldenTest, Bf16OutputIsWrittenAsRawTwoByteNpy) {
  Case c = makeCase({caseTensor({2, 3}, DType::BF16), caseTensor({2, 3}, DType::BF16)});
  std::vector<NamedTensor> in = addExpInputs_;
  for (NamedTensor& t : in) t.tensor.dtype = DType::BF16;  // the values are exact in bf16
  GoldenResult r = runner().run(addExp_, c, in);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].tensor.dtype, DType::BF16);
  for (size_t i = 0; i < 6; ++i) {
    double expected = interp::roundTo(std::exp(in[0].tensor.data[i] + in[1].tensor.data[i]), DType::BF16);
    EXPECT_EQ(r.outputs[0].tensor.data[i], expected) << i;
  }
}

TEST_F(GoldenTest, RmsNormComesFromTheCompatLayer) {
  Task t = makeTask("rms_norm", {decl("x", {DType::F16, DType::F32}), decl("gamma", {DType::F16, DType::F32})},
                    {decl("y", {DType::F16, DType::F32})});
  Case c = makeCase({caseTensor({2, 4}, DType::F16), caseTensor({4}, DType::F16)}, R"({"epsilon": 0.5})");
  std::vector<NamedTensor> in = {tensor("x", DType::F16, {2, 4}, {1, 2, 3, 4, -1, 0, 0.5, 2}),
                                 tensor("gamma", DType::F16, {4}, {1, 0.5, 2, -1})};
  GoldenResult r = runner().run(t, c, in);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].tensor.dtype, DType::F16);
  // Recorded as the one op a device runs, not as the compat layer's CPU decomposition.
  ASSERT_EQ(r.ops.size(), 1u);
  EXPECT_EQ(r.ops[0].name, "aten::rms_norm");
  EXPECT_EQ(r.ops[0].inShapes, (std::vector<std::vector<int64_t>>{{2, 4}, {4}}));
  EXPECT_EQ(r.ops[0].outShapes, (std::vector<std::vector<int64_t>>{{2, 4}}));
  for (int row = 0; row < 2; ++row) {
    double ms = 0;
    for (int k = 0; k < 4; ++k) ms += in[0].tensor.data[row * 4 + k] * in[0].tensor.data[row * 4 + k] / 4;
    for (int k = 0; k < 4; ++k) {
      double expected = in[0].tensor.data[row * 4 + k] / std::sqrt(ms + 0.5) * in[1].tensor.data[k];
      EXPECT_EQ(r.outputs[0].tensor.data[row * 4 + k], interp::roundTo(expected, DType::F16)) << row << "," << k;
    }
  }
}

TEST_F(GoldenTest, Int32IndexTensorsAndPrintsToStdoutWork) {
  Task t = makeTask("int_index", {decl("x", {DType::F32}), decl("idx", {DType::I32})}, {decl("y", {DType::F32})});
  Case c = makeCase({caseTensor({4}, DType::F32), caseTensor({3}, DType::I32)});
  GoldenResult r =
      runner().run(t, c, {tensor("x", DType::F32, {4}, {10, 20, 30, 40}), tensor("idx", DType::I32, {3}, {3, 0, 3})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.outputs[0].tensor.data, (std::vector<double>{40, 10, 40}));
}

TEST_F(GoldenTest, NumericAttributeStringsBecomeFloatsAsInCannBench) {
  Task t =
      makeTask("optional_bias", {decl("x", {DType::F32}), decl("bias", {DType::F32}, true)}, {decl("y", {DType::F32})});
  CaseTensor absent;
  absent.present = false;
  GoldenResult r = runner().run(t, makeCase({caseTensor({2}, DType::F32), absent}, R"({"scale": "0.5"})"),
                                {tensor("x", DType::F32, {2}, {1, -4})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.outputs[0].tensor.data, (std::vector<double>{0.5, -2}));
}

TEST_F(GoldenTest, AbsentOptionalInputIsPassedAsNone) {
  Task t =
      makeTask("optional_bias", {decl("x", {DType::F32}), decl("bias", {DType::F32}, true)}, {decl("y", {DType::F32})});
  CaseTensor absent;
  absent.present = false;
  Case without = makeCase({caseTensor({3}, DType::F32), absent}, R"({"scale": 3.0})");
  GoldenResult r = runner().run(t, without, {tensor("x", DType::F32, {3}, {1, 2, -4})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.outputs[0].tensor.data, (std::vector<double>{3, 6, -12}));

  Case with = makeCase({caseTensor({3}, DType::F32), caseTensor({3}, DType::F32)});
  r = runner_->run(t, with, {tensor("x", DType::F32, {3}, {1, 2, -4}), tensor("bias", DType::F32, {3}, {1, 1, 1})});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.outputs[0].tensor.data, (std::vector<double>{3, 5, -7}));
}

TEST_F(GoldenTest, PythonErrorIsThisRequestsErrorAndTheWorkerGoesOn) {
  Task t = makeTask("raises", {decl("x", {DType::F32})}, {decl("y", {DType::F32})});
  GoldenResult r =
      runner().run(t, makeCase({caseTensor({5}, DType::F32)}), {tensor("x", DType::F32, {5}, {1, 2, 3, 4, 5})});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("golden of raises case 1: ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("in _check"), std::string::npos) << r.error;
  EXPECT_EQ(r.error.substr(r.error.rfind('\n') + 1), "ValueError: bad golden: x has 5 elements");
  EXPECT_TRUE(fs::is_empty(scratch_ / "work" / "requests"));  // a failed request leaves no files behind

  GoldenResult next = runner_->run(addExp_, addExpCase_, addExpInputs_);
  EXPECT_TRUE(next.ok) << next.error;
}

TEST_F(GoldenTest, WorkerDeathIsReportedAndTheWorkerRestarts) {
  Task t = makeTask("dies", {decl("x", {DType::F32})}, {decl("y", {DType::F32})});
  GoldenResult r = runner().run(t, makeCase({caseTensor({1}, DType::F32)}), {tensor("x", DType::F32, {1}, {1})});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "golden of dies case 1: the golden worker died (exit status 7); it restarts for the next request. "
            "Its last output:\ndies: about to exit");

  GoldenResult next = runner_->run(addExp_, addExpCase_, addExpInputs_);
  EXPECT_TRUE(next.ok) << next.error;
}

TEST_F(GoldenTest, TimeoutKillsTheWorkerAndTheNextRequestRuns) {
  Task t = makeTask("sleeps", {decl("x", {DType::F32})}, {decl("y", {DType::F32})});
  GoldenRunner& g = runner(false, 2);
  ASSERT_TRUE(g.run(addExp_, addExpCase_, addExpInputs_).ok);  // the worker is up: the 2 s are the golden's
  GoldenResult r = g.run(t, makeCase({caseTensor({1}, DType::F32)}), {tensor("x", DType::F32, {1}, {1})});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(
      r.error,
      "golden of sleeps case 1: timed out after 2 s; the golden worker was killed and restarts for the next request");
  GoldenResult next = g.run(addExp_, addExpCase_, addExpInputs_);
  EXPECT_TRUE(next.ok) << next.error;
}

TEST_F(GoldenTest, SecondRunIsServedFromTheCacheWithEqualResults) {
  GoldenRunner& g = runner(true);
  GoldenResult first = g.run(addExp_, addExpCase_, addExpInputs_);
  ASSERT_TRUE(first.ok) << first.error;
  EXPECT_FALSE(first.cached);
  GoldenResult second = g.run(addExp_, addExpCase_, addExpInputs_);
  ASSERT_TRUE(second.ok) << second.error;
  EXPECT_TRUE(second.cached);
  ASSERT_EQ(second.outputs.size(), first.outputs.size());
  EXPECT_EQ(second.outputs[0].name, first.outputs[0].name);
  EXPECT_EQ(second.outputs[0].tensor.data, first.outputs[0].tensor.data);
  EXPECT_EQ(second.outputs[0].tensor.dtype, first.outputs[0].tensor.dtype);
  ASSERT_EQ(second.ops.size(), first.ops.size());
  for (size_t i = 0; i < first.ops.size(); ++i) {
    EXPECT_EQ(second.ops[i].name, first.ops[i].name);
    EXPECT_EQ(second.ops[i].inShapes, first.ops[i].inShapes);
  }
  // A different input is a different key.
  std::vector<NamedTensor> other = addExpInputs_;
  other[0].tensor.data[0] = 0.125;
  GoldenResult third = g.run(addExp_, addExpCase_, other);
  ASSERT_TRUE(third.ok) << third.error;
  EXPECT_FALSE(third.cached);
  // So are different attributes.
  Case attrs = addExpCase_;
  attrs.attrsJson = R"({"unused": 1})";
  EXPECT_FALSE(g.run(addExp_, attrs, addExpInputs_).cached);
}

TEST_F(GoldenTest, CacheHitNeedsNoPython) {
  fs::path cache = scratch_ / "cache";
  {
    GoldenRunner& g = runner(true);
    ASSERT_TRUE(g.run(addExp_, addExpCase_, addExpInputs_).ok);
  }
  PythonGoldenOptions o;
  o.python = "/nonexistent/python3";  // would fail to start
  o.workDir = scratch_ / "work2";
  o.cacheDir = cache;
  auto g = makePythonGoldenRunner(o);
  GoldenResult r = g->run(addExp_, addExpCase_, addExpInputs_);
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.cached);
  EXPECT_EQ(r.ops.size(), 2u);
}

TEST_F(GoldenTest, InterpreterThatCannotStartIsReported) {
  PythonGoldenOptions o;
  o.python = "/nonexistent/python3";
  o.workDir = scratch_ / "work";
  auto g = makePythonGoldenRunner(o);
  GoldenResult r = g->run(addExp_, addExpCase_, addExpInputs_);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "golden of add_exp case 1: the golden worker (/nonexistent/python3) did not start (exit status 127): "
            "cannot exec the golden worker's interpreter");
}

TEST_F(GoldenTest, RequestsThatCannotBeBuiltSayWhy) {
  GoldenRunner& g = runner();
  Case badAttrs = addExpCase_;
  badAttrs.attrsJson = "[1, 2]";
  EXPECT_EQ(g.run(addExp_, badAttrs, addExpInputs_).error,
            "golden of add_exp case 1: the case's attributes are not a JSON object: [1, 2]");
  EXPECT_EQ(g.run(addExp_, addExpCase_, {addExpInputs_[0]}).error, "golden of add_exp case 1: no tensor for input 'y'");
  Task list = makeTask("with_inputs_py", {decl("offsets", {DType::I32}), decl("xs", {DType::F32}, false, true)},
                       {decl("y", {DType::I32})});
  CaseTensor xs = caseTensor({2}, DType::F32);
  xs.isList = true;
  EXPECT_EQ(g.run(list, makeCase({caseTensor({1}, DType::I32), xs}), {tensor("offsets", DType::I32, {1}, {0})}).error,
            "golden of with_inputs_py case 1: no tensors for the tensor list input 'xs'");
  Task missing = addExp_;
  missing.dir = kData / "no_such_task";
  EXPECT_EQ(g.run(missing, addExpCase_, addExpInputs_).error,
            fmt::format("golden of add_exp case 1: cannot read {}", (kData / "no_such_task" / "golden.py").string()));
}

TEST_F(GoldenTest, GetInputHookReshapesTheGeneratedInputs) {
  Task t =
      makeTask("scatter_rows", {decl("data", {DType::F32}), decl("index", {DType::I64})}, {decl("y", {DType::F32})});
  Case c = makeCase({caseTensor({3, 2}, DType::F32), caseTensor({4}, DType::I64)});
  std::vector<NamedTensor> generated = {tensor("data", DType::F32, {3, 2}, {1, 2, 3, 4, 5, 6}),
                                        tensor("index", DType::I64, {4}, {0, 0, 0, 0})};
  GoldenResult r = runner().prepareInputs(t, c, generated);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.outputs.size(), 2u);
  EXPECT_EQ(r.outputs[0].name, "data");
  EXPECT_EQ(r.outputs[0].tensor.data, generated[0].tensor.data);
  EXPECT_EQ(r.outputs[1].name, "index");
  EXPECT_EQ(r.outputs[1].tensor.dtype, DType::I64);
  EXPECT_EQ(r.outputs[1].tensor.data, (std::vector<double>{0, 2, 1, 0}));  // arange(4).flip(0) % 3

  // A golden without the hook keeps the inputs as they are, without asking Python.
  GoldenResult same = runner_->prepareInputs(addExp_, addExpCase_, addExpInputs_);
  ASSERT_TRUE(same.ok);
  EXPECT_EQ(same.outputs[1].tensor.data, addExpInputs_[1].tensor.data);
}

TEST_F(GoldenTest, InputsPyMakesStructuredInputsAndTensorLists) {
  Task t = makeTask("with_inputs_py", {decl("offsets", {DType::I32}), decl("xs", {DType::F32}, false, true)},
                    {decl("y", {DType::I32})});
  t.hasInputsPy = true;
  CaseTensor xs;
  xs.isList = true;
  xs.shapes = {{2}, {3}};
  xs.dtype = DType::F32;
  Case c = makeCase({caseTensor({4}, DType::I32), xs});
  GoldenResult in = runner().makeInputs(t, c, 7);
  ASSERT_TRUE(in.ok) << in.error;
  ASSERT_EQ(in.outputs.size(), 3u);
  EXPECT_EQ(in.outputs[0].name, "offsets");
  EXPECT_EQ(in.outputs[0].tensor.data, (std::vector<double>{0, 2, 4, 6}));
  EXPECT_EQ(in.outputs[1].name, "xs.0");
  EXPECT_EQ(in.outputs[1].tensor.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(in.outputs[2].name, "xs.1");
  EXPECT_EQ(in.outputs[2].tensor.shape, (std::vector<int64_t>{3}));
  // Same seed, same inputs.
  GoldenResult again = runner_->makeInputs(t, c, 7);
  ASSERT_TRUE(again.ok);
  EXPECT_EQ(again.outputs[2].tensor.data, in.outputs[2].tensor.data);

  // The tensor list goes to the golden as a Python list.
  GoldenResult r = runner_->run(t, c, in.outputs);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.outputs[0].tensor.dtype, DType::I32);
  EXPECT_EQ(r.outputs[0].tensor.data, (std::vector<double>{2, 4, 6, 8}));
}

TEST(FindTorchPython, FindsOneHere) {
  std::string why;
  std::optional<std::string> p = findTorchPython(&why);
  ASSERT_TRUE(p.has_value()) << why;
  EXPECT_FALSE(p->empty());
}

TEST(FindTorchPython, MessageSaysWhatWasTriedAndWhereTorchComesFrom) {
  support::SystemProcessRunner runner;
  std::string why;
  std::optional<std::string> p = findTorchPythonAmong(
      {{"$TILECRAFT_PYTHON", "/nonexistent/python"}, {"/bin/false", "/bin/false"}, {"python3 in PATH", ""}}, runner,
      &why);
  EXPECT_FALSE(p.has_value());
  EXPECT_EQ(why,
            "no Python interpreter with PyTorch found; tried:\n"
            "  $TILECRAFT_PYTHON = /nonexistent/python: not found\n"
            "  /bin/false: exit status 1\n"
            "  python3 in PATH: none\n"
            "hint: install Debian's python3-torch (apt-get install python3-torch provides /usr/bin/python3 with "
            "torch), or set TILECRAFT_PYTHON to an interpreter that imports torch");
}

TEST(FindTorchPython, AnInterpreterWithoutTorchSaysWhy) {
  // The machine's `python3` may lack torch; a fake one answers like Python does.
  support::SystemProcessRunner runner;
  fs::path fake = fs::temp_directory_path() / fmt::format("golden_test_fake_python_{}", ::getpid());
  {
    std::ofstream out(fake);
    out << "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'torch'\" >&2\nexit 1\n";
  }
  fs::permissions(fake, fs::perms::owner_all);
  std::string why;
  std::optional<std::string> p = findTorchPythonAmong({{"python3 in PATH", fake.string()}}, runner, &why);
  fs::remove(fake);
  EXPECT_FALSE(p.has_value());
  EXPECT_NE(
      why.find(fmt::format("  python3 in PATH = {}: ModuleNotFoundError: No module named 'torch'\n", fake.string())),
      std::string::npos)
      << why;
}

TEST(FindTorchPython, TheFirstCandidateWithTorchWins) {
  support::SystemProcessRunner runner;
  std::string why;
  std::optional<std::string> p =
      findTorchPythonAmong({{"$TILECRAFT_PYTHON", "/bin/false"}, {"/usr/bin/python3", torchPython()}}, runner, &why);
  ASSERT_TRUE(p.has_value()) << why;
  EXPECT_EQ(*p, torchPython());
}

}  // namespace
}  // namespace tilecraft::harness
