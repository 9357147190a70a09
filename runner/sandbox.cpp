// The system sandbox: bubblewrap around the child, a pids cgroup around bubblewrap, rlimits set before exec.
//
// Not support::SystemProcessRunner: that one inherits the caller's environment and descriptors it should not,
// has no file-size or process limits, keeps all output, and cannot hand the child the verdict channel's
// descriptors. The pattern is the same (pipes drained by poll, a pidfd to wake at the exit, only
// async-signal-safe calls between fork and exec, every descriptor O_CLOEXEC unless the child is meant to have
// it).
//
// Processes are limited with a pids cgroup (v1 /sys/fs/cgroup/pids, or a cgroup2 folder with the pids
// controller) when one is writable: the kernel refuses the fork, for root too. The PID namespace does the
// rest: when the program's first process ends, bubblewrap's init ends and the kernel kills everything left in
// the namespace, setsid daemons included; a wall-clock timeout kills bubblewrap and its init (the "child-pid" it
// reports).
//
// A sandboxed child stays in its caller's process group. A signal to that group (Ctrl-C, `kill -- -PGID`, a
// batch system stopping a job) then reaches bubblewrap and its init at once. In a group of their own they were
// reached only through --die-with-parent, and bubblewrap 0.8 arms that in its init only after clone(): a caller
// killed in that window left the init waiting forever for a parent that was gone. An unsandboxed child
// (--no-sandbox, trusted code) gets a group of its own, which is how its children are killed.
#include "runner/sandbox.h"
#include "support/files.h"
#include "support/fd.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include <fmt/format.h>

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kStatusFd = 102;  // bubblewrap's --json-status-fd in the child
// The emulator runs each core on a thread and the pids controller counts threads: this much room is added to
// Limits::maxProcesses (48 blocks of MIX mode hold 144 cores).
constexpr int kThreadAllowance = 200;
constexpr uint64_t kChannelCap = 64ull << 20;
constexpr auto kDrainAfterExit = std::chrono::seconds(1);

using support::Fd;
using support::Pipe;

Pipe makePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
  }
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

std::vector<char*> cStrings(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (auto& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

bool writeText(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return static_cast<bool>(out);
}

// A pids cgroup of its own for one run: created before the fork, entered by the child before exec, emptied
// and removed afterwards.
class PidsCgroup {
 public:
  explicit PidsCgroup(int maxTasks) {
    static std::atomic<uint64_t> counter{0};
    std::string name = fmt::format("tilecraft-{}-{}", ::getpid(), counter++);
    for (const char* base : {"/sys/fs/cgroup/pids", "/sys/fs/cgroup"}) {
      fs::path dir = fs::path(base) / name;
      std::error_code ec;
      if (!fs::is_directory(base, ec) || !fs::create_directory(dir, ec) || ec) continue;
      if (fs::exists(dir / "pids.max") && writeText(dir / "pids.max", std::to_string(maxTasks))) {
        procs_ = Fd(::open((dir / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC));
        if (procs_.valid()) {
          dir_ = dir;
          return;
        }
      }
      ::rmdir(dir.c_str());
    }
  }
  ~PidsCgroup() {
    if (dir_.empty()) return;
    procs_.reset();
    for (int attempt = 0; attempt < 200; ++attempt) {
      killAll();
      if (::rmdir(dir_.c_str()) == 0 || errno != EBUSY) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  PidsCgroup(const PidsCgroup&) = delete;
  PidsCgroup& operator=(const PidsCgroup&) = delete;

  bool active() const { return !dir_.empty(); }
  int procsFd() const { return procs_.get(); }
  void killAll() const {
    if (dir_.empty()) return;
    std::istringstream pids(support::readFile(dir_ / "cgroup.procs").value_or(""));
    for (long pid; pids >> pid;) ::kill(static_cast<pid_t>(pid), SIGKILL);
  }
  bool limitHit() const {
    if (dir_.empty()) return false;
    std::istringstream events(support::readFile(dir_ / "pids.events").value_or(""));
    std::string key;
    for (uint64_t count; events >> key >> count;) {
      if (key == "max" && count > 0) return true;
    }
    return false;
  }

 private:
  fs::path dir_;
  Fd procs_;
};

enum class ChildStage : int { Exec, Redirect, Workdir, Limits, Cgroup };
struct ChildFailure {
  ChildStage stage;
  int error;
};

// Lowers a limit only (raising a hard limit is not permitted). The hard limit sits one above the soft one, so
// RLIMIT_CPU sends SIGXCPU before the kernel's SIGKILL.
bool lowerLimit(int resource, uint64_t wanted, uint64_t hardExtra = 0) {
  if (wanted == 0) return true;
  rlimit current{};
  if (::getrlimit(resource, &current) != 0) return false;
  rlimit limit{std::min(static_cast<rlim_t>(wanted), current.rlim_max),
               std::min(static_cast<rlim_t>(wanted + hardExtra), current.rlim_max)};
  return ::setrlimit(resource, &limit) == 0;
}

// Marks the descriptors first..last close-on-exec. close_range is one call; the loop is for kernels before 5.11.
bool markCloseOnExec(unsigned first, unsigned last) {
  if (::close_range(first, last, CLOSE_RANGE_CLOEXEC) == 0) return true;
  if (errno != ENOSYS && errno != EINVAL) return false;
  rlimit open{};
  if (::getrlimit(RLIMIT_NOFILE, &open) != 0) return false;
  for (rlim_t fd = first; fd < open.rlim_cur && fd <= last; ++fd) {
    int flags = ::fcntl(int(fd), F_GETFD);
    if (flags >= 0) ::fcntl(int(fd), F_SETFD, flags | FD_CLOEXEC);
  }
  return true;
}

// bubblewrap's init, in this PID namespace: the "child-pid" it writes on its status descriptor once it has
// cloned it; 0 before that.
pid_t sandboxInit(const std::string& status) {
  size_t at = status.find("\"child-pid\"");
  if (at == std::string::npos) return 0;
  at = status.find(':', at);
  if (at == std::string::npos) return 0;
  long pid = std::strtol(status.c_str() + at + 1, nullptr, 10);
  return pid > 1 ? static_cast<pid_t>(pid) : 0;
}

struct ChildFds {
  int devNull, out, err, execError, status, report, nonce, cgroupProcs;
};

// After fork: async-signal-safe calls only.
[[noreturn]] void execChild(const SandboxSpec& spec, bool sandboxed, pid_t parent, char* const* argv, char* const* envp,
                            const ChildFds& fds, uint64_t cpuSeconds) {
  auto fail = [&](ChildStage stage) {
    ChildFailure failure{stage, errno};
    [[maybe_unused]] auto n = ::write(fds.execError, &failure, sizeof failure);
    ::_exit(127);
  };
  if (!sandboxed) ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  if (fds.cgroupProcs >= 0 && ::write(fds.cgroupProcs, "0", 1) != 1) fail(ChildStage::Cgroup);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  // Onto fixed numbers: first out of the way (above 200, close-on-exec), then into place without
  // close-on-exec.
  const int sources[3] = {fds.report, fds.nonce, fds.status};
  const int targets[3] = {kReportFd, kNonceFd, kStatusFd};
  int moved[3] = {-1, -1, -1};
  for (int i = 0; i < 3; ++i) {
    if (sources[i] >= 0 && (moved[i] = ::fcntl(sources[i], F_DUPFD_CLOEXEC, 200)) < 0) fail(ChildStage::Redirect);
  }
  for (int i = 0; i < 3; ++i) {
    if (moved[i] >= 0 && ::dup2(moved[i], targets[i]) < 0) fail(ChildStage::Redirect);
  }
  if (::dup2(fds.devNull, 0) < 0 || ::dup2(fds.out, 1) < 0 || ::dup2(fds.err, 2) < 0) fail(ChildStage::Redirect);
  // Whatever else this process holds (descriptors its own parent left open without close-on-exec: a CI log,
  // a terminal) must not reach the program: it could write to host files through them.
  static_assert(kNonceFd == kReportFd + 1 && kStatusFd == kReportFd + 2);
  if (!markCloseOnExec(3, kReportFd - 1) || !markCloseOnExec(kStatusFd + 1, ~0u)) fail(ChildStage::Redirect);
  const std::string& cwd = spec.cwd.empty() ? spec.workDir : spec.cwd;
  if (!sandboxed && !cwd.empty() && ::chdir(cwd.c_str()) != 0) fail(ChildStage::Workdir);
  const Limits& limits = spec.limits;
  if (!lowerLimit(RLIMIT_AS, limits.addressSpaceBytes) || !lowerLimit(RLIMIT_FSIZE, limits.fileSizeBytes) ||
      !lowerLimit(RLIMIT_CPU, cpuSeconds, 1)) {
    fail(ChildStage::Limits);
  }
  rlimit noCore{0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);
  ::execvpe(argv[0], argv, envp);
  fail(ChildStage::Exec);
  ::_exit(127);
}

std::string describeFailure(const std::string& program, const ChildFailure& failure, bool sandboxed) {
  const char* reason = std::strerror(failure.error);
  switch (failure.stage) {
    case ChildStage::Exec:
      if (sandboxed && failure.error == ENOENT) {
        return "cannot start the sandbox: bubblewrap (bwrap) is not installed; install the Debian package "
               "'bubblewrap', or rerun with --no-sandbox (no isolation: trusted code only)";
      }
      return fmt::format("cannot run '{}': {}", program, reason);
    case ChildStage::Redirect:
      return fmt::format("cannot run '{}': cannot redirect its input and output: {}", program, reason);
    case ChildStage::Workdir: return fmt::format("cannot run '{}': cannot enter its work folder: {}", program, reason);
    case ChildStage::Limits: return fmt::format("cannot run '{}': cannot set its resource limits: {}", program, reason);
    case ChildStage::Cgroup:
      return fmt::format("cannot run '{}': cannot enter its process-limit cgroup: {}", program, reason);
  }
  return fmt::format("cannot run '{}': {}", program, reason);
}

// The top-level folders of a merged-/usr system are symlinks into /usr; elsewhere they are folders.
void addSystemFolder(std::vector<std::string>& argv, const std::string& path) {
  std::error_code ec;
  auto status = fs::symlink_status(path, ec);
  if (ec || !fs::exists(status)) return;
  if (fs::is_symlink(status)) {
    argv.insert(argv.end(), {"--symlink", fs::read_symlink(path, ec).string(), path});
  } else if (fs::is_directory(status)) {
    argv.insert(argv.end(), {"--ro-bind", path, path});
  }
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  return (ec ? fs::path(path) : p).lexically_normal().string();
}

class SystemSandbox final : public Sandbox {
 public:
  SystemSandbox(SandboxMode mode, std::string bwrap) : mode_(mode), bwrap_(std::move(bwrap)) {}
  SandboxResult run(const SandboxSpec& spec) override;

 private:
  SandboxMode mode_;
  std::string bwrap_;
};

SandboxResult SystemSandbox::run(const SandboxSpec& spec) {
  SandboxResult result;
  if (spec.argv.empty()) {
    result.startError = "cannot run a program: empty command line";
    return result;
  }
  const bool sandboxed = mode_ == SandboxMode::Bubblewrap;
  std::vector<std::string> argvStrings = sandboxed ? bubblewrapArgv(spec) : spec.argv;
  if (sandboxed) argvStrings[0] = bwrap_;
  std::vector<std::string> envStrings;
  for (const auto& [name, value] : spec.env) envStrings.push_back(name + "=" + value);
  std::vector<char*> argv = cStrings(argvStrings);
  std::vector<char*> envp = cStrings(envStrings);

  const Limits& limits = spec.limits;
  uint64_t cpuSeconds = limits.cpuSeconds > 0    ? static_cast<uint64_t>(std::ceil(limits.cpuSeconds))
                        : limits.wallSeconds > 0 ? static_cast<uint64_t>(std::ceil(limits.wallSeconds)) + 1
                                                 : 0;
  PidsCgroup cgroup(limits.maxProcesses + kThreadAllowance);
  Fd devNull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  Pipe out = makePipe(), err = makePipe(), execError = makePipe();
  Pipe status, report, nonce;
  if (sandboxed) status = makePipe();
  if (spec.reportChannel) {
    report = makePipe();
    nonce = makePipe();
    // Small enough for the pipe's buffer: written now, read once by the emulator at start-up.
    std::string text = spec.nonce + "\n";
    if (::write(nonce.write.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      throw std::runtime_error(fmt::format("cannot write the run's nonce: {}", std::strerror(errno)));
    }
    nonce.write.reset();
  }
  ChildFds fds{devNull.get(),      out.write.get(),    err.write.get(),  execError.write.get(),
               status.write.get(), report.write.get(), nonce.read.get(), cgroup.procsFd()};

  auto start = Clock::now();
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    result.startError = fmt::format("cannot run '{}': fork failed: {}", spec.argv[0], std::strerror(errno));
    return result;
  }
  if (pid == 0) execChild(spec, sandboxed, parent, argv.data(), envp.data(), fds, cpuSeconds);
  if (!sandboxed) ::setpgid(pid, pid);
  for (Fd* fd : {&out.write, &err.write, &execError.write, &status.write, &report.write, &nonce.read}) fd->reset();

  ChildFailure failure{};
  if (readValue(execError.read, failure)) {
    int ignored = 0;
    ::waitpid(pid, &ignored, 0);
    result.startError = describeFailure(spec.argv[0], failure, sandboxed);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

  Fd exitFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  struct Stream {
    Fd fd;
    CappedOutput capped;
    std::string* plain;  // uncapped sink (status, channel) when set
  };
  std::string statusText;
  Stream streams[4] = {{std::move(out.read), CappedOutput(limits.outputCapBytes), nullptr},
                       {std::move(err.read), CappedOutput(limits.outputCapBytes), nullptr},
                       {std::move(status.read), CappedOutput(0), &statusText},
                       {std::move(report.read), CappedOutput(0), &result.channel}};
  for (Stream& s : streams) {
    if (s.fd.valid()) ::fcntl(s.fd.get(), F_SETFL, ::fcntl(s.fd.get(), F_GETFL) | O_NONBLOCK);
  }
  const bool hasTimeout = limits.wallSeconds > 0;
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits.wallSeconds));
  bool reaped = false;
  int waitStatus = 0;
  Clock::time_point drainDeadline{};
  bool leftoversKilled = false;
  char buffer[65536];
  auto killEverything = [&] {
    ::kill(pid, SIGKILL);
    if (!sandboxed) {
      ::kill(-pid, SIGKILL);
    } else if (pid_t init = sandboxInit(statusText); init > 0) {
      ::kill(init, SIGKILL);
    }
    cgroup.killAll();
  };

  while (true) {
    if (!reaped && ::waitpid(pid, &waitStatus, WNOHANG) == pid) {
      reaped = true;
      result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    }
    bool open = std::any_of(std::begin(streams), std::end(streams), [](const Stream& s) { return s.fd.valid(); });
    if (reaped && !open) break;
    auto now = Clock::now();
    if (reaped) {
      if (!leftoversKilled) {
        killEverything();  // whatever still holds a pipe open outlived the program
        leftoversKilled = true;
        drainDeadline = now + kDrainAfterExit;
      } else if (now >= drainDeadline) {
        break;
      }
    } else if (hasTimeout && !result.timedOut && now >= deadline) {
      killEverything();
      result.timedOut = true;
    }
    auto millisUntil = [now](Clock::time_point t) {
      return std::max(
          0LL, static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(t - now).count()) + 1);
    };
    long long waitMs = reaped ? millisUntil(drainDeadline) : exitFd.valid() ? -1 : 10;
    if (hasTimeout && !result.timedOut && !reaped) {
      waitMs = waitMs < 0 ? millisUntil(deadline) : std::min(waitMs, millisUntil(deadline));
    }
    pollfd pfds[5];
    Stream* owners[5] = {};
    nfds_t count = 0;
    if (exitFd.valid() && !reaped) pfds[count++] = pollfd{exitFd.get(), POLLIN, 0};
    for (Stream& s : streams) {
      if (!s.fd.valid()) continue;
      owners[count] = &s;
      pfds[count++] = pollfd{s.fd.get(), POLLIN, 0};
    }
    if (::poll(pfds, count, static_cast<int>(std::max(waitMs, -1LL))) < 0 && errno != EINTR) {
      throw std::runtime_error(fmt::format("poll failed: {}", std::strerror(errno)));
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (pfds[i].revents == 0 || owners[i] == nullptr) continue;
      Stream& s = *owners[i];
      ssize_t r = ::read(s.fd.get(), buffer, sizeof buffer);
      if (r > 0) {
        if (s.plain == nullptr) {
          s.capped.append(buffer, static_cast<size_t>(r));
        } else if (s.plain->size() < kChannelCap) {
          s.plain->append(buffer, static_cast<size_t>(r));
        }
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        s.fd.reset();
      }
    }
  }
  if (!reaped) {
    ::waitpid(pid, &waitStatus, 0);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  cgroup.killAll();
  result.processLimitHit = cgroup.limitHit();
  result.out = streams[0].capped.text();
  result.err = streams[1].capped.text();
  result.droppedBytes = streams[0].capped.dropped() + streams[1].capped.dropped();

  if (WIFSIGNALED(waitStatus)) {
    result.started = true;
    result.termSignal = WTERMSIG(waitStatus);
    return result;
  }
  result.exitCode = WIFEXITED(waitStatus) ? WEXITSTATUS(waitStatus) : -1;
  result.started = true;
  if (sandboxed) {
    // bubblewrap reports the program's death by signal N as exit status 128 + N. It failed itself when it
    // never said "child-pid" on its status descriptor, or when setting up the child's mounts failed: status 1
    // and its own "bwrap: " message first (a program printing that and exiting 1 only turns its failure into
    // this one).
    bool setupFailed = result.exitCode == 1 && result.err.rfind("bwrap: ", 0) == 0;
    if ((statusText.find("\"child-pid\"") == std::string::npos || setupFailed) && !result.timedOut) {
      result.started = false;
      std::string firstLine = result.err.substr(0, result.err.find('\n'));
      result.startError = sandboxUnavailableMessage(
          firstLine.empty() ? fmt::format("bwrap exited with status {}", result.exitCode) : firstLine);
      return result;
    }
    if (result.exitCode > 128 && result.exitCode <= 128 + 64) {
      result.termSignal = result.exitCode - 128;
      result.exitCode = -1;
    }
  }
  if (result.timedOut) {
    result.termSignal = SIGKILL;
    result.exitCode = -1;
  }
  return result;
}

}  // namespace

void CappedOutput::append(const char* data, size_t size) {
  uint64_t half = cap_ / 2;
  if (cap_ == 0) {
    head_.append(data, size);
    return;
  }
  size_t toHead = static_cast<size_t>(std::min<uint64_t>(size, half - std::min<uint64_t>(half, head_.size())));
  head_.append(data, toHead);
  data += toHead;
  size -= toHead;
  uint64_t tailCap = cap_ - half;
  for (size_t i = 0; i < size; ++i) {
    if (tail_.size() < tailCap) {
      tail_.push_back(data[i]);
    } else {
      tail_[tailStart_] = data[i];
      tailStart_ = (tailStart_ + 1) % tail_.size();
      ++dropped_;
    }
  }
}

std::string CappedOutput::text() const {
  std::string tail = tail_.substr(tailStart_) + tail_.substr(0, tailStart_);
  if (dropped_ == 0) return head_ + tail;
  return fmt::format("{}\n... {} bytes left out ...\n{}", head_, dropped_, tail);
}

std::vector<std::string> bubblewrapArgv(const SandboxSpec& spec) {
  std::vector<std::string> argv = {"bwrap", "--die-with-parent", "--new-session", "--unshare-all", "--cap-drop",
                                   "ALL",   "--clearenv",        "--ro-bind",     "/usr",          "/usr"};
  for (const char* dir : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) addSystemFolder(argv, dir);
  // The dynamic loader's cache and the alternatives symlinks: what g++ and the programs need from /etc, and
  // no more.
  argv.insert(argv.end(),
              {"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--ro-bind-try", "/etc/alternatives",
               "/etc/alternatives", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"});
  const std::string cwd = absolute(spec.cwd.empty() ? spec.workDir : spec.cwd);
  // An empty folder, unless a bind below fills it: relative paths in the command line resolve as the
  // caller's.
  if (!spec.cwd.empty()) argv.insert(argv.end(), {"--dir", cwd});
  // Outer folders first, so a read-only path inside the work folder stays read-only, and the reverse.
  std::vector<std::pair<std::string, bool>> binds;
  for (const std::string& path : spec.readOnlyPaths) binds.emplace_back(absolute(path), false);
  if (!spec.workDir.empty()) binds.emplace_back(absolute(spec.workDir), true);
  std::stable_sort(binds.begin(), binds.end(),
                   [](const auto& a, const auto& b) { return a.first.size() < b.first.size(); });
  for (const auto& [path, writable] : binds) argv.insert(argv.end(), {writable ? "--bind" : "--ro-bind", path, path});
  if (!spec.workDir.empty() || !spec.cwd.empty()) argv.insert(argv.end(), {"--chdir", cwd});
  for (const auto& [name, value] : spec.env) argv.insert(argv.end(), {"--setenv", name, value});
  argv.insert(argv.end(), {"--json-status-fd", std::to_string(kStatusFd), "--"});
  argv.insert(argv.end(), spec.argv.begin(), spec.argv.end());
  return argv;
}

std::string sandboxUnavailableMessage(const std::string& bwrapError) {
  bool namespaces = bwrapError.find("namespace") != std::string::npos ||
                    bwrapError.find("not permitted") != std::string::npos ||
                    bwrapError.find("Permission denied") != std::string::npos;
  if (!namespaces) return fmt::format("cannot start the sandbox: {}", bwrapError);
  return fmt::format(
      "cannot start the sandbox: {}; bubblewrap needs to create namespaces: enable unprivileged user "
      "namespaces "
      "(sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; in a container, allow "
      "unshare, e.g. docker run --security-opt seccomp=unconfined), or rerun with --no-sandbox (no "
      "isolation: "
      "trusted code only)",
      bwrapError);
}

std::unique_ptr<Sandbox> makeSystemSandbox(SandboxMode mode, const std::string& bwrap) {
  return std::make_unique<SystemSandbox>(mode, bwrap);
}

}  // namespace tilecraft::runner
