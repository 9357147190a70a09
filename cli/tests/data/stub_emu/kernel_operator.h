// A stand-in for the emulator, for the CLI's own tests: it honours only the run contract the CLI relies on (the
// verdict channel of emu/include/emu/channel.h: nonce-tagged records on TILECRAFT_EMU_REPORT_FD, a record per
// launch, one for a failed check, an end record at a normal exit; "FILE:LINE: error:" and status 3 on a failed
// check; without the channel, a report line per launch in $TILECRAFT_EMU_REPORT).
#pragma once
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

inline int stubReportFd = -1;
inline std::string stubNonce;
inline int stubLaunches = 0;

inline void stubSend(const std::string& json) {
  if (stubReportFd < 0) return;
  std::string line = stubNonce + " " + json + "\n";
  [[maybe_unused]] auto n = ::write(stubReportFd, line.data(), line.size());
}

inline bool stubOpenChannel() {
  const char* report = std::getenv("TILECRAFT_EMU_REPORT_FD");
  const char* nonce = std::getenv("TILECRAFT_EMU_NONCE_FD");
  if (report == nullptr || nonce == nullptr) return false;
  char buffer[128];
  ssize_t n = ::read(std::atoi(nonce), buffer, sizeof buffer);
  stubNonce.assign(buffer, n > 0 ? static_cast<size_t>(n) : 0);
  while (!stubNonce.empty() && stubNonce.back() == '\n') stubNonce.pop_back();
  stubReportFd = std::atoi(report);
  std::atexit([] { stubSend("{\"end\":true,\"launches\":" + std::to_string(stubLaunches) + "}"); });
  return true;
}
inline const bool stubChannelOpened = stubOpenChannel();

inline void stubLaunch(const char* kernel, int blocks) {
  char line[256];
  std::snprintf(line, sizeof line,
                "{\"kernel\":\"%s\",\"blocks\":%d,\"mode\":\"AIV\",\"instructions\":%d,\"checks\":\"passed\"}", kernel,
                blocks, 10 * blocks);
  ++stubLaunches;
  stubSend(line);
  if (const char* path = std::getenv("TILECRAFT_EMU_REPORT")) {
    if (std::FILE* f = std::fopen(path, "a")) {
      std::fprintf(f, "%s\n", line);
      std::fclose(f);
    }
  }
}

inline void stubCheckFailed(const char* file, int line, const char* message) {
  std::string text = std::string(file) + ":" + std::to_string(line) + ": error: " + message;
  stubSend("{\"check\":\"failed\",\"text\":\"" + text + "\\n\"}");
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n%s:%d: note: from the stub emulator\n", text.c_str(), file, line);
  std::_Exit(3);
}
