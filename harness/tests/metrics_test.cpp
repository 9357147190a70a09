#include "harness/metrics.h"

#include <cmath>

#include <gtest/gtest.h>

namespace tilecraft::harness {
namespace {

Record row(std::string task, std::string caseId, int sample, bool compiled, bool correct, double simUs = 0,
           double eagerUs = 0, double limitUs = 0) {
  Record r;
  r.task = std::move(task);
  r.category = "activation";
  r.level = 1;
  r.caseId = std::move(caseId);
  r.sample = sample;
  r.compiled = compiled;
  r.correct = correct;
  r.failure = correct ? Failure::None : (compiled ? Failure::NumericMismatch : Failure::Syntax);
  r.simUs = simUs;
  r.eagerUs = eagerUs;
  r.limitUs = limitUs;
  return r;
}

TEST(PassAtK, MatchesTheClosedForm) {
  EXPECT_DOUBLE_EQ(passAtK(10, 3, 1), 0.3);
  // 1 - C(7,5)/C(10,5) = 1 - 21/252.
  EXPECT_NEAR(passAtK(10, 3, 5), 1 - 21.0 / 252.0, 1e-12);
  EXPECT_DOUBLE_EQ(passAtK(10, 0, 5), 0);
  EXPECT_DOUBLE_EQ(passAtK(4, 2, 3), 1);  // fewer wrong samples than draws: a correct one is always drawn
  EXPECT_DOUBLE_EQ(passAtK(0, 0, 1), 0);
}

TEST(LimitScore, IsHalfAtTheBaselineAndOneAtTheLimit) {
  EXPECT_DOUBLE_EQ(limitScore(100, 100, 10), 0.5);
  EXPECT_DOUBLE_EQ(limitScore(10, 100, 10), 1.0);
  EXPECT_DOUBLE_EQ(limitScore(190, 100, 10), 90.0 / (180.0 + 90.0));
  EXPECT_DOUBLE_EQ(limitScore(5, 100, 10), 1.0);  // faster than the model's limit: capped at the limit
  EXPECT_DOUBLE_EQ(limitScore(0, 100, 10), 0);
}

TEST(CannOperatorScore, AnyCompileFailureZeroesTheOperator) {
  Record a = row("t", "1", 0, true, true, 100, 100, 10), b = row("t", "2", 0, false, false);
  EXPECT_DOUBLE_EQ(cannOperatorScore({&a, &b}), 0);
  Record c = row("t", "2", 0, true, false);
  // 100 * (0.2 + (0.3 + 0.5 * 0.5 + 0) / 2)
  EXPECT_DOUBLE_EQ(cannOperatorScore({&a, &c}), 100 * (0.2 + 0.55 / 2));
}

TEST(Summarize, ScoresTasksCategoriesAndLevels) {
  std::vector<Record> rows = {
      row("relu", "1", 0, true, true, 10, 30, 5),  // 3x
      row("relu", "2", 0, true, true, 20, 20, 5),  // 1x
      row("gelu", "1", 0, true, false),
      row("gelu", "2", 0, true, true, 10, 5, 2),
  };
  rows[2].level = 2;
  rows[3].level = 2;
  rows[2].category = rows[3].category = "fusion";
  Record skipped = row("softmax", "1", 0, false, false);
  skipped.failure = Failure::GoldenError;
  rows.push_back(skipped);

  Summary s = summarize(rows);
  EXPECT_EQ(s.overall.tasks, 2);  // the golden error is reported, not scored
  EXPECT_EQ(s.overall.cases, 4);
  EXPECT_DOUBLE_EQ(s.overall.compAt1, 1.0);
  EXPECT_DOUBLE_EQ(s.overall.passAt1, 0.5);
  EXPECT_DOUBLE_EQ(s.overall.fastP.at("0"), 0.5);
  EXPECT_DOUBLE_EQ(s.overall.fastP.at("1"), 0.5);  // relu: geomean sqrt(3) > 1
  EXPECT_DOUBLE_EQ(s.overall.fastP.at("2"), 0.0);
  EXPECT_NEAR(s.overall.geomeanSpeedup, std::cbrt(3.0 * 1.0 * 0.5), 1e-12);
  EXPECT_EQ(s.overall.failures.at("golden_error"), 1);
  EXPECT_EQ(s.overall.failures.at("numeric_mismatch"), 1);
  EXPECT_DOUBLE_EQ(s.byLevel.at(1).passAt1, 1.0);
  EXPECT_DOUBLE_EQ(s.byCategory.at("fusion").passAt1, 0.0);
  ASSERT_EQ(s.tasks.size(), 3u);
  EXPECT_EQ(s.tasks[0].task, "gelu");
  EXPECT_EQ(s.tasks[0].correct, 1);
  EXPECT_EQ(s.tasks[0].firstFailure, "numeric_mismatch: ");
  EXPECT_EQ(s.tasks[2].task, "softmax");
  EXPECT_EQ(s.tasks[2].cases, 0);
  EXPECT_EQ(s.rows.front().task, "gelu");
}

TEST(Summarize, PassAtKOverSeveralSamples) {
  std::vector<Record> rows;
  for (int sample = 0; sample < 5; ++sample) rows.push_back(row("relu", "1", sample, true, sample == 3, 1, 1, 1));
  Summary s = summarize(rows);
  EXPECT_DOUBLE_EQ(s.overall.passAtK.at(1), 0.2);
  EXPECT_DOUBLE_EQ(s.overall.passAtK.at(5), 1.0);
  EXPECT_EQ(s.overall.passAtK.count(10), 0u);
  EXPECT_EQ(s.overall.samples, 5);
}

TEST(Summarize, OrderOfRowsDoesNotMatter) {
  std::vector<Record> rows = {row("b", "1", 0, true, true, 1, 2, 1), row("a", "2", 0, true, false),
                              row("a", "1", 0, false, false)};
  std::vector<Record> reversed(rows.rbegin(), rows.rend());
  Summary x = summarize(rows), y = summarize(reversed);
  ASSERT_EQ(x.rows.size(), y.rows.size());
  for (size_t i = 0; i < x.rows.size(); ++i) EXPECT_EQ(recordToJson(x.rows[i]), recordToJson(y.rows[i]));
  EXPECT_DOUBLE_EQ(x.overall.cannScore, y.overall.cannScore);
}

}  // namespace
}  // namespace tilecraft::harness
