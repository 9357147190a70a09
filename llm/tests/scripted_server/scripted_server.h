// An OpenAI-compatible server for tests, on 127.0.0.1: each request gets the next reply of a script that applies to
// it (JSON lines; a reply with `when` applies only to a request whose last message holds its text;
// format in docs/generation.md "The scripted server"), and every request is logged. The binary
// llm/tests/scripted_llm_server wraps it for tests in other folders and scripts; gtests run it in-process.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace tilecraft::llm::testing {

struct ScriptedServerOptions {
  std::string logPath;      // each request as a JSON line, flushed as it arrives; empty: kept in memory only
  std::string tlsCertPath;  // both set: HTTPS with this PEM certificate and key
  std::string tlsKeyPath;
};

class ScriptedServer {
 public:
  // nullptr with `error` set ("SCRIPT:LINE: ...") when the script has a bad line.
  static std::unique_ptr<ScriptedServer> create(const std::string& scriptText, const std::string& scriptName,
                                                const ScriptedServerOptions& options, std::string* error);
  virtual ~ScriptedServer() = default;

  // Binds 127.0.0.1 on `port` (0: a free one) and serves on a thread. The port, or 0 with `error` set.
  virtual int start(int port, std::string* error) = 0;
  virtual void stop() = 0;  // also done by the destructor

  virtual std::vector<std::string> requestLog() const = 0;  // the JSON lines so far, in arrival order
  virtual int peakInFlight() const = 0;                     // most requests being answered at once
  virtual size_t repliesLeft() const = 0;
};

}  // namespace tilecraft::llm::testing
