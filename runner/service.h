// The one build-and-run service: every program Tilecraft builds from a kernel source (emu run, run, fuzz
// --emulate, bench) is built and run here, inside the sandbox, with limits, and judged from outside the
// process under test. A build is keyed by the hash of its inputs, so the harness builds each (solution,
// instantiation) once and runs every case against that binary.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilecraft::runner {

struct Limits {
  double wallSeconds = 60;                  // 0 = none
  double cpuSeconds = 0;                    // 0 = wallSeconds + 1
  uint64_t addressSpaceBytes = 8ull << 30;  // per process
  int maxProcesses = 64;                    // enforced for root too (PID namespace / cgroup), not RLIMIT_NPROC
  uint64_t fileSizeBytes = 1ull << 30;      // largest file the program may write
  uint64_t outputCapBytes = 2ull << 20;     // stdout and stderr each: first and last half kept, rest counted
};

struct BuildRequest {
  std::string source;                    // the translation unit (a path the caller can read)
  std::vector<std::string> moreSources;  // further translation units, compiled apart and linked with it
  std::vector<std::string> linkFlags;    // after the sources, e.g. -Wl,... options
  std::vector<std::string> includeDirs;  // beyond the emulator's own headers
  std::vector<std::string> defines;      // NAME or NAME=VALUE
  std::string optLevel = "-O1";
  bool warnings = true;    // -Wall -Wextra (generated code must build warning-free)
  bool untrusted = false;  // run the source check first (no main, no tcemu::, API includes only)
  Limits limits{300, 0, 8ull << 30, 64, 1ull << 30, 2ull << 20};
};

struct BuildResult {
  bool ok = false;
  bool cached = false;      // an identical build was found; nothing was compiled
  bool rejected = false;    // refused by the source check before anything was built
  std::string diagnostics;  // the compiler's (or the source check's) messages, LC_ALL=C
  std::string program;      // path of the built executable when ok
  std::string key;          // content hash of everything that went into the build
  double seconds = 0;
  bool timedOut = false;  // the compiler ran out of Limits::wallSeconds (or its CPU time)
  int exitCode = -1;      // the compiler's; -1 when it was killed by a signal or did not start
  int termSignal = 0;
  bool cannotStart = false;  // nothing ran: diagnostics says why (e.g. the sandbox cannot start)
};

// How a run ended, decided by the parent: never by anything the program printed or wrote about itself.
enum class RunStatus {
  Passed,            // exit 0 and the emulator's verdict record says all checks passed
  CheckFailed,       // an emulator check failed (message names the kernel's FILE:LINE)
  UsageError,        // the launcher refused its arguments (exit 2)
  Crashed,           // a signal or an abnormal exit
  TimedOut,          // wall or CPU time
  LimitExceeded,     // memory, processes, file size
  SandboxViolation,  // tried to leave the sandbox (network, files outside, ...)
  ForgedVerdict,     // exit 0 without a genuine verdict record, or a record with the wrong nonce
  CannotStart,
};
const char* runStatusName(RunStatus status);

struct RunRequest {
  std::string program;
  std::vector<std::string> args;
  std::string workDir;                     // writable inside the sandbox; the program's working folder
  std::vector<std::string> readOnlyPaths;  // extra host paths visible read-only (e.g. input .npy files)
  std::map<std::string, std::string> env;  // beyond the short allowlist
  bool trace = false;                      // ask the emulator for an instruction trace (workDir/trace.jsonl)
  Limits limits;
};

struct RunResult {
  RunStatus status = RunStatus::CannotStart;
  int exitCode = -1;
  int termSignal = 0;
  std::string message;                // one line: why it is not Passed (the emulator's check message when CheckFailed)
  std::string out, err;               // capped as Limits::outputCapBytes says
  uint64_t droppedBytes = 0;          // output beyond the cap
  std::string report;                 // the emulator's verified report, JSON lines, one per launch
  std::vector<std::string> warnings;  // faults the emulator let through as warnings (emu/base.h raiseFault)
  std::string tracePath;              // when trace was asked and the run wrote one
  double seconds = 0;
};

class BuildRunService {
 public:
  virtual ~BuildRunService() = default;
  virtual BuildResult build(const BuildRequest& request) = 0;
  virtual RunResult run(const RunRequest& request) = 0;
  // "" when the sandbox starts; else why not, with how to enable it (the message of a CannotStart run).
  virtual std::string sandboxProblem() { return ""; }
};

class Sandbox;  // runner/sandbox.h

struct ServiceOptions {
  std::string emuInclude;  // the emulator's headers (the folder holding kernel_operator.h)
  std::string cacheDir;    // built programs, one folder per key; empty: a temporary folder, removed with
                           // the service
  bool sandbox = true;     // false: --no-sandbox, plain children with the same limits, no isolation
  std::string compiler = "g++";
  std::shared_ptr<Sandbox> sandboxOverride;  // tests: scripted children instead of real ones
};

// The service. Safe to call from several threads at once.
std::unique_ptr<BuildRunService> makeBuildRunService(const ServiceOptions& options);

// The service for a command: made, and its sandbox tried once. nullptr after printing "error: <why>" on `err` (the
// command then exits 2) when it cannot start, e.g. when bwrap is missing or cannot create namespaces.
std::unique_ptr<BuildRunService> startBuildRunService(const ServiceOptions& options, std::ostream& err);

// The compiler's command line for `request` (output path last), the same for every caller.
std::vector<std::string> compileCommand(const BuildRequest& request, const std::string& emuInclude,
                                        const std::string& compiler, const std::string& output);

}  // namespace tilecraft::runner
