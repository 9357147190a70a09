#include "llm/retry.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "support/assert.h"
#include "support/numbers.h"

namespace tilecraft::llm {

double SystemClock::now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void SystemClock::sleepFor(double seconds) {
  if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

double FakeClock::now() {
  std::lock_guard lock(mutex_);
  return now_;
}

void FakeClock::sleepFor(double seconds) {
  std::lock_guard lock(mutex_);
  sleeps_.push_back(seconds);
  now_ += std::max(0.0, seconds);
}

std::vector<double> FakeClock::sleeps() const {
  std::lock_guard lock(mutex_);
  return sleeps_;
}

RetryDecision decideOnStatus(int status, const std::map<std::string, std::string>& headers,
                             const std::string& errorCode) {
  RetryDecision decision;
  if (auto it = headers.find("retry-after"); it != headers.end()) {
    if (auto seconds = support::parseFiniteDouble(it->second); seconds && *seconds >= 0) decision.retryAfter = seconds;
  }
  if (status == 429 && errorCode == "insufficient_quota") {
    decision.why = "the account's quota is exhausted (insufficient_quota): add credit or use another endpoint";
    return decision;
  }
  if (status == 429 || status == 408 || status >= 500) {
    decision.retry = true;
    return decision;
  }
  switch (status) {
    case 400: decision.why = "the server refused the request: check the model name and the sampling settings"; break;
    case 401: decision.why = "the server refused the API key"; break;
    case 403: decision.why = "the key may not use this model or endpoint"; break;
    case 404: decision.why = "check base_url (it usually ends in /v1) and the model name"; break;
    default: decision.why = "a client error: retrying would get the same answer"; break;
  }
  return decision;
}

double backoffDelay(const RetryPolicy& policy, int retry, std::mt19937_64& random) {
  TC_ASSERT(retry >= 1, "retry {} counts from 1", retry);
  double ceiling = std::min(policy.maxDelay, policy.baseDelay * std::ldexp(1.0, std::min(retry - 1, 60)));
  return std::uniform_real_distribution<double>(0.0, ceiling)(random);
}

InFlightLimiter::InFlightLimiter(int limit) : limit_(limit) { TC_ASSERT(limit >= 1, "in-flight limit {}", limit); }

void InFlightLimiter::acquire() {
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [this] { return held_ < limit_; });
  ++held_;
  peak_ = std::max(peak_, held_);
}

void InFlightLimiter::release() {
  {
    std::lock_guard lock(mutex_);
    TC_ASSERT(held_ > 0, "release without acquire");
    --held_;
  }
  freed_.notify_one();
}

int InFlightLimiter::peak() const {
  std::lock_guard lock(mutex_);
  return peak_;
}

double ChatAccounting::costOf(const ChatUsage& usage) const {
  return (static_cast<double>(usage.promptTokens) * priceIn_ +
          static_cast<double>(usage.completionTokens) * priceOut_) /
         1e6;
}

void ChatAccounting::record(const ChatReply* reply, int requests, double seconds) {
  std::lock_guard lock(mutex_);
  ++totals_.calls;
  totals_.requests += requests;
  totals_.retries += std::max(0, requests - 1);
  totals_.seconds += seconds;
  if (reply == nullptr) {
    ++totals_.failures;
    return;
  }
  totals_.promptTokens += reply->usage.promptTokens;
  totals_.completionTokens += reply->usage.completionTokens;
  totals_.cost += reply->cost;
}

ChatTotals ChatAccounting::totals() const {
  std::lock_guard lock(mutex_);
  return totals_;
}

}  // namespace tilecraft::llm
