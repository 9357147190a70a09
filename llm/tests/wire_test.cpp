// The wire format alone: request bodies, whole replies, streams fed in pieces of every size, error bodies.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "llm/wire.h"

namespace tilecraft::llm {
namespace {

using nlohmann::json;

TEST(LlmWire, RequestBodyCarriesSetFieldsOnly) {
  ChatRequest r;
  r.model = "m";
  r.messages = {{"system", "be brief"}, {"user", "hi"}};
  json plain = json::parse(chatRequestBody(r, false));
  EXPECT_EQ(plain, json::parse(R"({"model":"m","messages":[{"role":"system","content":"be brief"},
                                   {"role":"user","content":"hi"}],"stream":false})"));
  r.temperature = 0.5;
  r.topP = 0.9;
  r.maxTokens = 100;
  r.seed = 7;
  r.n = 3;
  r.stop = {"```\n", "END"};
  json full = json::parse(chatRequestBody(r, true));
  EXPECT_EQ(full["temperature"], 0.5);
  EXPECT_EQ(full["top_p"], 0.9);
  EXPECT_EQ(full["max_tokens"], 100);
  EXPECT_EQ(full["seed"], 7);
  EXPECT_EQ(full["n"], 3);
  EXPECT_EQ(full["stop"], json::parse(R"(["```\n","END"])"));
  EXPECT_EQ(full["stream"], true);
  EXPECT_EQ(full["stream_options"], json::parse(R"({"include_usage":true})"));
}

TEST(LlmWire, CompletionWithReasoningAndUsage) {
  ChatReply reply;
  std::string error;
  bool truncated = true;
  ASSERT_TRUE(parseChatCompletion(
      R"({"model":"deepseek-reasoner","choices":[{"index":0,"message":{"role":"assistant","content":"ok",
          "reasoning_content":"because"},"finish_reason":"length"}],"usage":{"prompt_tokens":12,"completion_tokens":34}})",
      reply, error, truncated))
      << error;
  ASSERT_EQ(reply.choices.size(), 1u);
  EXPECT_EQ(reply.choices[0].content, "ok");
  EXPECT_EQ(reply.choices[0].reasoning, "because");
  EXPECT_EQ(reply.choices[0].finishReason, "length");
  EXPECT_EQ(reply.usage.promptTokens, 12);
  EXPECT_EQ(reply.usage.completionTokens, 34);
  EXPECT_EQ(reply.model, "deepseek-reasoner");
  EXPECT_FALSE(truncated);
  // Ollama's field name, and a null content (a reply that is all tool calls) read as empty.
  ASSERT_TRUE(
      parseChatCompletion(R"({"choices":[{"message":{"content":null,"reasoning":"r"}}]})", reply, error, truncated));
  EXPECT_EQ(reply.choices[0].content, "");
  EXPECT_EQ(reply.choices[0].reasoning, "r");
}

TEST(LlmWire, TruncatedJsonIsToldFromJunk) {
  ChatReply reply;
  std::string error;
  bool truncated = false;
  EXPECT_FALSE(parseChatCompletion(R"({"choices":[{"message":{"content":"half)", reply, error, truncated));
  EXPECT_TRUE(truncated);
  EXPECT_EQ(error, "the reply ends in the middle of its JSON after 39 bytes");
  EXPECT_FALSE(parseChatCompletion("<html>Bad Gateway</html>", reply, error, truncated));
  EXPECT_FALSE(truncated);
  EXPECT_EQ(error, "the reply is not JSON: '<html>Bad Gateway</html>'");
  EXPECT_FALSE(parseChatCompletion(R"({"choices":[]})", reply, error, truncated));
  EXPECT_EQ(error, R"(the reply has no choices: '{"choices":[]}')");
}

std::string chunk(int index, const std::string& deltaJson, const char* finish = nullptr) {
  json c = {{"choices", json::array({{{"index", index},
                                      {"delta", json::parse(deltaJson)},
                                      {"finish_reason", finish ? json(finish) : json(nullptr)}}})}};
  return "data: " + c.dump() + "\n\n";
}

// A stream that is the same whatever the read sizes are: the accumulator must not depend on where TCP splits it.
TEST(LlmWire, StreamAccumulatesDeltasWhateverThePieceSize) {
  std::string stream = ": keep-alive comment\n\n" + chunk(0, R"({"role":"assistant","content":""})") +
                       chunk(0, R"({"reasoning_content":"let me "})") + chunk(0, R"({"reasoning_content":"think"})") +
                       chunk(0, R"({"content":"Here:\n```tile\n"})") + chunk(0, R"({"content":"x\n```\nDone."})") +
                       chunk(0, "{}", "stop") +
                       "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":9}}\r\n\r\n" +
                       "data: [DONE]\n\n";
  for (size_t piece : {1u, 2u, 7u, 64u, 100000u}) {
    StreamAccumulator acc;
    for (size_t at = 0; at < stream.size(); at += piece) acc.feed(std::string_view(stream).substr(at, piece));
    ChatReply reply;
    std::string error;
    ASSERT_TRUE(acc.finish(reply, error)) << error;
    ASSERT_EQ(reply.choices.size(), 1u);
    EXPECT_EQ(reply.choices[0].content, "Here:\n```tile\nx\n```\nDone.") << piece;
    EXPECT_EQ(reply.choices[0].reasoning, "let me think");
    EXPECT_EQ(reply.choices[0].finishReason, "stop");
    EXPECT_EQ(reply.usage.promptTokens, 5);
    EXPECT_EQ(reply.usage.completionTokens, 9);
    EXPECT_EQ(acc.events(), 8);
  }
}

TEST(LlmWire, StreamWithSeveralChoicesAndNoDone) {
  StreamAccumulator acc;
  acc.feed(chunk(1, R"({"content":"b"})") + chunk(0, R"({"content":"a"})") + chunk(0, "{}", "stop") +
           chunk(1, "{}", "length"));
  ChatReply reply;
  std::string error;
  ASSERT_TRUE(acc.finish(reply, error)) << error;
  ASSERT_EQ(reply.choices.size(), 2u);
  EXPECT_EQ(reply.choices[0].content, "a");
  EXPECT_EQ(reply.choices[1].content, "b");
  EXPECT_EQ(reply.choices[1].finishReason, "length");
}

TEST(LlmWire, StreamEndingEarlyIsAnErrorNotAShortReply) {
  StreamAccumulator acc;
  acc.feed(chunk(0, R"({"content":"half a ker"})") + chunk(0, R"({"content":"nel"})"));
  ChatReply reply;
  std::string error;
  EXPECT_FALSE(acc.finish(reply, error));
  EXPECT_EQ(error, "the stream ended after 2 events without [DONE] or a finish_reason");
  EXPECT_TRUE(reply.choices.empty());
}

TEST(LlmWire, StreamErrorEventAndJunkEvent) {
  StreamAccumulator acc;
  acc.feed(chunk(0, R"({"content":"a"})") + "data: {\"error\":{\"message\":\"engine died\",\"code\":500}}\n\n");
  EXPECT_TRUE(acc.failed());
  EXPECT_EQ(acc.error(), "the server reported an error in stream event 2: engine died");
  StreamAccumulator junk;
  junk.feed("data: {not json\n\n");
  ChatReply reply;
  std::string error;
  EXPECT_FALSE(junk.finish(reply, error));
  EXPECT_EQ(error, "stream event 1 is not JSON: '{not json'");
}

TEST(LlmWire, ServerErrorMessages) {
  std::string code;
  EXPECT_EQ(serverErrorMessage(R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota",
                                  "code":null}})",
                               &code),
            "You exceeded your current quota");
  EXPECT_EQ(code, "insufficient_quota");
  EXPECT_EQ(serverErrorMessage(
                R"({"error":{"message":"bad key","type":"invalid_request_error","code":"invalid_api_key"}})", &code),
            "bad key");
  EXPECT_EQ(code, "invalid_api_key");
  EXPECT_EQ(serverErrorMessage(R"({"detail":"Not Found"})", &code), "Not Found");  // FastAPI's shape (vLLM)
  EXPECT_EQ(serverErrorMessage(R"({"error":"model 'x' not found"})", &code), "model 'x' not found");  // Ollama's
  EXPECT_EQ(serverErrorMessage("upstream\nconnect error", &code), "upstream connect error");
  EXPECT_EQ(code, "");
}

}  // namespace
}  // namespace tilecraft::llm
