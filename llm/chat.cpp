#include "llm/chat.h"

#include <fmt/format.h>

#include <utility>

namespace tilecraft::llm {

const char* chatErrorKindName(ChatErrorKind kind) {
  switch (kind) {
    case ChatErrorKind::Http: return "http";
    case ChatErrorKind::Transport: return "transport";
    case ChatErrorKind::Timeout: return "timeout";
    case ChatErrorKind::CutStream: return "cut-stream";
    case ChatErrorKind::BadReply: return "bad-reply";
    case ChatErrorKind::Config: return "config";
  }
  return "unknown";
}

ChatResult ChatResult::success(ChatReply reply) {
  ChatResult result;
  result.reply = std::move(reply);
  return result;
}

ChatResult ChatResult::failure(ChatError error) {
  ChatResult result;
  result.error = std::move(error);
  return result;
}

void FakeChatClient::push(ChatResult result) {
  std::lock_guard lock(mutex_);
  queued_.push_back(std::move(result));
}

void FakeChatClient::pushText(std::string content, std::string reasoning) {
  ChatReply reply;
  reply.choices.push_back({std::move(content), std::move(reasoning), "stop"});
  reply.attempts = 1;
  push(ChatResult::success(std::move(reply)));
}

ChatResult FakeChatClient::complete(const ChatRequest& request) {
  std::lock_guard lock(mutex_);
  requests_.push_back(request);
  if (queued_.empty()) {
    ChatError error;
    error.kind = ChatErrorKind::Config;
    error.message = fmt::format("FakeChatClient: no scripted reply left for request {}", requests_.size());
    return ChatResult::failure(std::move(error));
  }
  ChatResult result = std::move(queued_.front());
  queued_.pop_front();
  return result;
}

std::vector<ChatRequest> FakeChatClient::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

}  // namespace tilecraft::llm
