#include "service/reward_server.h"

#include <future>
#include <mutex>

#include <sys/socket.h>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "service/verdict_json.h"
#include "service/work_queue.h"

namespace tilecraft::service {
namespace {

using nlohmann::json;

// How long a handler waits for a connection's request to arrive and for each read of it.
constexpr time_t kFirstByteSeconds = 30;

void sendJson(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace) + "\n", "application/json");
}

void sendError(httplib::Response& res, int status, const std::string& message) {
  sendJson(res, status, {{"error", message}});
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 9: ..." without the bracketed id.
std::string parseMessage(const json::parse_error& e) {
  std::string what = e.what();
  size_t at = what.find("] ");
  return at == std::string::npos ? what : what.substr(at + 2);
}

}  // namespace

struct RewardServer::State {
  Judge& judge;
  RewardServerOptions options;
  WorkQueue queue;
  httplib::Server http;
  mutable std::mutex statsMutex;
  RewardServerStats stats;
  std::atomic<bool> stopping{false};
  int listenSocket = -1;  // recorded by the socket-options hook, to widen the backlog after bind

  State(Judge& j, RewardServerOptions o) : judge(j), options(std::move(o)), queue(options.workers, options.queue) {}

  void count(uint64_t RewardServerStats::*field) {
    std::lock_guard<std::mutex> lock(statsMutex);
    ++(stats.*field);
  }

  void reward(const httplib::Request& req, httplib::Response& res) {
    json body;
    try {
      body = json::parse(req.body);
    } catch (const json::parse_error& e) {
      count(&RewardServerStats::badRequests);
      sendJson(res, 400, {{"error", fmt::format("invalid JSON: {}", parseMessage(e))}, {"byte", e.byte}});
      return;
    }
    JudgeRequest request;
    std::string error;
    if (!parseJudgeRequest(body.dump(), &request, &error)) {
      count(&RewardServerStats::badRequests);
      sendError(res, 400, error);
      return;
    }
    // The handler thread waits for the worker: the promise is kept exactly once, whatever the judge does.
    auto answer = std::make_shared<std::promise<std::pair<int, json>>>();
    std::future<std::pair<int, json>> answered = answer->get_future();
    WorkQueue::Load load;
    bool accepted = queue.trySubmit(
        [this, request, answer]() -> std::function<void()> {
          std::pair<int, json> reply;
          try {
            JudgeOutcome outcome = judge.judge(request);
            if (outcome.ok()) {
              reply = {200, json::parse(verdictToJson(outcome.verdict, true))};
            } else {
              reply = {400, {{"error", outcome.error}}};
            }
          } catch (const std::exception& e) {
            reply = {500, {{"error", fmt::format("internal error while judging: {}", e.what())}}};
          }
          return [answer, reply] { answer->set_value(reply); };
        },
        &load);
    if (!accepted) {
      count(&RewardServerStats::rejectedFull);
      res.set_header("Retry-After", std::to_string(options.retryAfterSeconds));
      sendJson(res, 429,
               {{"error", fmt::format("the queue is full ({} requests waiting for {} workers); retry after {} s",
                                      load.waiting, queue.workers(), options.retryAfterSeconds)},
                {"retry_after", options.retryAfterSeconds}});
      return;
    }
    count(&RewardServerStats::accepted);
    auto [status, reply] = answered.get();
    if (status == 400) count(&RewardServerStats::badRequests);
    count(&RewardServerStats::answered);
    sendJson(res, status, reply);
  }

  void health(httplib::Response& res) {
    WorkQueue::Load load = queue.load();
    RewardServerStats s;
    {
      std::lock_guard<std::mutex> lock(statsMutex);
      s = stats;
    }
    sendJson(res, 200,
             {{"status", "ok"},
              {"workers", queue.workers()},
              {"running", load.running},
              {"waiting", load.waiting},
              {"queue", queue.capacity()},
              {"accepted", s.accepted},
              {"answered", s.answered},
              {"rejected_full", s.rejectedFull},
              {"bad_requests", s.badRequests}});
  }
};

RewardServer::RewardServer(Judge& judge, RewardServerOptions options)
    : state_(std::make_unique<State>(judge, std::move(options))) {
  State* st = state_.get();
  // Handler threads wait on the judging workers; enough of them that a request beyond the queue is still read
  // and told 429 at once instead of waiting unseen in the server's backlog.
  size_t handlers = static_cast<size_t>(st->options.workers) + st->options.queue + 8;
  st->http.new_task_queue = [handlers] { return new httplib::ThreadPool(handlers); };
  st->http.set_payload_max_length(st->options.maxRequestBytes);
  // One request per connection. A judgement takes a second or more, so a new connection costs nothing against it,
  // while a kept-alive idle connection holds a handler thread, and the server closing one just as its client
  // sends the next request on it left that request without an answer (the load test saw "Read" errors under load).
  st->http.set_keep_alive_max_count(1);
  // httplib's default also sets SO_REUSEPORT, which lets a second service bind the same port and take half of the
  // connections; only SO_REUSEADDR (a restart need not wait for TIME_WAIT).
  st->http.set_socket_options([st](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    st->listenSocket = sock;
  });
  // A client whose connection waited in a full backlog sends its request late; httplib's 5 s for the first byte
  // closed such a connection unanswered (a "Read" error in the load test on a busy 2-core machine).
  st->http.set_keep_alive_timeout(kFirstByteSeconds);
  st->http.set_read_timeout(kFirstByteSeconds, 0);
  st->http.Post("/v1/reward", [st](const httplib::Request& req, httplib::Response& res) { st->reward(req, res); });
  st->http.Get("/healthz", [st](const httplib::Request&, httplib::Response& res) { st->health(res); });
  st->http.set_error_handler([st](const httplib::Request& req, httplib::Response& res) {
    if (res.status == 413) {
      sendError(res, 413, fmt::format("the request is larger than the limit of {} bytes", st->options.maxRequestBytes));
    } else if (res.status == 404) {
      sendError(res, 404, fmt::format("no such endpoint: {} {} (POST /v1/reward, GET /healthz)", req.method, req.path));
    } else if (res.body.empty()) {
      sendError(res, res.status, fmt::format("HTTP status {}", res.status));
    }
  });
}

RewardServer::~RewardServer() {
  stop();
  state_->queue.shutdown();
}

int RewardServer::bind(std::string* error) {
  State& st = *state_;
  int port = st.options.port == 0 ? st.http.bind_to_any_port(st.options.host)
                                  : (st.http.bind_to_port(st.options.host, st.options.port) ? st.options.port : -1);
  if (port < 0) {
    *error = fmt::format("cannot listen on {}:{}: the port is in use or the address is not this machine's",
                         st.options.host, st.options.port);
    return port;
  }
  // Debian's httplib is compiled with a backlog of 5: a burst of clients beyond it has its handshakes dropped and
  // retried with back-off. Calling listen again on the bound socket widens the backlog (Linux keeps the socket).
  if (st.listenSocket >= 0) ::listen(st.listenSocket, SOMAXCONN);
  return port;
}

void RewardServer::run() {
  if (!state_->stopping) state_->http.listen_after_bind();
  // listen_after_bind returns once its handler threads have finished, so every accepted request was answered.
  state_->queue.shutdown();
}

void RewardServer::stop() {
  state_->stopping = true;
  state_->http.stop();
}

RewardServerStats RewardServer::stats() const {
  std::lock_guard<std::mutex> lock(state_->statsMutex);
  return state_->stats;
}

}  // namespace tilecraft::service
