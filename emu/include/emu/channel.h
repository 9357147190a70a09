// The emulator's verdict channel (docs/security.md). A parent that judges the run (Tilecraft's build-and-run
// service) passes two inherited file descriptors: TILECRAFT_EMU_NONCE_FD, a pipe holding a per-run nonce, and
// TILECRAFT_EMU_REPORT_FD, a pipe the emulator writes its records to, each line starting with that nonce:
//   NONCE {"kernel":...,"checks":"passed"}          one per ICPU_RUN_KF launch
//   NONCE {"check":"failed","text":"F:L: error: ..."} a failed check, sent before any fail handler runs
//   NONCE {"check":"warning","text":"F:L: warning: ..."} a fault let through as a warning (setFaultsAsWarnings)
//   NONCE {"end":true,"launches":N}                  at a normal exit outside any launch, after no failed
//   check
// Both are read here, during static initialisation, before any code of the kernel's own runs: the nonce pipe
// is drained and closed (it can be read once only), both variables are removed from the environment, and the
// report descriptor is marked close-on-exec. A program that exits 0 without the end record did not finish the
// way the emulator says it did; the parent treats that, and any line without the nonce, as a forged verdict.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace tcemu {

// The few POSIX calls the channel needs, declared here rather than by <unistd.h> and <fcntl.h>, which would
// put read, write, close, pause, sync... into every kernel's global namespace.
namespace posix {
extern "C" ssize_t read(int fd, void* buffer, size_t size);
extern "C" ssize_t write(int fd, const void* buffer, size_t size);
extern "C" int close(int fd);
extern "C" int fcntl(int fd, int command, ...);
constexpr int kSetFdFlags = 2;   // F_SETFD
constexpr int kCloseOnExec = 1;  // FD_CLOEXEC
}  // namespace posix

struct ReportChannel {
  int fd = -1;
  std::string nonce;
  int launchDepth = 0;  // launches in progress: an exit inside one is not a normal end
  int launches = 0;
  bool failed = false;
};

inline ReportChannel& reportChannel() {
  static ReportChannel channel;
  return channel;
}

inline std::string jsonEscape(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char hex[] = "0123456789abcdef";
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

inline void channelSend(const std::string& json) {
  ReportChannel& channel = reportChannel();
  if (channel.fd < 0) return;
  std::string line = channel.nonce + " " + json + "\n";
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    ssize_t n = posix::write(channel.fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

inline void channelCheckFailed(const std::string& rendered) {
  ReportChannel& channel = reportChannel();
  if (channel.fd < 0) return;
  channel.failed = true;
  channelSend("{\"check\":\"failed\",\"text\":\"" + jsonEscape(rendered) + "\"}");
}

inline void channelCheckWarning(const std::string& rendered) {
  channelSend("{\"check\":\"warning\",\"text\":\"" + jsonEscape(rendered) + "\"}");
}

inline void channelAtExit() {
  ReportChannel& channel = reportChannel();
  if (channel.launchDepth == 0 && !channel.failed) {
    channelSend("{\"end\":true,\"launches\":" + std::to_string(channel.launches) + "}");
  }
}

inline int channelFdFromEnv(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return -1;
  char* end = nullptr;
  long fd = std::strtol(text, &end, 10);
  ::unsetenv(name);
  return *end == '\0' && fd >= 0 && fd < 65536 ? static_cast<int>(fd) : -1;
}

inline bool openReportChannel() {
  int reportFd = channelFdFromEnv("TILECRAFT_EMU_REPORT_FD");
  int nonceFd = channelFdFromEnv("TILECRAFT_EMU_NONCE_FD");
  if (nonceFd >= 0) {
    std::string nonce;
    char buffer[128];
    while (nonce.size() < 1024) {
      ssize_t n = posix::read(nonceFd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      nonce.append(buffer, static_cast<size_t>(n));
    }
    posix::close(nonceFd);
    while (!nonce.empty() && (nonce.back() == '\n' || nonce.back() == '\r')) nonce.pop_back();
    if (reportFd >= 0 && !nonce.empty()) {
      posix::fcntl(reportFd, posix::kSetFdFlags, posix::kCloseOnExec);
      reportChannel().fd = reportFd;
      reportChannel().nonce = nonce;
      std::atexit(channelAtExit);
    }
  }
  return true;
}

// An inline variable defined before any kernel code of the translation unit: initialised before the kernel's
// own static objects (C++17 [basic.start.dynamic]) and before main.
inline const bool kReportChannelOpened = openReportChannel();

}  // namespace tcemu
