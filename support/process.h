// Child processes behind an interface, so the CLI can be tested without compiling or running anything.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilecraft::support {

struct ProcessSpec {
  std::vector<std::string> argv;           // argv[0] is looked up in PATH (execvp); no shell is involved
  std::map<std::string, std::string> env;  // added to the inherited environment
  std::string workdir;                     // empty = the caller's working directory
  double timeoutSeconds = 0;               // 0 = none
  uint64_t memoryLimitBytes = 0;           // 0 = none
  std::string stdinData;
};

struct ProcessResult {
  int exitCode = -1;   // -1 when killed by a signal or never started
  int termSignal = 0;  // the signal that ended the child, 0 if it exited
  bool timedOut = false;
  std::string out;
  std::string err;     // when the program cannot be started: "cannot run 'x': <strerror>"
  double seconds = 0;  // wall-clock time of the run
};

class ProcessRunner {
 public:
  virtual ~ProcessRunner() = default;
  virtual ProcessResult run(const ProcessSpec& spec) = 0;
};

// fork/execvp with the child in its own process group, so a timeout kills everything it started; whatever it
// leaves running that still holds its output when it exits is killed too. The child is killed if the thread that
// started it dies. Memory and CPU limits (RLIMIT_AS; RLIMIT_CPU = the timeout rounded up, plus 1 s) are set in
// the child before exec, never above the limits this process already has. Safe to call from several threads.
class SystemProcessRunner final : public ProcessRunner {
 public:
  ProcessResult run(const ProcessSpec& spec) override;
};

}  // namespace tilecraft::support
