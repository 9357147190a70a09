// The MCP tools on the repository's own suite and language reference, with a scripted judge.
#include <filesystem>
#include <mutex>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "service/language_reference.h"
#include "service/mcp_tools.h"
#include "support/files.h"

namespace tilecraft::service {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Records the requests and answers with a fixed verdict, or refuses a task named "missing".
class ScriptedJudge final : public Judge {
 public:
  JudgeOutcome judge(const JudgeRequest& request) override {
    std::lock_guard<std::mutex> lock(mutex_);
    requests.push_back(request);
    JudgeOutcome o;
    if (request.task == "missing") {
      o.error = "unknown task 'missing'";
      return o;
    }
    o.verdict.task = request.task;
    o.verdict.kind = request.solution.kind;
    o.verdict.scored = o.verdict.compiled = o.verdict.correct = true;
    o.verdict.casesPassed = o.verdict.casesTotal = 1;
    o.verdict.speedup = 2;
    o.verdict.limitScore = 0.6;
    o.verdict.reward = 0.8;
    CaseVerdict c;
    c.caseId = "1";
    c.compiled = c.correct = true;
    c.failure = "none";
    c.simUs = 5;
    c.eagerUs = 10;
    c.speedup = 2;
    o.verdict.cases.push_back(c);
    return o;
  }
  std::vector<JudgeRequest> requests;

 private:
  std::mutex mutex_;
};

class Tools : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / ("tilecraft-tools-test-" + std::to_string(::getpid()));
    context_.suiteRoot = fs::path(TILECRAFT_SOURCE_DIR) / "tasks";
    context_.scratchDir = scratch_;
    context_.judge = &judge_;
    for (McpTool& t : makeTilecraftTools(context_)) tools_[t.name] = t;
  }
  void TearDown() override { fs::remove_all(scratch_); }
  ToolResult call(const std::string& name, const json& args) {
    EXPECT_EQ(checkArguments(tools_.at(name).inputSchema, args.dump()), "") << name;
    return tools_.at(name).call(args.dump());
  }

  fs::path scratch_;
  ScriptedJudge judge_;
  ToolContext context_;
  std::map<std::string, McpTool> tools_;
};

TEST_F(Tools, TheSixToolsEachHaveAnObjectSchema) {
  std::vector<std::string> names;
  for (const auto& [name, tool] : tools_) {
    names.push_back(name);
    EXPECT_EQ(json::parse(tool.inputSchema)["type"], "object") << name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"bench_solution", "check_program", "language_reference", "list_tasks",
                                             "run_solution", "show_task"}));
}

TEST_F(Tools, ListTasksFiltersByFolderAndCategory) {
  json all = json::parse(call("list_tasks", json::object()).text);
  bool add = false;
  for (const json& t : all["tasks"]) {
    if (t["task"] == "add") {
      add = true;
      EXPECT_EQ(t["folder"], "level1/add");
      EXPECT_EQ(t["category"], "Math");
      EXPECT_EQ(t["level"], 1);
      EXPECT_EQ(t["cases"], 8);
    }
  }
  EXPECT_TRUE(add);
  json level1 = json::parse(call("list_tasks", {{"folder", "level1"}}).text);
  for (const json& t : level1["tasks"]) EXPECT_EQ(t["folder"].get<std::string>().rfind("level1/", 0), 0u);
  EXPECT_LT(level1["tasks"].size(), all["tasks"].size());
  ToolResult outside = call("list_tasks", {{"folder", "../docs"}});
  EXPECT_TRUE(outside.isError);
  EXPECT_EQ(outside.text,
            fmt::format("folder '../docs' is not a folder inside the suite {}", context_.suiteRoot.string()));
}

TEST_F(Tools, ShowTaskHasTheProtoCasesAndGolden) {
  ToolResult r = call("show_task", {{"task", "add"}});
  EXPECT_FALSE(r.isError);
  EXPECT_NE(r.text.find("# Task add (level1/add)\noperator Add, category Math, level 1, 8 cases"), std::string::npos)
      << r.text;
  EXPECT_NE(r.text.find("## proto.yaml"), std::string::npos);
  EXPECT_NE(r.text.find("## cases.csv"), std::string::npos);
  EXPECT_NE(r.text.find("## golden.py"), std::string::npos);
  ToolResult unknown = call("show_task", {{"task", "no_such_task"}});
  EXPECT_TRUE(unknown.isError);
  EXPECT_EQ(unknown.text, fmt::format("unknown task 'no_such_task': no task folder of that name under {} (list_tasks "
                                      "lists them)",
                                      context_.suiteRoot.string()));
}

TEST_F(Tools, CheckProgramGivesTheCompilersJsonDiagnosticsUnderTheGivenName) {
  std::string good = support::readFile(fs::path(TILECRAFT_SOURCE_DIR) / "solutions/add/add.tile").value();
  json ok = json::parse(call("check_program", {{"source", good}, {"file_name", "add.tile"}}).text);
  EXPECT_EQ(ok["ok"], true);
  EXPECT_EQ(ok["kernel"], "add");
  std::string bad = good;
  bad.replace(bad.find("c = a + b"), 9, "c = a + q");
  json failed = json::parse(call("check_program", {{"source", bad}, {"file_name", "add.tile"}}).text);
  EXPECT_EQ(failed["ok"], false);
  ASSERT_GE(failed["diagnostics"].size(), 1u) << failed.dump();
  const json& d = failed["diagnostics"][0];
  EXPECT_EQ(d["severity"], "error");
  EXPECT_EQ(d["file"], "add.tile");
  EXPECT_EQ(d["line"], 14);
  EXPECT_NE(d["message"].get<std::string>().find("q"), std::string::npos);
}

// A generic program is checked in every instantiation: an error in one names it.
TEST_F(Tools, CheckProgramChecksEveryInstantiation) {
  std::string good = support::readFile(fs::path(TILECRAFT_SOURCE_DIR) / "solutions/add/add.tile").value();
  std::string generic = good;
  generic.replace(generic.find("T = dtype(f16, f32)"), 19, "T = dtype(f16, bf16)");
  generic.replace(generic.find("c = a + b"), 9, "c = cast(a, f16) + b");
  json failed = json::parse(call("check_program", {{"source", generic}, {"file_name", "add.tile"}}).text);
  EXPECT_EQ(failed["ok"], false);
  ASSERT_EQ(failed["diagnostics"].size(), 1u) << failed.dump();
  const json& d = failed["diagnostics"][0];
  EXPECT_EQ(d["message"], "no direct cast from bf16 to f16 on 910B");
  EXPECT_EQ(d["notes"].back()["message"], "in the instantiation T=bf16");
  json ok = json::parse(call("check_program", {{"source", good}, {"file_name", "add.tile"}}).text);
  EXPECT_EQ(ok["ok"], true) << ok.dump();
}

TEST_F(Tools, RunAndBenchSolutionPassTheRequestToTheJudge) {
  json run = json::parse(call("run_solution", {{"task", "add"}, {"source", "x"}, {"cases", {1, "2"}}}).text);
  ASSERT_EQ(judge_.requests.size(), 1u);
  EXPECT_EQ(judge_.requests[0].task, "add");
  EXPECT_EQ(judge_.requests[0].solution.kind, "dsl");
  EXPECT_EQ(judge_.requests[0].solution.files.at("kernel.tile"), "x");
  EXPECT_EQ(judge_.requests[0].cases, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(run["correct"], true);
  EXPECT_FALSE(run.contains("reward"));
  EXPECT_FALSE(run["cases"][0].contains("sim_us"));
  json bench = json::parse(call("bench_solution", {{"task", "add"}, {"source", "x"}}).text);
  EXPECT_EQ(bench["speedup"], 2);
  EXPECT_EQ(bench["reward"], 0.8);
  EXPECT_EQ(bench["cases"][0]["sim_us"], 5);
  ToolResult refused = call("run_solution", {{"task", "missing"}, {"source", "x"}});
  EXPECT_TRUE(refused.isError);
  EXPECT_EQ(refused.text, "unknown task 'missing'");
  ToolResult neither = call("run_solution", {{"task", "add"}});
  EXPECT_TRUE(neither.isError);
  EXPECT_EQ(neither.text, "'solution' needs exactly one of 'source' (a DSL kernel's text) and 'files' ({path: text})");
}

TEST_F(Tools, LanguageReferenceWholeOrBySection) {
  ToolResult whole = call("language_reference", json::object());
  EXPECT_EQ(whole.text, std::string(languageReferenceText()));
  EXPECT_EQ(whole.text, support::readFile(fs::path(TILECRAFT_SOURCE_DIR) / "docs/language.md").value());
  ToolResult seven = call("language_reference", {{"section", 7}});
  EXPECT_EQ(seven.text.rfind("## 7. Data movement\n", 0), 0u) << seven.text.substr(0, 80);
  EXPECT_EQ(seven.text.find("## 8."), std::string::npos);
  ToolResult byTitle = call("language_reference", {{"section", "data MOVEMENT"}});
  EXPECT_EQ(byTitle.text, seven.text);
  ToolResult none = call("language_reference", {{"section", "quantum"}});
  EXPECT_TRUE(none.isError);
  EXPECT_EQ(none.text.rfind("no section 'quantum' in the language reference; its sections:\n1. Lexical structure\n", 0),
            0u)
      << none.text.substr(0, 200);
}

TEST(LanguageSections, HeadingsInsideCodeFencesAreNotSections) {
  std::vector<DocSection> s = splitSections("intro\n## 1. One\ntext\n```\n## 2. Not\n```\n## Two\nmore\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].number, "1");
  EXPECT_EQ(s[0].text, "## 1. One\ntext\n```\n## 2. Not\n```\n");
  EXPECT_EQ(s[1].number, "");
  EXPECT_EQ(s[1].title, "Two");
}

}  // namespace
}  // namespace tilecraft::service
