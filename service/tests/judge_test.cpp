// The pieces of judging that are the services' own: the reward formula, verdicts from the harness's rows, the
// checks on a submitted solution and task, request parsing. (The judging itself is the harness's, tested there;
// the end-to-end load test runs it through `tilecraft serve`.)
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/metrics.h"
#include "service/judge.h"
#include "service/verdict_json.h"

namespace tilecraft::service {
namespace {

namespace fs = std::filesystem;
using harness::Failure;
using harness::Record;

Record row(const std::string& id, bool compiled, bool correct, Failure failure = Failure::None) {
  Record r;
  r.task = "add";
  r.caseId = id;
  r.solutionKind = "dsl";
  r.compiled = compiled;
  r.correct = correct;
  r.failure = failure;
  if (!correct) r.message = "why " + id;
  return r;
}

TEST(Reward, TheFormula) {
  Verdict v;
  EXPECT_EQ(rewardOf(v), 0);  // nothing scored
  v.scored = true;
  EXPECT_EQ(rewardOf(v), -1);  // does not compile
  v.compiled = true;
  EXPECT_EQ(rewardOf(v), 0);  // wrong
  v.correct = true;
  EXPECT_EQ(rewardOf(v), 0.5);  // correct, no timing
  v.limitScore = 0.5;
  EXPECT_EQ(rewardOf(v), 0.75);  // at eager speed
  v.limitScore = 1;
  EXPECT_EQ(rewardOf(v), 1);  // at the hardware limit
  v.limitScore = 1.5;
  EXPECT_EQ(rewardOf(v), 1);  // clamped
}

TEST(Verdicts, FromRows) {
  Record fast = row("1", true, true), slow = row("2", true, true);
  fast.simUs = 2, fast.eagerUs = 8, fast.limitUs = 1;
  slow.simUs = 16, slow.eagerUs = 8, slow.limitUs = 1;
  fast.bottleneck = "MTE2";
  Verdict v = verdictFromRows("add", "dsl", {fast, slow});
  EXPECT_TRUE(v.scored && v.compiled && v.correct);
  EXPECT_EQ(v.casesPassed, 2);
  EXPECT_EQ(v.casesTotal, 2);
  EXPECT_DOUBLE_EQ(v.speedup, std::sqrt(2.0));  // the geometric mean of 4 and 0.5
  double l1 = harness::limitScore(2, 8, 1), l2 = harness::limitScore(16, 8, 1);
  EXPECT_DOUBLE_EQ(v.limitScore, (l1 + l2) / 2);
  EXPECT_DOUBLE_EQ(v.reward, 0.5 + 0.5 * (l1 + l2) / 2);
  EXPECT_DOUBLE_EQ(v.cases[0].speedup, 4);
  EXPECT_DOUBLE_EQ(v.cases[0].limitScore, l1);
  EXPECT_EQ(v.cases[0].bottleneck, "MTE2");
  EXPECT_EQ(v.diagnostics, "");

  Verdict wrong = verdictFromRows("add", "dsl", {fast, row("2", true, false, Failure::NumericMismatch)});
  EXPECT_TRUE(wrong.compiled);
  EXPECT_FALSE(wrong.correct);
  EXPECT_EQ(wrong.casesPassed, 1);
  EXPECT_EQ(wrong.reward, 0);
  EXPECT_EQ(wrong.diagnostics, "case 2: numeric_mismatch: why 2");

  Verdict broken = verdictFromRows("add", "dsl", {row("1", false, false, Failure::Syntax)});
  EXPECT_FALSE(broken.compiled);
  EXPECT_EQ(broken.reward, -1);

  // A golden error is the harness's problem, not the solution's: it is not scored.
  Verdict golden = verdictFromRows("add", "dsl", {row("1", false, false, Failure::GoldenError)});
  EXPECT_FALSE(golden.scored);
  EXPECT_EQ(golden.reward, 0);
  Verdict mixed = verdictFromRows("add", "dsl", {fast, row("2", false, false, Failure::GoldenError)});
  EXPECT_TRUE(mixed.scored && mixed.correct);
  EXPECT_EQ(mixed.casesPassed, 1);
}

TEST(Verdicts, SolutionChecks) {
  EXPECT_EQ(checkSolution({"dsl", {{"add.tile", "x"}, {"binding.yaml", "dims: {}"}}}), "");
  EXPECT_EQ(checkSolution({"ascendc", {{"op_host/add.cpp", ""}, {"op_kernel/add.cpp", ""}}}), "");
  EXPECT_EQ(checkSolution({"cuda", {{"a.cu", ""}}}), "solution kind 'cuda' is not one of dsl, ascendc");
  EXPECT_EQ(checkSolution({"dsl", {}}), "the solution has no files");
  EXPECT_EQ(checkSolution({"dsl", {{"../x.tile", ""}}}),
            "file '../x.tile': a DSL solution holds NAME.tile files and an optional binding.yaml");
  EXPECT_EQ(checkSolution({"dsl", {{"binding.yaml", ""}}}), "the solution has no .tile file");
  EXPECT_EQ(checkSolution({"ascendc", {{"op_host/../../x.cpp", ""}}}),
            "file 'op_host/../../x.cpp': an AscendC solution holds op_host/NAME.{cpp,h} and op_kernel/NAME.{cpp,h} "
            "files");
  EXPECT_EQ(checkSolution({"ascendc", {{"op_host/a.cpp", ""}}}), "the solution has no op_kernel/ file");
  EXPECT_EQ(checkSolution({"ascendc", {{"add_custom.py", "kernel_src = ''"}}}), "");
  EXPECT_EQ(checkSolution({"ascendc", {{"add_custom.py", ""}, {"op_kernel/add.cpp", ""}}}),
            "file 'add_custom.py': a MultiKernelBench submission is one NAME.py (its six source strings), with no "
            "other file");
  EXPECT_EQ(checkSolution({"ascendc", {{"x/add_custom.py", ""}}}),
            "file 'x/add_custom.py': a MultiKernelBench submission is one NAME.py (its six source strings), with no "
            "other file");
  std::map<std::string, std::string> many;
  for (int i = 0; i < 33; ++i) many[fmt::format("k{}.tile", i)] = "";
  EXPECT_EQ(checkSolution({"dsl", many}), "the solution has 33 files; at most 32 are accepted");
}

TEST(Verdicts, TasksResolveInsideTheSuiteOnly) {
  fs::path suite = fs::path(TILECRAFT_SOURCE_DIR) / "tasks";
  std::string error;
  std::optional<fs::path> byName = resolveTask(suite, "add", &error);
  ASSERT_TRUE(byName) << error;
  EXPECT_EQ(byName->filename(), "add");
  std::optional<fs::path> byPath = resolveTask(suite, "level1/add", &error);
  ASSERT_TRUE(byPath) << error;
  EXPECT_EQ(*byPath, *byName);
  EXPECT_FALSE(resolveTask(suite, "../harness/tests/data/bench/tasks/add", &error));
  EXPECT_EQ(error, fmt::format("task '../harness/tests/data/bench/tasks/add' is outside the suite {}: only its task "
                               "folders are judged",
                               suite.string()));
  EXPECT_FALSE(resolveTask(suite, "nope", &error));
  EXPECT_EQ(error, fmt::format("unknown task 'nope': no task folder of that name under {} (list_tasks lists them)",
                               suite.string()));
}

TEST(Verdicts, RequestParsing) {
  JudgeRequest r;
  std::string error;
  ASSERT_TRUE(parseJudgeRequest(R"({"task":"add","solution":{"kind":"dsl","source":"k"},"cases":[1,"3"]})", &r, &error))
      << error;
  EXPECT_EQ(r.task, "add");
  EXPECT_EQ(r.solution.files.at("kernel.tile"), "k");
  EXPECT_EQ(r.cases, (std::vector<std::string>{"1", "3"}));
  auto refuse = [](const std::string& text) {
    JudgeRequest ignored;
    std::string e;
    EXPECT_FALSE(parseJudgeRequest(text, &ignored, &e)) << text;
    return e;
  };
  EXPECT_EQ(refuse("[]"), "the request is not a JSON object");
  EXPECT_EQ(refuse(R"({"solution":{}})"), "'task' must be a string: a task name or a task folder");
  EXPECT_EQ(refuse(R"({"task":"add"})"), "'solution' must be an object: {\"kind\": \"dsl\", \"source\": \"...\"}");
  EXPECT_EQ(refuse(R"({"task":"add","solution":{"source":"k"}})"), "'solution.kind' must be \"dsl\" or \"ascendc\"");
  EXPECT_EQ(refuse(R"({"task":"add","solution":{"kind":"ascendc","source":"k"}})"),
            "'solution.source' is a DSL kernel's text; an AscendC project is sent as 'files'");
  EXPECT_EQ(refuse(R"({"task":"add","solution":{"kind":"dsl","files":{"a.tile":1}}})"),
            "'solution.files.a.tile' must be the file's text");
  EXPECT_EQ(refuse(R"({"task":"add","solution":{"kind":"dsl","files":[]}})"),
            "'solution.files' must be an object of path: text");
  EXPECT_EQ(refuse(R"({"task":"add","solution":{"kind":"dsl","source":"k"},"cases":[true]})"),
            "'cases' must be a list of case ids");
}

TEST(Verdicts, JsonHasTheDocumentedFields) {
  Verdict v = verdictFromRows("add", "dsl", {row("1", true, false, Failure::NumericMismatch)});
  nlohmann::json j = nlohmann::json::parse(verdictToJson(v, true));
  for (const char* key : {"task", "kind", "scored", "compiled", "correct", "cases_passed", "cases_total", "speedup",
                          "limit_score", "reward", "diagnostics", "cached", "cases"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["cases"][0]["failure"], "numeric_mismatch");
  EXPECT_FALSE(nlohmann::json::parse(verdictToJson(v, false)).contains("cases"));
}

TEST(Verdicts, ContentHashSeparatesParts) {
  EXPECT_NE(contentHash({"ab", "c"}), contentHash({"a", "bc"}));
  EXPECT_EQ(contentHash({"abc"}).size(), 64u);
  EXPECT_EQ(contentHash({"x"}), contentHash({"x"}));
}

}  // namespace
}  // namespace tilecraft::service
