// `tilecraft import`'s library: finding upstream tasks, the task files made from a probe's answer, atomic
// writes, skip/force, the sandboxed probe's handling of a Python that dies (with a scripted sandbox). The real
// probe, on the upstream-format files of tests/data/import, is import_e2e_test.cpp.
#include <unistd.h>

#include <fstream>
#include <functional>

#include <fmt/core.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/import_files.h"
#include "harness/import_task.h"
#include "runner/sandbox.h"
#include "support/files.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kData = fs::path(TILECRAFT_SOURCE_DIR) / "harness/tests/data/import";

class ImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / fmt::format("import_test_{}_{}", ::getpid(),
                                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
  }
  void TearDown() override { fs::remove_all(scratch_); }
  fs::path scratch_;
};

// Answers from a table instead of Python: id -> result (or a failure when the text starts with "!").
class FakeProbe final : public ImportProbe {
 public:
  std::map<std::string, std::string> answers;  // by source file name
  std::vector<std::string> asked;
  std::vector<ProbeResult> probe(ImportKind, const std::vector<ProbeItem>& items) override {
    std::vector<ProbeResult> out;
    for (const ProbeItem& item : items) {
      std::string key = item.source.filename().string();
      asked.push_back(key);
      const std::string& a = answers.at(key);
      out.push_back(a[0] == '!' ? ProbeResult{item.id, false, a.substr(1), ""} : ProbeResult{item.id, true, "", a});
    }
    return out;
  }
};

// What the probe says of 1_Scaled_ReLU.py (one float32 tensor, one init input, float16/bfloat16 variants).
const char* kReluAnswer = R"J({"ok": true, "forward_names": ["x"], "groups": [[{"kind": "tensor", "shape": [16, 67],
  "dtype": "float32", "range": [-3.0, 3.0]}]], "params": [], "outputs": [[{"shape": [16, 67], "dtype": "float32"}]],
  "variants": [{"dtype": "float16"}, {"dtype": "bfloat16"}], "init_inputs": [[2.5]], "init_literal": ["[2.5]"],
  "notes": [], "inputs_from": "get_inputs()"
})J";

ImportSource sourceFor(const fs::path& file, const fs::path& out) {
  ImportRequest request;
  request.paths = {file};
  request.out = out;
  std::string usage;
  std::vector<ImportSource> s = findImportSources(request, &usage);
  EXPECT_EQ(usage, "");
  return s.at(0);
}

TEST(ImportNames, TaskFunctionAndOperatorNames) {
  EXPECT_EQ(taskNameOf("12_Matmul_with_diagonal_matrices_"), "12_matmul_with_diagonal_matrices");
  EXPECT_EQ(taskNameOf("19_ReLU"), "19_relu");
  EXPECT_EQ(taskNameOf("--"), "task");
  EXPECT_EQ(snakeCase("AddRmsNorm"), "add_rms_norm");
  EXPECT_EQ(snakeCase("GeGluV2"), "ge_glu_v2");
  EXPECT_EQ(snakeCase("IsFinite"), "is_finite");
  EXPECT_EQ(snakeCase("TopKV3"), "top_kv3");
  EXPECT_EQ(pythonName("19_relu", "op_"), "op_19_relu");
  EXPECT_EQ(pythonName("lambda", "arg_"), "arg_lambda");
  EXPECT_EQ(pythonName("x", "arg_"), "x");
}

TEST_F(ImportTest, UsageErrorsNameThePath) {
  auto usage = [&](ImportRequest r) {
    r.out = scratch_ / "out";
    std::string why;
    EXPECT_TRUE(findImportSources(r, &why).empty());
    return why;
  };
  ImportRequest r;
  r.paths = {"/nonexistent/x.py"};
  EXPECT_EQ(usage(r), "/nonexistent/x.py: no such file or folder");
  r.paths = {kData / "npukernelbench/tasks/level1/Math/Sqrt/api_desc.md"};
  EXPECT_EQ(usage(r), r.paths[0].string() + ": not a .py file (a KernelBench task is one Python file)");
  r.paths = {kData / "npukernelbench/tasks/level1/Math/Sqrt/answer"};
  EXPECT_EQ(usage(r), r.paths[0].string() + ": no KernelBench task in this folder");
  r.multiKernelBench = true;
  r.paths = {kData / "kernelbench/level1/1_Scaled_ReLU.py"};
  EXPECT_EQ(usage(r), r.paths[0].string() +
                          ": not a folder (--multikernelbench takes MultiKernelBench's reference/ folder or one of its "
                          "category folders)");
  r.multiKernelBench = false;
  r.kind = ImportKind::NpuKernelBench;
  EXPECT_EQ(usage(r),
            r.paths[0].string() + ": not a folder (give an NPUKernelBench task folder or a folder above task folders)");
  r.paths = {kData / "kernelbench"};
  EXPECT_EQ(usage(r), r.paths[0].string() + ": no NPUKernelBench task in this folder");
}

TEST_F(ImportTest, SourcesKeepLevelCategoryAndPlace) {
  ImportRequest r;
  r.out = "out";
  r.paths = {kData / "kernelbench/level2"};
  std::string usage;
  std::vector<ImportSource> kb = findImportSources(r, &usage);
  ASSERT_EQ(kb.size(), 2u);
  EXPECT_EQ(kb[0].displayPath, "level2/2_Linear_Bias_Sigmoid.py");
  EXPECT_EQ(kb[0].level, 2);
  EXPECT_EQ(kb[0].taskDir, fs::path("out/level2/2_linear_bias_sigmoid"));
  EXPECT_EQ(kb[0].category, "");

  r.multiKernelBench = true;
  r.paths = {kData / "multikernelbench/reference"};
  std::vector<ImportSource> mkb = findImportSources(r, &usage);
  ASSERT_EQ(mkb.size(), 4u);
  EXPECT_EQ(mkb[2].displayPath, "math/cat_rows.py");
  EXPECT_EQ(mkb[2].category, "math");
  EXPECT_EQ(mkb[2].level, 0);
  EXPECT_EQ(mkb[2].taskDir, fs::path("out/math/cat_rows"));
  r.paths = {kData / "multikernelbench/reference/index"};  // one category folder
  EXPECT_EQ(findImportSources(r, &usage).at(0).displayPath, "index/gather.py");

  r.multiKernelBench = false;
  r.kind = ImportKind::NpuKernelBench;
  r.paths = {kData / "npukernelbench/tasks"};
  std::vector<ImportSource> nkb = findImportSources(r, &usage);
  ASSERT_EQ(nkb.size(), 4u);
  EXPECT_EQ(nkb[0].displayPath, "level1/Math/Sqrt");
  EXPECT_EQ(nkb[0].category, "Math");
  EXPECT_EQ(nkb[0].taskDir, fs::path("out/level1/sqrt"));
  EXPECT_EQ(nkb[0].error, "");
  EXPECT_EQ(nkb[2].displayPath, "level2/Norm/NoPrepare");
  EXPECT_EQ(nkb[2].error,
            "missing validation/prepare_inputs.py (an NPUKernelBench task has api_desc.md, validation/module.py, "
            "validation/prepare_inputs.py and validation/test_cases.csv)");
}

TEST_F(ImportTest, TwoSourcesForOneFolderAreReported) {
  fs::create_directories(scratch_ / "a/level1");
  fs::create_directories(scratch_ / "b/level1");
  std::ofstream(scratch_ / "a/level1/1_Relu.py") << "\n";
  std::ofstream(scratch_ / "b/level1/1_ReLU.py") << "\n";
  ImportRequest r;
  r.out = "out";
  r.paths = {scratch_ / "a", scratch_ / "b"};
  std::string usage;
  std::vector<ImportSource> s = findImportSources(r, &usage);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].error, "");
  EXPECT_EQ(s[0].displayPath, "level1/1_ReLU.py");
  EXPECT_EQ(s[1].error, "its task folder out/level1/1_relu is also that of level1/1_ReLU.py");
}

TEST_F(ImportTest, TaskFilesFromAProbeAnswer) {
  ImportSource s = sourceFor(kData / "kernelbench/level1/1_Scaled_ReLU.py", scratch_);
  TaskFiles f = makeTaskFiles(s, ImportKind::KernelBench, kReluAnswer);
  ASSERT_EQ(f.error, "");
  EXPECT_EQ(f.cases, 3);
  EXPECT_EQ(f.files.at("proto.yaml"),
            "# Imported by `tilecraft import` from KernelBench level1/1_Scaled_ReLU.py.\n"
            "operator:\n  name: op_1_scaled_relu\n  difficulty: L1\n"
            "  schema: \"op_1_scaled_relu(Tensor x) -> Tensor y\"\n"
            "  inputs:\n    - name: x\n      dtype: [float32, float16, bfloat16]\n"
            "  outputs:\n    - name: y\n      dtype: [float32, float16, bfloat16]\n");
  EXPECT_EQ(
      f.files.at("cases.csv"),
      "case_id,input_shape,dtype,attrs,value_range,note\n"
      "1,\"[[16,67]]\",\"[\"\"float32\"\"]\",{},\"{\"\"x\"\":[-3.0,3.0]}\",get_inputs()\n"
      "2,\"[[16,67]]\",\"[\"\"float16\"\"]\",{},\"{\"\"x\"\":[-3.0,3.0]}\",\"get_inputs(), float16 variant\"\n"
      "3,\"[[16,67]]\",\"[\"\"bfloat16\"\"]\",{},\"{\"\"x\"\":[-3.0,3.0]}\",\"get_inputs(), bfloat16 variant\"\n");
  EXPECT_THAT(f.files.at("golden.py"), ::testing::HasSubstr("_INIT_INPUTS = [2.5]\n"));
  EXPECT_THAT(f.files.at("golden.py"), ::testing::HasSubstr("def op_1_scaled_relu(x: _torch.Tensor = None):\n"));
  EXPECT_EQ(f.files.at("model.py"), *support::readFile(s.path));
  EXPECT_THAT(f.files.at("desc.md"), ::testing::HasSubstr("- `x`: argument 0 of `forward()`\n"));
}

TEST_F(ImportTest, TaskFilesThatCannotBeMadeSayWhy) {
  ImportSource s = sourceFor(kData / "kernelbench/level1/1_Scaled_ReLU.py", scratch_);
  auto error = [&](const std::string& groups, const std::string& outputs = R"([[{"shape": [1], "dtype": "float32"}]])",
                   const std::string& params = "[]") {
    std::string answer = fmt::format(
        R"({{"ok": true, "forward_names": ["x", "lambda"], "groups": {}, "params": {}, "outputs": {},
        "init_inputs": [[]], "init_literal": ["[]"]}})",
        groups, params, outputs);
    return makeTaskFiles(s, ImportKind::KernelBench, answer).error;
  };
  const std::string t = R"({"kind": "tensor", "shape": [2], "dtype": "float32"})";
  const std::string l = R"({"kind": "tensor_list", "items": [{"shape": [2], "dtype": "float32"}]})";
  const std::string v = R"({"kind": "value", "value": 1})";
  EXPECT_EQ(error("[[" + t + ", " + t + "], [" + t + ", " + l + "]]"),
            "argument 1 (arg_lambda) of forward() is a tensor in one case and a list of tensors in another");
  EXPECT_EQ(error("[[" + t + "], [" + v + "]]"),
            "argument 0 (x) of forward() is a tensor in one case and a plain value in another");
  EXPECT_EQ(error("[[" + v + "]]"),
            "forward() takes no tensor and the model has no parameter: nothing for a kernel to read");
  EXPECT_EQ(error("[[" + t + "], [" + t + "]]", R"([[{"shape": [1], "dtype": "float32"}], []])"),
            "forward() returns a different number of outputs for different cases");
  EXPECT_EQ(error("[[" + t + "]]", "[[]]"), "forward() returns no tensor");
  EXPECT_EQ(makeTaskFiles(s, ImportKind::KernelBench, "{oops").error,
            "the import probe's answer is not the expected JSON");
}

TEST_F(ImportTest, ParametersBecomeInputsAndDtypeCombinationsLineUp) {
  ImportSource s = sourceFor(kData / "kernelbench/level2/2_Linear_Bias_Sigmoid.py", scratch_);
  // Two groups of different dtypes (as MultiKernelBench's get_input_groups gives), an integer input, a parameter
  // whose name needs a prefix, an optional input absent in one group.
  std::string answer = R"J({"ok": true, "forward_names": ["x", "idx", "w"], "groups": [
      [{"kind": "tensor", "shape": [4], "dtype": "float16"}, {"kind": "tensor", "shape": [2], "dtype": "int64",
        "range": [0, 3]}, {"kind": "tensor", "shape": [4], "dtype": "float16"}],
      [{"kind": "tensor", "shape": [5], "dtype": "float32"}, {"kind": "tensor", "shape": [3], "dtype": "int64",
        "range": [0, 4]}, {"kind": "none"}]],
    "params": [{"name": "0.weight", "shape": [4], "dtype": "float32", "range": [-0.5, 0.5]}],
    "outputs": [[{"shape": [2], "dtype": "float16"}], [{"shape": [3], "dtype": "float32"}]],
    "variants": [], "init_inputs": [[]], "init_literal": ["[]"], "inputs_from": "get_input_groups()"
})J";
  TaskFiles f = makeTaskFiles(s, ImportKind::KernelBench, answer);
  ASSERT_EQ(f.error, "");
  EXPECT_THAT(f.files.at("proto.yaml"),
              ::testing::HasSubstr("  schema: \"op_2_linear_bias_sigmoid(Tensor x, Tensor idx, Tensor? w, Tensor "
                                   "p_0_weight) -> Tensor y\"\n"
                                   "  inputs:\n    - name: x\n      dtype: [float16, float32]\n"
                                   "    - name: idx\n      dtype: int64\n"
                                   "    - name: w\n      dtype: float16\n      optional: true\n"
                                   "    - name: p_0_weight\n      dtype: float32\n"
                                   "  outputs:\n    - name: y\n      dtype: [float16, float32]\n"));
  EXPECT_THAT(
      f.files.at("cases.csv"),
      ::testing::HasSubstr("2,\"[[5],[3],null,[4]]\",\"[\"\"float32\"\",\"\"int64\"\",null,\"\"float32\"\"]\""));
  EXPECT_THAT(f.files.at("golden.py"), ::testing::HasSubstr("_STATE = [(\"p_0_weight\", \"0.weight\")]"));
}

TEST_F(ImportTest, AnInputAbsentInOneCaseStillListsTheDtypeOfAnother) {
  ImportSource s = sourceFor(kData / "kernelbench/level1/1_Scaled_ReLU.py", scratch_);
  std::string answer = R"J({"ok": true, "forward_names": ["x", "w"], "groups": [
      [{"kind": "tensor", "shape": [4], "dtype": "float32"}, {"kind": "none"}],
      [{"kind": "tensor", "shape": [4], "dtype": "float32"}, {"kind": "tensor", "shape": [4], "dtype": "bfloat16"}]],
    "params": [], "outputs": [[{"shape": [4], "dtype": "float32"}], [{"shape": [4], "dtype": "float32"}]],
    "variants": [], "init_inputs": [[]], "init_literal": ["[]"]})J";
  TaskFiles f = makeTaskFiles(s, ImportKind::KernelBench, answer);
  ASSERT_EQ(f.error, "");
  EXPECT_THAT(f.files.at("proto.yaml"),
              ::testing::HasSubstr("    - name: w\n      dtype: bfloat16\n      optional: true\n"));
}

TEST_F(ImportTest, FoldersAreWrittenAtomically) {
  fs::path dir = scratch_ / "out/t";
  std::string why;
  ASSERT_TRUE(writeFolderAtomically(dir, {{"a.txt", "one"}, {"sub/b.txt", "two"}}, {}, &why)) << why;
  EXPECT_EQ(*support::readFile(dir / "sub/b.txt"), "two");
  ASSERT_TRUE(writeFolderAtomically(dir, {{"c.txt", "three"}}, {}, &why)) << why;
  EXPECT_FALSE(fs::exists(dir / "a.txt"));  // replaced as a whole
  EXPECT_EQ(*support::readFile(dir / "c.txt"), "three");
  // A folder to copy that does not exist: nothing is left behind, the old folder stays.
  EXPECT_FALSE(writeFolderAtomically(dir, {}, scratch_ / "missing", &why));
  EXPECT_THAT(why, ::testing::StartsWith("cannot copy " + (scratch_ / "missing").string() + ": "));
  EXPECT_EQ(*support::readFile(dir / "c.txt"), "three");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(scratch_ / "out")) left.push_back(e.path().filename().string());
  EXPECT_THAT(left, ::testing::ElementsAre("t"));
  // A parent that is a file.
  std::ofstream(scratch_ / "file") << "x";
  EXPECT_FALSE(writeFolderAtomically(scratch_ / "file/t", {{"a", "b"}}, {}, &why));
  EXPECT_THAT(why, ::testing::StartsWith("cannot create "));
}

TEST_F(ImportTest, RunImportReportsEachTaskAndSkipsWhatIsDone) {
  ImportRequest r;
  r.out = scratch_ / "out";
  r.paths = {kData / "kernelbench/level1/1_Scaled_ReLU.py", kData / "kernelbench/level2/3_Argmax_Over_Dim.py"};
  std::string usage;
  std::vector<ImportSource> sources = findImportSources(r, &usage);
  FakeProbe probe;
  probe.answers["1_Scaled_ReLU.py"] = kReluAnswer;
  probe.answers["3_Argmax_Over_Dim.py"] = "!get_inputs() raised ValueError: no";
  std::vector<ImportOutcome> o = runImport(r, sources, probe);
  ASSERT_EQ(o.size(), 2u);
  EXPECT_EQ(o[0].status, ImportStatus::Imported);
  EXPECT_EQ(o[0].cases, 3);
  EXPECT_TRUE(fs::exists(r.out / "level1/1_scaled_relu/golden.py"));
  EXPECT_EQ(o[1].status, ImportStatus::Failed);
  EXPECT_EQ(o[1].reason, "get_inputs() raised ValueError: no");
  EXPECT_FALSE(fs::exists(r.out / "level2/3_argmax_over_dim"));

  probe.asked.clear();
  o = runImport(r, sources, probe);  // the imported one is not probed again
  EXPECT_EQ(o[0].status, ImportStatus::Skipped);
  EXPECT_EQ(o[0].reason, "already imported");
  EXPECT_THAT(probe.asked, ::testing::ElementsAre("3_Argmax_Over_Dim.py"));
  r.force = true;
  probe.asked.clear();
  o = runImport(r, sources, probe);
  EXPECT_EQ(o[0].status, ImportStatus::Imported);
  EXPECT_EQ(probe.asked.size(), 2u);
}

TEST_F(ImportTest, NpuKernelBenchKeepsTheAnswerAsASolution) {
  ImportRequest r;
  r.kind = ImportKind::NpuKernelBench;
  r.out = scratch_ / "out";
  r.solutions = scratch_ / "solutions";
  r.paths = {kData / "npukernelbench/tasks"};
  std::string usage;
  std::vector<ImportSource> sources = findImportSources(r, &usage);
  FakeProbe probe;
  std::string sqrt = R"J({"ok": true, "forward_names": ["input"], "groups": [[{"kind": "tensor", "shape": [4, 33],
    "dtype": "float16"}]], "params": [], "outputs": [[{"shape": [4, 33], "dtype": "float16"}]], "variants": [],
    "init_inputs": [[]], "init_literal": ["[]"], "case_ids": [0], "inputs_from": "get_inputs(param)"
})J";
  probe.answers["Sqrt"] = sqrt;
  probe.answers["RmsNorm"] = sqrt;
  probe.answers["BadCsv"] = "!validation/test_cases.csv:2: 4 cells, the header has 3";
  std::vector<ImportOutcome> o = runImport(r, sources, probe);
  ASSERT_EQ(o.size(), 4u);
  EXPECT_EQ(o[0].status, ImportStatus::Imported);  // level1/Math/Sqrt
  EXPECT_EQ(*support::readFile(r.solutions / "sqrt/op_kernel/sqrt.cpp"),
            *support::readFile(kData / "npukernelbench/tasks/level1/Math/Sqrt/answer/0/op_kernel/sqrt.cpp"));
  EXPECT_THAT(*support::readFile(r.out / "level1/sqrt/proto.yaml"), ::testing::HasSubstr("  category: \"Math\"\n"));
  EXPECT_THAT(*support::readFile(r.out / "level1/sqrt/cases.csv"), ::testing::HasSubstr("test_cases.csv case_id 0"));
  EXPECT_EQ(o[1].reason, "validation/test_cases.csv:2: 4 cells, the header has 3");             // level2/Norm/BadCsv
  EXPECT_EQ(o[2].status, ImportStatus::Failed);                                                 // level2/Norm/NoPrepare
  EXPECT_THAT(o[3].notes, ::testing::ElementsAre("no answer/0/: no reference solution kept"));  // RmsNorm
}

// A sandbox that plays the probe: it writes the result lines of `script` (a few items, then a death).
class ScriptedSandbox final : public runner::Sandbox {
 public:
  std::vector<std::function<runner::SandboxResult(const json& request)>> runs;
  size_t calls = 0;
  runner::SandboxResult run(const runner::SandboxSpec& spec) override {
    json request = json::parse(*support::readFile(spec.argv.at(3)));
    return runs.at(calls++)(request);
  }
};

void writeLines(const json& request, const std::vector<json>& lines) {
  std::ofstream out(request["out"].get<std::string>(), std::ios::app);
  for (const json& l : lines) out << l.dump() << "\n";
}

TEST_F(ImportTest, AProbeThatDiesBlamesTheTaskItWasOnAndTheRestRunAgain) {
  auto sandbox = std::make_shared<ScriptedSandbox>();
  sandbox->runs.push_back([](const json& req) {
    writeLines(req, {{{"id", "a"}, {"start", true}},
                     {{"id", "a"}, {"ok", true}, {"groups", json::array()}},
                     {{"id", "b"}, {"start", true}}});
    runner::SandboxResult r;
    r.started = true;
    r.termSignal = 9;
    r.err = "line 1\nline 2\nMemoryError\n";
    return r;
  });
  sandbox->runs.push_back([](const json& req) {
    EXPECT_EQ(req["items"].size(), 2u);  // c and d, in a fresh process
    writeLines(req, {{{"id", "c"}, {"start", true}},
                     {{"id", "c"}, {"ok", false}, {"error", "no Model"}},
                     {{"id", "d"}, {"start", true}}});
    runner::SandboxResult r;
    r.started = true;
    r.timedOut = true;
    return r;
  });
  SandboxProbeOptions o;
  o.python = "/usr/bin/python3";
  o.workDir = scratch_;
  o.itemSeconds = 10;
  auto probe = makeSandboxProbe(sandbox, o);
  std::vector<ProbeResult> r =
      probe->probe(ImportKind::KernelBench, {{"a", "a.py"}, {"b", "b.py"}, {"c", "c.py"}, {"d", "d.py"}});
  ASSERT_EQ(r.size(), 4u);
  EXPECT_TRUE(r[0].ok);
  EXPECT_EQ(r[1].error,
            "the import probe (Python, in the sandbox) was killed by signal 9 while importing this task; its last "
            "output:\n  line 1\n  line 2\n  MemoryError");
  EXPECT_EQ(r[2].error, "no Model");
  EXPECT_EQ(r[3].error, "the import probe (Python, in the sandbox) timed out after 85 s while importing this task");
}

TEST_F(ImportTest, AProbeThatCannotStartFailsEveryTask) {
  auto sandbox = std::make_shared<ScriptedSandbox>();
  sandbox->runs.push_back([](const json&) {
    runner::SandboxResult r;
    r.startError = "bubblewrap (bwrap) is not installed";
    return r;
  });
  SandboxProbeOptions o;
  o.python = "/usr/bin/python3";
  o.workDir = scratch_;
  auto probe = makeSandboxProbe(sandbox, o);
  std::vector<ProbeResult> r = probe->probe(ImportKind::KernelBench, {{"a", "a.py"}, {"b", "b.py"}});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].error, "the import probe could not start: bubblewrap (bwrap) is not installed");
  EXPECT_EQ(r[1].error, r[0].error);
  EXPECT_EQ(sandbox->calls, 1u);
}

TEST_F(ImportTest, APythonThatExitsBeforeAnyTaskFailsThemAllWithItsOutput) {
  auto sandbox = std::make_shared<ScriptedSandbox>();
  sandbox->runs.push_back([](const json&) {
    runner::SandboxResult r;
    r.started = true;
    r.exitCode = 1;
    r.err = "ModuleNotFoundError: No module named 'torch'\n";
    return r;
  });
  SandboxProbeOptions o;
  o.python = "/usr/bin/python3";
  o.workDir = scratch_;
  auto probe = makeSandboxProbe(sandbox, o);
  std::vector<ProbeResult> r = probe->probe(ImportKind::NpuKernelBench, {{"a", "A"}, {"b", "B"}});
  EXPECT_EQ(r[1].error,
            "the import probe (Python, in the sandbox) exited with status 1 while importing this task; its last "
            "output:\n  ModuleNotFoundError: No module named 'torch'");
}

}  // namespace
}  // namespace tilecraft::harness
