// The one place that talks HTTP(S): a POST with a JSON body, its reply streamed to a callback or collected, and
// every way it can fail named. Behind an interface so the client's logic is tested without sockets; the real one
// (cpp-httplib with OpenSSL) is tested against the scripted server on loopback.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilecraft::llm {

struct HttpPost {
  std::string url;  // scheme://host[:port]/path, e.g. https://api.deepseek.com/v1/chat/completions
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Connect, send and wait-for-the-next-byte limit, and the limit on the whole exchange.
  std::chrono::milliseconds timeout{600'000};
  std::string caCertPath;  // PEM bundle to verify an https server with; empty: the system's store
  // When set, the body of a 2xx reply is handed over here as it arrives (not kept in HttpReply::body); false
  // stops reading. Error replies are always collected in HttpReply::body.
  std::function<bool(std::string_view)> onBodyChunk;
};

enum class HttpFailure {
  None,       // a complete reply, whatever its status
  Connect,    // no connection (refused, unreachable, bad host)
  Tls,        // TLS handshake or certificate verification failed
  Timeout,    // nothing within HttpPost::timeout
  Cut,        // the connection ended before the reply did
  Cancelled,  // onBodyChunk returned false
  BadUrl,     // the URL is not http(s)://host[:port]/path
};

struct HttpReply {
  HttpFailure failure = HttpFailure::None;
  std::string failureMessage;                  // what went wrong, for the user ("connection refused by 127.0.0.1:8000")
  int status = 0;                              // 0 when no status line arrived
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  size_t bodyBytes = 0;  // bytes of body received, streamed ones included
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Safe to call from several threads at once.
  virtual HttpReply post(const HttpPost& request) = 0;
};

// cpp-httplib's client; https URLs go through its OpenSSL client with certificate and host name verification.
// A new connection per request: a chat completion takes seconds, and nothing is shared between threads.
class HttplibTransport final : public HttpTransport {
 public:
  HttpReply post(const HttpPost& request) override;
};

// A transport for tests: records every request and answers with scripted replies in call order; a reply's body
// is delivered to onBodyChunk in `chunks` pieces when they are given (so a stream can be cut between them).
class FakeHttpTransport final : public HttpTransport {
 public:
  struct Scripted {
    HttpReply reply;
    std::vector<std::string> chunks;  // for a 2xx reply to a streaming request; empty: reply.body in one piece
  };
  void push(Scripted scripted);
  void push(int status, std::string body, std::map<std::string, std::string> headers = {});
  void pushFailure(HttpFailure failure, std::string message);

  HttpReply post(const HttpPost& request) override;  // with nothing scripted: a Connect failure saying so
  std::vector<HttpPost> requests() const;

 private:
  mutable std::mutex mutex_;
  std::deque<Scripted> queued_;
  std::vector<HttpPost> requests_;
};

// "https://host:8443/v1" -> {"https://host:8443", "/v1"}; false when the scheme is not http or https or there is
// no host. A trailing '/' is dropped from the path.
bool splitBaseUrl(std::string_view url, std::string& schemeHostPort, std::string& path);

}  // namespace tilecraft::llm
