// The OpenAI chat-completions wire format: the request body, a whole reply, a server-sent-events stream of deltas,
// and the error body servers send with a 4xx/5xx. Pure functions over text, so every server's quirks are tested
// without a socket.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "llm/chat.h"

namespace tilecraft::llm {

// The JSON body for `request` (already resolved against its endpoint: model set, n >= 1). Unset optional fields
// are left out; a stream also asks for the usage chunk (stream_options.include_usage).
std::string chatRequestBody(const ChatRequest& request, bool stream);

// A non-streamed reply (`{"choices": [{"message": {...}}], "usage": {...}}`) into `reply`'s choices, usage and
// model. false with `error` set when it is not JSON (`truncated` then says whether it looks cut short) or has no
// choices.
bool parseChatCompletion(std::string_view body, ChatReply& reply, std::string& error, bool& truncated);

// Accumulates a streamed reply as its bytes arrive, in pieces of any size: `data:` lines (one event per blank
// line; several data lines are joined by '\n'; ':' comments and other fields ignored), `[DONE]`, and each
// chunk's choices[i].delta.content / reasoning_content / reasoning appended to choice i, finish_reason and usage
// kept. A chunk carrying `{"error": ...}` ends the stream with that error.
class StreamAccumulator {
 public:
  void feed(std::string_view bytes);
  // Called once the connection ended cleanly. The reply is complete when [DONE] arrived, or when every choice
  // has a finish_reason (servers that end without [DONE]); otherwise `error` says where the stream stopped.
  bool finish(ChatReply& reply, std::string& error);

  int events() const { return events_; }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }  // a malformed chunk or the server's in-stream error

 private:
  void dispatch(const std::string& data);

  std::string pending_;  // bytes after the last line end
  std::string data_;     // the data lines of the event being read
  bool haveData_ = false;
  bool done_ = false;
  int events_ = 0;
  std::string error_;
  std::map<int, ChatChoice> choices_;
  ChatUsage usage_;
  std::string model_;
};

// What an error reply says: error.message (or a top-level message/detail/error string), else the body's first
// 200 bytes. `code` gets error.code or error.type when present ("insufficient_quota", "invalid_api_key").
std::string serverErrorMessage(std::string_view body, std::string* code);

}  // namespace tilecraft::llm
