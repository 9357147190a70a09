// The chat-completions vocabulary every user of a model shares (the agent, the CLI, tests): a request, its reply,
// its failure, and the ChatClient interface with a scripted fake. Nothing here knows about HTTP or JSON; the
// OpenAI-compatible implementation is llm/openai_client.h.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tilecraft::llm {

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
};

// An unset field takes the endpoint's value (llm/endpoints.h); one the endpoint leaves unset too is not sent at
// all, so the server's own default applies (some models refuse a temperature, some servers a seed).
struct ChatRequest {
  std::string model;  // empty: the endpoint's model
  std::vector<ChatMessage> messages;
  std::optional<double> temperature;
  std::optional<double> topP;
  std::optional<int64_t> maxTokens;
  std::optional<uint64_t> seed;
  int n = 1;  // independent choices in one reply
  std::vector<std::string> stop;
  std::optional<bool> stream;
};

struct ChatChoice {
  std::string content;
  std::string reasoning;     // reasoning_content (DeepSeek, vLLM, SGLang) or reasoning (Ollama); empty when absent
  std::string finishReason;  // "stop", "length", ...: "length" means max_tokens cut the reply
};

struct ChatUsage {
  int64_t promptTokens = 0;
  int64_t completionTokens = 0;
};

struct ChatReply {
  std::vector<ChatChoice> choices;  // in index order, at least one
  ChatUsage usage;                  // zero when the server reports none
  std::string model;                // the model the server says answered
  double elapsed = 0;               // seconds from the call to the reply, backoff waits included
  int attempts = 0;                 // HTTP requests it took (1 = no retry)
  double cost = 0;                  // from the endpoint's prices per million tokens
};

enum class ChatErrorKind {
  Http,       // the server answered with an error status
  Transport,  // no connection, TLS failure, connection closed before any reply
  Timeout,    // no reply (or no next byte of a stream) within the endpoint's timeout
  CutStream,  // a stream or body that ended before its end ([DONE], a finish_reason, complete JSON)
  BadReply,   // a 2xx reply that is not a chat completion
  Config,     // the request cannot be sent as configured (no scripted reply left, in the fake)
};

const char* chatErrorKindName(ChatErrorKind kind);

struct ChatError {
  ChatErrorKind kind = ChatErrorKind::Transport;
  int status = 0;        // the HTTP status for Http, else 0
  std::string message;   // complete and user-facing: endpoint, URL, status, the server's words, a hint
  int attempts = 0;      // HTTP requests made before giving up
  bool retried = false;  // false when the error was final at once (401, insufficient_quota)
};

// A reply or the reason there is none.
struct ChatResult {
  std::optional<ChatReply> reply;
  ChatError error;  // meaningful only when !reply

  explicit operator bool() const { return reply.has_value(); }
  static ChatResult success(ChatReply reply);
  static ChatResult failure(ChatError error);
};

class ChatClient {
 public:
  virtual ~ChatClient() = default;
  // Blocks until a reply or a final error. Implementations are safe to call from several threads at once.
  virtual ChatResult complete(const ChatRequest& request) = 0;
};

// A ChatClient for other libraries' tests: answers with scripted results in call order and records every request.
class FakeChatClient final : public ChatClient {
 public:
  void push(ChatResult result);
  // A one-choice reply with this content (and reasoning), finish reason "stop".
  void pushText(std::string content, std::string reasoning = "");
  void pushError(ChatError error) { push(ChatResult::failure(std::move(error))); }

  // With nothing left to answer, a Config error saying so (a test that asks more than it scripted fails clearly).
  ChatResult complete(const ChatRequest& request) override;
  std::vector<ChatRequest> requests() const;

 private:
  mutable std::mutex mutex_;
  std::deque<ChatResult> queued_;
  std::vector<ChatRequest> requests_;
};

}  // namespace tilecraft::llm
