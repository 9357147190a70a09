#include "llm/wire.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace tilecraft::llm {

using nlohmann::json;

namespace {

std::string stringField(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

std::string reasoningField(const json& object) {
  std::string reasoning = stringField(object, "reasoning_content");
  return reasoning.empty() ? stringField(object, "reasoning") : reasoning;
}

void readUsage(const json& root, ChatUsage& usage) {
  auto it = root.find("usage");
  if (it == root.end() || !it->is_object()) return;
  if (auto p = it->find("prompt_tokens"); p != it->end() && p->is_number_integer()) usage.promptTokens = *p;
  if (auto c = it->find("completion_tokens"); c != it->end() && c->is_number_integer()) usage.completionTokens = *c;
}

std::string excerpt(std::string_view text) {
  std::string out(text.substr(0, 200));
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text.size() > 200 ? out + "..." : out;
}

}  // namespace

std::string chatRequestBody(const ChatRequest& request, bool stream) {
  json body;
  body["model"] = request.model;
  json messages = json::array();
  for (const ChatMessage& m : request.messages) messages.push_back({{"role", m.role}, {"content", m.content}});
  body["messages"] = std::move(messages);
  if (request.temperature) body["temperature"] = *request.temperature;
  if (request.topP) body["top_p"] = *request.topP;
  if (request.maxTokens) body["max_tokens"] = *request.maxTokens;
  if (request.seed) body["seed"] = *request.seed;
  if (request.n != 1) body["n"] = request.n;
  if (!request.stop.empty()) body["stop"] = request.stop;
  body["stream"] = stream;
  if (stream) body["stream_options"] = {{"include_usage", true}};
  return body.dump();
}

bool parseChatCompletion(std::string_view body, ChatReply& reply, std::string& error, bool& truncated) {
  truncated = false;
  json root = json::parse(body.begin(), body.end(), nullptr, false);
  if (root.is_discarded()) {
    // A prefix of valid JSON fails at its end; junk fails earlier. The first tells a cut connection.
    try {
      json again = json::parse(body.begin(), body.end());
    } catch (const json::parse_error& e) {
      truncated = e.byte >= body.size();
    }
    error = truncated ? fmt::format("the reply ends in the middle of its JSON after {} bytes", body.size())
                      : fmt::format("the reply is not JSON: '{}'", excerpt(body));
    return false;
  }
  auto choices = root.find("choices");
  if (!root.is_object() || choices == root.end() || !choices->is_array() || choices->empty()) {
    error = fmt::format("the reply has no choices: '{}'", excerpt(body));
    return false;
  }
  reply.choices.clear();
  for (const json& c : *choices) {
    ChatChoice choice;
    if (auto m = c.find("message"); m != c.end() && m->is_object()) {
      choice.content = stringField(*m, "content");
      choice.reasoning = reasoningField(*m);
    }
    choice.finishReason = stringField(c, "finish_reason");
    reply.choices.push_back(std::move(choice));
  }
  readUsage(root, reply.usage);
  reply.model = stringField(root, "model");
  return true;
}

void StreamAccumulator::feed(std::string_view bytes) {
  pending_.append(bytes);
  size_t start = 0;
  for (size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1) {
    std::string_view line(pending_.data() + start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (haveData_) dispatch(data_);
      data_.clear();
      haveData_ = false;
    } else if (line.starts_with("data:")) {
      line.remove_prefix(5);
      if (line.starts_with(' ')) line.remove_prefix(1);
      if (haveData_) data_ += '\n';
      data_.append(line);
      haveData_ = true;
    }
  }
  pending_.erase(0, start);
}

void StreamAccumulator::dispatch(const std::string& data) {
  if (done_ || !error_.empty()) return;
  ++events_;
  if (data == "[DONE]") {
    done_ = true;
    return;
  }
  json chunk = json::parse(data, nullptr, false);
  if (chunk.is_discarded() || !chunk.is_object()) {
    error_ = fmt::format("stream event {} is not JSON: '{}'", events_, excerpt(data));
    return;
  }
  if (auto e = chunk.find("error"); e != chunk.end()) {
    std::string code;
    error_ =
        fmt::format("the server reported an error in stream event {}: {}", events_, serverErrorMessage(data, &code));
    return;
  }
  if (model_.empty()) model_ = stringField(chunk, "model");
  readUsage(chunk, usage_);
  auto choices = chunk.find("choices");
  if (choices == chunk.end() || !choices->is_array()) return;
  for (const json& c : *choices) {
    int index = 0;
    if (auto i = c.find("index"); i != c.end() && i->is_number_integer()) index = *i;
    ChatChoice& choice = choices_[index];
    if (auto d = c.find("delta"); d != c.end() && d->is_object()) {
      choice.content += stringField(*d, "content");
      choice.reasoning += reasoningField(*d);
    }
    if (std::string finish = stringField(c, "finish_reason"); !finish.empty()) choice.finishReason = finish;
  }
}

bool StreamAccumulator::finish(ChatReply& reply, std::string& error) {
  if (!pending_.empty()) feed("\n");  // a last line without its line end
  if (haveData_) {
    dispatch(data_);
    data_.clear();
    haveData_ = false;
  }
  if (!error_.empty()) {
    error = error_;
    return false;
  }
  bool allFinished = !choices_.empty();
  for (const auto& [index, choice] : choices_) allFinished = allFinished && !choice.finishReason.empty();
  if (!done_ && !allFinished) {
    error = fmt::format("the stream ended after {} events without [DONE] or a finish_reason", events_);
    return false;
  }
  if (choices_.empty()) {
    error = fmt::format("the stream ended after {} events without any choice", events_);
    return false;
  }
  reply.choices.clear();
  for (auto& [index, choice] : choices_) reply.choices.push_back(choice);
  reply.usage = usage_;
  reply.model = model_;
  return true;
}

std::string serverErrorMessage(std::string_view body, std::string* code) {
  json root = json::parse(body.begin(), body.end(), nullptr, false);
  if (code) code->clear();
  if (!root.is_object()) return excerpt(body);
  if (auto e = root.find("error"); e != root.end()) {
    if (e->is_string()) return e->get<std::string>();
    if (e->is_object()) {
      if (code) {
        *code = stringField(*e, "code");
        if (code->empty()) *code = stringField(*e, "type");
      }
      std::string message = stringField(*e, "message");
      if (!message.empty()) return message;
    }
  }
  for (const char* key : {"message", "detail"}) {
    if (std::string text = stringField(root, key); !text.empty()) return text;
  }
  return excerpt(body);
}

}  // namespace tilecraft::llm
