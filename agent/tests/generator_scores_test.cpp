// The generator table's figures worked by hand from a bench's rows and an agent's sample lines: Comp@k and Pass@k
// over a task's samples, the costs per solved task, the scopes, and a sample the transcripts lack.
#include "agent/generator_scores.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "support/files.h"

namespace tilecraft::agent {
namespace {

namespace fs = std::filesystem;

harness::Record row(const std::string& task, const std::string& category, int sample, const std::string& caseId,
                    bool compiled, bool correct) {
  harness::Record r;
  r.task = task;
  r.category = category;
  r.level = task == "add" ? 1 : 2;
  r.caseId = caseId;
  r.sample = sample;
  r.compiled = compiled;
  r.correct = correct;
  r.failure =
      correct ? harness::Failure::None : (compiled ? harness::Failure::NumericMismatch : harness::Failure::UnknownApi);
  if (correct) {  // twice as fast as eager, half way to the limit
    r.simUs = 10;
    r.eagerUs = 20;
    r.limitUs = 5;
  }
  return r;
}

class GeneratorScoresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = fs::temp_directory_path() /
            ("generator_scores_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    // add: sample 0 right in 2 rounds, sample 1 wrong after 4; relu: sample 0 never builds in 4 rounds, sample 1
    // was cut by a transport error (no sample line).
    std::string lines =
        R"({"type": "attempt", "task": "add", "sample": 0, "round": 0})"
        "\n"
        R"({"type": "sample", "task": "add", "sample": 0, "rounds": 2, "prompt_tokens": 100, "completion_tokens": 50, "wall_seconds": 10})"
        "\n"
        R"({"type": "sample", "task": "add", "sample": 1, "rounds": 4, "prompt_tokens": 200, "completion_tokens": 100, "wall_seconds": 20})"
        "\n"
        R"({"type": "sample", "task": "relu", "sample": 0, "rounds": 4, "prompt_tokens": 250, "completion_tokens": 50, "wall_seconds": 30})"
        "\n"
        "a torn line\n";
    std::string error;
    ASSERT_TRUE(support::writeFileAtomically(file_, lines, &error)) << error;
    run_.mode = "dsl";
    run_.model = "scripted";
    run_.transcripts = file_;
    for (const char* c : {"1", "2"}) {
      run_.rows.push_back(row("add", "Math", 0, c, true, true));
      run_.rows.push_back(row("add", "Math", 1, c, true, std::string(c) == "2"));
      run_.rows.push_back(row("relu", "Activation", 0, c, false, false));
      run_.rows.push_back(row("relu", "Activation", 1, c, false, false));
    }
  }
  void TearDown() override { fs::remove(file_); }
  fs::path file_;
  GeneratorRun run_;
};

TEST_F(GeneratorScoresTest, FiguresOverallPerLevelAndPerCategory) {
  std::vector<GeneratorScores> scores = generatorScores(run_);
  ASSERT_EQ(scores.size(), 5u);  // all, level 1, level 2, Activation, Math
  const GeneratorScores& all = scores[0];
  EXPECT_EQ(all.scope, "all");
  EXPECT_EQ(all.tasks, 2);
  EXPECT_EQ(all.samples, 2);
  EXPECT_DOUBLE_EQ(all.compAt1, 0.5);   // add 2 of 2 samples build, relu 0 of 2
  EXPECT_DOUBLE_EQ(all.passAt1, 0.25);  // add 1 of 2, relu 0
  EXPECT_DOUBLE_EQ(all.compAtK, 0.5);
  EXPECT_DOUBLE_EQ(all.passAtK, 0.5);  // add has a correct sample
  EXPECT_DOUBLE_EQ(all.fast1, 0.25);   // 1 of the 4 (task, sample) pairs is correct and above eager
  EXPECT_EQ(all.solved, 1);
  EXPECT_DOUBLE_EQ(all.rounds, 2);    // add's correct sample took 2 rounds
  EXPECT_DOUBLE_EQ(all.tokens, 450);  // both of add's samples
  EXPECT_DOUBLE_EQ(all.seconds, 30);
  EXPECT_EQ(scores[1].scope, "level 1");
  EXPECT_EQ(scores[2].scope, "level 2");
  EXPECT_EQ(scores[2].solved, 0);
  EXPECT_EQ(scores[3].scope, "Activation");
  EXPECT_DOUBLE_EQ(scores[3].compAtK, 0);
  EXPECT_EQ(scores[4].scope, "Math");
  EXPECT_DOUBLE_EQ(scores[4].passAtK, 1);
}

TEST_F(GeneratorScoresTest, TheTableHasARowPerRunAndScope) {
  GeneratorRun other = run_;
  other.mode = "ascendc";
  std::string table = generatorTable({run_, other});
  EXPECT_NE(table.find("| dsl | scripted | all | 2 | 2 | 50.0% | 25.0% | 50.0% | 50.0% | 25.0% | 1 | 2.00 | 450 | "
                       "30.0 |\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("| ascendc | scripted | level 2 | 1 | 2 | 0.0% | 0.0% | 0.0% | 0.0% | 0.0% | 0 | - | - | - |\n"),
            std::string::npos)
      << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 2 + 2 * 5);
}

}  // namespace
}  // namespace tilecraft::agent
