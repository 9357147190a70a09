// `tilecraft serve`: the HTTP reward service for RL. POST /v1/reward judges one solution on one task (the
// request and verdict of service/verdict_json.h plus the scalar reward); GET /healthz says the service is up
// and how loaded it is. Judgements run on a WorkQueue of `workers` threads with `queue` places: a request that
// finds the queue full gets 429 with Retry-After at once; an accepted request is always answered, shutdown
// included.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "service/judge.h"

namespace tilecraft::service {

struct RewardServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: a free port, chosen when binding
  int workers = 2;
  size_t queue = 16;
  size_t maxRequestBytes = 1 << 20;  // a larger body is refused with 413
  int retryAfterSeconds = 1;
};

struct RewardServerStats {
  uint64_t accepted = 0, answered = 0, rejectedFull = 0, badRequests = 0;
};

class RewardServer {
 public:
  RewardServer(Judge& judge, RewardServerOptions options);
  ~RewardServer();

  // Binds the socket; the port bound, or -1 with `error` set.
  int bind(std::string* error);
  // Serves until stop(); returns once every accepted request has been answered.
  void run();
  // Stops accepting connections; safe from any thread (not from a signal handler).
  void stop();
  RewardServerStats stats() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tilecraft::service
