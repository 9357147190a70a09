// A load generator for the reward service: `requests` POSTs to /v1/reward from `concurrency` client threads on
// loopback, each answer recorded (status, Retry-After, body, latency). The load test (service/tests) and the
// benchmark (bench/serve_bench) both drive the service through it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

namespace tilecraft::service {

struct LoadAnswer {
  size_t request = 0;  // index into the bodies
  int status = 0;      // 0: no answer (the connection failed: `error` says how)
  std::string error;
  std::string retryAfter;
  std::string body;
  double seconds = 0;  // from sending to the whole answer
  int attempts = 1;    // with retryOn429: how many POSTs it took
};

struct LoadOptions {
  std::string host = "127.0.0.1";
  int port = 0;
  int concurrency = 8;
  bool retryOn429 = false;  // wait Retry-After and send again, until answered otherwise
  double timeoutSeconds = 600;
};

// Sends bodies[i] for every i (each exactly once, or once per 429 with retryOn429); the answers in request order.
std::vector<LoadAnswer> sendLoad(const std::vector<std::string>& bodies, const LoadOptions& options);

// The p-th percentile (0..100) of `values` by the nearest-rank rule; 0 when empty.
double percentile(std::vector<double> values, double p);

// A child process with stdin and stdout on pipes (stderr inherited): how the conformance test, the load test and the
// benchmark start `tilecraft mcp` and `tilecraft serve`.
class ChildProcess {
 public:
  explicit ChildProcess(const std::vector<std::string>& argv);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // SIGKILL if still running, then reaped

  bool writeLine(const std::string& line);
  // One line of its stdout without the newline; false at EOF or after `timeoutSeconds`.
  bool readLine(std::string* line, double timeoutSeconds);
  void closeInput();
  void signal(int sig);
  // Its exit status, or 128 + the signal that ended it.
  int wait();
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  std::string buffer_;
  int status_ = -1;
};

}  // namespace tilecraft::service
