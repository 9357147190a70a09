#include "harness/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "harness/report_tables.h"

namespace tilecraft::harness {
namespace {

constexpr size_t kMessageChars = 120;
constexpr int kFiguresWidth = 45;

}  // namespace

double SteadyProgressClock::nowSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

void StderrProgressOutput::write(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

bool StderrProgressOutput::isTerminal() { return ::isatty(STDERR_FILENO) == 1; }

int StderrProgressOutput::width() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}

std::string formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) seconds = 0;
  auto s = static_cast<long long>(std::llround(seconds));
  if (s >= 3600) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  if (s >= 60) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}

Progress::Progress(int total, int alreadyDone, ProgressOptions options, ProgressOutput& out, ProgressClock& clock)
    : total_(total),
      alreadyDone_(alreadyDone),
      options_(options),
      out_(out),
      clock_(clock),
      start_(clock.nowSeconds()) {
  if (options_.terminal) out_.write("\r" + bar());
}

std::string Progress::barLine() const {
  std::lock_guard lock(mutex_);
  return bar();
}

std::string Progress::bar() const {
  int done = alreadyDone_ + finished_;
  double fraction = total_ > 0 ? std::min(1.0, static_cast<double>(done) / total_) : 1.0;
  double elapsed = clock_.nowSeconds() - start_;
  std::string tail = fmt::format(" {}/{} {:.0f}%", done, total_, 100 * fraction);
  if (failed_ > 0) tail += fmt::format(" {} failed", failed_);
  if (finished_ > 0 && elapsed > 0) {
    double rate = finished_ / elapsed;
    tail += fmt::format(" {:.1f}/s ETA {}", rate, formatDuration((total_ - done) / rate));
  } else {
    tail += " ETA -";
  }
  // The bar keeps one width for the whole run (it would jump as the figures change): what is left of the line
  // after room for the figures, between 10 and 40 cells.
  int cells = std::clamp(options_.width - kFiguresWidth, 10, 40);
  int full = static_cast<int>(std::floor(fraction * cells));
  return "[" + std::string(full, '#') + std::string(cells - full, '.') + "]" + tail;
}

std::string Progress::rowLine(const Record& row) const {
  std::string status = row.correct ? "pass" : failureName(row.failure);
  std::string line = fmt::format("[{}/{}] {} {}", alreadyDone_ + finished_, total_, recordKey(row), status);
  if (!row.correct && !row.message.empty()) line += ": " + report_detail::clip(row.message, kMessageChars);
  line += fmt::format(" ({})",
                      row.wallSeconds < 10 ? fmt::format("{:.1f}s", row.wallSeconds) : formatDuration(row.wallSeconds));
  return line;
}

void Progress::finished(const Record& row) {
  std::lock_guard lock(mutex_);
  ++finished_;
  if (!row.correct) ++failed_;
  if (!options_.terminal) {
    out_.write(rowLine(row) + "\n");
    return;
  }
  // Clear the bar, print a failure above it, redraw.
  std::string text = "\r\x1b[2K";
  if (!row.correct) text += rowLine(row) + "\n";
  out_.write(text + bar());
}

void Progress::done() {
  std::lock_guard lock(mutex_);
  std::string summary = fmt::format("done: {} rows ({} this run, {} failed) in {}", alreadyDone_ + finished_, finished_,
                                    failed_, formatDuration(clock_.nowSeconds() - start_));
  if (options_.terminal) {
    out_.write("\r\x1b[2K" + bar() + "\n" + summary + "\n");
  } else {
    out_.write(summary + "\n");
  }
}

}  // namespace tilecraft::harness
