// Running one untrusted child: under bubblewrap (a read-only view of the system, one writable work folder, no
// network, a clean environment, its own PID namespace so nothing outlives it), or with --no-sandbox as a plain
// child with the same limits. Behind an interface, so the service can be tested with scripted children.
// docs/security.md says what this guarantees and what it does not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runner/service.h"

namespace tilecraft::runner {

// The descriptors of the emulator's verdict channel (emu/include/emu/channel.h) in the child.
inline constexpr int kReportFd = 100;
inline constexpr int kNonceFd = 101;

struct SandboxSpec {
  std::vector<std::string> argv;               // argv[0]: an absolute path, or a name looked up in PATH
  std::map<std::string, std::string> env;      // the child's whole environment: nothing is inherited
  std::string workDir;                         // writable, and the child's working folder unless cwd is set
  std::string cwd;                             // the working folder when not workDir (an empty folder in the
                                               // sandbox unless a bind covers it), e.g. the caller's, so the
                                               // compiler's messages name files as the caller spelled them
  std::vector<std::string> readOnlyPaths;      // host paths the child may read (files or folders)
  Limits limits;
  bool reportChannel = false;                  // open the verdict channel: a report pipe and a nonce pipe
  std::string nonce;                           // what the nonce pipe holds
};

struct SandboxResult {
  bool started = false;        // false: startError says why nothing ran
  std::string startError;      // one line, with a hint
  int exitCode = -1;           // -1 when killed by a signal
  int termSignal = 0;
  bool timedOut = false;       // the wall-clock limit ended it
  bool processLimitHit = false;  // a fork was refused by the process limit
  std::string out, err;        // each capped: first and last half of Limits::outputCapBytes kept
  uint64_t droppedBytes = 0;   // output left out, both streams together
  std::string channel;         // what arrived on the report pipe
  double seconds = 0;
};

class Sandbox {
 public:
  virtual ~Sandbox() = default;
  virtual SandboxResult run(const SandboxSpec& spec) = 0;
};

enum class SandboxMode { Bubblewrap, None };

// The real sandbox: bubblewrap, or (None) fork/exec with the same limits and no isolation.
std::unique_ptr<Sandbox> makeSystemSandbox(SandboxMode mode);

// The bubblewrap command line that runs spec.argv (without the program's own arguments' checks), for tests and
// for --keep users who want to rerun a program by hand.
std::vector<std::string> bubblewrapArgv(const SandboxSpec& spec);

// Keeps the first and the last half of `cap` bytes of a stream and counts what falls between.
class CappedOutput {
 public:
  explicit CappedOutput(uint64_t cap) : cap_(cap) {}
  void append(const char* data, size_t size);
  uint64_t dropped() const { return dropped_; }
  // head + a line "... N bytes left out ..." + tail when anything was dropped.
  std::string text() const;

 private:
  uint64_t cap_;
  std::string head_;
  std::string tail_;  // a ring of the last cap/2 bytes, starting at tailStart_
  size_t tailStart_ = 0;
  uint64_t dropped_ = 0;
};

// The message of a sandbox that cannot start (bubblewrap missing, or not allowed to create namespaces).
std::string sandboxUnavailableMessage(const std::string& bwrapError);

}  // namespace tilecraft::runner
