#include "service/load_client.h"

#include <algorithm>
#include <cerrno>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <httplib.h>

namespace tilecraft::service {

std::vector<LoadAnswer> sendLoad(const std::vector<std::string>& bodies, const LoadOptions& options) {
  std::vector<LoadAnswer> answers(bodies.size());
  std::atomic<size_t> next{0};
  auto client = [&] {
    httplib::Client http(options.host, options.port);
    auto timeout = std::chrono::duration<double>(options.timeoutSeconds);
    http.set_read_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
    http.set_write_timeout(std::chrono::seconds(30));
    for (size_t i = next++; i < bodies.size(); i = next++) {
      LoadAnswer& a = answers[i];
      a.request = i;
      auto start = std::chrono::steady_clock::now();
      for (a.attempts = 1;; ++a.attempts) {
        httplib::Result res = http.Post("/v1/reward", bodies[i], "application/json");
        if (!res) {
          a.error = httplib::to_string(res.error());
          break;
        }
        a.status = res->status;
        a.body = res->body;
        a.retryAfter = res->get_header_value("Retry-After");
        if (a.status != 429 || !options.retryOn429) break;
        int wait = std::max(1, std::atoi(a.retryAfter.c_str()));
        std::this_thread::sleep_for(std::chrono::seconds(wait));
      }
      a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, options.concurrency); ++t) threads.emplace_back(client);
  for (std::thread& t : threads) t.join();
  return answers;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
  size_t index = static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
  return values[index];
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  int toChild[2], fromChild[2];
  if (::pipe2(toChild, O_CLOEXEC) != 0 || ::pipe2(fromChild, O_CLOEXEC) != 0) return;
  pid_ = ::fork();
  if (pid_ == 0) {
    ::dup2(toChild[0], 0);
    ::dup2(fromChild[1], 1);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(toChild[0]);
  ::close(fromChild[1]);
  in_ = toChild[1];
  out_ = fromChild[0];
}

ChildProcess::~ChildProcess() {
  closeInput();
  if (status_ < 0 && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    wait();
  }
  if (out_ >= 0) ::close(out_);
}

bool ChildProcess::writeLine(const std::string& line) {
  std::string data = line + "\n";
  size_t done = 0;
  while (in_ >= 0 && done < data.size()) {
    ssize_t n = ::write(in_, data.data() + done, data.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return done == data.size();
}

bool ChildProcess::readLine(std::string* line, double timeoutSeconds) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
  for (;;) {
    size_t end = buffer_.find('\n');
    if (end != std::string::npos) {
      *line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      return true;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{out_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[4096];
    ssize_t n = ::read(out_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

void ChildProcess::closeInput() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

void ChildProcess::signal(int sig) {
  if (pid_ > 0 && status_ < 0) ::kill(pid_, sig);
}

int ChildProcess::wait() {
  if (status_ >= 0 || pid_ <= 0) return status_;
  int raw = 0;
  while (::waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
  }
  status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  return status_;
}

}  // namespace tilecraft::service
