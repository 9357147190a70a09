// The AscendC mode of the agent (MultiKernelBench's baseline) against a scripted model and judge: the six strings
// taken from the reply's blocks, a submission that cannot be read sent back with its place, a build failure sent
// back with the compiler's message, the fix judged as an `ascendc` solution; the prompts made of the emulator and
// projects guides and the packed worked example.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "agent/extract.h"
#include "agent/loop.h"
#include "agent/prompt.h"
#include "agent/tests/scripted_judge.h"
#include "harness/task.h"
#include "project/snippet.h"
#include "service/language_reference.h"

namespace tilecraft::agent {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = TILECRAFT_SOURCE_DIR;

// The worked example, packed: a complete submission for tasks/level1/add.
std::string exampleSubmission() {
  std::string text, error;
  EXPECT_TRUE(project::packSubmission(kSource / "examples/ascendc/add_custom", text, error)) << error;
  return text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

service::CaseVerdict buildFailure() {
  service::CaseVerdict c;
  c.caseId = "1";
  c.failure = "unknown_api";
  c.message = "submission.py:141:12: error: 'AddTypo' was not declared";
  return c;
}

TEST(ExtractSubmission, TheSixStringsMayComeInOneBlockOrSeveral) {
  std::string one = "Here it is:\n```python\nproject_json_src = '[]'\nkernel_src = r\"\"\"k\"\"\"\n```\nDone.";
  ExtractedProgram p = extractSubmission(one);
  ASSERT_EQ(p.files.size(), 1u);
  EXPECT_EQ(p.files.at("submission.py"), "project_json_src = '[]'\nkernel_src = r\"\"\"k\"\"\"\n");
  std::string several =
      "```json\n[1]\n```\n```python\nhost_tiling_src = 'a'\n```\ntext\n```cpp\nint x;\n```\n```python\nmodel_src "
      "= 'b'\n```\n";
  p = extractSubmission(several);
  ASSERT_EQ(p.files.size(), 1u);
  EXPECT_EQ(p.files.at("submission.py"), "host_tiling_src = 'a'\n\nmodel_src = 'b'\n");
}

TEST(ExtractSubmission, NoStringsAndACutBlockSayWhy) {
  EXPECT_EQ(extractSubmission("```python\nif kernel_src == 'x': pass\n```\n").problem,
            "the reply holds no fenced code block assigning the six strings (project_json_src, host_tiling_src, "
            "host_operator_src, kernel_src, python_bind_src, model_src)");
  EXPECT_EQ(extractSubmission("```python\nkernel_src = \"\"\"\nextern").problem,
            "the reply ends inside its code block (cut by max_tokens?): no complete submission");
}

TEST(AscendcPrompt, TheReferenceIsTheEmulatorsApiTableAndTheHostApi) {
  std::string ref = ascendcReference(service::emulatorGuideText(), service::projectsGuideText());
  for (const char* api : {"## 3. What is supported", "DataCopyPad", "TQue", "WholeReduceSum", "Mmad",
                          "## 1. The host API on the CPU", "BEGIN_TILING_DATA_DEF", "PlatformAscendC", "OP_ADD"}) {
    EXPECT_NE(ref.find(api), std::string::npos) << api << " is missing from the AscendC prompt's reference";
  }
  EXPECT_EQ(ref.find("## 4. The checks"), std::string::npos) << "only the API sections";
  EXPECT_THROW(ascendcReference("## 2. Other\n", service::projectsGuideText()), std::runtime_error);
  EXPECT_THROW(ascendcReference(service::emulatorGuideText(), "## 3. What is supported\n"), std::runtime_error);
}

TEST(AscendcPrompt, TheTaskPromptHoldsTheTaskAndTheWorkedExampleAndTheSystemPromptTheFormat) {
  harness::TaskLoad load = harness::loadTask(kSource / "tasks/level1/relu");
  ASSERT_TRUE(load.task);
  std::string example = exampleSubmission();
  std::string text = ascendcTaskPrompt(*load.task, "def relu(x): ...\n", example);
  EXPECT_NE(text.find("# Task: relu ("), std::string::npos) << text;
  EXPECT_NE(text.find("```python\ndef relu(x): ...\n```"), std::string::npos) << text;
  EXPECT_NE(text.find("## A worked example: tasks/level1/add"), std::string::npos) << text;
  EXPECT_NE(text.find("```python\n" + example), std::string::npos);
  EXPECT_EQ(text.find("@kernel"), std::string::npos) << "no Tile DSL in AscendC mode";
  EXPECT_EQ(ascendcTaskPrompt(*load.task, "", "").find("worked example"), std::string::npos);
  std::string system = ascendcSystemPrompt("REFERENCE\n", "HARDWARE\n");
  for (const char* part : {"project_json_src", "host_tiling_src", "host_operator_src", "kernel_src", "python_bind_src",
                           "model_src", "never an f-string", "REFERENCE", "HARDWARE"}) {
    EXPECT_NE(system.find(part), std::string::npos) << part;
  }
}

TEST(AscendcPrompt, ABuildFailureIsFeedbackWithTheCompilersMessage) {
  service::Verdict v;
  v.compiled = false;
  v.cases = {buildFailure()};
  EXPECT_EQ(verdictFeedback(v, 0.8),
            "The program does not build (unknown_api):\n\n```\nsubmission.py:141:12: error: 'AddTypo' was not "
            "declared\n```\n\nFix it and send the whole program again.");
}

struct AscendcLoop : ::testing::Test {
  llm::FakeChatClient model;
  testing::ScriptedJudge judge;
  SubmissionChecker checker;
  std::vector<Attempt> attempts;
  SampleOutcome run() {
    AgentOptions options;
    options.mode = Mode::AscendC;
    options.rounds = 4;
    options.targetLimitScore = 0;
    return runSample({"add", "system", "task"}, 0, model, judge, checker, options,
                     [&](const Attempt& a) { attempts.push_back(a); });
  }
};

TEST_F(AscendcLoop, AnUnreadableSubmissionThenABuildFailureGoBackAndTheFixIsJudgedAsAnAscendcSolution) {
  std::string good = exampleSubmission();
  std::string fstring = replaced(good, "kernel_src = r", "kernel_src = f");
  std::string typo = replaced(good, "    Add(z, x, y,", "    AddTypo(z, x, y,");
  model.pushText("```python\n" + fstring + "```\n");
  model.pushText("```python\n" + typo + "```\n");
  model.pushText("Fixed:\n```python\n" + good + "```\n");
  service::Verdict broken;
  broken.kind = "ascendc";
  broken.scored = true;
  broken.casesTotal = 1;
  broken.cases = {buildFailure()};
  service::Verdict right = broken;
  right.compiled = right.correct = true;
  right.casesPassed = 1;
  right.limitScore = 0.6;
  right.cases = {{"1", true, true, "none", "", 3, 4, 2, 1.3, 0.6, "MTE2"}};
  judge.rules = {{"AddTypo", broken}, {"    Add(z, x, y,", right}};
  SampleOutcome s = run();
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[0].stage, Stage::Compile);
  EXPECT_NE(attempts[0].error.find("submission.py:"), std::string::npos) << attempts[0].error;
  EXPECT_NE(attempts[0].error.find("error: kernel_src is not a plain string literal"), std::string::npos);
  EXPECT_NE(attempts[0].feedback.find("The compiler refused the program"), std::string::npos);
  EXPECT_EQ(attempts[1].stage, Stage::Judged);
  EXPECT_FALSE(attempts[1].compiled());
  EXPECT_NE(attempts[1].feedback.find("The program does not build (unknown_api)"), std::string::npos)
      << attempts[1].feedback;
  EXPECT_TRUE(attempts[2].correct());
  ASSERT_EQ(judge.requests.size(), 2u);  // the unreadable one never reached the judge
  EXPECT_EQ(judge.requests[1].solution.kind, "ascendc");
  EXPECT_EQ(judge.requests[1].solution.files.count("submission.py"), 1u);
  EXPECT_TRUE(s.correct);
  EXPECT_EQ(s.mode, Mode::AscendC);
  EXPECT_EQ(s.bestRound, 2);
  EXPECT_EQ(s.files.at("submission.py"), good);
}

TEST_F(AscendcLoop, AReplyWithoutTheStringsIsAskedForThem) {
  model.pushText("I would use DataCopyPad and a TQue.");
  model.pushText("```python\n" + exampleSubmission() + "```\n");
  service::Verdict right;
  right.scored = right.compiled = right.correct = true;
  judge.rules = {{"kernel_src", right}};
  run();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].stage, Stage::Format);
  EXPECT_EQ(attempts[0].feedback,
            "I could not use your reply: the reply holds no fenced code block assigning the six strings "
            "(project_json_src, host_tiling_src, host_operator_src, kernel_src, python_bind_src, model_src). Send "
            "the whole submission in one fenced ```python block assigning the six strings.");
  EXPECT_TRUE(attempts[1].correct());
}

}  // namespace
}  // namespace tilecraft::agent
