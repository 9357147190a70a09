// The build-and-run service: one compiler command line for every caller, builds cached by content, every
// child in the sandbox, and the verdict decided here from the exit status and the emulator's nonce-tagged
// records.
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "runner/sandbox.h"
#include "runner/service.h"

#include <ostream>
#include "runner/source_check.h"
#include "support/files.h"

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSandboxPath = "/usr/local/bin:/usr/bin:/bin";

// FNV-1a, 64 bits: a build key, not a defence against someone choosing collisions (they would only get their
// own program back).
class Hash {
 public:
  Hash& add(const std::string& bytes) {
    for (unsigned char c : bytes) {
      state_ ^= c;
      state_ *= 0x100000001b3ull;
    }
    // A separator, so ("ab","c") and ("a","bc") differ.
    state_ ^= 0xff;
    state_ *= 0x100000001b3ull;
    return *this;
  }
  std::string hex() const { return fmt::format("{:016x}", state_); }

 private:
  uint64_t state_ = 0xcbf29ce484222325ull;
};

// Every file under `dir`, by relative path and content: the headers' identity.
void addTree(Hash& hash, const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files)
    hash.add(file.lexically_relative(dir).string()).add(support::readFile(file).value_or(""));
}

// The headers next to the source: a kernel's own project files.
void addNeighbourHeaders(Hash& hash, const fs::path& source) {
  std::error_code ec;
  std::vector<fs::path> files;
  fs::path dir = source.parent_path().empty() ? fs::path(".") : source.parent_path();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string ext = it->path().extension().string();
    if (it->is_regular_file(ec) && (ext == ".h" || ext == ".hpp" || ext == ".inc")) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) hash.add(file.filename().string()).add(support::readFile(file).value_or(""));
}

std::string nonce() {
  std::random_device device;  // /dev/urandom
  std::string out;
  for (int i = 0; i < 4; ++i) out += fmt::format("{:08x}", device());
  return out;
}

std::string firstLine(const std::string& text) {
  size_t start = text.find_first_not_of('\n');
  if (start == std::string::npos) return "";
  return text.substr(start, text.find('\n', start) - start);
}

std::string signalName(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  return abbrev ? fmt::format("signal {} (SIG{})", sig, abbrev) : fmt::format("signal {}", sig);
}

std::string bytesText(uint64_t bytes) {
  if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return fmt::format("{} GiB", bytes >> 30);
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return fmt::format("{} MiB", bytes >> 20);
  return fmt::format("{} bytes", bytes);
}

struct Channel {
  std::vector<std::string> launches;  // the launch records, verified
  std::string checkFailure;           // the rendered failed check, when one was sent
  std::vector<std::string> warnings;  // the rendered faults let through as warnings
  bool ended = false;
  std::string forged;  // why the channel cannot be trusted, when it cannot
};

constexpr char kFailedRecord[] = "{\"check\":\"failed\",\"text\":\"";
constexpr char kWarningRecord[] = "{\"check\":\"warning\",\"text\":\"";

// The text of a check record from `start` on, its JSON escaping undone (emu/channel.h writes \" \\ and \u00XX).
std::string recordText(const std::string& json, size_t start) {
  std::string text;
  for (size_t i = start; i < json.size() && json[i] != '"'; ++i) {
    if (json[i] == '\\' && i + 1 < json.size()) {
      char c = json[++i];
      if (c == 'u' && i + 4 < json.size()) {
        text += static_cast<char>(std::strtol(json.substr(i + 1, 4).c_str(), nullptr, 16));
        i += 4;
      } else {
        text += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
      }
    } else {
      text += json[i];
    }
  }
  return text;
}

// A record is "NONCE JSON": anything else on the descriptor came from somewhere other than the emulator.
Channel readChannel(const std::string& bytes, const std::string& expectedNonce) {
  Channel channel;
  std::istringstream lines(bytes);
  std::string prefix = expectedNonce + " ";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) {
      if (channel.forged.empty()) channel.forged = "the verdict channel carried a record without the run's nonce";
      continue;
    }
    std::string json = line.substr(prefix.size());
    if (json.rfind("{\"end\":true", 0) == 0) {
      channel.ended = true;
    } else if (json.rfind(kFailedRecord, 0) == 0) {
      if (channel.checkFailure.empty()) channel.checkFailure = recordText(json, sizeof(kFailedRecord) - 1);
    } else if (json.rfind(kWarningRecord, 0) == 0) {
      channel.warnings.push_back(recordText(json, sizeof(kWarningRecord) - 1));
    } else {
      channel.launches.push_back(json);
    }
  }
  return channel;
}

class Service final : public BuildRunService {
 public:
  explicit Service(const ServiceOptions& options) : options_(options) {
    sandbox_ = options.sandboxOverride ? options.sandboxOverride
                                       : std::shared_ptr<Sandbox>(makeSystemSandbox(
                                             options.sandbox ? SandboxMode::Bubblewrap : SandboxMode::None));
    if (options_.cacheDir.empty()) {
      std::string pattern = (fs::temp_directory_path() / "tilecraft-builds-XXXXXX").string();
      if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::system_error(errno, std::generic_category(), "cannot create a temporary folder");
      }
      cacheDir_ = pattern;
      temporaryCache_ = true;
    } else {
      cacheDir_ = fs::absolute(options_.cacheDir);
    }
  }
  ~Service() override {
    std::error_code ignored;
    if (temporaryCache_) fs::remove_all(cacheDir_, ignored);
  }

  BuildResult build(const BuildRequest& request) override;
  RunResult run(const RunRequest& request) override;
  std::string sandboxProblem() override {
    SandboxSpec spec;
    spec.argv = {"true"};
    spec.env = {{"PATH", kSandboxPath}};
    spec.workDir = cacheDir_.string();
    spec.limits.wallSeconds = 10;
    SandboxResult ran = sandbox_->run(spec);
    return ran.started ? "" : ran.startError;
  }

 private:
  std::string emulatorIdentity() {
    std::lock_guard lock(mutex_);
    if (emulatorIdentity_.empty()) {
      Hash hash;
      addTree(hash, options_.emuInclude);
      emulatorIdentity_ = hash.hex();
    }
    return emulatorIdentity_;
  }

  ServiceOptions options_;
  std::shared_ptr<Sandbox> sandbox_;
  fs::path cacheDir_;
  bool temporaryCache_ = false;
  std::mutex mutex_;
  std::string emulatorIdentity_;
  std::atomic<uint64_t> counter_{0};
};

BuildResult Service::build(const BuildRequest& request) {
  BuildResult result;
  auto start = std::chrono::steady_clock::now();
  auto finish = [&] {
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  std::optional<std::string> read = support::readFile(request.source);
  std::string source = read.value_or("");
  if (!read || !fs::is_regular_file(request.source)) {
    result.cannotStart = true;
    result.diagnostics = fmt::format("cannot read the kernel source '{}'", request.source);
    return finish();
  }
  if (request.untrusted) {
    std::vector<std::string> problems = checkKernelSource(request.source, options_.emuInclude);
    if (!problems.empty()) {
      result.rejected = true;
      for (const std::string& p : problems) result.diagnostics += p + "\n";
      return finish();
    }
  }
  std::vector<std::string> command = compileCommand(request, options_.emuInclude, options_.compiler, "");
  command.pop_back();  // the output path is not part of the key
  Hash hash;
  hash.add(source).add(emulatorIdentity());
  for (const std::string& arg : command) hash.add(arg);
  for (const std::string& dir : request.includeDirs) addTree(hash, dir);
  addNeighbourHeaders(hash, request.source);
  for (const std::string& more : request.moreSources) {
    std::optional<std::string> text = support::readFile(more);
    if (!text) {
      result.cannotStart = true;
      result.diagnostics = fmt::format("cannot read the source '{}'", more);
      return finish();
    }
    hash.add(*text);
    addNeighbourHeaders(hash, more);
  }
  result.key = hash.hex();

  fs::path done = cacheDir_ / result.key;
  if (fs::is_regular_file(done / "prog")) {
    result.ok = result.cached = true;
    result.exitCode = 0;
    result.program = (done / "prog").string();
    return finish();
  }
  std::error_code ec;
  fs::create_directories(cacheDir_, ec);
  fs::path scratch = cacheDir_ / fmt::format("{}.tmp-{}-{}", result.key, ::getpid(), counter_++);
  fs::remove_all(scratch, ec);
  if (!fs::create_directories(scratch, ec)) {
    result.cannotStart = true;
    result.diagnostics = fmt::format("cannot create the build folder '{}': {}", scratch.string(), ec.message());
    return finish();
  }
  SandboxSpec spec;
  spec.argv = compileCommand(request, options_.emuInclude, options_.compiler, (scratch / "prog").string());
  spec.env = {{"PATH", kSandboxPath}, {"LC_ALL", "C"}, {"HOME", scratch.string()}, {"TMPDIR", "/tmp"}};
  spec.workDir = scratch.string();
  fs::path sourcePath(request.source);
  if (sourcePath.is_relative()) spec.cwd = fs::current_path().string();
  fs::path sourceDir = fs::absolute(sourcePath).parent_path();
  spec.readOnlyPaths = {options_.emuInclude, sourceDir.string()};
  for (const std::string& more : request.moreSources)
    spec.readOnlyPaths.push_back(fs::absolute(more).parent_path().string());
  for (const std::string& dir : request.includeDirs) spec.readOnlyPaths.push_back(fs::absolute(dir).string());
  spec.limits = request.limits;
  SandboxResult ran = sandbox_->run(spec);
  result.exitCode = ran.exitCode;
  result.termSignal = ran.termSignal;
  result.timedOut = ran.timedOut || ran.termSignal == SIGXCPU;
  result.diagnostics = ran.err;
  if (!ran.started) {
    result.cannotStart = true;
    result.diagnostics = ran.startError;
  } else if (ran.exitCode == 0 && fs::is_regular_file(scratch / "prog")) {
    fs::rename(scratch, done, ec);
    // Another thread may have built the same key meanwhile: either copy is the same program.
    if (ec && fs::is_regular_file(done / "prog")) fs::remove_all(scratch, ec);
    result.ok = fs::is_regular_file(done / "prog");
    result.program = (done / "prog").string();
  }
  if (!result.ok) fs::remove_all(scratch, ec);
  return finish();
}

RunResult Service::run(const RunRequest& request) {
  RunResult result;
  std::error_code ec;
  if (!fs::is_regular_file(request.program, ec)) {
    result.message = fmt::format("no program '{}' to run", request.program);
    return result;
  }
  if (!fs::is_directory(request.workDir, ec)) {
    result.message = fmt::format("no work folder '{}'", request.workDir);
    return result;
  }
  for (const std::string& path : request.readOnlyPaths) {
    if (!fs::exists(path, ec)) {
      result.message = fmt::format("no such file or folder '{}' to show the program", path);
      return result;
    }
  }
  fs::path workDir = fs::absolute(request.workDir.empty() ? fs::path(".") : fs::path(request.workDir));
  fs::path program = fs::absolute(request.program);
  fs::path trace = workDir / "trace.jsonl";
  if (request.trace) fs::remove(trace, ec);  // the emulator appends

  SandboxSpec spec;
  spec.argv = {program.string()};
  spec.argv.insert(spec.argv.end(), request.args.begin(), request.args.end());
  spec.env = {{"PATH", kSandboxPath},
              {"LC_ALL", "C"},
              {"HOME", workDir.string()},
              {"TMPDIR", "/tmp"},
              {"TILECRAFT_EMU_REPORT_FD", std::to_string(kReportFd)},
              {"TILECRAFT_EMU_NONCE_FD", std::to_string(kNonceFd)}};
  for (const auto& [name, value] : request.env) spec.env[name] = value;
  if (request.trace) spec.env["TILECRAFT_EMU_TRACE"] = trace.string();
  spec.workDir = workDir.string();
  spec.readOnlyPaths = request.readOnlyPaths;
  auto inside = [](const fs::path& path, const fs::path& dir) {
    auto [end, ignored] = std::mismatch(dir.begin(), dir.end(), path.begin(), path.end());
    return end == dir.end();
  };
  if (!inside(program, workDir)) spec.readOnlyPaths.push_back(program.parent_path().string());
  spec.limits = request.limits;
  spec.reportChannel = true;
  spec.nonce = nonce();

  SandboxResult ran = sandbox_->run(spec);
  result.exitCode = ran.exitCode;
  result.termSignal = ran.termSignal;
  result.out = std::move(ran.out);
  result.err = std::move(ran.err);
  result.droppedBytes = ran.droppedBytes;
  result.seconds = ran.seconds;
  if (request.trace && fs::is_regular_file(trace, ec)) result.tracePath = trace.string();
  if (!ran.started) {
    result.status = RunStatus::CannotStart;
    result.message = ran.startError;
    return result;
  }
  Channel channel = readChannel(ran.channel, spec.nonce);
  for (const std::string& launch : channel.launches) result.report += launch + "\n";
  result.warnings = std::move(channel.warnings);
  const Limits& limits = request.limits;
  auto set = [&](RunStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    return result;
  };
  if (ran.timedOut)
    return set(RunStatus::TimedOut, fmt::format("timed out after {:g} s (wall clock)", limits.wallSeconds));
  if (!channel.checkFailure.empty()) return set(RunStatus::CheckFailed, firstLine(channel.checkFailure));
  // A forged record decides, however the forger ended: writing to every descriptor it can find may well end it
  // with SIGPIPE, and the attempt must not pass for a mere crash.
  if (!channel.forged.empty()) return set(RunStatus::ForgedVerdict, channel.forged);
  if (ran.termSignal == SIGXCPU) {
    double cpu = limits.cpuSeconds > 0 ? limits.cpuSeconds : limits.wallSeconds + 1;
    return set(RunStatus::TimedOut, fmt::format("used up its CPU time limit of {:g} s", cpu));
  }
  if (ran.termSignal == SIGXFSZ) {
    return set(RunStatus::LimitExceeded,
               fmt::format("wrote past the file size limit of {}", bytesText(limits.fileSizeBytes)));
  }
  bool outOfMemory = result.err.find("std::bad_alloc") != std::string::npos ||
                     result.err.find("Cannot allocate memory") != std::string::npos;
  if (outOfMemory && (ran.exitCode != 0 || ran.termSignal != 0)) {
    return set(RunStatus::LimitExceeded,
               fmt::format("ran out of memory: the address space limit is {}", bytesText(limits.addressSpaceBytes)));
  }
  if (ran.processLimitHit && (ran.exitCode != 0 || ran.termSignal != 0)) {
    return set(RunStatus::LimitExceeded, fmt::format("tried to start more than {} processes", limits.maxProcesses));
  }
  if (ran.termSignal != 0) return set(RunStatus::Crashed, fmt::format("killed by {}", signalName(ran.termSignal)));
  if (ran.exitCode == 2) {
    std::string line = firstLine(result.err);
    return set(RunStatus::UsageError, line.empty() ? "the program refused its arguments (exit status 2)" : line);
  }
  if (ran.exitCode != 0) return set(RunStatus::Crashed, fmt::format("exit status {}", ran.exitCode));
  if (!channel.ended) {
    return set(RunStatus::ForgedVerdict,
               "exit status 0 without the emulator's final record: the program ended inside a kernel launch, "
               "or bypassed the emulator's exit");
  }
  result.status = RunStatus::Passed;
  return result;
}

}  // namespace

const char* runStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::Passed: return "passed";
    case RunStatus::CheckFailed: return "check-failed";
    case RunStatus::UsageError: return "usage-error";
    case RunStatus::Crashed: return "crashed";
    case RunStatus::TimedOut: return "timed-out";
    case RunStatus::LimitExceeded: return "limit-exceeded";
    case RunStatus::SandboxViolation: return "sandbox-violation";
    case RunStatus::ForgedVerdict: return "forged-verdict";
    case RunStatus::CannotStart: return "cannot-start";
  }
  return "unknown";
}

std::vector<std::string> compileCommand(const BuildRequest& request, const std::string& emuInclude,
                                        const std::string& compiler, const std::string& output) {
  std::vector<std::string> argv = {compiler, "-std=c++17", request.optLevel};
  if (request.warnings) argv.insert(argv.end(), {"-Wall", "-Wextra"});
  argv.insert(argv.end(), {"-DASCENDC_CPU_DEBUG", "-I", emuInclude});
  for (const std::string& dir : request.includeDirs) argv.insert(argv.end(), {"-I", dir});
  for (const std::string& define : request.defines) argv.push_back("-D" + define);
  argv.push_back(request.source);
  argv.insert(argv.end(), request.moreSources.begin(), request.moreSources.end());
  argv.insert(argv.end(), request.linkFlags.begin(), request.linkFlags.end());
  argv.insert(argv.end(), {"-pthread", "-o", output});
  return argv;
}

std::unique_ptr<BuildRunService> makeBuildRunService(const ServiceOptions& options) {
  ServiceOptions resolved = options;
  if (resolved.emuInclude.empty()) resolved.emuInclude = TILECRAFT_EMU_INCLUDE_DIR;
  resolved.emuInclude = fs::absolute(resolved.emuInclude).lexically_normal().string();
  // The sandbox binds the cache folder: it must exist before the first run, or before sandboxProblem() tries one.
  if (!resolved.cacheDir.empty()) fs::create_directories(resolved.cacheDir);
  return std::make_unique<Service>(resolved);
}

std::unique_ptr<BuildRunService> startBuildRunService(const ServiceOptions& options, std::ostream& err) {
  std::unique_ptr<BuildRunService> service;
  try {
    service = makeBuildRunService(options);
  } catch (const std::exception& e) {
    err << fmt::format("error: {}\n", e.what());
    return nullptr;
  }
  if (std::string problem = service->sandboxProblem(); !problem.empty()) {
    err << fmt::format("error: {}\n", problem);
    return nullptr;
  }
  return service;
}

}  // namespace tilecraft::runner
