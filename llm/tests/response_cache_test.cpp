// The reply cache in front of a scripted model (FakeChatClient): a miss is recorded and the next identical request
// is answered from DIR without the model; a replay never calls one and names the key it misses; the key depends on
// exactly what decides a reply.
#include "llm/response_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "support/files.h"

namespace tilecraft::llm {
namespace {

namespace fs = std::filesystem;

class ResponseCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("tilecraft-reply-cache-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    endpoint.name = "local";
    endpoint.baseUrl = "http://127.0.0.1:8000/v1";
    endpoint.model = "qwen";
    endpoint.temperature = 0.2;
  }
  void TearDown() override { fs::remove_all(dir); }

  ChatRequest request(const std::string& question = "write add") const {
    ChatRequest r;
    r.messages = {{"system", "you write Tile DSL"}, {"user", question}};
    r.seed = 7;
    return r;
  }

  fs::path dir;
  Endpoint endpoint;
};

TEST_F(ResponseCacheTest, RecordsAMissAndAnswersTheSameRequestFromTheCache) {
  FakeChatClient model;
  ChatReply scripted;
  scripted.choices.push_back({"```python\nx\n```", "think first", "stop"});
  scripted.choices.push_back({"second", "", "length"});
  scripted.usage = {120, 30};
  scripted.model = "qwen-served";
  scripted.attempts = 2;
  model.push(ChatResult::success(scripted));
  CachingChatClient cache(dir, endpoint, &model);

  ChatResult first = cache.complete(request());
  ASSERT_TRUE(first);
  EXPECT_EQ(model.requests().size(), 1u);
  EXPECT_TRUE(fs::exists(dir / (requestKey(endpoint, request()) + ".json")));

  ChatResult second = cache.complete(request());
  ASSERT_TRUE(second) << second.error.message;
  EXPECT_EQ(model.requests().size(), 1u) << "a hit must not call the model";
  const ChatReply& hit = *second.reply;
  ASSERT_EQ(hit.choices.size(), 2u);
  EXPECT_EQ(hit.choices[0].content, "```python\nx\n```");
  EXPECT_EQ(hit.choices[0].reasoning, "think first");
  EXPECT_EQ(hit.choices[0].finishReason, "stop");
  EXPECT_EQ(hit.choices[1].finishReason, "length");
  EXPECT_EQ(hit.usage.promptTokens, 120);
  EXPECT_EQ(hit.usage.completionTokens, 30);
  EXPECT_EQ(hit.model, "qwen-served");
  EXPECT_EQ(hit.attempts, 2);
  ReplyCacheStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1);
  EXPECT_EQ(stats.recorded, 1);
  EXPECT_EQ(stats.missing, 0);
}

TEST_F(ResponseCacheTest, ADifferentRequestMissesAndCallsTheModel) {
  FakeChatClient model;
  model.pushText("one");
  model.pushText("two");
  CachingChatClient cache(dir, endpoint, &model);
  ASSERT_TRUE(cache.complete(request("write add")));
  ChatResult other = cache.complete(request("write mul"));
  ASSERT_TRUE(other);
  EXPECT_EQ(other.reply->choices[0].content, "two");
  EXPECT_EQ(model.requests().size(), 2u);
  EXPECT_EQ(cache.stats().recorded, 2);
}

TEST_F(ResponseCacheTest, ErrorsAreNotRecorded) {
  FakeChatClient model;
  ChatError error;
  error.kind = ChatErrorKind::Http;
  error.status = 503;
  error.message = "endpoint 'local': HTTP 503";
  model.pushError(error);
  model.pushText("after the outage");
  CachingChatClient cache(dir, endpoint, &model);
  ChatResult failed = cache.complete(request());
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error.status, 503);
  ChatResult retried = cache.complete(request());
  ASSERT_TRUE(retried);
  EXPECT_EQ(retried.reply->choices[0].content, "after the outage");
  EXPECT_EQ(model.requests().size(), 2u) << "the error must not have been served from the cache";
}

TEST_F(ResponseCacheTest, AReplayAnswersWhatWasRecordedAndNamesTheKeyOfAMiss) {
  {
    FakeChatClient model;
    model.pushText("recorded");
    CachingChatClient record(dir, endpoint, &model);
    ASSERT_TRUE(record.complete(request()));
  }
  CachingChatClient replay(dir, endpoint, nullptr);
  EXPECT_TRUE(replay.replaying());
  ChatResult hit = replay.complete(request());
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit.reply->choices[0].content, "recorded");

  ChatResult miss = replay.complete(request("never asked"));
  ASSERT_FALSE(miss);
  EXPECT_EQ(miss.error.kind, ChatErrorKind::Config);
  std::string key = requestKey(endpoint, request("never asked"));
  EXPECT_EQ(miss.error.message,
            "replay: no recorded reply for request " + key + " in " + dir.string() +
                " (model qwen, 2 messages, seed 7)\nhint: a replay answers only the requests its recording made; "
                "the prompt, the endpoint or a sampling setting differs");
  EXPECT_EQ(replay.stats().hits, 1);
  EXPECT_EQ(replay.stats().missing, 1);
}

TEST_F(ResponseCacheTest, TheKeyIsStableAndChangesWithWhatDecidesAReply) {
  std::string key = requestKey(endpoint, request());
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, requestKey(endpoint, request()));
  // An unset field takes the endpoint's value: saying it explicitly is the same request.
  ChatRequest explicitDefaults = request();
  explicitDefaults.temperature = 0.2;
  explicitDefaults.model = "qwen";
  EXPECT_EQ(requestKey(endpoint, explicitDefaults), key);
  // Streaming changes how the reply travels, not what it says.
  ChatRequest streamed = request();
  streamed.stream = true;
  EXPECT_EQ(requestKey(endpoint, streamed), key);

  ChatRequest warmer = request();
  warmer.temperature = 0.7;
  EXPECT_NE(requestKey(endpoint, warmer), key);
  ChatRequest reseeded = request();
  reseeded.seed = 8;
  EXPECT_NE(requestKey(endpoint, reseeded), key);
  ChatRequest longer = request();
  longer.maxTokens = 512;
  EXPECT_NE(requestKey(endpoint, longer), key);
  ChatRequest stopped = request();
  stopped.stop = {"```\n"};
  EXPECT_NE(requestKey(endpoint, stopped), key);
  ChatRequest twoChoices = request();
  twoChoices.n = 2;
  EXPECT_NE(requestKey(endpoint, twoChoices), key);
  ChatRequest nucleus = request();
  nucleus.topP = 0.9;
  EXPECT_NE(requestKey(endpoint, nucleus), key);
  Endpoint elsewhere = endpoint;
  elsewhere.baseUrl = "https://api.deepseek.com/v1";
  EXPECT_NE(requestKey(elsewhere, request()), key);
  Endpoint otherModel = endpoint;
  otherModel.model = "llama";
  EXPECT_NE(requestKey(otherModel, request()), key);
}

TEST_F(ResponseCacheTest, RecordedEndpointsAreListedOnceEach) {
  std::string error;
  ASSERT_TRUE(recordEndpoint(dir, endpoint, &error)) << error;
  ASSERT_TRUE(recordEndpoint(dir, endpoint, &error)) << error;
  std::vector<Endpoint> known;
  ASSERT_TRUE(recordedEndpoints(dir, known, &error)) << error;
  ASSERT_EQ(known.size(), 1u);
  EXPECT_EQ(known[0].baseUrl, endpoint.baseUrl);
  EXPECT_EQ(known[0].model, "qwen");
  EXPECT_EQ(known[0].temperature, 0.2);
  // The recorded endpoint computes the same keys as the one it was recorded from.
  EXPECT_EQ(requestKey(known[0], request()), requestKey(endpoint, request()));

  Endpoint other = endpoint;
  other.model = "llama";
  ASSERT_TRUE(recordEndpoint(dir, other, &error)) << error;
  ASSERT_TRUE(recordedEndpoints(dir, known, &error)) << error;
  EXPECT_EQ(known.size(), 2u);
}

TEST_F(ResponseCacheTest, ATornEntryIsAMissThatRecordingRepairs) {
  fs::create_directories(dir);
  std::string error;
  ASSERT_TRUE(support::writeFileAtomically(dir / (requestKey(endpoint, request()) + ".json"), "{\"reply\": {", &error));
  CachingChatClient replay(dir, endpoint, nullptr);
  EXPECT_FALSE(replay.complete(request()));
  FakeChatClient model;
  model.pushText("fresh");
  CachingChatClient record(dir, endpoint, &model);
  ASSERT_TRUE(record.complete(request()));
  ChatResult again = replay.complete(request());
  ASSERT_TRUE(again);
  EXPECT_EQ(again.reply->choices[0].content, "fresh");
}

}  // namespace
}  // namespace tilecraft::llm
