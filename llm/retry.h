// When to try a request again and how long to wait, the cap on requests in flight, and the running totals of
// tokens, time and cost. The clock and the sleep are behind an interface, so tests see every wait without waiting.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "llm/chat.h"

namespace tilecraft::llm {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual double now() = 0;  // seconds on a monotonic clock
  virtual void sleepFor(double seconds) = 0;
};

class SystemClock final : public Clock {
 public:
  double now() override;
  void sleepFor(double seconds) override;
};

// Time stands still but for sleeps, which advance it at once and are recorded. Thread-safe.
class FakeClock final : public Clock {
 public:
  double now() override;
  void sleepFor(double seconds) override;
  std::vector<double> sleeps() const;

 private:
  mutable std::mutex mutex_;
  double now_ = 0;
  std::vector<double> sleeps_;
};

struct RetryPolicy {
  int maxAttempts = 5;         // HTTP requests per call, the first included
  double baseDelay = 1;        // seconds: the backoff before retry k is uniform in [0, min(maxDelay, base * 2^(k-1))]
  double maxDelay = 30;        // seconds
  double maxRetryAfter = 120;  // a Retry-After longer than this is not waited for: the call fails saying so
};

// What one failed attempt means for the call.
struct RetryDecision {
  bool retry = false;
  std::optional<double> retryAfter;  // seconds the server asked for (Retry-After), when it did
  std::string why;                   // for a final error: the hint ("check the key in $OPENAI_API_KEY")
};

// 429 and 5xx (and 408) are retried, with the Retry-After header (a number of seconds) honoured; 400, 401, 403,
// 404 and the other 4xx are final, and so is a 429 whose error code or type is insufficient_quota (the account
// is out of credit: waiting will not help). `headers` have lower-case names.
RetryDecision decideOnStatus(int status, const std::map<std::string, std::string>& headers,
                             const std::string& errorCode);

// Full jitter: uniform in [0, min(maxDelay, baseDelay * 2^(retry-1))] for retry = 1, 2, ...
double backoffDelay(const RetryPolicy& policy, int retry, std::mt19937_64& random);

// A counting semaphore: at most `limit` holders at once; acquire blocks. Thread-safe; records the peak.
class InFlightLimiter {
 public:
  explicit InFlightLimiter(int limit);
  void acquire();
  void release();
  int peak() const;
  int limit() const { return limit_; }

  class Slot {
   public:
    explicit Slot(InFlightLimiter& limiter) : limiter_(limiter) { limiter_.acquire(); }
    ~Slot() { limiter_.release(); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

   private:
    InFlightLimiter& limiter_;
  };

 private:
  const int limit_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  int held_ = 0;
  int peak_ = 0;
};

struct ChatTotals {
  int64_t calls = 0;     // complete() calls
  int64_t failures = 0;  // calls that ended in an error
  int64_t requests = 0;  // HTTP requests sent
  int64_t retries = 0;   // requests after a call's first
  int64_t promptTokens = 0;
  int64_t completionTokens = 0;
  double seconds = 0;  // summed call time (concurrent calls overlap, so this can pass the wall time)
  double cost = 0;
};

// Running totals of one client, shared by its threads.
class ChatAccounting {
 public:
  ChatAccounting(double pricePerMillionIn, double pricePerMillionOut)
      : priceIn_(pricePerMillionIn), priceOut_(pricePerMillionOut) {}
  double costOf(const ChatUsage& usage) const;
  // One finished call: its reply (nullptr when it failed), the requests it made and its duration.
  void record(const ChatReply* reply, int requests, double seconds);
  ChatTotals totals() const;

 private:
  const double priceIn_;
  const double priceOut_;
  mutable std::mutex mutex_;
  ChatTotals totals_;
};

}  // namespace tilecraft::llm
