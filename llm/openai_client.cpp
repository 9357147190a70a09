#include "llm/openai_client.h"

#include <fmt/format.h>

#include <utility>

#include "llm/wire.h"

namespace tilecraft::llm {

struct OpenAiChatClient::Attempt {
  std::optional<ChatReply> reply;
  ChatError error;
  RetryDecision decision;
};

namespace {

std::string statusText(int status) {
  switch (status) {
    case 400: return "400 Bad Request";
    case 401: return "401 Unauthorized";
    case 403: return "403 Forbidden";
    case 404: return "404 Not Found";
    case 408: return "408 Request Timeout";
    case 429: return "429 Too Many Requests";
    case 500: return "500 Internal Server Error";
    case 502: return "502 Bad Gateway";
    case 503: return "503 Service Unavailable";
    case 504: return "504 Gateway Timeout";
    default: return std::to_string(status);
  }
}

std::string seconds(double s) { return fmt::format("{:g} s", s); }

}  // namespace

OpenAiChatClient::OpenAiChatClient(Endpoint endpoint, std::string apiKey, OpenAiClientOptions options)
    : endpoint_(std::move(endpoint)),
      apiKey_(std::move(apiKey)),
      url_(endpoint_.baseUrl + (endpoint_.baseUrl.ends_with('/') ? "" : "/") + "chat/completions"),
      transport_(options.transport ? std::move(options.transport) : std::make_shared<HttplibTransport>()),
      clock_(options.clock ? std::move(options.clock) : std::make_shared<SystemClock>()),
      limiter_(endpoint_.maxInFlight),
      accounting_(endpoint_.priceIn, endpoint_.priceOut),
      random_(options.jitterSeed != 0 ? options.jitterSeed : std::random_device{}()) {
  if (options.policy) {
    policy_ = *options.policy;
  } else {
    policy_.maxAttempts = endpoint_.maxAttempts;
  }
}

ChatRequest resolveRequest(const Endpoint& endpoint, const ChatRequest& request) {
  ChatRequest r = request;
  if (r.model.empty()) r.model = endpoint.model;
  if (!r.temperature) r.temperature = endpoint.temperature;
  if (!r.topP) r.topP = endpoint.topP;
  if (!r.maxTokens) r.maxTokens = endpoint.maxTokens;
  if (!r.seed) r.seed = endpoint.seed;
  if (r.stop.empty()) r.stop = endpoint.stop;
  if (!r.stream) r.stream = endpoint.stream;
  if (r.n < 1) r.n = 1;
  return r;
}

ChatRequest OpenAiChatClient::resolve(const ChatRequest& request) const { return resolveRequest(endpoint_, request); }

double OpenAiChatClient::jitteredBackoff(int retry) {
  std::lock_guard lock(randomMutex_);
  return backoffDelay(policy_, retry, random_);
}

OpenAiChatClient::Attempt OpenAiChatClient::attemptOnce(const ChatRequest& resolved, bool stream) {
  HttpPost post;
  post.url = url_;
  post.headers.emplace_back("Content-Type", "application/json");
  post.headers.emplace_back("Accept", stream ? "text/event-stream" : "application/json");
  if (!apiKey_.empty()) post.headers.emplace_back("Authorization", "Bearer " + apiKey_);
  post.body = chatRequestBody(resolved, stream);
  post.timeout = std::chrono::milliseconds(static_cast<int64_t>(endpoint_.timeout * 1000));
  post.caCertPath = endpoint_.caCert;
  StreamAccumulator accumulator;
  if (stream) {
    post.onBodyChunk = [&accumulator](std::string_view bytes) {
      accumulator.feed(bytes);
      return !accumulator.failed();
    };
  }

  HttpReply http;
  {
    InFlightLimiter::Slot slot(limiter_);
    http = transport_->post(post);
  }

  Attempt attempt;
  ChatError& error = attempt.error;
  const std::string from = fmt::format("from {}", url_);
  if (http.failure != HttpFailure::None && !(http.failure == HttpFailure::Cancelled && accumulator.failed())) {
    error.message = http.failureMessage;
    switch (http.failure) {
      case HttpFailure::Timeout:
        error.kind = ChatErrorKind::Timeout;
        attempt.decision.retry = true;
        break;
      case HttpFailure::Cut:
        error.kind = http.status >= 200 && http.status < 300 ? ChatErrorKind::CutStream : ChatErrorKind::Transport;
        if (stream && http.status >= 200 && http.status < 300) {
          error.message += fmt::format(" ({} stream events received)", accumulator.events());
        }
        attempt.decision.retry = true;
        break;
      case HttpFailure::Connect:
        error.kind = ChatErrorKind::Transport;
        attempt.decision.retry = true;
        break;
      default:  // TLS, a bad URL: the same again would fail the same way
        error.kind = ChatErrorKind::Transport;
        break;
    }
    return attempt;
  }
  if (http.status < 200 || http.status >= 300) {
    std::string code;
    std::string said = serverErrorMessage(http.body, &code);
    error.kind = ChatErrorKind::Http;
    error.status = http.status;
    attempt.decision = decideOnStatus(http.status, http.headers, code);
    error.message =
        fmt::format("HTTP {}{} {}: {}", statusText(http.status), code.empty() ? "" : " " + code, from, said);
    return attempt;
  }
  ChatReply reply;
  std::string problem;
  if (stream) {
    if (!accumulator.finish(reply, problem)) {
      // An error the server put in the stream, a malformed event, or an end before [DONE]: all worth a retry,
      // and never a silently short reply.
      error.kind = accumulator.failed() ? ChatErrorKind::BadReply : ChatErrorKind::CutStream;
      error.message = fmt::format("stream {}: {}", from, problem);
      attempt.decision.retry = true;
      return attempt;
    }
  } else {
    bool truncated = false;
    if (!parseChatCompletion(http.body, reply, problem, truncated)) {
      error.kind = truncated ? ChatErrorKind::CutStream : ChatErrorKind::BadReply;
      error.message = fmt::format("reply {}: {}", from, problem);
      attempt.decision.retry = truncated;
      return attempt;
    }
  }
  attempt.reply = std::move(reply);
  return attempt;
}

ChatResult OpenAiChatClient::complete(const ChatRequest& request) {
  const double start = clock_->now();
  const ChatRequest resolved = resolve(request);
  const bool stream = resolved.stream.value_or(false);
  ChatError last;
  int attempts = 0;
  while (true) {
    ++attempts;
    Attempt attempt = attemptOnce(resolved, stream);
    if (attempt.reply) {
      ChatReply reply = std::move(*attempt.reply);
      reply.attempts = attempts;
      reply.cost = accounting_.costOf(reply.usage);
      reply.elapsed = clock_->now() - start;
      accounting_.record(&reply, attempts, reply.elapsed);
      return ChatResult::success(std::move(reply));
    }
    last = std::move(attempt.error);
    const RetryDecision& decision = attempt.decision;
    std::string finalWhy;
    if (!decision.retry) {
      finalWhy = decision.why.empty() ? "not retried" : decision.why + " (not retried)";
      if (last.status == 401 && !endpoint_.apiKeyEnv.empty()) {
        finalWhy = fmt::format("the server refused the API key from ${}: check it (not retried)", endpoint_.apiKeyEnv);
      } else if (last.status == 401) {
        finalWhy = "the server wants an API key: set api_key_env to the variable that holds it (not retried)";
      }
    } else if (decision.retryAfter && *decision.retryAfter > policy_.maxRetryAfter) {
      finalWhy = fmt::format("the server asks to retry after {}, more than the {} this client waits",
                             seconds(*decision.retryAfter), seconds(policy_.maxRetryAfter));
    } else if (attempts >= policy_.maxAttempts) {
      finalWhy = fmt::format("gave up after {} attempts", attempts);
    }
    if (!finalWhy.empty()) {
      last.attempts = attempts;
      last.retried = attempts > 1;
      last.message = fmt::format("endpoint '{}': {}; {}", endpoint_.name, last.message, finalWhy);
      accounting_.record(nullptr, attempts, clock_->now() - start);
      return ChatResult::failure(std::move(last));
    }
    clock_->sleepFor(decision.retryAfter ? *decision.retryAfter : jitteredBackoff(attempts));
  }
}

}  // namespace tilecraft::llm
