// The AscendC solution kind end to end: a hand-written CANN custom-operator project for tasks/level1/add
// (examples/ascendc/add_custom) judged through judgeTask, as `tilecraft bench` judges it, with the real sandboxed service
// and the task's golden.py. The correct project passes with its perf figures; a wrong kernel gets the mismatch
// record; a kernel that does not build gets the compiler's error with its file and line. The same project as a
// MultiKernelBench submission (six strings in one .py) is judged the same way, its errors at the snippet's lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include <fmt/format.h>

#include "harness/bench.h"
#include "harness/golden.h"
#include "harness/project_solution.h"
#include "perf/arch.h"
#include "project/snippet.h"
#include "runner/tests/service_fixture.h"
#include "support/files.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

const fs::path kProject = fs::path(TILECRAFT_SOURCE_DIR) / "examples" / "ascendc" / "add_custom";
const fs::path kTask = fs::path(TILECRAFT_SOURCE_DIR) / "tasks" / "level1" / "add";

class ProjectSolution : public runner::testing::ServiceTest {
 protected:
  void SetUp() override {
    ServiceTest::SetUp();
    if (HasFatalFailure()) return;
    std::string why;
    std::optional<std::string> python = findTorchPython(&why);
    ASSERT_TRUE(python) << why;
    PythonGoldenOptions golden;
    golden.python = *python;
    golden.workDir = tmp_ / "golden";
    golden_ = makePythonGoldenRunner(golden);
    TaskLoad load = loadTask(kTask);
    ASSERT_TRUE(load.task) << (load.errors.empty() ? "" : load.errors.front().str());
    task_ = *load.task;
  }

  // A copy of the project as solution folder SOLUTIONS/add/, its kernel's `from` replaced by `to`.
  Solution variant(const std::string& from, const std::string& to) {
    fs::path dir = tmp_ / "solutions" / "add";
    fs::create_directories(dir);
    fs::copy(kProject, dir, fs::copy_options::recursive);
    fs::path kernel = dir / "op_kernel" / "add_custom.cpp";
    std::string text = support::readFile(kernel).value_or("");
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    std::string error;
    EXPECT_TRUE(support::writeFileAtomically(kernel, text, &error)) << error;
    std::vector<Solution> found = findSolutions(tmp_ / "solutions", "add");
    EXPECT_EQ(found.size(), 1u);
    return found.front();
  }

  // The project as a MultiKernelBench submission, SOLUTIONS/add/submission.py (packed by `tilecraft project pack`'s
  // code), the kernel's `from` replaced by `to` and its literal's prefix `r` by `kernelPrefix`.
  Solution submission(const std::string& from, const std::string& to, const std::string& kernelPrefix = "r") {
    std::string text, error;
    EXPECT_TRUE(project::packSubmission(kProject, text, error)) << error;
    for (const auto& [old, now] :
         {std::pair{from, to}, std::pair<std::string, std::string>{"kernel_src = r", "kernel_src = " + kernelPrefix}}) {
      size_t at = text.find(old);
      EXPECT_NE(at, std::string::npos) << old;
      if (at != std::string::npos) text.replace(at, old.size(), now);
    }
    fs::path dir = tmp_ / "solutions" / "add";
    fs::create_directories(dir);
    EXPECT_TRUE(support::writeFileAtomically(dir / "submission.py", text, &error)) << error;
    snippetText_ = text;
    std::vector<Solution> found = findSolutions(tmp_ / "solutions", "add");
    EXPECT_EQ(found.size(), 1u);
    return found.front();
  }

  std::vector<Record> judge(const Solution& solution, const std::vector<std::string>& caseIds) {
    std::vector<const Case*> cases;
    for (const std::string& id : caseIds) {
      for (const Case& c : task_.cases) {
        if (c.id == id) cases.push_back(&c);
      }
    }
    EXPECT_EQ(cases.size(), caseIds.size());
    BenchOptions options;
    options.outDir = (tmp_ / "out").string();
    BenchEnv env;
    env.service = service_;
    env.golden = golden_.get();
    perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
    std::mutex goldenMutex;
    return judgeTask(task_, cases, solution, options, env, arch, goldenMutex);
  }

  std::unique_ptr<GoldenRunner> golden_;
  Task task_;
  std::string snippetText_;  // the last submission()
};

TEST_F(ProjectSolution, ACorrectProjectPassesEveryCaseWithItsPerfFigures) {
  std::vector<Solution> found = findSolutions(kProject.parent_path(), "add_custom");
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found.front().kind, "ascendc");
  // float16 1024, float32 4096, float16 97 (a tail that is not a whole 32-byte block): both dtype columns.
  std::vector<Record> rows = judge(found.front(), {"1", "2", "3"});
  ASSERT_EQ(rows.size(), 3u);
  for (const Record& r : rows) {
    SCOPED_TRACE(r.caseId);
    EXPECT_EQ(r.solutionKind, "ascendc");
    EXPECT_EQ(r.failure, Failure::None) << r.message;
    EXPECT_TRUE(r.compiled);
    EXPECT_TRUE(r.correct);
    EXPECT_EQ(r.instantiation, "add_custom.cpp");
    EXPECT_GT(r.simUs, 0.0);  // the emulator's trace on the perf model
    EXPECT_GT(r.pipeBusyUs.at("MTE2"), 0.0);
    EXPECT_GT(r.tau, 0.0);
    EXPECT_LT(r.maxRelError, 1e-2);
  }
}

TEST_F(ProjectSolution, AWrongKernelGetsTheMismatchRecord) {
  std::vector<Record> rows = judge(variant("Add(z, x, y,", "Sub(z, x, y,"), {"1"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].compiled);
  EXPECT_FALSE(rows[0].correct);
  EXPECT_EQ(rows[0].failure, Failure::NumericMismatch);
  EXPECT_EQ(rows[0].message.rfind("seed 1: z: mean rel error ", 0), 0u) << rows[0].message;
  EXPECT_GT(rows[0].maxRelError, 0.1);
}

TEST_F(ProjectSolution, AKernelThatDoesNotBuildGetsTheCompilerErrorWithItsFileAndLine) {
  Solution solution = variant("Add(z, x, y,", "AddTypo(z, x, y,");
  std::string kernel = support::readFile(solution.dir / "op_kernel" / "add_custom.cpp").value_or("");
  size_t line = 1 + static_cast<size_t>(std::count(kernel.begin(), kernel.begin() + kernel.find("AddTypo"), '\n'));
  std::vector<Record> rows = judge(solution, {"1"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].compiled);
  EXPECT_EQ(rows[0].failure, Failure::UnknownApi);
  EXPECT_EQ(rows[0].message.rfind(fmt::format("op_kernel/add_custom.cpp:{}:", line), 0), 0u) << rows[0].message;
  EXPECT_NE(rows[0].message.find("'AddTypo' was not declared"), std::string::npos) << rows[0].message;
}

TEST_F(ProjectSolution, AnOperatorWithoutTheCaseDtypeIsADtypeFailure) {
  Solution solution = variant("", "");
  fs::path host = solution.dir / "op_host" / "add_custom.cpp";
  std::string text = support::readFile(host).value_or("");
  for (size_t at; (at = text.find("{ge::DT_FLOAT16, ge::DT_FLOAT}")) != std::string::npos;)
    text.replace(at, 30, "{ge::DT_FLOAT}");
  for (size_t at; (at = text.find("{ge::FORMAT_ND, ge::FORMAT_ND}")) != std::string::npos;)
    text.replace(at, 30, "{ge::FORMAT_ND}");
  std::string error;
  ASSERT_TRUE(support::writeFileAtomically(host, text, &error)) << error;
  std::vector<Record> rows = judge(solution, {"1"});  // float16
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].failure, Failure::Dtype);
  EXPECT_EQ(rows[0].message,
            "AddCustom takes no inputs x f16, y f16 (op_host/add_custom.cpp:58: OpDef dtype combinations: x float32 y "
            "float32)");
}

TEST_F(ProjectSolution, ASubmissionOfSixStringsIsJudgedAsItsProject) {
  Solution solution = submission("", "");
  EXPECT_EQ(solution.kind, "ascendc");
  EXPECT_EQ(solution.snippet.filename(), "submission.py");
  std::vector<Record> rows = judge(solution, {"1", "3"});
  ASSERT_EQ(rows.size(), 2u);
  for (const Record& r : rows) {
    SCOPED_TRACE(r.caseId);
    EXPECT_EQ(r.failure, Failure::None) << r.message;
    EXPECT_TRUE(r.correct);
    EXPECT_EQ(r.instantiation, "add_custom.cpp");
    EXPECT_GT(r.simUs, 0.0);
  }
}

// Where `needle` is in the last submission: line and column, from 1.
std::pair<size_t, size_t> placeOf(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  return {line, at - text.rfind('\n', at)};
}

TEST_F(ProjectSolution, ASubmissionThatDoesNotBuildGetsTheErrorAtItsOwnLineAndColumn) {
  Solution solution = submission("Add(z, x, y,", "AddTypo(z, x, y,");
  // g++ places an undeclared function's error at the call's parenthesis.
  auto [line, column] = placeOf(snippetText_, "(z, x, y,");
  std::vector<Record> rows = judge(solution, {"1"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].compiled);
  EXPECT_EQ(rows[0].failure, Failure::UnknownApi);
  EXPECT_EQ(
      rows[0].message.rfind(fmt::format("submission.py:{}:{}: error: 'AddTypo' was not declared", line, column), 0), 0u)
      << rows[0].message;
}

TEST_F(ProjectSolution, ASubmissionThatCannotBeReadIsASyntaxFailureAtItsLine) {
  Solution solution = submission("", "", "f");
  auto [line, column] = placeOf(snippetText_, "f\"\"\"");
  std::vector<Record> rows = judge(solution, {"1"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].compiled);
  EXPECT_EQ(rows[0].failure, Failure::Syntax);
  EXPECT_EQ(rows[0].message,
            fmt::format("submission.py:{}:{}: error: kernel_src is not a plain string literal", line, column));
}

TEST_F(ProjectSolution, TwoSubmissionsInOneSolutionFolderAreRefused) {
  Solution first = submission("", "");
  fs::copy_file(first.snippet, first.dir / "second.py");
  std::vector<Solution> found = findSolutions(tmp_ / "solutions", "add");
  ASSERT_EQ(found.size(), 1u);
  std::vector<Record> rows = judge(found.front(), {"1"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].failure, Failure::Syntax);
  EXPECT_EQ(rows[0].message, "2 MultiKernelBench submissions (second.py, submission.py, ...); a solution has one");
}

}  // namespace
}  // namespace tilecraft::harness
