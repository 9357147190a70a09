// The client's logic over the fake transport and the fake clock: retries, waits, final errors, accounting.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <random>
#include <thread>

#include "llm/openai_client.h"

namespace tilecraft::llm {
namespace {

const char* const kOk = R"({"choices":[{"message":{"content":"fine"},"finish_reason":"stop"}],
                            "usage":{"prompt_tokens":1000,"completion_tokens":2000}})";

Endpoint testEndpoint() {
  Endpoint e;
  e.name = "fake";
  e.baseUrl = "http://127.0.0.1:9/v1";
  e.model = "m";
  e.apiKeyEnv = "FAKE_KEY";
  e.priceIn = 1;
  e.priceOut = 10;
  return e;
}

struct Rig {
  std::shared_ptr<FakeHttpTransport> transport = std::make_shared<FakeHttpTransport>();
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();
  OpenAiChatClient client;
  explicit Rig(Endpoint e = testEndpoint(), int maxAttempts = 5)
      : client(e, "sk-test", {transport, clock, RetryPolicy{maxAttempts, 1, 30, 120}, 42}) {}
};

ChatRequest hello() {
  ChatRequest r;
  r.messages = {{"user", "hello"}};
  return r;
}

TEST(LlmClient, SendsTheEndpointsDefaultsAndTheKey) {
  Endpoint e = testEndpoint();
  e.temperature = 0.3;
  e.seed = 5;
  Rig rig(e);
  rig.transport->push(200, kOk);
  ChatRequest r = hello();
  r.maxTokens = 64;
  ChatResult result = rig.client.complete(r);
  ASSERT_TRUE(result) << result.error.message;
  std::vector<HttpPost> sent = rig.transport->requests();
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].url, "http://127.0.0.1:9/v1/chat/completions");
  auto body = nlohmann::json::parse(sent[0].body);
  EXPECT_EQ(body["model"], "m");
  EXPECT_EQ(body["temperature"], 0.3);
  EXPECT_EQ(body["seed"], 5);
  EXPECT_EQ(body["max_tokens"], 64);
  EXPECT_FALSE(body.contains("top_p"));
  bool bearer = false;
  for (const auto& [name, value] : sent[0].headers)
    bearer = bearer || (name == "Authorization" && value == "Bearer sk-test");
  EXPECT_TRUE(bearer);
  // 1000 tokens in at 1 per million, 2000 out at 10 per million.
  EXPECT_DOUBLE_EQ(result.reply->cost, 0.021);
  EXPECT_EQ(result.reply->attempts, 1);
}

TEST(LlmClient, RetryAfterIsWaitedForExactly) {
  Rig rig;
  rig.transport->push(429, R"({"error":{"message":"rate limited","type":"requests"}})", {{"retry-after", "7"}});
  rig.transport->push(200, kOk);
  ChatResult result = rig.client.complete(hello());
  ASSERT_TRUE(result) << result.error.message;
  EXPECT_EQ(rig.clock->sleeps(), std::vector<double>{7});
  EXPECT_EQ(result.reply->attempts, 2);
  EXPECT_DOUBLE_EQ(result.reply->elapsed, 7);
  ChatTotals t = rig.client.totals();
  EXPECT_EQ(t.calls, 1);
  EXPECT_EQ(t.requests, 2);
  EXPECT_EQ(t.retries, 1);
  EXPECT_EQ(t.promptTokens, 1000);
  EXPECT_EQ(t.completionTokens, 2000);
  EXPECT_DOUBLE_EQ(t.seconds, 7);
}

TEST(LlmClient, ServerErrorsBackOffWithFullJitterThenGiveUp) {
  Rig rig(testEndpoint(), 4);
  for (int i = 0; i < 4; ++i) rig.transport->push(503, R"({"error":{"message":"overloaded"}})");
  ChatResult result = rig.client.complete(hello());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error.message,
            "endpoint 'fake': HTTP 503 Service Unavailable from http://127.0.0.1:9/v1/chat/completions: overloaded; "
            "gave up after 4 attempts");
  EXPECT_EQ(result.error.attempts, 4);
  EXPECT_EQ(result.error.status, 503);
  EXPECT_TRUE(result.error.retried);
  std::vector<double> sleeps = rig.clock->sleeps();
  ASSERT_EQ(sleeps.size(), 3u);
  // The k-th wait is uniform in [0, 2^(k-1)] s; with the seed fixed these are the draws.
  std::mt19937_64 random(42);
  RetryPolicy policy{4, 1, 30, 120};
  for (int k = 1; k <= 3; ++k) {
    EXPECT_DOUBLE_EQ(sleeps[k - 1], backoffDelay(policy, k, random));
    EXPECT_LE(sleeps[k - 1], 1 << (k - 1));
  }
  EXPECT_EQ(rig.client.totals().failures, 1);
}

TEST(LlmClient, BackoffCeilingDoublesUpToTheCap) {
  RetryPolicy policy{10, 1, 30, 120};
  std::mt19937_64 random(1);
  double highest[12] = {};
  for (int i = 0; i < 2000; ++i) {
    for (int k = 1; k <= 10; ++k) highest[k] = std::max(highest[k], backoffDelay(policy, k, random));
  }
  for (int k = 1; k <= 5; ++k) {
    EXPECT_LE(highest[k], 1 << (k - 1));
    EXPECT_GT(highest[k], 0.9 * (1 << (k - 1)));  // the draws reach the ceiling: the jitter is full
  }
  EXPECT_LE(highest[10], 30);
  EXPECT_GT(highest[10], 27);
}

TEST(LlmClient, ClientErrorsAreFinal) {
  struct Case {
    int status;
    const char* body;
    const char* message;
  };
  // clang-format off
  const Case cases[] = {
    {400, R"({"error":{"message":"temperature must be at most 2"}})",
     "endpoint 'fake': HTTP 400 Bad Request from http://127.0.0.1:9/v1/chat/completions: temperature must be at most 2; "
     "the server refused the request: check the model name and the sampling settings (not retried)"},
    {401, R"({"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}})",
     "endpoint 'fake': HTTP 401 Unauthorized invalid_api_key from http://127.0.0.1:9/v1/chat/completions: Incorrect API "
     "key provided; the server refused the API key from $FAKE_KEY: check it (not retried)"},
    {403, R"({"error":{"message":"no access"}})",
     "endpoint 'fake': HTTP 403 Forbidden from http://127.0.0.1:9/v1/chat/completions: no access; the key may not use "
     "this model or endpoint (not retried)"},
    {404, R"({"detail":"Not Found"})",
     "endpoint 'fake': HTTP 404 Not Found from http://127.0.0.1:9/v1/chat/completions: Not Found; check base_url (it "
     "usually ends in /v1) and the model name (not retried)"},
    {429, R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota"}})",
     "endpoint 'fake': HTTP 429 Too Many Requests insufficient_quota from http://127.0.0.1:9/v1/chat/completions: You "
     "exceeded your current quota; the account's quota is exhausted (insufficient_quota): add credit or use another "
     "endpoint (not retried)"},
  };
  // clang-format on
  for (const Case& c : cases) {
    Rig rig;
    rig.transport->push(c.status, c.body, {{"retry-after", "1"}});
    ChatResult result = rig.client.complete(hello());
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error.message, c.message);
    EXPECT_EQ(result.error.kind, ChatErrorKind::Http);
    EXPECT_EQ(result.error.attempts, 1);
    EXPECT_FALSE(result.error.retried);
    EXPECT_TRUE(rig.clock->sleeps().empty()) << c.status;
    EXPECT_EQ(rig.transport->requests().size(), 1u);
  }
}

TEST(LlmClient, RetryAfterBeyondTheLimitFailsSayingSo) {
  Rig rig;
  rig.transport->push(429, R"({"error":{"message":"slow down"}})", {{"retry-after", "3600"}});
  ChatResult result = rig.client.complete(hello());
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error.message,
            "endpoint 'fake': HTTP 429 Too Many Requests from http://127.0.0.1:9/v1/chat/completions: slow down; the "
            "server asks to retry after 3600 s, more than the 120 s this client waits");
  EXPECT_TRUE(rig.clock->sleeps().empty());
}

TEST(LlmClient, TransportFailuresAreRetriedTlsIsNot) {
  Rig rig;
  rig.transport->pushFailure(HttpFailure::Connect, "cannot connect to http://127.0.0.1:9 (is the server running?)");
  rig.transport->pushFailure(HttpFailure::Timeout, "http://127.0.0.1:9 sent nothing for the 600 s timeout");
  rig.transport->push(200, kOk);
  ChatResult result = rig.client.complete(hello());
  ASSERT_TRUE(result) << result.error.message;
  EXPECT_EQ(result.reply->attempts, 3);
  EXPECT_EQ(rig.clock->sleeps().size(), 2u);

  Rig tls;
  tls.transport->pushFailure(HttpFailure::Tls, "TLS with https://h failed: the server's certificate did not verify");
  ChatResult failed = tls.client.complete(hello());
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error.message,
            "endpoint 'fake': TLS with https://h failed: the server's certificate did not verify; not retried");
  EXPECT_EQ(failed.error.kind, ChatErrorKind::Transport);
}

TEST(LlmClient, StreamCutIsRetriedNeverShort) {
  Rig rig;
  FakeHttpTransport::Scripted cut;
  cut.reply.status = 200;
  cut.chunks = {"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"half\"}}]}\n\n"};
  rig.transport->push(cut);
  FakeHttpTransport::Scripted whole;
  whole.reply.status = 200;
  whole.chunks = {"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"whole\"},\"finish_reason\":null}]}\n",
                  "\ndata: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"};
  rig.transport->push(whole);
  ChatRequest r = hello();
  r.stream = true;
  ChatResult result = rig.client.complete(r);
  ASSERT_TRUE(result) << result.error.message;
  EXPECT_EQ(result.reply->choices[0].content, "whole");
  EXPECT_EQ(result.reply->attempts, 2);
}

TEST(LlmClient, InFlightLimiterNeverPassesItsLimit) {
  InFlightLimiter limiter(3);
  std::atomic<int> inside{0};
  std::atomic<int> worst{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        InFlightLimiter::Slot slot(limiter);
        int now = ++inside;
        for (int seen = worst.load(); now > seen && !worst.compare_exchange_weak(seen, now);) {
        }
        std::this_thread::yield();
        --inside;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_LE(worst.load(), 3);
  EXPECT_EQ(limiter.peak(), worst.load());
}

TEST(LlmClient, FakeChatClientScriptsAndRecords) {
  FakeChatClient fake;
  fake.pushText("```tile\nx\n```", "thought");
  ChatResult first = fake.complete(hello());
  ASSERT_TRUE(first);
  EXPECT_EQ(first.reply->choices[0].content, "```tile\nx\n```");
  EXPECT_EQ(first.reply->choices[0].reasoning, "thought");
  ChatResult second = fake.complete(hello());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error.message, "FakeChatClient: no scripted reply left for request 2");
  ASSERT_EQ(fake.requests().size(), 2u);
  EXPECT_EQ(fake.requests()[1].messages[0].content, "hello");
}

}  // namespace
}  // namespace tilecraft::llm
