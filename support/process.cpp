// SystemProcessRunner: fork/execvp with pipes drained by poll, a process-group timeout and rlimits.
//
// The runner may be called from several threads at once (the CLI compiles and runs kernels in parallel), so
// between fork and exec the child only makes async-signal-safe calls: argv and envp are built beforehand, and
// every pipe is O_CLOEXEC so one child never holds another child's pipe open.
#include "support/process.h"
#include "support/fd.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

extern char** environ;

namespace tilecraft::support {
namespace {

using Clock = std::chrono::steady_clock;

// Once the child has exited, output still held open by something it left behind is drained for this long
// after that leftover has been killed, then abandoned.
constexpr auto kDrainAfterExit = std::chrono::seconds(1);
// Upper bound on one poll() when the kernel offers no pidfd to wake us at the child's exit.
constexpr int kPollTickMs = 10;

Pipe makePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  }
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

void setNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Builds the child's environment: the inherited one with spec.env overriding or adding entries.
std::vector<std::string> buildEnvironment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    auto eq = text.find('=');
    if (eq != std::string_view::npos && extra.count(std::string(text.substr(0, eq))) != 0) continue;
    env.emplace_back(text);
  }
  for (const auto& [name, value] : extra) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> cStrings(std::vector<std::string>& strings) {
  std::vector<char*> result;
  result.reserve(strings.size() + 1);
  for (auto& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

// What the child was doing when it failed, reported to the parent along with errno.
enum class ChildStage : int { Exec, Redirect, Workdir, Limits };

struct ChildFailure {
  ChildStage stage;
  int error;
};

// Lowers a limit only: the child may already run under a hard limit (e.g. a tilecraft run by a tilecraft with a
// timeout), and raising a hard limit is not permitted.
bool lowerLimit(int resource, rlim_t wantedSoft, rlim_t wantedHard) {
  rlimit current{};
  if (::getrlimit(resource, &current) != 0) return false;
  rlimit limit{std::min(wantedSoft, current.rlim_max), std::min(wantedHard, current.rlim_max)};
  return ::setrlimit(resource, &limit) == 0;
}

// Runs in the child after fork: only async-signal-safe calls. Reports a failure through errPipe.
[[noreturn]] void execChild(const ProcessSpec& spec, pid_t parent, char* const* argv, char* const* envp,
                            const sigset_t& mask, int stdinFd, int stdoutFd, int stderrFd, int errPipe) {
  auto fail = [errPipe](ChildStage stage) {
    ChildFailure failure{stage, errno};
    [[maybe_unused]] auto n = ::write(errPipe, &failure, sizeof failure);
    ::_exit(127);
  };
  ::setpgid(0, 0);
  // Its own group keeps the child out of the terminal's Ctrl-C, so have it die with the thread that started it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  if (::dup2(stdinFd, 0) < 0 || ::dup2(stdoutFd, 1) < 0 || ::dup2(stderrFd, 2) < 0) fail(ChildStage::Redirect);
  if (!spec.workdir.empty() && ::chdir(spec.workdir.c_str()) != 0) fail(ChildStage::Workdir);
  if (spec.memoryLimitBytes > 0 && !lowerLimit(RLIMIT_AS, spec.memoryLimitBytes, spec.memoryLimitBytes)) {
    fail(ChildStage::Limits);
  }
  if (spec.timeoutSeconds > 0) {
    // A backstop for the wall-clock timeout, in case this process outlives the parent.
    auto seconds = static_cast<rlim_t>(std::ceil(spec.timeoutSeconds)) + 1;
    if (!lowerLimit(RLIMIT_CPU, seconds, seconds + 1)) fail(ChildStage::Limits);
  }
  ::execvpe(argv[0], argv, envp);
  fail(ChildStage::Exec);
  ::_exit(127);  // not reached; keeps [[noreturn]] obvious to the compiler
}

std::string describeFailure(const ProcessSpec& spec, const ChildFailure& failure) {
  const char* reason = std::strerror(failure.error);
  switch (failure.stage) {
    case ChildStage::Exec: return fmt::format("cannot run '{}': {}", spec.argv[0], reason);
    case ChildStage::Redirect:
      return fmt::format("cannot run '{}': cannot redirect its input and output: {}", spec.argv[0], reason);
    case ChildStage::Workdir:
      return fmt::format("cannot run '{}': cannot enter working directory '{}': {}", spec.argv[0], spec.workdir,
                         reason);
    case ChildStage::Limits:
      return fmt::format("cannot run '{}': cannot set its resource limits: {}", spec.argv[0], reason);
  }
  return fmt::format("cannot run '{}': {}", spec.argv[0], reason);
}

// Blocks SIGPIPE on this thread while we write to the child's stdin, so a child that stops reading makes
// write() fail with EPIPE instead of killing us. Restores the mask and drops a SIGPIPE we caused.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipeOnly_);
    sigaddset(&pipeOnly_, SIGPIPE);
    ::pthread_sigmask(SIG_BLOCK, &pipeOnly_, &old_);
  }
  ~SigpipeBlock() {
    if (!sigismember(&old_, SIGPIPE)) {
      timespec zero{0, 0};
      sigset_t pending;
      sigpending(&pending);
      if (sigismember(&pending, SIGPIPE)) ::sigtimedwait(&pipeOnly_, nullptr, &zero);
    }
    ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;
  const sigset_t& oldMask() const { return old_; }

 private:
  sigset_t pipeOnly_;
  sigset_t old_;
};

}  // namespace

ProcessResult SystemProcessRunner::run(const ProcessSpec& spec) {
  ProcessResult result;
  if (spec.argv.empty()) {
    result.err = "cannot run a process: empty command line";
    return result;
  }
  std::vector<std::string> argvStrings = spec.argv;
  std::vector<std::string> envStrings = buildEnvironment(spec.env);
  std::vector<char*> argv = cStrings(argvStrings);
  std::vector<char*> envp = cStrings(envStrings);

  Pipe in = makePipe();
  Pipe out = makePipe();
  Pipe err = makePipe();
  Pipe execError = makePipe();
  SigpipeBlock sigpipeBlock;

  auto start = Clock::now();
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    result.err = fmt::format("cannot run '{}': fork failed: {}", spec.argv[0], std::strerror(errno));
    return result;
  }
  if (pid == 0) {
    execChild(spec, parent, argv.data(), envp.data(), sigpipeBlock.oldMask(), in.read.get(), out.write.get(),
              err.write.get(), execError.write.get());
  }
  // Also set the group here: the timeout may fire before the child gets to its own setpgid.
  ::setpgid(pid, pid);
  in.read.reset();
  out.write.reset();
  err.write.reset();
  execError.write.reset();

  ChildFailure failure{};
  if (readValue(execError.read, failure)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.err = describeFailure(spec, failure);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

  // Readable when the child exits, so poll() wakes at once even if the child closed its pipes earlier.
  Fd exitFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  Fd stdinFd = std::move(in.write);
  size_t stdinOffset = 0;
  if (spec.stdinData.empty()) stdinFd.reset();
  Fd outFd = std::move(out.read);
  Fd errFd = std::move(err.read);
  for (int fd : {stdinFd.get(), outFd.get(), errFd.get()}) {
    if (fd >= 0) setNonBlocking(fd);
  }

  const bool hasTimeout = spec.timeoutSeconds > 0;
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(hasTimeout ? spec.timeoutSeconds : 0));
  bool reaped = false;
  int status = 0;
  Clock::time_point drainDeadline{};
  bool leftoversKilled = false;
  char buffer[65536];

  while (true) {
    if (!reaped) {
      pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) {
        reaped = true;
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        stdinFd.reset();
      }
    }
    bool pipesOpen = outFd.valid() || errFd.valid();
    if (reaped && !pipesOpen) break;
    auto now = Clock::now();
    if (reaped) {
      // Something the child started still holds its output open: it shares the group, so end it.
      if (!leftoversKilled) {
        ::kill(-pid, SIGKILL);
        leftoversKilled = true;
        drainDeadline = now + kDrainAfterExit;
      } else if (now >= drainDeadline) {
        break;
      }
    } else if (hasTimeout && !result.timedOut && now >= deadline) {
      ::kill(-pid, SIGKILL);
      result.timedOut = true;
    }

    auto millisUntil = [now](Clock::time_point t) {
      auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - now).count();
      return std::max(0LL, static_cast<long long>(ms) + 1);
    };
    long long waitMs = reaped ? millisUntil(drainDeadline) : exitFd.valid() ? -1 : kPollTickMs;
    if (hasTimeout && !result.timedOut && !reaped) {
      waitMs = waitMs < 0 ? millisUntil(deadline) : std::min(waitMs, millisUntil(deadline));
    }
    pollfd fds[4];
    nfds_t count = 0;
    if (exitFd.valid() && !reaped) fds[count++] = pollfd{exitFd.get(), POLLIN, 0};
    for (int fd : {outFd.get(), errFd.get()}) {
      if (fd >= 0) fds[count++] = pollfd{fd, POLLIN, 0};
    }
    if (stdinFd.valid()) fds[count++] = pollfd{stdinFd.get(), POLLOUT, 0};
    if (::poll(fds, count, static_cast<int>(std::max(waitMs, -1LL))) < 0 && errno != EINTR) {
      throw std::runtime_error(fmt::format("poll failed: {}", std::strerror(errno)));
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (fds[i].revents == 0 || fds[i].fd == exitFd.get()) continue;
      if (fds[i].fd == stdinFd.get()) {
        ssize_t w = ::write(stdinFd.get(), spec.stdinData.data() + stdinOffset, spec.stdinData.size() - stdinOffset);
        if (w > 0) stdinOffset += static_cast<size_t>(w);
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || stdinOffset == spec.stdinData.size()) stdinFd.reset();
        continue;
      }
      Fd& source = fds[i].fd == outFd.get() ? outFd : errFd;
      std::string& sink = fds[i].fd == outFd.get() ? result.out : result.err;
      ssize_t r = ::read(source.get(), buffer, sizeof buffer);
      if (r > 0) {
        sink.append(buffer, static_cast<size_t>(r));
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        source.reset();
      }
    }
  }

  if (WIFEXITED(status)) {
    result.exitCode = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.termSignal = WTERMSIG(status);
  }
  return result;
}

}  // namespace tilecraft::support
