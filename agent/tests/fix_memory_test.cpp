// The fix memory: signatures without places or numbers, the edit between two attempts, fixes mined from a
// transcript (a compile error fixed, a wrong kernel fixed, a failure the next attempt met again is no fix, a bad
// line skipped with its number), deduplication and counts, pruning, retrieval by similarity, and the repair request
// that carries the fixes.
#include "agent/fix_memory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "agent/tests/scripted_judge.h"
#include "llm/chat.h"
#include "support/files.h"

namespace tilecraft::agent {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(FixMemory, ASignatureDropsThePlaceAndTheNumbers) {
  EXPECT_EQ(failureSignature("add.tile:12:9: error: unknown name 'bias'\n  12 | c = a + bias\nhint: ..."),
            "error: unknown name 'bias'");
  EXPECT_EQ(failureSignature("submission.py:141:12: error: 'AddTypo' was not declared in this scope"),
            "error: 'AddTypo' was not declared in this scope");
  EXPECT_EQ(failureSignature("seed 1: z: mean rel error 0.51 >   0.000977; first wrong at [0, 3]"),
            "seed N: z: mean rel error N.N > N.N; first wrong at [N, N]");
  EXPECT_EQ(failureSignature(""), "");
}

TEST(FixMemory, TheEditShowsTheLinesBetweenTheCommonHeadAndTail) {
  std::map<std::string, std::string> before = {{"add.tile", "a\nb\nc = a + bias\nd\n"}, {"same.tile", "x\n"}};
  std::map<std::string, std::string> after = {
      {"add.tile", "a\nb\nc = a + b\nd\n"}, {"same.tile", "x\n"}, {"new.tile", "n\n"}};
  EXPECT_EQ(editBetween(before, after), "--- add.tile\n-c = a + bias\n+c = a + b\n--- new.tile\n+n\n");
  EXPECT_EQ(editBetween(before, before), "");
  EXPECT_EQ(editBetween({{"k", "1\n2\n3\n"}}, {{"k", "4\n5\n6\n"}}, 4), "--- k\n-1\n-2\n-3\n+4\n(cut)\n");
}

json attempt(const std::string& task, int sample, int round, const std::string& body, const std::string& stage,
             const std::string& error, bool correct = false, const std::string& failure = "",
             const std::string& message = "") {
  json j = {{"type", "attempt"}, {"mode", "dsl"},      {"task", task},
            {"sample", sample},  {"round", round},     {"stage", stage},
            {"error", error},    {"correct", correct}, {"files", {{"add.tile", "x = 1\n" + body + "\ny = 2\n"}}}};
  if (stage == "judged") {
    j["verdict"] = {
        {"cases",
         json::array(
             {{{"case", "1"}, {"correct", correct}, {"failure", correct ? "none" : failure}, {"message", message}}})}};
  }
  return j;
}

class Mined : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = fs::temp_directory_path() /
            ("fix_memory_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::string text;
    for (const json& j : {
             // add 0: a compile error, fixed; then wrong, fixed.
             attempt("add", 0, 0, "c = a + bias", "compile", "add.tile:5:9: error: unknown name 'bias'"),
             attempt("add", 0, 1, "c = a - b", "judged", "", false, "numeric_mismatch", "seed 1: z: mean rel 2.0"),
             attempt("add", 0, 2, "c = a + b", "judged", "", true),
             // add 1: the same compile error met twice (no fix), then fixed the same way as in sample 0.
             attempt("add", 1, 0, "c = a + bias", "compile", "add.tile:7:9: error: unknown name 'bias'"),
             attempt("add", 1, 1, "c = a + bias  # again", "compile", "add.tile:7:9: error: unknown name 'bias'"),
             attempt("add", 1, 2, "c = a - b", "judged", "", false, "numeric_mismatch", "seed 1: z: mean rel 3.5"),
         }) {
      text += j.dump() + "\n";
    }
    text += "{\"type\": \"sample\", \"task\": \"add\", \"sample\": 0}\nnot json\n";
    std::string error;
    ASSERT_TRUE(support::writeFileAtomically(file_, text, &error)) << error;
  }
  void TearDown() override { fs::remove(file_); }
  fs::path file_;
};

TEST_F(Mined, EachFailureTheNextAttemptGotPastIsAFix) {
  std::vector<std::string> problems;
  std::vector<Fix> fixes = mineFixes(file_, &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], file_.string() + ":8: not an attempt or sample line of a transcript");
  ASSERT_EQ(fixes.size(), 3u);  // add 0 round 0, add 0 round 1, add 1 round 1 (round 0 met its failure again)
  EXPECT_EQ(fixes[0].kind, "compile");
  EXPECT_EQ(fixes[0].signature, "error: unknown name 'bias'");
  EXPECT_EQ(fixes[0].edit, "--- add.tile\n-c = a + bias\n+c = a - b\n");
  EXPECT_EQ(fixes[1].kind, "numeric_mismatch");
  EXPECT_EQ(fixes[1].signature, "seed N: z: mean rel N.N");
  EXPECT_EQ(fixes[1].edit, "--- add.tile\n-c = a - b\n+c = a + b\n");
  EXPECT_EQ(fixes[2].edit, "--- add.tile\n-c = a + bias  # again\n+c = a - b\n");
  EXPECT_EQ(fixes[0].id.size(), 16u);
  EXPECT_NE(fixes[0].id, fixes[2].id);
  std::vector<std::string> none;
  EXPECT_TRUE(mineFixes(file_.string() + ".missing", &none).empty());
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0], file_.string() + ".missing: cannot read the transcripts");
}

TEST_F(Mined, TheMemoryCountsAFixMinedTwiceSavesLoadsAndPrunes) {
  std::vector<std::string> problems;
  FixMemory memory;
  EXPECT_EQ(memory.add(mineFixes(file_, &problems)), 3);
  EXPECT_EQ(memory.add(mineFixes(file_, &problems)), 0);
  ASSERT_EQ(memory.fixes().size(), 3u);
  for (const Fix& f : memory.fixes()) EXPECT_EQ(f.seen, 2);
  fs::path saved = file_.string() + ".memory";
  std::string error;
  ASSERT_TRUE(memory.save(saved, &error)) << error;
  FixMemory loaded = FixMemory::load(saved, &problems);
  ASSERT_EQ(loaded.fixes().size(), 3u);
  EXPECT_EQ(loaded.fixes()[0].id, memory.fixes()[0].id);
  EXPECT_EQ(loaded.fixes()[0].seen, 2);
  loaded.add({loaded.fixes()[1]});  // seen 4 now
  EXPECT_EQ(loaded.prune(1, 1, {}), 2);
  ASSERT_EQ(loaded.fixes().size(), 1u);
  EXPECT_EQ(loaded.fixes()[0].seen, 4);
  EXPECT_EQ(loaded.prune(5, 0, {}), 1);
  FixMemory again = FixMemory::load(saved, &problems);
  EXPECT_EQ(again.prune(1, 0, {again.fixes()[0].id}), 1);
  fs::remove(saved);
  std::string bad = file_.string() + ".bad";
  ASSERT_TRUE(support::writeFileAtomically(bad, "{\"signature\": 1}\n", &error));
  std::vector<std::string> badProblems;
  EXPECT_TRUE(FixMemory::load(bad, &badProblems).fixes().empty());
  ASSERT_EQ(badProblems.size(), 1u);
  EXPECT_EQ(badProblems[0], bad + ":1: not a fix (a JSON object with signature and edit)");
  fs::remove(bad);
}

TEST_F(Mined, TheClosestFixesOfTheModeComeFirstAndUnrelatedOnesNot) {
  std::vector<std::string> problems;
  FixMemory memory;
  memory.add(mineFixes(file_, &problems));
  std::vector<Fix> hits = memory.closest("error: unknown name 'bias'", "dsl", 3);
  ASSERT_EQ(hits.size(), 2u);  // the two edits of the compile error; the mismatch shares too few words
  EXPECT_EQ(hits[0].signature, "error: unknown name 'bias'");
  EXPECT_TRUE(memory.closest("error: unknown name 'bias'", "ascendc", 3).empty());
  EXPECT_TRUE(memory.closest("error: a slice is not a value here", "dsl", 3).empty());
  EXPECT_EQ(memory.closest("error: unknown name 'bias'", "dsl", 1).size(), 1u);
  std::string hint = memoryHint({hits[0]});
  EXPECT_EQ(hint.rfind("\n\nFixes that worked for similar failures before (from the fix memory):\n", 0), 0u);
  EXPECT_NE(hint.find("- `error: unknown name 'bias'` (seen 1 time), fixed by:\n\n```diff\n--- add.tile\n"),
            std::string::npos)
      << hint;
  EXPECT_EQ(memoryHint({}), "");
}

TEST_F(Mined, ARepairRequestCarriesTheFixesForItsFailure) {
  std::vector<std::string> problems;
  FixMemory memory;
  memory.add(mineFixes(file_, &problems));
  llm::FakeChatClient model;
  const std::string broken = "```python\nN = dim()\n@kernel\ndef add(x: Tensor[f16, (N,)]):\n    c = bias\n```\n";
  model.pushText(broken);
  model.pushText(broken);
  testing::ScriptedJudge judge;
  struct FailingChecker final : ProgramChecker {
    std::string check(const std::map<std::string, std::string>&) override {
      return "add.tile:5:9: error: unknown name 'bias'\n";
    }
  } checker;
  AgentOptions options;
  options.rounds = 2;
  options.memory = &memory;
  std::vector<Attempt> attempts;
  runSample({"add", "system", "task"}, 0, model, judge, checker, options,
            [&](const Attempt& a) { attempts.push_back(a); });
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_NE(attempts[0].feedback.find("The compiler refused the program"), std::string::npos);
  EXPECT_NE(attempts[0].feedback.find("Fixes that worked for similar failures before"), std::string::npos)
      << attempts[0].feedback;
  EXPECT_NE(attempts[0].feedback.find("+c = a - b"), std::string::npos);
  options.memory = nullptr;
  attempts.clear();
  model.pushText(broken);
  model.pushText(broken);
  runSample({"add", "system", "task"}, 0, model, judge, checker, options,
            [&](const Attempt& a) { attempts.push_back(a); });
  EXPECT_EQ(attempts[0].feedback.find("Fixes that worked"), std::string::npos);
}

}  // namespace
}  // namespace tilecraft::agent
