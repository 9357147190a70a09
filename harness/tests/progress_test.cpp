#include "harness/progress.h"

#include <gtest/gtest.h>

namespace tilecraft::harness {
namespace {

class FakeClock final : public ProgressClock {
 public:
  double nowSeconds() override { return now; }
  double now = 1000;
};

class CapturedOutput final : public ProgressOutput {
 public:
  void write(std::string_view t) override { text += t; }
  std::string text;
};

Record row(const std::string& task, bool correct, double wall) {
  Record r;
  r.task = task;
  r.caseId = "3";
  r.sample = 0;
  r.correct = correct;
  r.failure = correct ? Failure::None : Failure::NumericMismatch;
  r.message = correct ? "" : "mean rel error 0.5 > tau 0.000977\nat element 7";
  r.wallSeconds = wall;
  return r;
}

TEST(Progress, PlainLinesOnePerRow) {
  FakeClock clock;
  CapturedOutput out;
  Progress progress(4, 1, ProgressOptions{false, 80}, out, clock);
  EXPECT_EQ(out.text, "");
  clock.now += 2;
  progress.finished(row("add", true, 1.25));
  progress.finished(row("softmax", false, 12));
  clock.now += 61;
  progress.done();
  EXPECT_EQ(out.text,
            "[2/4] add/3/0 pass (1.2s)\n"
            "[3/4] softmax/3/0 numeric_mismatch: mean rel error 0.5 > tau 0.000977 at element 7 (12s)\n"
            "done: 3 rows (2 this run, 1 failed) in 1m03s\n");
}

TEST(Progress, TerminalBarWithRateAndEta) {
  FakeClock clock;
  CapturedOutput out;
  Progress progress(10, 0, ProgressOptions{true, 60}, out, clock);
  EXPECT_EQ(out.text, "\r[" + std::string(15, '.') + "] 0/10 0% ETA -");
  out.text.clear();
  clock.now += 4;
  progress.finished(row("add", true, 1));
  progress.finished(row("add", true, 1));
  // 2 rows in 4 s: 0.5/s, 8 left: 16 s. The bar fills 2/10 of its 15 cells (60 columns less 45 for figures).
  std::string bar = "[" + std::string(3, '#') + std::string(12, '.') + "] 2/10 20% 0.5/s ETA 16s";
  EXPECT_EQ(progress.barLine(), bar);
  EXPECT_EQ(out.text.substr(out.text.rfind('\r')), "\r\x1b[2K" + bar);
  out.text.clear();
  progress.finished(row("softmax", false, 2));
  // A failure is printed above the bar, which is redrawn under it.
  EXPECT_EQ(out.text.rfind("\r\x1b[2K[3/10] softmax/3/0 numeric_mismatch: ", 0), 0u) << out.text;
  EXPECT_NE(out.text.find(" (2.0s)\n["), std::string::npos) << out.text;
  EXPECT_NE(progress.barLine().find(" 3/10 30% 1 failed 0.8/s ETA 9s"), std::string::npos) << progress.barLine();
}

TEST(Progress, ResumedRowsCountAsDoneButNotInTheRate) {
  FakeClock clock;
  CapturedOutput out;
  Progress progress(100, 90, ProgressOptions{true, 200}, out, clock);
  clock.now += 10;
  progress.finished(row("add", true, 1));
  // 1 row in 10 s, 9 left: 90 s. The bar is at most 40 cells wide.
  EXPECT_EQ(progress.barLine(), "[" + std::string(36, '#') + std::string(4, '.') + "] 91/100 91% 0.1/s ETA 1m30s");
}

TEST(Progress, NarrowTerminalKeepsTenCells) {
  FakeClock clock;
  CapturedOutput out;
  Progress progress(3, 0, ProgressOptions{true, 20}, out, clock);
  EXPECT_EQ(progress.barLine(), "[..........] 0/3 0% ETA -");
}

TEST(Progress, FunctionClockDrivesTheEta) {
  double now = 5;
  FunctionProgressClock clock([&] { return now; });
  CapturedOutput out;
  Progress progress(4, 0, ProgressOptions{false, 80}, out, clock);
  now = 7;
  progress.finished(row("add", true, 1));
  progress.done();
  EXPECT_EQ(out.text, "[1/4] add/3/0 pass (1.0s)\ndone: 1 rows (1 this run, 0 failed) in 2s\n");
}

TEST(Progress, Durations) {
  EXPECT_EQ(formatDuration(0.4), "0s");
  EXPECT_EQ(formatDuration(59.6), "1m00s");
  EXPECT_EQ(formatDuration(3725), "1h02m");
  EXPECT_EQ(formatDuration(-5), "0s");
}

}  // namespace
}  // namespace tilecraft::harness
