// A content-addressed cache of model replies, as a ChatClient in front of another (docs/generation.md,
// "Recording and replaying a run"): the key is the SHA-256 of the canonical JSON of everything that decides a
// reply (the endpoint's base URL, the resolved model, messages, temperature, top_p, max_tokens, seed, n, stop);
// the value, one file DIR/KEY.json, is the reply (choices, usage, model). Recording reads through and stores every
// reply the inner client gets (never an error); replaying never calls a model and answers a miss with an error
// naming the key. A run replayed from its recording sends the agent the same replies, so it prints the same table.
#pragma once

#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "llm/chat.h"
#include "llm/endpoints.h"

namespace tilecraft::llm {

// The canonical JSON (sorted keys, no spaces) of `request` resolved against `endpoint`, and its SHA-256 in hex.
// The SHA-256 of `bytes`, as 64 lowercase hex digits: the cache's keys, and other content addresses.
std::string sha256Hex(std::string_view bytes);

std::string canonicalRequestJson(const Endpoint& endpoint, const ChatRequest& request);
std::string requestKey(const Endpoint& endpoint, const ChatRequest& request);

// DIR/endpoints.json: the endpoints whose replies DIR holds (base URL, model and sampling defaults: what a key is
// computed from), so a replay needs no endpoint configured. false with `error` set when it cannot be read or written.
bool recordEndpoint(const std::filesystem::path& dir, const Endpoint& endpoint, std::string* error);
bool recordedEndpoints(const std::filesystem::path& dir, std::vector<Endpoint>& endpoints, std::string* error);

struct ReplyCacheStats {
  int hits = 0;
  int recorded = 0;   // misses the inner client answered, now stored
  int missing = 0;    // misses a replay could not answer
  int unwritten = 0;  // replies that could not be stored (the caller got them all the same)
  std::string firstWriteError;
};

class CachingChatClient final : public ChatClient {
 public:
  // `inner` null: replay (a miss is a Config error). `endpoint` is the one `inner` talks to (or the recorded one).
  CachingChatClient(std::filesystem::path dir, Endpoint endpoint, ChatClient* inner);

  ChatResult complete(const ChatRequest& request) override;
  ReplyCacheStats stats() const;
  bool replaying() const { return inner_ == nullptr; }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  const std::filesystem::path dir_;
  const Endpoint endpoint_;
  ChatClient* const inner_;
  mutable std::mutex mutex_;  // also serialises writes: two threads recording one key would share its .tmp file
  ReplyCacheStats stats_;
};

}  // namespace tilecraft::llm
