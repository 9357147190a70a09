// The ChatClient for any OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp's server, OpenAI, DeepSeek):
// POST {base_url}/chat/completions with the endpoint's defaults filled in, streamed or not, retried with backoff
// (llm/retry.h) under the endpoint's cap on requests in flight, and accounted.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "llm/chat.h"
#include "llm/endpoints.h"
#include "llm/http_transport.h"
#include "llm/retry.h"

namespace tilecraft::llm {

struct OpenAiClientOptions {
  std::shared_ptr<HttpTransport> transport;  // null: HttplibTransport
  std::shared_ptr<Clock> clock;              // null: SystemClock
  std::optional<RetryPolicy> policy;         // unset: RetryPolicy{} with the endpoint's max_attempts
  uint64_t jitterSeed = 0;                   // 0: from std::random_device
};

// `request` as it is sent to `endpoint`: the endpoint's defaults where the request leaves a field unset.
ChatRequest resolveRequest(const Endpoint& endpoint, const ChatRequest& request);

class OpenAiChatClient final : public ChatClient {
 public:
  // `apiKey` empty: no Authorization header.
  OpenAiChatClient(Endpoint endpoint, std::string apiKey, OpenAiClientOptions options = {});

  ChatResult complete(const ChatRequest& request) override;

  ChatTotals totals() const { return accounting_.totals(); }
  int peakInFlight() const { return limiter_.peak(); }
  const Endpoint& endpoint() const { return endpoint_; }
  // The request as it is sent: the endpoint's defaults where `request` leaves a field unset.
  ChatRequest resolve(const ChatRequest& request) const;

 private:
  struct Attempt;
  Attempt attemptOnce(const ChatRequest& resolved, bool stream);
  double jitteredBackoff(int retry);

  const Endpoint endpoint_;
  const std::string apiKey_;
  const std::string url_;
  std::shared_ptr<HttpTransport> transport_;
  std::shared_ptr<Clock> clock_;
  RetryPolicy policy_;
  InFlightLimiter limiter_;
  ChatAccounting accounting_;
  std::mutex randomMutex_;
  std::mt19937_64 random_;
};

}  // namespace tilecraft::llm
