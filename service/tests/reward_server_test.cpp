// The reward service over real HTTP on loopback, with a judge the test controls: answers, 400/404/413 errors, 429
// exactly when the queue is full, and a graceful stop that still answers every accepted request.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "service/load_client.h"
#include "service/reward_server.h"

namespace tilecraft::service {
namespace {

using nlohmann::json;

// Blocks every judgement until opened; a task named "missing" is refused.
class GatedJudge final : public Judge {
 public:
  JudgeOutcome judge(const JudgeRequest& request) override {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++entered_;
      cv_.notify_all();
      cv_.wait(lock, [this] { return open_; });
    }
    JudgeOutcome o;
    if (request.task == "missing") {
      o.error = "unknown task 'missing'";
      return o;
    }
    o.verdict.task = request.task;
    o.verdict.scored = o.verdict.compiled = true;
    o.verdict.correct = request.solution.files.begin()->second == "right";
    o.verdict.reward = o.verdict.correct ? 0.5 : 0;
    return o;
  }
  void open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  void waitEntered(int n) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return entered_ >= n; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
  int entered_ = 0;
};

std::string body(const std::string& task, const std::string& source) {
  return json{{"task", task}, {"solution", {{"kind", "dsl"}, {"source", source}}}}.dump();
}

class Server : public ::testing::Test {
 protected:
  void start(int workers, size_t queue, size_t maxBytes = 1 << 20) {
    RewardServerOptions o;
    o.workers = workers;
    o.queue = queue;
    o.maxRequestBytes = maxBytes;
    server_ = std::make_unique<RewardServer>(judge_, o);
    std::string error;
    port_ = server_->bind(&error);
    ASSERT_GT(port_, 0) << error;
    thread_ = std::thread([this] { server_->run(); });
  }
  void TearDown() override {
    judge_.open();
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }
  json waitingAndRunning() {
    httplib::Client c("127.0.0.1", port_);
    httplib::Result r = c.Get("/healthz");
    return r ? json::parse(r->body) : json();
  }
  void waitForWaiting(size_t n) {
    for (int i = 0; i < 500 && waitingAndRunning().value("waiting", 0u) < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  GatedJudge judge_;
  std::unique_ptr<RewardServer> server_;
  int port_ = 0;
  std::thread thread_;
};

TEST_F(Server, AnswersAVerdictAndItsHealth) {
  start(2, 4);
  judge_.open();
  httplib::Client c("127.0.0.1", port_);
  httplib::Result r = c.Post("/v1/reward", body("add", "right"), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  json v = json::parse(r->body);
  EXPECT_EQ(v["task"], "add");
  EXPECT_EQ(v["correct"], true);
  EXPECT_EQ(v["reward"], 0.5);
  json health = waitingAndRunning();
  EXPECT_EQ(health["status"], "ok");
  EXPECT_EQ(health["workers"], 2);
  EXPECT_EQ(health["queue"], 4);
  EXPECT_EQ(health["answered"], 1);
}

TEST_F(Server, BadRequestsSayWhy) {
  start(1, 1, 4096);
  judge_.open();
  httplib::Client c("127.0.0.1", port_);
  httplib::Result parse = c.Post("/v1/reward", "{\"task\": \"add\",", "application/json");
  ASSERT_TRUE(parse);
  EXPECT_EQ(parse->status, 400);
  EXPECT_EQ(parse->body,
            "{\"byte\":16,\"error\":\"invalid JSON: parse error at line 1, column 16: syntax error while parsing "
            "object key - unexpected end of input; expected string literal\"}\n");
  httplib::Result field = c.Post("/v1/reward", "{\"task\": 3}", "application/json");
  ASSERT_TRUE(field);
  EXPECT_EQ(field->status, 400);
  EXPECT_EQ(field->body, "{\"error\":\"'task' must be a string: a task name or a task folder\"}\n");
  httplib::Result refused = c.Post("/v1/reward", body("missing", "x"), "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 400);
  EXPECT_EQ(refused->body, "{\"error\":\"unknown task 'missing'\"}\n");
  httplib::Result big = c.Post("/v1/reward", body("add", std::string(5000, 'x')), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(big->body, "{\"error\":\"the request is larger than the limit of 4096 bytes\"}\n");
  httplib::Result nowhere = c.Get("/v2/reward");
  ASSERT_TRUE(nowhere);
  EXPECT_EQ(nowhere->status, 404);
  EXPECT_EQ(nowhere->body, "{\"error\":\"no such endpoint: GET /v2/reward (POST /v1/reward, GET /healthz)\"}\n");
}

TEST_F(Server, A429WithRetryAfterExactlyWhenTheQueueIsFull) {
  start(1, 1);
  std::vector<LoadAnswer> first, second;
  std::thread a([&] { first = sendLoad({body("add", "right")}, {"127.0.0.1", port_, 1}); });
  judge_.waitEntered(1);  // the worker is busy
  std::thread b([&] { second = sendLoad({body("add", "wrong")}, {"127.0.0.1", port_, 1}); });
  waitForWaiting(1);  // the one queue place is taken
  httplib::Client c("127.0.0.1", port_);
  httplib::Result full = c.Post("/v1/reward", body("add", "right"), "application/json");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->status, 429);
  EXPECT_EQ(full->get_header_value("Retry-After"), "1");
  EXPECT_EQ(
      full->body,
      "{\"error\":\"the queue is full (1 requests waiting for 1 workers); retry after 1 s\",\"retry_after\":1}\n");
  judge_.open();
  a.join();
  b.join();
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(first[0].status, 200);
  EXPECT_EQ(json::parse(first[0].body)["correct"], true);
  EXPECT_EQ(second[0].status, 200);
  EXPECT_EQ(json::parse(second[0].body)["correct"], false);
}

TEST_F(Server, StopAnswersEveryAcceptedRequestFirst) {
  start(2, 4);
  std::vector<LoadAnswer> answers;
  std::thread load([&] {
    answers = sendLoad({body("add", "right"), body("add", "wrong"), body("add", "right"), body("add", "right")},
                       {"127.0.0.1", port_, 4});
  });
  judge_.waitEntered(2);
  waitForWaiting(2);
  std::thread stopper([&] { server_->stop(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  judge_.open();
  stopper.join();
  thread_.join();  // run() returned
  load.join();
  ASSERT_EQ(answers.size(), 4u);
  for (const LoadAnswer& a : answers) EXPECT_EQ(a.status, 200) << a.request;
  EXPECT_EQ(server_->stats().answered, 4u);
  httplib::Client c("127.0.0.1", port_);
  EXPECT_FALSE(c.Get("/healthz"));  // no longer listening
}

TEST(Percentile, NearestRank) {
  EXPECT_EQ(percentile({}, 50), 0);
  EXPECT_EQ(percentile({3, 1, 2}, 50), 2);
  EXPECT_EQ(percentile({1, 2, 3, 4}, 99), 4);
  EXPECT_EQ(percentile({1, 2, 3, 4}, 0), 1);
}

}  // namespace
}  // namespace tilecraft::service
