// `tilecraft import` end to end on the upstream-format files of tests/data/import: the real probe (Python with
// torch, inside bubblewrap), the task folders it writes, the task loader on them, and the golden worker running
// every case of every imported task. Needs /usr/bin/python3 with torch and bubblewrap, as the golden tests do.
#include <unistd.h>

#include <cmath>

#include <fmt/core.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/golden.h"
#include "harness/import_task.h"
#include "runner/sandbox.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(TILECRAFT_SOURCE_DIR) / "harness/tests/data/import";

std::string torchPython() {
  std::string why;
  return findTorchPython(&why).value_or("");
}

class ImportEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    python_ = torchPython();
    ASSERT_FALSE(python_.empty()) << "no Python with torch: install python3-torch";
    scratch_ = fs::temp_directory_path() / fmt::format("import_e2e_{}_{}", ::getpid(),
                                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_ / "work");
  }
  void TearDown() override {
    golden_.reset();
    fs::remove_all(scratch_);
  }

  // Imports `paths` with the real sandboxed probe; outcomes by display path.
  std::map<std::string, ImportOutcome> import(ImportRequest request) {
    request.out = scratch_ / "out";
    std::string usage;
    std::vector<ImportSource> sources = findImportSources(request, &usage);
    EXPECT_EQ(usage, "");
    SandboxProbeOptions o;
    o.python = python_;
    o.workDir = scratch_ / "work";
    o.itemSeconds = 10;
    o.budgetElements = 100000;
    auto probe = makeSandboxProbe(runner::makeSystemSandbox(runner::SandboxMode::Bubblewrap), o);
    std::map<std::string, ImportOutcome> out;
    for (const ImportOutcome& outcome : runImport(request, sources, *probe)) out[outcome.displayPath] = outcome;
    return out;
  }

  // Loads the task and runs its golden on every case; returns the outputs of each case.
  std::vector<std::vector<NamedTensor>> goldens(const fs::path& dir, std::vector<std::vector<NamedTensor>>* inputs) {
    TaskLoad load = loadTask(dir);
    for (const TaskError& e : load.errors) ADD_FAILURE() << e.str();
    for (const TaskError& e : load.warnings) ADD_FAILURE() << e.str();
    if (!load.task) return {};
    if (!golden_) {
      PythonGoldenOptions o;
      o.python = python_;
      o.workDir = scratch_ / "golden";
      golden_ = makePythonGoldenRunner(o);
    }
    std::vector<std::vector<NamedTensor>> out;
    for (const Case& c : load.task->cases) {
      std::vector<NamedTensor> in = generateInputs(*load.task, c, 1);
      GoldenResult r = golden_->run(*load.task, c, in);
      EXPECT_TRUE(r.ok) << dir << " case " << c.id << ": " << r.error;
      out.push_back(r.outputs);
      if (inputs) inputs->push_back(in);
    }
    return out;
  }

  std::string python_;
  fs::path scratch_;
  std::unique_ptr<GoldenRunner> golden_;
};

TEST_F(ImportEndToEnd, KernelBenchFilesImportAndTheirGoldensRun) {
  ImportRequest r;
  r.paths = {kData / "kernelbench"};
  std::map<std::string, ImportOutcome> o = import(r);
  std::map<std::string, std::string> failures;
  for (const auto& [path, outcome] : o) {
    if (outcome.status == ImportStatus::Failed) failures[path] = outcome.reason;
  }
  // Every reason the probe gives, word for word.
  EXPECT_THAT(
      failures,
      ::testing::UnorderedElementsAre(
          ::testing::Pair("complex_output.py", "output 0 of forward() is complex64, which a task cannot store"),
          ::testing::Pair("init_not_literal.py",
                          "value 0 of get_init_inputs() is a value of type dtype, not a literal (int, float, bool, "
                          "str, None, or a list/tuple of them)"),
          ::testing::Pair("init_raises.py", "get_init_inputs() raised NameError: name 'undefined_size' is not defined"),
          ::testing::Pair("inputs_not_list.py", "get_inputs() returned a value of type int, not a list"),
          ::testing::Pair("inputs_raise.py", "get_inputs() raised ValueError: no shapes for you"),
          ::testing::Pair("kills_python.py",
                          "the import probe (Python, in the sandbox) exited with status 7 while importing this task"),
          ::testing::Pair("mixed_argument.py",
                          "argument 1 (extra) of forward() is a tensor in one case and a plain value in another"),
          ::testing::Pair("model_init_raises.py", "Model(*get_init_inputs()) raised RuntimeError: bad width 3"),
          ::testing::Pair("no_groups.py", "get_input_groups() returned no group"),
          ::testing::Pair("no_inputs.py", "the file defines neither get_inputs() nor get_input_groups()"),
          ::testing::Pair("no_model.py", "the file defines no class Model(nn.Module)"),
          ::testing::Pair("output_not_tensor.py", "output 1 of forward() is a value of type int, not a tensor"),
          ::testing::Pair("returns_string.py",
                          "forward() returned a value of type str, not a tensor or a tuple of tensors"),
          ::testing::Pair("sleeps.py", "the probe took longer than 10.0 s"),
          ::testing::Pair("syntax_error.py",
                          "loading the file raised SyntaxError: expected ':' (syntax_error.py, "
                          "line 2)"),
          ::testing::Pair("too_large_for_real_run.py",
                          "forward() does not run on the meta device (NotImplementedError: Could not run "
                          "'aten::nonzero' with arguments from the 'Meta' backend.), and a real run would take 160000 "
                          "elements, more than the budget of 100000"),
          ::testing::Pair("forward_raises.py", "forward() raised ValueError: this model is broken")));
  EXPECT_EQ(o.at("reads_values.py").status, ImportStatus::Imported);
  EXPECT_THAT(o.at("reads_values.py").notes,
              ::testing::ElementsAre("get_inputs() does not run on the meta device: probed with real tensors"));
  EXPECT_EQ(o.at("data_dependent.py").status, ImportStatus::Imported);
  EXPECT_THAT(o.at("data_dependent.py").notes,
              ::testing::ElementsAre(::testing::StartsWith(
                  "forward() does not run on the meta device (NotImplementedError: Could not run 'aten::nonzero' "
                  "with arguments from the 'Meta' backend.): outputs from a real run, no float16/bfloat16 variant")));

  std::vector<std::vector<NamedTensor>> inputs;
  auto relu = goldens(scratch_ / "out/level1/1_scaled_relu", &inputs);
  ASSERT_EQ(relu.size(), 3u);  // float32, float16, bfloat16
  const interp::HostTensor& x = inputs[0][0].tensor;
  const interp::HostTensor& y = relu[0].at(0).tensor;
  ASSERT_EQ(y.shape, (std::vector<int64_t>{16, 67}));
  for (size_t i = 0; i < y.data.size(); ++i) ASSERT_FLOAT_EQ(y.data[i], std::max(x.data[i], 0.0) * 2.5) << i;
  EXPECT_EQ(relu[1].at(0).tensor.dtype, dsl::DType::F16);
  EXPECT_EQ(relu[2].at(0).tensor.dtype, dsl::DType::BF16);

  // The linear layer's weight and bias are inputs: y = sigmoid(x W^T + b + bias).
  inputs.clear();
  auto linear = goldens(scratch_ / "out/level2/2_linear_bias_sigmoid", &inputs);
  ASSERT_EQ(linear.size(), 3u);
  const auto& in = inputs[0];  // x [8, 32], bias [24], linear_weight [24, 32], linear_bias [24]
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[2].name, "linear_weight");
  const interp::HostTensor& out = linear[0].at(0).tensor;
  for (int row = 0; row < 8; ++row) {
    for (int col = 0; col < 24; ++col) {
      double acc = in[3].tensor.data[col] + in[1].tensor.data[col];
      for (int k = 0; k < 32; ++k) acc += in[0].tensor.data[row * 32 + k] * in[2].tensor.data[col * 32 + k];
      ASSERT_NEAR(out.data[row * 24 + col], 1 / (1 + std::exp(-acc)), 1e-6) << row << "," << col;
    }
  }
  auto argmax = goldens(scratch_ / "out/level2/3_argmax_over_dim", nullptr);
  ASSERT_EQ(argmax.size(), 3u);
  EXPECT_EQ(argmax[1].at(0).tensor.dtype, dsl::DType::I64);
  EXPECT_EQ(argmax[1].at(0).tensor.shape, (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(goldens(scratch_ / "out/data_dependent", nullptr).size(), 1u);

  // Rerunning skips what is there; --force imports it again.
  o = import(r);
  EXPECT_EQ(o.at("level1/1_Scaled_ReLU.py").status, ImportStatus::Skipped);
  r.force = true;
  r.paths = {kData / "kernelbench/level1"};
  o = import(r);
  EXPECT_EQ(o.at("level1/1_Scaled_ReLU.py").status, ImportStatus::Imported);
}

TEST_F(ImportEndToEnd, MultiKernelBenchCategoriesAttributesListsAndGroups) {
  ImportRequest r;
  r.multiKernelBench = true;
  r.paths = {kData / "multikernelbench/reference"};
  std::map<std::string, ImportOutcome> o = import(r);
  ASSERT_EQ(o.size(), 4u);
  for (const auto& [path, outcome] : o) EXPECT_EQ(outcome.status, ImportStatus::Imported) << path << outcome.reason;
  TaskLoad gather = loadTask(scratch_ / "out/index/gather");
  ASSERT_TRUE(gather.task);
  EXPECT_EQ(gather.task->category, "index");
  ASSERT_EQ(gather.task->cases.size(), 3u);
  EXPECT_EQ(gather.task->cases[0].inputs[1].valueRange, std::make_pair(0.0, 49.0));  // randint(0, 50)

  std::vector<std::vector<NamedTensor>> inputs;
  auto g = goldens(scratch_ / "out/index/gather", &inputs);
  ASSERT_EQ(g.size(), 3u);
  const auto& x = inputs[0][0].tensor;
  const auto& idx = inputs[0][1].tensor;
  for (int row = 0; row < 4; ++row) {
    for (int j = 0; j < 7; ++j) {
      ASSERT_EQ(g[0][0].tensor.data[row * 7 + j], x.data[row * 50 + static_cast<int>(idx.data[row * 7 + j])]);
    }
  }
  auto cat = goldens(scratch_ / "out/math/cat_rows", nullptr);
  ASSERT_EQ(cat.size(), 3u);
  EXPECT_EQ(cat[0][0].tensor.shape, (std::vector<int64_t>{6, 5}));
  auto leaky = goldens(scratch_ / "out/activation/leaky_relu", &inputs);
  ASSERT_EQ(leaky.size(), 3u);
  auto norm = goldens(scratch_ / "out/normalization/layer_norm", nullptr);
  ASSERT_EQ(norm.size(), 3u);  // three groups of layer_norm.json, weight and bias absent in the third
  EXPECT_EQ(norm[1][0].tensor.dtype, dsl::DType::F16);
  EXPECT_EQ(norm[2][0].tensor.shape, (std::vector<int64_t>{7, 8}));
}

TEST_F(ImportEndToEnd, NpuKernelBenchTasksKeepLevelCategoryCasesAndAnswer) {
  ImportRequest r;
  r.kind = ImportKind::NpuKernelBench;
  r.paths = {kData / "npukernelbench/tasks"};
  r.solutions = scratch_ / "solutions";
  std::map<std::string, ImportOutcome> o = import(r);
  EXPECT_EQ(o.at("level1/Math/Sqrt").status, ImportStatus::Imported);
  EXPECT_EQ(o.at("level2/Norm/RmsNorm").status, ImportStatus::Imported);
  EXPECT_EQ(o.at("level2/Norm/BadCsv").reason, "validation/test_cases.csv:2: 4 cells, the header has 3");
  r.paths = {kData / "npukernelbench/broken"};
  std::map<std::string, ImportOutcome> broken = import(r);
  EXPECT_EQ(broken.at("level1/Math/NoModel").reason, "validation/module.py defines no class Model(nn.Module)");
  EXPECT_EQ(broken.at("level1/Math/NoCases").reason, "validation/test_cases.csv has a header but no case");

  // A Foreach op: a list of tensors in, a list out, as many as the row says.
  r.paths = {kData / "npukernelbench/more"};
  EXPECT_EQ(import(r).at("level2/Foreach/ForeachAbs").status, ImportStatus::Imported);
  std::vector<std::vector<NamedTensor>> listInputs;
  auto abs = goldens(scratch_ / "out/level2/foreach_abs", &listInputs);
  ASSERT_EQ(abs.size(), 2u);
  ASSERT_EQ(abs[1].size(), 3u);  // y.0, y.1, y.2
  EXPECT_EQ(abs[1][2].name, "y.2");
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(abs[1][2].tensor.data[i], std::fabs(listInputs[1][2].tensor.data[i]));
  EXPECT_TRUE(fs::exists(scratch_ / "solutions/sqrt/op_kernel/sqrt.cpp"));

  TaskLoad sqrt = loadTask(scratch_ / "out/level1/sqrt");
  ASSERT_TRUE(sqrt.task);
  EXPECT_EQ(sqrt.task->level, 1);
  EXPECT_EQ(sqrt.task->category, "Math");
  ASSERT_EQ(sqrt.task->cases.size(), 3u);  // the three rows of test_cases.csv, their own dtypes
  EXPECT_EQ(sqrt.task->cases[2].inputs[0].dtypeName, "bfloat16");
  // abs(randn * 10 + 0.01) by interval arithmetic from randn's [-3, 3]: never negative.
  EXPECT_EQ(sqrt.task->cases[0].inputs[0].valueRange, std::make_pair(0.0, 30.01));
  std::vector<std::vector<NamedTensor>> inputs;
  auto s = goldens(scratch_ / "out/level1/sqrt", &inputs);
  ASSERT_EQ(s.size(), 3u);
  const auto& x = inputs[1][0].tensor;  // float32 case
  for (size_t i = 0; i < x.data.size(); ++i) ASSERT_FLOAT_EQ(s[1][0].tensor.data[i], std::sqrt(x.data[i]));

  // eps comes from each row (init inputs that differ per case become the attribute init_inputs).
  TaskLoad rms = loadTask(scratch_ / "out/level2/rms_norm");
  ASSERT_TRUE(rms.task);
  EXPECT_EQ(rms.task->cases[1].attrsJson, "{\"init_inputs\":[1e-05]}");
  EXPECT_EQ(goldens(scratch_ / "out/level2/rms_norm", nullptr).size(), 2u);
}

}  // namespace
}  // namespace tilecraft::harness
