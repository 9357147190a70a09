// The client against the scripted server over real HTTP (and HTTPS) on 127.0.0.1: what the agent will meet from
// real models and real servers. Backoff waits go to the fake clock; only the server's scripted delays are real.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>

#include "llm/openai_client.h"
#include "llm/tests/scripted_server/scripted_server.h"

namespace tilecraft::llm {
namespace {

using nlohmann::json;
using testing::ScriptedServer;
using testing::ScriptedServerOptions;

struct Loopback {
  std::unique_ptr<ScriptedServer> server;
  int port = 0;
  std::shared_ptr<FakeClock> clock = std::make_shared<FakeClock>();

  explicit Loopback(const std::string& script, ScriptedServerOptions options = {}) {
    std::string error;
    server = ScriptedServer::create(script, "script.jsonl", options, &error);
    if (!server) {
      ADD_FAILURE() << error;
      return;
    }
    port = server->start(0, &error);
    if (port == 0) ADD_FAILURE() << error;
  }
  std::string url(const char* scheme = "http") const { return fmt::format("{}://127.0.0.1:{}/v1", scheme, port); }
  Endpoint endpoint(const char* scheme = "http") const {
    Endpoint e;
    e.name = "scripted";
    e.baseUrl = url(scheme);
    e.model = "scripted-model";
    e.apiKeyEnv = "TEST_KEY";
    e.timeout = 10;
    return e;
  }
  std::unique_ptr<OpenAiChatClient> client(const Endpoint& e) const {
    return std::make_unique<OpenAiChatClient>(e, "sk-loopback", OpenAiClientOptions{nullptr, clock, std::nullopt, 7});
  }
  std::string completions() const { return url() + "/chat/completions"; }
};

ChatRequest ask(const std::string& text, bool stream = false) {
  ChatRequest r;
  r.messages = {{"user", text}};
  r.stream = stream;
  return r;
}

const char* const kProse =
    "Here is the kernel.\\n\\n```tile\\nkernel add(x: f16[N], y: f16[N]) -> f16[N] {\\n  return x + y\\n}\\n```"
    "\\n\\nIt tiles N by 256 and \\\"streams\\\" through UB.";
const char* const kProseText =
    "Here is the kernel.\n\n```tile\nkernel add(x: f16[N], y: f16[N]) -> f16[N] {\n  return x + y\n}\n```"
    "\n\nIt tiles N by 256 and \"streams\" through UB.";

TEST(LlmLoopback, ProseAroundACodeBlockArrivesIntactStreamedOrNot) {
  Loopback lb(fmt::format("{{\"content\": \"{0}\"}}\n{{\"content\": \"{0}\", \"chunk_chars\": 3}}\n", kProse));
  auto client = lb.client(lb.endpoint());
  ChatResult plain = client->complete(ask("write add"));
  ASSERT_TRUE(plain) << plain.error.message;
  EXPECT_EQ(plain.reply->choices[0].content, kProseText);
  EXPECT_EQ(plain.reply->model, "scripted-model");
  ChatResult streamed = client->complete(ask("write add", true));
  ASSERT_TRUE(streamed) << streamed.error.message;
  EXPECT_EQ(streamed.reply->choices[0].content, kProseText);
  EXPECT_EQ(streamed.reply->choices[0].finishReason, "stop");
  EXPECT_GT(streamed.reply->usage.completionTokens, 0);

  std::vector<std::string> log = lb.server->requestLog();
  ASSERT_EQ(log.size(), 2u);
  json first = json::parse(log[0]);
  EXPECT_EQ(first["path"], "/v1/chat/completions");
  EXPECT_EQ(first["authorization"], "Bearer sk-loopback");
  EXPECT_EQ(first["body"]["messages"][0]["content"], "write add");
  EXPECT_EQ(first["body"]["stream"], false);
  EXPECT_EQ(json::parse(log[1])["body"]["stream"], true);
}

TEST(LlmLoopback, ReasoningFieldStreamedOrNotAndUnderOllamasName) {
  Loopback lb(
      "{\"content\": \"answer\", \"reasoning\": \"first I think\"}\n"
      "{\"content\": \"answer\", \"reasoning\": \"then I think more\"}\n"
      "{\"content\": \"answer\", \"reasoning\": \"ollama thinks\", \"reasoning_field\": \"reasoning\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult a = client->complete(ask("q"));
  ChatResult b = client->complete(ask("q", true));
  ChatResult c = client->complete(ask("q"));
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a.reply->choices[0].reasoning, "first I think");
  EXPECT_EQ(b.reply->choices[0].reasoning, "then I think more");
  EXPECT_EQ(b.reply->choices[0].content, "answer");
  EXPECT_EQ(c.reply->choices[0].reasoning, "ollama thinks");
}

TEST(LlmLoopback, TooManyRequestsWithRetryAfterThenSuccess) {
  Loopback lb(
      "{\"status\": 429, \"headers\": {\"Retry-After\": \"3\"}, \"body\": {\"error\": {\"message\": \"Rate limit "
      "reached\", \"type\": \"requests\"}}}\n"
      "{\"content\": \"ok\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult r = client->complete(ask("q"));
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.reply->choices[0].content, "ok");
  EXPECT_EQ(r.reply->attempts, 2);
  EXPECT_EQ(lb.clock->sleeps(), std::vector<double>{3});
  EXPECT_EQ(client->totals().retries, 1);
}

TEST(LlmLoopback, ServerErrorThenSuccess) {
  Loopback lb(
      "{\"status\": 500, \"body\": {\"error\": {\"message\": \"CUDA out of memory\"}}}\n{\"content\": \"ok\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult r = client->complete(ask("q"));
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.reply->attempts, 2);
  ASSERT_EQ(lb.clock->sleeps().size(), 1u);
  EXPECT_LE(lb.clock->sleeps()[0], 1.0);  // the first backoff: uniform in [0, 1] s
  EXPECT_EQ(lb.server->requestLog().size(), 2u);
}

TEST(LlmLoopback, StreamCutMidwayIsRetried) {
  Loopback lb(fmt::format("{{\"content\": \"{0}\", \"cut_after\": 4}}\n{{\"content\": \"{0}\"}}\n", kProse));
  auto client = lb.client(lb.endpoint());
  ChatResult r = client->complete(ask("q", true));
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.reply->choices[0].content, kProseText);
  EXPECT_EQ(r.reply->attempts, 2);
  EXPECT_EQ(lb.server->repliesLeft(), 0u);
}

TEST(LlmLoopback, CutStreamsUntilTheLastAttemptFailLoudly) {
  Loopback lb(
      "{\"content\": \"a long reply\", \"cut_after\": 2}\n{\"content\": \"a long reply\", \"cut_after\": 2}\n"
      "{\"events\": [\"{\\\"choices\\\":[{\\\"index\\\":0,\\\"delta\\\":{\\\"content\\\":\\\"x\\\"}}]}\"]}\n");
  Endpoint e = lb.endpoint();
  e.maxAttempts = 3;
  auto client = lb.client(e);
  ChatResult r = client->complete(ask("q", true));
  ASSERT_FALSE(r);
  // The third reply ends cleanly but without [DONE] or a finish_reason: still not a reply.
  EXPECT_EQ(r.error.message, fmt::format("endpoint 'scripted': stream from {}: the stream ended after 1 events "
                                         "without [DONE] or a finish_reason; gave up after 3 attempts",
                                         lb.completions()));
  EXPECT_EQ(r.error.kind, ChatErrorKind::CutStream);
}

TEST(LlmLoopback, CutNonStreamedBodyIsRetried) {
  Loopback lb("{\"content\": \"ok\", \"cut_after\": 20}\n{\"content\": \"ok\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult r = client->complete(ask("q"));
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.reply->attempts, 2);
}

TEST(LlmLoopback, UnauthorizedIsNotRetried) {
  Loopback lb(
      "{\"status\": 401, \"body\": {\"error\": {\"message\": \"Incorrect API key provided: sk-loo***ack.\", "
      "\"type\": \"invalid_request_error\", \"code\": \"invalid_api_key\"}}}\n{\"content\": \"never\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult r = client->complete(ask("q"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.message, fmt::format("endpoint 'scripted': HTTP 401 Unauthorized invalid_api_key from {}: "
                                         "Incorrect API key provided: sk-loo***ack.; the server refused the API key "
                                         "from $TEST_KEY: check it (not retried)",
                                         lb.completions()));
  EXPECT_EQ(lb.server->requestLog().size(), 1u);
  EXPECT_TRUE(lb.clock->sleeps().empty());
}

TEST(LlmLoopback, InsufficientQuotaIsNotRetried) {
  Loopback lb(
      "{\"status\": 429, \"headers\": {\"Retry-After\": \"1\"}, \"body\": {\"error\": {\"message\": \"You "
      "exceeded your current quota, please check your plan and billing details.\", \"type\": "
      "\"insufficient_quota\", \"code\": \"insufficient_quota\"}}}\n{\"content\": \"never\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult r = client->complete(ask("q"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.message,
            fmt::format("endpoint 'scripted': HTTP 429 Too Many Requests insufficient_quota from {}: You exceeded your "
                        "current quota, please check your plan and billing details.; the account's quota is exhausted "
                        "(insufficient_quota): add credit or use another endpoint (not retried)",
                        lb.completions()));
  EXPECT_EQ(lb.server->requestLog().size(), 1u);
}

TEST(LlmLoopback, SlowReplyTimesOutAndIsRetried) {
  Loopback lb("{\"content\": \"late\", \"delay_ms\": 2000}\n{\"content\": \"on time\"}\n");
  Endpoint e = lb.endpoint();
  e.timeout = 0.5;
  auto client = lb.client(e);
  ChatResult r = client->complete(ask("q"));
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.reply->choices[0].content, "on time");
  EXPECT_EQ(r.reply->attempts, 2);
}

TEST(LlmLoopback, NothingListeningIsAnErrorNamingTheServer) {
  Loopback lb("");
  int port = lb.port;
  lb.server->stop();
  Endpoint e = lb.endpoint();
  e.maxAttempts = 2;
  auto client = lb.client(e);
  ChatResult r = client->complete(ask("q"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.message, fmt::format("endpoint 'scripted': cannot connect to http://127.0.0.1:{} (is the server "
                                         "running?); gave up after 2 attempts",
                                         port));
}

TEST(LlmLoopback, InFlightCapHoldsUnderConcurrency) {
  std::string script;
  for (int i = 0; i < 8; ++i) script += "{\"content\": \"ok\", \"delay_ms\": 300}\n";
  Loopback lb(script);
  Endpoint e = lb.endpoint();
  e.maxInFlight = 2;
  auto client = lb.client(e);
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      if (client->complete(ask("q"))) ++ok;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(ok.load(), 8);
  EXPECT_EQ(lb.server->peakInFlight(), 2);  // 2, not 1: the requests did overlap
  EXPECT_EQ(client->peakInFlight(), 2);
  EXPECT_EQ(client->totals().calls, 8);
}

// A self-signed certificate for 127.0.0.1, made with OpenSSL's API (no openssl binary needed).
struct SelfSigned {
  std::filesystem::path dir;
  std::string cert;
  std::string key;
  SelfSigned() {
    dir = std::filesystem::temp_directory_path() / fmt::format("tilecraft-llm-tls-{}", getpid());
    std::filesystem::create_directories(dir);
    cert = (dir / "cert.pem").string();
    key = (dir / "key.pem").string();
    EVP_PKEY* pkey = EVP_EC_gen("P-256");
    X509* x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600);
    X509_set_pubkey(x, pkey);
    X509_NAME* name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1,
                               0);
    X509_set_issuer_name(x, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, x, x, nullptr, nullptr, 0);
    for (auto [nid, value] :
         {std::pair{NID_subject_alt_name, "IP:127.0.0.1"}, {NID_basic_constraints, "critical,CA:TRUE"}}) {
      X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
      X509_add_ext(x, ext, -1);
      X509_EXTENSION_free(ext);
    }
    X509_sign(x, pkey, EVP_sha256());
    BIO* certOut = BIO_new_file(cert.c_str(), "w");
    PEM_write_bio_X509(certOut, x);
    BIO_free(certOut);
    BIO* keyOut = BIO_new_file(key.c_str(), "w");
    PEM_write_bio_PrivateKey(keyOut, pkey, nullptr, nullptr, 0, nullptr, nullptr);
    BIO_free(keyOut);
    X509_free(x);
    EVP_PKEY_free(pkey);
  }
  ~SelfSigned() { std::filesystem::remove_all(dir); }
};

TEST(LlmLoopback, HttpsGoesThroughTheTlsClientAndVerifiesTheCertificate) {
  SelfSigned tls;
  Loopback lb("{\"content\": \"over tls\", \"reasoning\": \"r\"}\n{\"content\": \"over tls, streamed\"}\n",
              ScriptedServerOptions{"", tls.cert, tls.key});
  Endpoint e = lb.endpoint("https");
  e.caCert = tls.cert;
  auto client = lb.client(e);
  ChatResult r = client->complete(ask("q"));
  ASSERT_TRUE(r) << r.error.message;
  EXPECT_EQ(r.reply->choices[0].content, "over tls");
  ChatResult s = client->complete(ask("q", true));
  ASSERT_TRUE(s) << s.error.message;
  EXPECT_EQ(s.reply->choices[0].content, "over tls, streamed");
  EXPECT_EQ(json::parse(lb.server->requestLog().at(0))["authorization"], "Bearer sk-loopback");

  // Without the CA the certificate does not verify: a final error, nothing retried.
  Endpoint untrusted = lb.endpoint("https");
  ChatResult refused = lb.client(untrusted)->complete(ask("q"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error.message,
            fmt::format("endpoint 'scripted': TLS with https://127.0.0.1:{} failed: the server's certificate did not "
                        "verify against the system's CA store (for a private CA, set ca_cert to its PEM file); not "
                        "retried",
                        lb.port));
  EXPECT_EQ(lb.server->requestLog().size(), 2u);

  // Plain HTTP to a TLS port fails too, and says where.
  ChatResult plain = lb.client(lb.endpoint("http"))->complete(ask("q"));
  EXPECT_FALSE(plain);
}

TEST(LlmLoopback, ScriptErrorsNameTheLine) {
  std::string error;
  EXPECT_EQ(ScriptedServer::create("{\"content\": \"a\"}\n\n# comment\n{\"contnet\": \"b\"}\n", "s.jsonl", {}, &error),
            nullptr);
  EXPECT_EQ(error.substr(0, 34), "s.jsonl:4: unknown key 'contnet'; ");
  EXPECT_EQ(ScriptedServer::create("{\"content\": \n", "s.jsonl", {}, &error), nullptr);
  EXPECT_EQ(error, "s.jsonl:1: not a JSON object on one line");
}

TEST(LlmLoopback, AReplyWithWhenGoesOnlyToARequestWhoseLastMessageHoldsItsText) {
  Loopback lb(
      "{\"content\": \"with the hint\", \"when\": \"Fixes that worked\"}\n{\"content\": \"first\"}\n"
      "{\"content\": \"second\"}\n");
  auto client = lb.client(lb.endpoint());
  ChatResult a = client->complete(ask("write add"));
  ChatResult b = client->complete(ask("it failed. Fixes that worked before: ..."));
  ChatResult c = client->complete(ask("again"));
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(a.reply->choices[0].content, "first");  // the `when` line does not apply, the next one does
  EXPECT_EQ(b.reply->choices[0].content, "with the hint");
  EXPECT_EQ(c.reply->choices[0].content, "second");
  EXPECT_EQ(lb.server->repliesLeft(), 0u);
  std::string error;
  EXPECT_EQ(ScriptedServer::create("{\"content\": \"a\", \"when\": 3}\n", "s.jsonl", {}, &error), nullptr);
  EXPECT_EQ(error, "s.jsonl:1: 'when' is a string the request's last message must hold");
}

TEST(LlmLoopback, ExhaustedScriptAnswers500SayingSo) {
  Loopback lb("");
  Endpoint e = lb.endpoint();
  e.maxAttempts = 1;
  ChatResult r = lb.client(e)->complete(ask("q"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error.message,
            fmt::format("endpoint 'scripted': HTTP 500 Internal Server Error script_exhausted from {}: scripted "
                        "server: script.jsonl has no reply left for this request; gave up after 1 attempts",
                        lb.completions()));
}

}  // namespace
}  // namespace tilecraft::llm
