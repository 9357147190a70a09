#include "llm/tests/scripted_server/scripted_server.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

namespace tilecraft::llm::testing {
namespace {

using nlohmann::json;

// clang-format off
const char* const kKeys[] = {"status", "headers", "delay_ms", "body", "content_type", "events", "content",
                             "reasoning", "reasoning_field", "choices", "finish_reason", "usage", "model",
                             "chunk_chars", "cut_after", "done", "when"};
// clang-format on

struct ScriptedReply {
  int line = 0;
  json spec;
};

std::string scriptError(const std::string& name, int line, const std::string& message) {
  return fmt::format("{}:{}: {}", name, line, message);
}

bool checkReply(const json& spec, const std::string& name, int line, std::string* error) {
  if (!spec.is_object()) {
    *error = scriptError(name, line, "a reply is a JSON object ({\"content\": \"...\"} or {\"status\": 429, ...})");
    return false;
  }
  for (const auto& [key, value] : spec.items()) {
    if (std::find_if(std::begin(kKeys), std::end(kKeys), [&](const char* k) { return key == k; }) == std::end(kKeys)) {
      std::string keys;
      for (const char* k : kKeys) keys += (keys.empty() ? "" : ", ") + std::string(k);
      *error = scriptError(name, line, fmt::format("unknown key '{}'; the keys are {}", key, keys));
      return false;
    }
  }
  if (spec.contains("events") && !spec["events"].is_array()) {
    *error = scriptError(name, line, "'events' is a list of strings, one per SSE data payload");
    return false;
  }
  if (spec.contains("when") && !spec["when"].is_string()) {
    *error = scriptError(name, line, "'when' is a string the request's last message must hold");
    return false;
  }
  if (spec.contains("choices") && !spec["choices"].is_array()) {
    *error = scriptError(name, line, "'choices' is a list of {\"content\", \"reasoning\", \"finish_reason\"}");
    return false;
  }
  return true;
}

// A prompt's stand-in token count: one token per 4 bytes, rounded up, so usage is deterministic.
int64_t tokensOf(size_t bytes) { return static_cast<int64_t>((bytes + 3) / 4); }

struct Choice {
  std::string content;
  std::string reasoning;
  std::string finishReason;
};

std::vector<Choice> choicesOf(const json& spec) {
  std::vector<Choice> out;
  std::string finish = spec.value("finish_reason", "stop");
  if (spec.contains("choices")) {
    for (const json& c : spec["choices"]) {
      out.push_back({c.value("content", ""), c.value("reasoning", ""), c.value("finish_reason", finish)});
    }
  } else {
    out.push_back({spec.value("content", ""), spec.value("reasoning", ""), finish});
  }
  return out;
}

class ScriptedServerImpl final : public ScriptedServer {
 public:
  ScriptedServerImpl(std::deque<ScriptedReply> replies, std::string scriptName, ScriptedServerOptions options)
      : replies_(std::move(replies)), scriptName_(std::move(scriptName)), options_(std::move(options)) {}
  ~ScriptedServerImpl() override { stop(); }

  int start(int port, std::string* error) override {
    if (!options_.tlsCertPath.empty() && !options_.tlsKeyPath.empty()) {
      server_ = std::make_unique<httplib::SSLServer>(options_.tlsCertPath.c_str(), options_.tlsKeyPath.c_str());
    } else {
      server_ = std::make_unique<httplib::Server>();
    }
    if (!server_->is_valid()) {
      *error =
          fmt::format("cannot serve with certificate '{}' and key '{}'", options_.tlsCertPath, options_.tlsKeyPath);
      return 0;
    }
    if (!options_.logPath.empty()) {
      log_.open(options_.logPath, std::ios::trunc);
      if (!log_) {
        *error = fmt::format("cannot write the request log '{}'", options_.logPath);
        return 0;
      }
    }
    server_->Post(".*", [this](const httplib::Request& req, httplib::Response& res) { answer(req, res); });
    int bound =
        port == 0 ? server_->bind_to_any_port("127.0.0.1") : (server_->bind_to_port("127.0.0.1", port) ? port : -1);
    if (bound <= 0) {
      *error = fmt::format("cannot listen on 127.0.0.1:{}", port);
      return 0;
    }
    thread_ = std::thread([this] { server_->listen_after_bind(); });
    // httplib's stop() does nothing until the loop runs, so a stop() right after start() would leave it running.
    for (int waited = 0; !server_->is_running(); ++waited) {
      if (waited == 5000) {
        *error = fmt::format("the server on 127.0.0.1:{} did not start within 5 s", bound);
        stop();
        return 0;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return bound;
  }

  void stop() override {
    if (server_) server_->stop();
    if (thread_.joinable()) thread_.join();
  }

  std::vector<std::string> requestLog() const override {
    std::lock_guard lock(mutex_);
    return logLines_;
  }
  int peakInFlight() const override { return peak_.load(); }
  size_t repliesLeft() const override {
    std::lock_guard lock(mutex_);
    return replies_.size();
  }

 private:
  void answer(const httplib::Request& req, httplib::Response& res) {
    int inFlight = ++inFlight_;
    for (int seen = peak_.load(); inFlight > seen && !peak_.compare_exchange_weak(seen, inFlight);) {
    }
    json body = json::parse(req.body, nullptr, false);
    std::optional<ScriptedReply> reply;
    {
      std::lock_guard lock(mutex_);
      json entry = {{"n", logLines_.size() + 1}, {"method", req.method},
                    {"path", req.path},          {"authorization", req.get_header_value("Authorization")},
                    {"in_flight", inFlight},     {"body", body.is_discarded() ? json(req.body) : body}};
      logLines_.push_back(entry.dump());
      if (log_) log_ << logLines_.back() << '\n' << std::flush;
      // The first reply left that applies: one without `when`, or one whose text the last message holds.
      std::string last;
      if (body.is_object() && body.contains("messages") && body["messages"].is_array() && !body["messages"].empty() &&
          body["messages"].back().contains("content") && body["messages"].back()["content"].is_string())
        last = body["messages"].back()["content"].get<std::string>();
      auto applies = [&](const ScriptedReply& r) {
        return !r.spec.contains("when") || last.find(r.spec["when"].get<std::string>()) != std::string::npos;
      };
      if (auto it = std::find_if(replies_.begin(), replies_.end(), applies); it != replies_.end()) {
        reply = std::move(*it);
        replies_.erase(it);
      }
    }
    if (!reply) {
      res.status = 500;
      res.set_content(
          json({{"error",
                 {{"message", fmt::format("scripted server: {} has no reply left for this request", scriptName_)},
                  {"type", "script_exhausted"}}}})
              .dump(),
          "application/json");
      --inFlight_;
      return;
    }
    const json& spec = reply->spec;
    if (int delay = spec.value("delay_ms", 0); delay > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
    res.status = spec.value("status", 200);
    if (spec.contains("headers")) {
      for (const auto& [name, value] : spec["headers"].items()) {
        res.set_header(name, value.is_string() ? value.get<std::string>() : value.dump());
      }
    }
    const bool stream = body.is_object() && body.value("stream", false);
    std::string model = spec.value("model", body.is_object() ? body.value("model", "") : "");
    std::vector<std::string> pieces;  // what goes out, in order: SSE events or the body's bytes
    std::string contentType;
    if (spec.contains("body")) {
      const json& b = spec["body"];
      pieces.push_back(b.is_string() ? b.get<std::string>() : b.dump());
      contentType = spec.value("content_type", "application/json");
    } else if (spec.contains("events")) {
      for (const json& e : spec["events"])
        pieces.push_back("data: " + (e.is_string() ? e.get<std::string>() : e.dump()) + "\n\n");
      contentType = "text/event-stream";
    } else if (stream) {
      pieces = streamEvents(spec, req.body.size(), model);
      contentType = "text/event-stream";
    } else {
      pieces.push_back(completion(spec, req.body.size(), model).dump());
      contentType = "application/json";
    }
    if (!spec.contains("cut_after")) {
      std::string whole;
      for (const std::string& p : pieces) whole += p;
      res.set_content(whole, contentType);
      --inFlight_;
      return;
    }
    // Cut: K events (or K bytes of a body), then the connection closes without the chunked encoding's end.
    size_t cutAfter = spec["cut_after"].get<size_t>();
    if (pieces.size() == 1 && contentType != "text/event-stream") {
      pieces = {pieces[0].substr(0, std::min(cutAfter, pieces[0].size()))};
      cutAfter = 1;
    }
    auto shared = std::make_shared<std::vector<std::string>>(std::move(pieces));
    auto sent = std::make_shared<size_t>(0);
    res.set_chunked_content_provider(
        contentType,
        [shared, sent, cutAfter](size_t, httplib::DataSink& sink) {
          if (*sent >= cutAfter || *sent >= shared->size()) return false;
          const std::string& piece = (*shared)[(*sent)++];
          return sink.write(piece.data(), piece.size());
        },
        [this](bool) { --inFlight_; });
  }

  json usageOf(const json& spec, size_t requestBytes, const std::vector<Choice>& choices) const {
    if (spec.contains("usage")) return spec["usage"];
    size_t outBytes = 0;
    for (const Choice& c : choices) outBytes += c.content.size() + c.reasoning.size();
    return {{"prompt_tokens", tokensOf(requestBytes)}, {"completion_tokens", tokensOf(outBytes)}};
  }

  json completion(const json& spec, size_t requestBytes, const std::string& model) const {
    std::vector<Choice> choices = choicesOf(spec);
    std::string field = spec.value("reasoning_field", "reasoning_content");
    json out = {{"id", "chatcmpl-scripted"}, {"object", "chat.completion"}, {"model", model}};
    json list = json::array();
    for (size_t i = 0; i < choices.size(); ++i) {
      json message = {{"role", "assistant"}, {"content", choices[i].content}};
      if (!choices[i].reasoning.empty()) message[field] = choices[i].reasoning;
      list.push_back({{"index", i}, {"message", message}, {"finish_reason", choices[i].finishReason}});
    }
    out["choices"] = list;
    out["usage"] = usageOf(spec, requestBytes, choices);
    return out;
  }

  std::vector<std::string> streamEvents(const json& spec, size_t requestBytes, const std::string& model) const {
    std::vector<Choice> choices = choicesOf(spec);
    std::string field = spec.value("reasoning_field", "reasoning_content");
    size_t step = std::max<size_t>(1, spec.value("chunk_chars", 8));
    std::vector<std::string> events;
    auto event = [&](size_t index, json delta, json finish) {
      json chunk = {{"id", "chatcmpl-scripted"}, {"object", "chat.completion.chunk"}, {"model", model}};
      chunk["choices"] = json::array({{{"index", index}, {"delta", std::move(delta)}, {"finish_reason", finish}}});
      events.push_back("data: " + chunk.dump() + "\n\n");
    };
    for (size_t i = 0; i < choices.size(); ++i) {
      event(i, {{"role", "assistant"}, {"content", ""}}, nullptr);
      for (size_t at = 0; at < choices[i].reasoning.size(); at += step) {
        event(i, {{field, choices[i].reasoning.substr(at, step)}}, nullptr);
      }
      for (size_t at = 0; at < choices[i].content.size(); at += step) {
        event(i, {{"content", choices[i].content.substr(at, step)}}, nullptr);
      }
      event(i, json::object(), choices[i].finishReason);
    }
    json usage = {{"id", "chatcmpl-scripted"},
                  {"object", "chat.completion.chunk"},
                  {"model", model},
                  {"choices", json::array()},
                  {"usage", usageOf(spec, requestBytes, choices)}};
    events.push_back("data: " + usage.dump() + "\n\n");
    if (spec.value("done", true)) events.push_back("data: [DONE]\n\n");
    return events;
  }

  mutable std::mutex mutex_;
  std::deque<ScriptedReply> replies_;
  const std::string scriptName_;
  const ScriptedServerOptions options_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::ofstream log_;
  std::vector<std::string> logLines_;
  std::atomic<int> inFlight_{0};
  std::atomic<int> peak_{0};
};

}  // namespace

std::unique_ptr<ScriptedServer> ScriptedServer::create(const std::string& scriptText, const std::string& scriptName,
                                                       const ScriptedServerOptions& options, std::string* error) {
  std::deque<ScriptedReply> replies;
  std::istringstream in(scriptText);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    json spec = json::parse(line, nullptr, false);
    if (spec.is_discarded()) {
      *error = scriptError(scriptName, number, "not a JSON object on one line");
      return nullptr;
    }
    if (!checkReply(spec, scriptName, number, error)) return nullptr;
    replies.push_back({number, std::move(spec)});
  }
  return std::make_unique<ScriptedServerImpl>(std::move(replies), scriptName, options);
}

}  // namespace tilecraft::llm::testing
