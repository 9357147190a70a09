// The DSL-mode agent against a scripted model (llm::FakeChatClient) and a scripted judge, with the real compiler:
// replies with prose around code, a compile error then its fix, a wrong kernel then its fix, a correct but slow
// kernel then a faster one, a reply without code, a transport error; the transcripts and --resume.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "agent/extract.h"
#include "agent/loop.h"
#include "agent/prompt.h"
#include "agent/run.h"
#include "agent/tests/scripted_judge.h"
#include "dsl/builtins.h"
#include "harness/task.h"
#include "perf/arch.h"
#include "service/language_reference.h"
#include "support/files.h"

namespace tilecraft::agent {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = TILECRAFT_SOURCE_DIR;

std::string addKernel(const std::string& body) {
  return "N = dim()\n\n@kernel\ndef add(x: Tensor[f16, (N,)], y: Tensor[f16, (N,)], z: Tensor[f16, (N,)]):\n"
         "    part = split(N, cores=vector_cores())\n    for t in tiles(part, size=4096):\n        with copyin:\n"
         "            a = load(x[t])\n            b = load(y[t])\n        with compute:\n            c = " +
         body + "\n        with copyout:\n            store(z[t], c)\n";
}

std::string reply(const std::string& code) {
  return "Here is the kernel. It splits the work over the vector cores.\n\n```python\n" + code +
         "```\n\nThis should be correct.";
}

using testing::ScriptedJudge;

service::Verdict verdict(bool correct, double limitScore, const std::string& failure = "none") {
  service::Verdict v;
  v.task = "add";
  v.kind = "dsl";
  v.scored = true;
  v.compiled = true;
  v.correct = correct;
  v.casesTotal = 2;
  v.casesPassed = correct ? 2 : 1;
  v.limitScore = limitScore;
  v.speedup = correct ? 1.5 : 0;
  service::CaseVerdict a{"1", true, true, "none", "", 10, 12, 5, 1.2, limitScore, "MTE2"};
  service::CaseVerdict b{
      "2",  true, correct, failure, correct ? "" : "z: mean relative error 0.5 > 0.000977; first wrong at [0]: 2 vs 1",
      30,   24,   10,      1.2,     limitScore,
      "VEC"};
  v.cases = {a, b};
  return v;
}

struct Fixture : ::testing::Test {
  fs::path work = fs::temp_directory_path() / ("agent_test_" + std::to_string(::getpid()));
  llm::FakeChatClient model;
  ScriptedJudge judge;
  void SetUp() override {
    fs::remove_all(work);
    fs::create_directories(work);
  }
  void TearDown() override { fs::remove_all(work); }
  TaskPrompts prompts() { return {"add", "system text", "task text"}; }
  std::vector<Attempt> attempts;
  SampleOutcome run(int rounds = 4, double target = 0.8) {
    CompilerChecker checker((work / "checks").string());
    AgentOptions options;
    options.rounds = rounds;
    options.targetLimitScore = target;
    return runSample(prompts(), 0, model, judge, checker, options, [&](const Attempt& a) { attempts.push_back(a); });
  }
};

TEST(Extract, CodeBlocksAmidProseBecomeFilesNamedAfterTheirKernels) {
  std::string text = "Two kernels:\n```tile\n" + addKernel("a + b") + "```\nand\n~~~\n" + addKernel("a - b") +
                     "~~~\n```\nprint('no kernel here')\n```\n";
  ExtractedProgram p = extractProgram(text);
  ASSERT_EQ(p.files.size(), 2u);
  EXPECT_NE(p.files.at("add.tile").find("c = a + b"), std::string::npos);
  EXPECT_NE(p.files.at("add_2.tile").find("c = a - b"), std::string::npos);
  EXPECT_EQ(p.problem, "");
}

TEST(Extract, NoCodeAndACutBlockSayWhy) {
  EXPECT_EQ(extractProgram("I cannot help with that.").problem, "the reply holds no fenced code block with a @kernel");
  ExtractedProgram cut = extractProgram("```python\n" + addKernel("a + b").substr(0, 60));
  EXPECT_TRUE(cut.files.empty());
  EXPECT_EQ(cut.problem, "the reply ends inside its code block (cut by max_tokens?): no complete kernel");
}

TEST(Reference, TheCondensedReferenceNamesEveryBuiltinOfTheTable) {
  std::string ref = condensedLanguageReference(service::languageReferenceText());
  for (const dsl::BuiltinInfo& b : dsl::allBuiltins()) {
    EXPECT_NE(ref.find(b.name), std::string::npos) << b.name << " is missing from the prompt's reference";
  }
  EXPECT_EQ(ref.find("## 12."), std::string::npos) << "the diagnostics catalogue stays out";
  EXPECT_LT(ref.size(), service::languageReferenceText().size());
}

TEST(Reference, AReferenceWithoutAKeptSectionIsRefused) {
  EXPECT_THROW(condensedLanguageReference("## 2. Programs\ntext\n"), std::runtime_error);
}

TEST(Prompt, TaskPromptHoldsSignatureCasesGoldenAndExamplesButNotTheTaskOwnSolution) {
  harness::TaskLoad load = harness::loadTask(kSource / "tasks/level1/leaky_relu");
  ASSERT_TRUE(load.task);
  std::vector<ExpertExample> examples = pickExamples(*load.task, kSource / "tasks", kSource / "solutions", 2);
  ASSERT_EQ(examples.size(), 2u);
  for (const ExpertExample& ex : examples) EXPECT_NE(ex.task, "leaky_relu");
  // The suite has other level-1 activations of rank-1 first inputs: the same category outranks everything else, and
  // ties go to the task name.
  for (const ExpertExample& ex : examples) EXPECT_EQ(ex.category, "Activation") << ex.task;
  EXPECT_EQ(examples[0].score, examples[1].score);
  EXPECT_LT(examples[0].task, examples[1].task);
  std::string text = taskPrompt(*load.task, "def leaky_relu(x, slope=0.01): ...\n", examples);
  EXPECT_NE(text.find("# Task: leaky_relu (operator LeakyRelu, category Activation, level 1)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("- attribute `slope` (float) = 0.01"), std::string::npos) << text;
  EXPECT_NE(text.find("- input `x`: float16/float32"), std::string::npos) << text;
  EXPECT_NE(text.find("- case 1: x=float16 ("), std::string::npos) << text;
  EXPECT_NE(text.find("```python\ndef leaky_relu(x, slope=0.01): ...\n```"), std::string::npos) << text;
  EXPECT_NE(text.find("### " + examples[0].task + " (Activation)"), std::string::npos) << text;
}

TEST(Prompt, SystemPromptCarriesTheHardwareFacts) {
  perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
  std::string facts = hardwareFacts(arch);
  EXPECT_NE(facts.find(fmt::format("{} vector cores", arch.aivCores)), std::string::npos) << facts;
  EXPECT_NE(facts.find(fmt::format("Unified buffer {} KiB", arch.ubBytes / 1024)), std::string::npos) << facts;
}

TEST_F(Fixture, ACompileErrorGoesBackWithTheCompilersDiagnosticsAndTheFixIsJudged) {
  model.pushText(reply(addKernel("a + undefined_thing")));
  model.pushText(reply(addKernel("a + b")), "I used a name I never defined.");
  judge.rules = {{"a + b", verdict(true, 0.9)}};
  SampleOutcome s = run();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].stage, Stage::Compile);
  EXPECT_NE(attempts[0].error.find("add.tile:"), std::string::npos) << attempts[0].error;
  EXPECT_NE(attempts[0].error.find("undefined_thing"), std::string::npos) << attempts[0].error;
  EXPECT_EQ(attempts[0].error.find(work.string()), std::string::npos) << "no work-folder paths in feedback";
  // The repair request carries the diagnostics, after the model's own reply.
  std::vector<llm::ChatRequest> sent = model.requests();
  ASSERT_EQ(sent.size(), 2u);
  ASSERT_EQ(sent[1].messages.size(), 4u);
  EXPECT_EQ(sent[1].messages[2].role, "assistant");
  EXPECT_NE(sent[1].messages[3].content.find("The compiler refused the program"), std::string::npos);
  EXPECT_NE(sent[1].messages[3].content.find("undefined_thing"), std::string::npos);
  EXPECT_EQ(judge.requests.size(), 1u) << "a program that does not compile is never judged";
  EXPECT_TRUE(s.correct);
  EXPECT_EQ(s.bestRound, 1);
  EXPECT_EQ(attempts[1].reasoning, "I used a name I never defined.");
}

TEST_F(Fixture, AWrongKernelGetsTheFailingCaseAndTheFixWins) {
  model.pushText(reply(addKernel("a - b")));
  model.pushText(reply(addKernel("a + b")));
  judge.rules = {{"a - b", verdict(false, 0, "numeric_mismatch")}, {"a + b", verdict(true, 0.85)}};
  SampleOutcome s = run();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_NE(attempts[0].feedback.find("case 2 failed (numeric_mismatch): z: mean relative error 0.5"),
            std::string::npos)
      << attempts[0].feedback;
  EXPECT_TRUE(s.correct);
  EXPECT_NE(s.files.at("add.tile").find("c = a + b"), std::string::npos);
}

TEST_F(Fixture, ACorrectButSlowKernelIsAskedToSpeedUpAndTheFasterOneIsKept) {
  model.pushText(reply(addKernel("a + b")));
  model.pushText(reply(addKernel("b + a")));
  judge.rules = {{"a + b", verdict(true, 0.6)}, {"b + a", verdict(true, 0.9)}};
  SampleOutcome s = run();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_NE(attempts[0].feedback.find("limit score 0.60"), std::string::npos) << attempts[0].feedback;
  EXPECT_NE(attempts[0].feedback.find("bottleneck pipe VEC"), std::string::npos) << attempts[0].feedback;
  EXPECT_EQ(s.bestRound, 1);
  EXPECT_DOUBLE_EQ(s.limitScore, 0.9);
}

TEST_F(Fixture, ASlowerRepairDoesNotReplaceTheFasterCorrectKernel) {
  model.pushText(reply(addKernel("a + b")));
  model.pushText(reply(addKernel("b + a")));
  judge.rules = {{"a + b", verdict(true, 0.7)}, {"b + a", verdict(true, 0.5)}};
  SampleOutcome s = run(2);
  EXPECT_EQ(s.bestRound, 0);
  EXPECT_DOUBLE_EQ(s.limitScore, 0.7);
  EXPECT_EQ(attempts.back().feedback, "") << "the last round has no feedback";
}

TEST_F(Fixture, AReplyWithoutCodeIsAskedAgain) {
  model.pushText("Sure! The kernel adds x and y elementwise.");
  model.pushText(reply(addKernel("a + b")));
  judge.rules = {{"a + b", verdict(true, 0.95)}};
  SampleOutcome s = run();
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].stage, Stage::Format);
  EXPECT_NE(attempts[0].feedback.find("no fenced code block with a @kernel"), std::string::npos);
  EXPECT_TRUE(s.correct);
}

TEST_F(Fixture, ATransportErrorEndsTheSampleAndSaysWhy) {
  llm::ChatError e;
  e.kind = llm::ChatErrorKind::Http;
  e.status = 401;
  e.message = "endpoint 'x': HTTP 401 Unauthorized";
  model.pushError(e);
  SampleOutcome s = run();
  ASSERT_EQ(attempts.size(), 1u);
  EXPECT_EQ(attempts[0].stage, Stage::Transport);
  EXPECT_EQ(s.error, "endpoint 'x': HTTP 401 Unauthorized");
  EXPECT_FALSE(s.correct);
  EXPECT_TRUE(s.files.empty());
}

TEST_F(Fixture, RunWritesTranscriptsAndSolutionsAndResumesAfterACut) {
  perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
  RunOptions options;
  options.suite = kSource / "tasks/level1/add";
  options.outDir = work / "out";
  options.samples = 2;
  options.agent.rounds = 2;
  judge.rules = {{"a + b", verdict(true, 0.9)}};
  // Sample 0 succeeds; sample 1's model connection fails: it is not finished.
  model.pushText(reply(addKernel("a + b")));
  llm::ChatError e;
  e.kind = llm::ChatErrorKind::Transport;
  e.message = "cannot connect";
  model.pushError(e);
  CompilerChecker checker((work / "checks").string());
  std::ostringstream out, err;
  EXPECT_EQ(runAgent(options, model, judge, checker, arch, out, err), 1);
  EXPECT_NE(err.str().find("add sample 1 round 0: cannot connect"), std::string::npos) << err.str();
  fs::path transcripts = options.outDir / "transcripts.jsonl";
  EXPECT_EQ(finishedSamples(transcripts), (std::set<std::pair<std::string, int>>{{"add", 0}}));
  EXPECT_TRUE(fs::exists(options.outDir / "solutions/add/0/add.tile"));
  // Every line is JSON with the attempt's prompt, reply and verdict.
  std::ifstream in(transcripts);
  std::string line;
  std::getline(in, line);
  nlohmann::json first = nlohmann::json::parse(line);
  EXPECT_EQ(first["type"], "attempt");
  EXPECT_EQ(first["messages"][0]["role"], "system");
  EXPECT_EQ(first["stage"], "judged");
  EXPECT_EQ(first["verdict"]["limit_score"], 0.9);

  // A second run without --resume refuses to mix; with it, only sample 1 runs.
  std::ostringstream out2, err2;
  EXPECT_EQ(runAgent(options, model, judge, checker, arch, out2, err2), 2);
  EXPECT_NE(err2.str().find("already holds transcripts.jsonl"), std::string::npos) << err2.str();
  options.resume = true;
  model.pushText(reply(addKernel("a + b")));
  std::ostringstream out3, err3;
  EXPECT_EQ(runAgent(options, model, judge, checker, arch, out3, err3), 0) << err3.str();
  EXPECT_EQ(model.requests().size(), 3u);
  EXPECT_EQ(finishedSamples(transcripts), (std::set<std::pair<std::string, int>>{{"add", 0}, {"add", 1}}));
  EXPECT_TRUE(fs::exists(options.outDir / "solutions/add/1/add.tile"));
}

}  // namespace
}  // namespace tilecraft::agent
