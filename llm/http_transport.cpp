#include "llm/http_transport.h"

#include <httplib.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tilecraft::llm {

bool splitBaseUrl(std::string_view url, std::string& schemeHostPort, std::string& path) {
  size_t schemeEnd = url.find("://");
  if (schemeEnd == std::string_view::npos) return false;
  std::string_view scheme = url.substr(0, schemeEnd);
  if (scheme != "http" && scheme != "https") return false;
  size_t hostStart = schemeEnd + 3;
  size_t pathStart = url.find('/', hostStart);
  if (pathStart == std::string_view::npos) pathStart = url.size();
  std::string_view hostPort = url.substr(hostStart, pathStart - hostStart);
  if (hostPort.empty() || hostPort.front() == ':' || hostPort.find_first_of("?#@ ") != std::string_view::npos) {
    return false;
  }
  schemeHostPort = std::string(url.substr(0, pathStart));
  path = std::string(url.substr(pathStart));
  while (!path.empty() && path.back() == '/') path.pop_back();
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

}  // namespace

HttpReply HttplibTransport::post(const HttpPost& request) {
  HttpReply reply;
  std::string schemeHostPort;
  std::string basePath;
  if (!splitBaseUrl(request.url, schemeHostPort, basePath)) {
    reply.failure = HttpFailure::BadUrl;
    reply.failureMessage = fmt::format("'{}' is not an http:// or https:// URL with a host", request.url);
    return reply;
  }
  httplib::Client client(schemeHostPort);
  if (!client.is_valid()) {
    reply.failure = HttpFailure::BadUrl;
    reply.failureMessage = fmt::format("cannot make a client for '{}'", schemeHostPort);
    return reply;
  }
  auto seconds = std::chrono::duration_cast<std::chrono::microseconds>(request.timeout);
  client.set_connection_timeout(seconds);
  client.set_read_timeout(seconds);
  client.set_write_timeout(seconds);
  client.set_keep_alive(false);
  client.set_follow_location(false);
  client.enable_server_certificate_verification(true);
  if (!request.caCertPath.empty()) client.set_ca_cert_path(request.caCertPath);

  httplib::Request req;
  req.method = "POST";
  req.path = request.url.substr(schemeHostPort.size());
  if (req.path.empty()) req.path = "/";
  for (const auto& [name, value] : request.headers) req.headers.emplace(name, value);
  req.body = request.body;

  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline = start + request.timeout;
  Clock::time_point lastByte = start;
  bool pastDeadline = false;
  req.response_handler = [&](const httplib::Response& res) {
    reply.status = res.status;
    for (const auto& [name, value] : res.headers) reply.headers[lower(name)] = value;
    return true;
  };
  req.content_receiver = [&](const char* data, size_t length, uint64_t, uint64_t) {
    lastByte = Clock::now();
    if (lastByte > deadline) {
      pastDeadline = true;
      return false;
    }
    reply.bodyBytes += length;
    if (request.onBodyChunk && reply.status >= 200 && reply.status < 300) {
      return request.onBodyChunk(std::string_view(data, length));
    }
    reply.body.append(data, length);
    return true;
  };

  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  bool sent = client.send(req, res, error);
  if (sent && error == httplib::Error::Success) {
    reply.status = res.status;
    return reply;
  }
  const std::string where = schemeHostPort;
  const double limit = std::chrono::duration<double>(request.timeout).count();
  // httplib reports a read timeout and a closed connection alike (Error::Read): the silence tells them apart.
  const bool silentTooLong = Clock::now() - lastByte >= request.timeout - std::chrono::milliseconds(50);
  switch (error) {
    case httplib::Error::Connection:
      reply.failure = HttpFailure::Connect;
      reply.failureMessage = fmt::format("cannot connect to {} (is the server running?)", where);
      break;
    case httplib::Error::ConnectionTimeout:
      reply.failure = HttpFailure::Timeout;
      reply.failureMessage = fmt::format("no connection to {} within the {} s timeout", where, limit);
      break;
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLLoadingCerts:
    case httplib::Error::SSLServerVerification: {
      const char* what = error == httplib::Error::SSLServerVerification ? "the server's certificate did not verify"
                         : error == httplib::Error::SSLLoadingCerts     ? "the CA certificates could not be loaded"
                                                                        : "the TLS handshake failed";
      reply.failure = HttpFailure::Tls;
      reply.failureMessage =
          request.caCertPath.empty()
              ? fmt::format(
                    "TLS with {} failed: {} against the system's CA store (for a private CA, set ca_cert "
                    "to its PEM file)",
                    where, what)
              : fmt::format("TLS with {} failed: {} against ca_cert {}", where, what, request.caCertPath);
      break;
    }
    case httplib::Error::Canceled:
      if (pastDeadline) {
        reply.failure = HttpFailure::Timeout;
        reply.failureMessage = fmt::format("the reply from {} took longer than the {} s timeout", where, limit);
      } else {
        reply.failure = HttpFailure::Cancelled;
        reply.failureMessage = fmt::format("reading the reply from {} was stopped", where);
      }
      break;
    default:
      if (silentTooLong) {
        reply.failure = HttpFailure::Timeout;
        reply.failureMessage = fmt::format("{} sent nothing for the {} s timeout", where, limit);
      } else {
        reply.failure = HttpFailure::Cut;
        reply.failureMessage = reply.status == 0
                                   ? fmt::format("{} closed the connection before replying", where)
                                   : fmt::format("{} closed the connection after {} bytes of the reply (HTTP {})",
                                                 where, reply.bodyBytes, reply.status);
      }
      break;
  }
  return reply;
}

void FakeHttpTransport::push(Scripted scripted) {
  std::lock_guard lock(mutex_);
  queued_.push_back(std::move(scripted));
}

void FakeHttpTransport::push(int status, std::string body, std::map<std::string, std::string> headers) {
  Scripted scripted;
  scripted.reply.status = status;
  scripted.reply.body = std::move(body);
  scripted.reply.headers = std::move(headers);
  push(std::move(scripted));
}

void FakeHttpTransport::pushFailure(HttpFailure failure, std::string message) {
  Scripted scripted;
  scripted.reply.failure = failure;
  scripted.reply.failureMessage = std::move(message);
  push(std::move(scripted));
}

HttpReply FakeHttpTransport::post(const HttpPost& request) {
  Scripted scripted;
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    if (queued_.empty()) {
      HttpReply none;
      none.failure = HttpFailure::Connect;
      none.failureMessage = fmt::format("FakeHttpTransport: no scripted reply left for request {}", requests_.size());
      return none;
    }
    scripted = std::move(queued_.front());
    queued_.pop_front();
  }
  HttpReply reply = std::move(scripted.reply);
  bool ok2xx = reply.status >= 200 && reply.status < 300;
  if (!request.onBodyChunk || !ok2xx) {
    for (const std::string& chunk : scripted.chunks) reply.body += chunk;
    reply.bodyBytes = reply.body.size();
    return reply;
  }
  if (scripted.chunks.empty() && !reply.body.empty()) scripted.chunks.push_back(reply.body);
  reply.body.clear();
  for (const std::string& chunk : scripted.chunks) {
    reply.bodyBytes += chunk.size();
    if (!request.onBodyChunk(chunk)) {
      reply.failure = HttpFailure::Cancelled;
      reply.failureMessage = "reading the reply was stopped";
      break;
    }
  }
  return reply;
}

std::vector<HttpPost> FakeHttpTransport::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

}  // namespace tilecraft::llm
