#include "llm/response_cache.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <utility>

#include "llm/openai_client.h"
#include "support/assert.h"
#include "support/files.h"

namespace tilecraft::llm {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Bumped when the key's JSON changes shape, so an old cache misses instead of answering the wrong request.
constexpr int kKeyVersion = 1;

template <typename T>
json orNull(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

// What a key is computed from besides the request: the defaults a request's unset fields take.
json endpointIdentity(const Endpoint& e) {
  return {{"name", e.name},          {"base_url", e.baseUrl},
          {"model", e.model},        {"temperature", orNull(e.temperature)},
          {"top_p", orNull(e.topP)}, {"max_tokens", orNull(e.maxTokens)},
          {"seed", orNull(e.seed)},  {"stop", e.stop}};
}

json replyJson(const ChatReply& reply) {
  json choices = json::array();
  for (const ChatChoice& c : reply.choices) {
    choices.push_back({{"content", c.content}, {"reasoning", c.reasoning}, {"finish_reason", c.finishReason}});
  }
  // http_attempts and cost are the recording's: a replayed transcript reports the requests the reply took.
  return {{"choices", choices},
          {"usage", {{"prompt_tokens", reply.usage.promptTokens}, {"completion_tokens", reply.usage.completionTokens}}},
          {"model", reply.model},
          {"http_attempts", reply.attempts},
          {"cost", reply.cost}};
}

bool parseReply(const json& j, ChatReply& reply) {
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) return false;
  for (const json& c : j["choices"]) {
    if (!c.is_object()) return false;
    reply.choices.push_back(
        {c.value("content", std::string()), c.value("reasoning", std::string()), c.value("finish_reason", "")});
  }
  if (j.contains("usage") && j["usage"].is_object()) {
    reply.usage.promptTokens = j["usage"].value("prompt_tokens", int64_t{0});
    reply.usage.completionTokens = j["usage"].value("completion_tokens", int64_t{0});
  }
  reply.model = j.value("model", std::string());
  reply.attempts = j.value("http_attempts", 0);
  reply.cost = j.value("cost", 0.0);
  return true;
}

}  // namespace

std::string sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  int ok = EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  TC_ASSERT(ok == 1, "EVP_Digest(sha256) failed");
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string canonicalRequestJson(const Endpoint& endpoint, const ChatRequest& request) {
  ChatRequest r = resolveRequest(endpoint, request);
  json messages = json::array();
  for (const ChatMessage& m : r.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  // json objects keep their keys sorted, so equal requests dump to equal bytes.
  json key = {{"version", kKeyVersion},
              {"base_url", endpoint.baseUrl},
              {"model", r.model},
              {"messages", messages},
              {"temperature", orNull(r.temperature)},
              {"top_p", orNull(r.topP)},
              {"max_tokens", orNull(r.maxTokens)},
              {"seed", orNull(r.seed)},
              {"n", r.n},
              {"stop", r.stop}};
  return key.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string requestKey(const Endpoint& endpoint, const ChatRequest& request) {
  return sha256Hex(canonicalRequestJson(endpoint, request));
}

bool recordedEndpoints(const fs::path& dir, std::vector<Endpoint>& endpoints, std::string* error) {
  endpoints.clear();
  fs::path file = dir / "endpoints.json";
  if (!fs::exists(file)) return true;
  json j = json::parse(support::readFile(file).value_or(""), nullptr, false);
  if (j.is_discarded() || !j.is_array()) {
    *error = fmt::format("{}: not a JSON list of endpoints", file.string());
    return false;
  }
  for (const json& e : j) {
    if (!e.is_object()) continue;
    Endpoint endpoint;
    endpoint.name = e.value("name", std::string());
    endpoint.baseUrl = e.value("base_url", std::string());
    endpoint.model = e.value("model", std::string());
    if (e.contains("temperature") && e["temperature"].is_number())
      endpoint.temperature = e["temperature"].get<double>();
    if (e.contains("top_p") && e["top_p"].is_number()) endpoint.topP = e["top_p"].get<double>();
    if (e.contains("max_tokens") && e["max_tokens"].is_number_integer()) {
      endpoint.maxTokens = e["max_tokens"].get<int64_t>();
    }
    if (e.contains("seed") && e["seed"].is_number_unsigned()) endpoint.seed = e["seed"].get<uint64_t>();
    if (e.contains("stop") && e["stop"].is_array()) endpoint.stop = e["stop"].get<std::vector<std::string>>();
    endpoint.file = file.string();
    endpoints.push_back(std::move(endpoint));
  }
  return true;
}

bool recordEndpoint(const fs::path& dir, const Endpoint& endpoint, std::string* error) {
  if (!support::prepareOutputFolder(dir, error)) return false;
  std::vector<Endpoint> known;
  if (!recordedEndpoints(dir, known, error)) return false;
  json list = json::array();
  json identity = endpointIdentity(endpoint);
  bool present = false;
  for (const Endpoint& e : known) {
    list.push_back(endpointIdentity(e));
    present = present || list.back() == identity;
  }
  if (present) return true;
  list.push_back(identity);
  return support::writeFileAtomically(dir / "endpoints.json", list.dump(2) + "\n", error);
}

CachingChatClient::CachingChatClient(fs::path dir, Endpoint endpoint, ChatClient* inner)
    : dir_(std::move(dir)), endpoint_(std::move(endpoint)), inner_(inner) {}

ChatResult CachingChatClient::complete(const ChatRequest& request) {
  auto start = std::chrono::steady_clock::now();
  std::string canonical = canonicalRequestJson(endpoint_, request);
  std::string key = sha256Hex(canonical);
  fs::path file = dir_ / (key + ".json");
  if (std::optional<std::string> text = support::readFile(file)) {
    json entry = json::parse(*text, nullptr, false);
    ChatReply reply;
    if (!entry.is_discarded() && entry.is_object() && entry.contains("reply") && parseReply(entry["reply"], reply)) {
      reply.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::lock_guard lock(mutex_);
      ++stats_.hits;
      return ChatResult::success(std::move(reply));
    }
    // A torn or foreign file is a miss: recording overwrites it, a replay reports it.
  }
  if (inner_ == nullptr) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.missing;
    }
    ChatRequest resolved = resolveRequest(endpoint_, request);
    ChatError error;
    error.kind = ChatErrorKind::Config;
    error.message = fmt::format(
        "replay: no recorded reply for request {} in {} (model {}, {} messages, seed {})\nhint: a replay answers "
        "only the requests its recording made; the prompt, the endpoint or a sampling setting differs",
        key, dir_.string(), resolved.model, resolved.messages.size(),
        resolved.seed ? std::to_string(*resolved.seed) : "none");
    return ChatResult::failure(std::move(error));
  }
  ChatResult result = inner_->complete(request);
  if (!result) return result;
  json entry = {{"key", key}, {"request", json::parse(canonical)}, {"reply", replyJson(*result.reply)}};
  std::string error;
  std::lock_guard lock(mutex_);
  std::error_code ignored;  // a folder that cannot be made shows as the write's error
  fs::create_directories(dir_, ignored);
  // The reply is good; only its record failed: the caller still gets it, and stats() says what was not stored.
  if (support::writeFileAtomically(file, entry.dump(1, ' ', false, json::error_handler_t::replace) + "\n", &error)) {
    ++stats_.recorded;
  } else if (stats_.unwritten++ == 0) {
    stats_.firstWriteError = error;
  }
  return result;
}

ReplyCacheStats CachingChatClient::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace tilecraft::llm
