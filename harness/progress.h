// What `tilecraft bench` shows while it works: on a terminal, one bar redrawn in place with done/total, the
// rate and an ETA, failures printed above it as they happen; anywhere else (CI logs, Slurm output files) one
// plain line per finished row. The clock and the output sit behind interfaces so tests drive them by hand.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "harness/record.h"

namespace tilecraft::harness {

class ProgressClock {
 public:
  virtual ~ProgressClock() = default;
  virtual double nowSeconds() = 0;  // monotonic
};

class SteadyProgressClock final : public ProgressClock {
 public:
  double nowSeconds() override;
};

// A clock given as a function, e.g. BenchEnv::clock.
class FunctionProgressClock final : public ProgressClock {
 public:
  explicit FunctionProgressClock(std::function<double()> now) : now_(std::move(now)) {}
  double nowSeconds() override { return now_(); }

 private:
  std::function<double()> now_;
};

class ProgressOutput {
 public:
  virtual ~ProgressOutput() = default;
  virtual void write(std::string_view text) = 0;
};

// Writes to stderr, flushed; isTerminal() says whether stderr is a terminal and width() its columns (80 if
// unknown).
class StderrProgressOutput final : public ProgressOutput {
 public:
  void write(std::string_view text) override;
  static bool isTerminal();
  static int width();
};

struct ProgressOptions {
  bool terminal = false;  // the bar, redrawn with '\r'; otherwise plain lines
  int width = 80;         // terminal columns the bar line may use
};

// "1h02m", "3m05s", "42s": how ETAs and elapsed times print.
std::string formatDuration(double seconds);

// Thread-safe: bench's --jobs workers report rows as they finish.
class Progress {
 public:
  // `total` rows in this run, `alreadyDone` of them read back by --resume (counted as done, not in the rate).
  Progress(int total, int alreadyDone, ProgressOptions options, ProgressOutput& out, ProgressClock& clock);

  // One row finished. Plain: "[12/40] task/case/sample pass 1.2s" or "... numeric_mismatch: <message>".
  void finished(const Record& row);
  // The run is over: the terminal's bar line is completed with a newline and a final "done" line is printed.
  void done();

  // The bar line as drawn now (without '\r'): "[#####.....] 12/40 30% 2.1/s ETA 14s".
  std::string barLine() const;

 private:
  std::string bar() const;  // barLine() with mutex_ held
  std::string rowLine(const Record& row) const;

  int total_, alreadyDone_, finished_ = 0, failed_ = 0;
  ProgressOptions options_;
  ProgressOutput& out_;
  ProgressClock& clock_;
  double start_;
  mutable std::mutex mutex_;
};

}  // namespace tilecraft::harness
