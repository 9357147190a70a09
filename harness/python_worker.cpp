// LineWorker: the child shares one Unix socket pair end as stdin and stdout, so a write to a dead child fails
// with EPIPE (send with MSG_NOSIGNAL) instead of raising SIGPIPE in the harness.
#include "harness/python_worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

namespace tilecraft::harness {
namespace {

using Clock = std::chrono::steady_clock;

std::string describeStatus(int status) {
  if (WIFEXITED(status)) return fmt::format("exit status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return fmt::format("wait status {}", status);
}

}  // namespace

LineWorker::LineWorker(std::vector<std::string> argv, std::filesystem::path logFile)
    : argv_(std::move(argv)), logFile_(std::move(logFile)) {}

LineWorker::~LineWorker() { stop(); }

LineReply LineWorker::start(double timeoutSeconds) {
  stop();
  buffer_.clear();
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return {false, "", false, fmt::format("cannot create a socket pair: {}", std::strerror(errno))};
  }
  int log = ::open(logFile_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) {
    ::close(sv[0]);
    ::close(sv[1]);
    return {false, "", false, fmt::format("cannot write {}: {}", logFile_.string(), std::strerror(errno))};
  }
  std::vector<char*> args;
  for (std::string& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    // Only async-signal-safe calls until exec.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(sv[1], 0);
    ::dup2(sv[1], 1);
    ::dup2(log, 2);
    ::execv(args[0], args.data());
    const char msg[] = "cannot exec the golden worker's interpreter\n";
    ssize_t ignored = ::write(2, msg, sizeof msg - 1);
    (void)ignored;
    ::_exit(127);
  }
  ::close(sv[1]);
  ::close(log);
  if (pid < 0) {
    ::close(sv[0]);
    return {false, "", false, fmt::format("cannot fork: {}", std::strerror(errno))};
  }
  ::setpgid(pid, pid);  // also from the parent, so a kill right after fork reaches the group
  pid_ = pid;
  fd_ = sv[0];
  return readLine(timeoutSeconds);
}

LineReply LineWorker::request(const std::string& line, double timeoutSeconds) {
  if (!running()) return {false, "", false, "not running"};
  std::string data = line + "\n";
  size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {false, "", false, reap()};
    sent += static_cast<size_t>(n);
  }
  return readLine(timeoutSeconds);
}

LineReply LineWorker::readLine(double timeoutSeconds) {
  auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeoutSeconds));
  while (true) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      LineReply r{true, buffer_.substr(0, nl), false, ""};
      buffer_.erase(0, nl + 1);
      return r;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      LineReply r{false, "", true, ""};
      stop();
      r.failure = "timed out";
      return r;
    }
    pollfd p{fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char chunk[65536];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return {false, "", false, reap()};
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

// The child closed its end: collect how it ended.
std::string LineWorker::reap() {
  if (!running()) return "not running";
  pid_t pid = pid_;
  int status = 0;
  // It may still be exiting; give it a moment before forcing it.
  for (int i = 0; i < 200; ++i) {
    pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      ::kill(-pid, SIGKILL);  // anything it left in its group
      ::close(fd_);
      fd_ = -1;
      pid_ = -1;
      return describeStatus(status);
    }
    ::usleep(10000);
  }
  stop();
  return "closed its output and was killed";
}

void LineWorker::stop() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
}

std::string LineWorker::stderrTail(int n) const {
  std::ifstream in(logFile_);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  std::ostringstream out;
  size_t from = lines.size() > static_cast<size_t>(n) ? lines.size() - static_cast<size_t>(n) : 0;
  for (size_t i = from; i < lines.size(); ++i) out << (i > from ? "\n" : "") << lines[i];
  return out.str();
}

}  // namespace tilecraft::harness
