// `tilecraft emu run`. Files are built and run in parallel, but their results are printed in argument order as
// soon as each one's turn comes, so the output does not depend on which finished first.
#include "cli/emu_run.h"

#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/flags.h"
#include "perf/error.h"
#include "perf/timeline_command.h"
#include "support/numbers.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxCompilerLines = 8;
constexpr size_t kMaxStderrTail = 10;
constexpr const char* kIndent = "    ";

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> tail(const std::string& text, size_t count) {
  auto lines = splitLines(text);
  if (lines.size() > count) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(count));
  return lines;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

FileOutcome fail(std::string summary, std::vector<std::string> details = {}) {
  FileOutcome outcome;
  outcome.summary = std::move(summary);
  outcome.details = std::move(details);
  return outcome;
}

// The emulator's verdict on exit status 3: its "FILE:LINE: error: ..." line and the notes that follow.
std::optional<FileOutcome> emulatorCheckFailure(const std::string& err) {
  static const std::regex errorLine(R"(^.+:[0-9]+: error: .*$)");
  static const std::regex noteLine(R"(^.+:[0-9]+: note: .*$)");
  auto lines = splitLines(err);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!std::regex_match(lines[i], errorLine)) continue;
    FileOutcome outcome = fail(lines[i]);
    for (size_t j = i + 1; j < lines.size() && std::regex_match(lines[j], noteLine); ++j) {
      outcome.details.push_back(lines[j]);
    }
    return outcome;
  }
  return std::nullopt;
}

struct Launch {
  std::string kernel;
  uint64_t blocks = 0;
  uint64_t instructions = 0;
  std::string checks;
};

// Parses the report; on a malformed line returns the reason instead.
std::variant<std::vector<Launch>, std::string> parseReport(const std::string& report) {
  std::vector<Launch> launches;
  auto lines = splitLines(report);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(" \t\r") == std::string::npos) continue;
    auto where = fmt::format("malformed emulator report, line {}", i + 1);
    nlohmann::json line = nlohmann::json::parse(lines[i], nullptr, /*allow_exceptions=*/false);
    if (line.is_discarded() || !line.is_object()) return where + ": not a JSON object";
    Launch launch;
    for (const char* key : {"kernel", "checks"}) {
      if (!line.contains(key) || !line[key].is_string()) return fmt::format("{}: no string \"{}\"", where, key);
    }
    for (const char* key : {"blocks", "instructions"}) {
      if (!line.contains(key) || !line[key].is_number_unsigned()) {
        return fmt::format("{}: no non-negative integer \"{}\"", where, key);
      }
    }
    launch.kernel = line["kernel"].get<std::string>();
    launch.checks = line["checks"].get<std::string>();
    launch.blocks = line["blocks"].get<uint64_t>();
    launch.instructions = line["instructions"].get<uint64_t>();
    launches.push_back(std::move(launch));
  }
  return launches;
}

// Gives each file its own folder name inside the work folder: the file's stem, made unique in argument order.
std::vector<std::string> workNames(const std::vector<std::string>& files) {
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (const auto& file : files) {
    std::string stem = fs::path(file).stem().string();
    std::string name = stem;
    for (int n = 2; taken.count(name) != 0; ++n) name = fmt::format("{}-{}", stem, n);
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

// The folder that holds every file's build products: --keep's folder, or a fresh temporary one removed on exit.
class WorkRoot {
 public:
  explicit WorkRoot(const std::string& keepDir) {
    if (!keepDir.empty()) {
      fs::create_directories(keepDir);
      path_ = fs::absolute(keepDir);
      return;
    }
    std::string pattern = (fs::temp_directory_path() / "tilecraft-emu-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::system_error(errno, std::generic_category(), "cannot create a temporary folder");
    }
    path_ = pattern;
    temporary_ = true;
  }
  ~WorkRoot() {
    std::error_code ignored;
    if (temporary_) fs::remove_all(path_, ignored);
  }
  WorkRoot(const WorkRoot&) = delete;
  WorkRoot& operator=(const WorkRoot&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool temporary_ = false;
};

// The timeline profile of a passing run (docs/perf-model.md), as detail lines under its result line.
void addProfile(FileOutcome& outcome, const fs::path& trace) {
  try {
    perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
    std::istringstream profile(perf::profileTraceFile(trace.string(), arch));
    for (std::string line; std::getline(profile, line);) outcome.details.push_back(line);
  } catch (const perf::PerfError& e) {
    outcome.details.push_back(fmt::format("no profile: {}", e.what()));
  }
}

FileOutcome buildAndRun(const EmuRunOptions& options, runner::BuildRunService& service, const std::string& file,
                        const fs::path& workDir, std::optional<fs::path> tracePath) {
  fs::create_directories(workDir);
  fs::path report = workDir / "report.jsonl";
  // A kept folder or trace folder may hold an earlier run's files.
  fs::remove(report);
  if (tracePath) fs::remove(*tracePath);

  runner::BuildRequest build;
  build.source = file;
  build.optLevel = options.optLevel;
  build.warnings = false;  // sample kernels are the user's: their warnings are not failures here
  build.limits = compileLimits();
  runner::BuildResult built = service.build(build);
  FileOutcome compiled = judgeCompile(built);
  if (!compiled.passed) return compiled;

  runner::RunRequest run;
  run.program = built.program;
  run.workDir = workDir.string();
  run.trace = tracePath.has_value() || options.profile;
  run.limits = runLimits(options.timeoutSeconds);
  runner::RunResult result = service.run(run);
  FileOutcome outcome = judgeRun(result, options.timeoutSeconds);
  // What a --keep user finds in the folder: the program and the verified report.
  if (!options.keepDir.empty()) {
    std::error_code ec;
    fs::copy_file(built.program, workDir / "prog", fs::copy_options::overwrite_existing, ec);
    std::ofstream(report, std::ios::binary) << result.report;
  }
  std::optional<fs::path> trace;
  if (!result.tracePath.empty()) {
    trace = result.tracePath;
    if (tracePath) {
      std::error_code ec;
      fs::rename(result.tracePath, *tracePath, ec);
      if (ec) fs::copy_file(result.tracePath, *tracePath, fs::copy_options::overwrite_existing, ec);
      trace = *tracePath;
    }
  }
  if (outcome.passed && options.profile && trace) addProfile(outcome, *trace);
  return outcome;
}

void printOutcome(std::ostream& out, const std::string& name, const FileOutcome& outcome, bool quiet) {
  if (!quiet) {
    for (const auto& line : splitLines(outcome.programOut)) out << kIndent << line << '\n';
  }
  out << (outcome.passed ? "PASS " : "FAIL ") << name << ": " << outcome.summary << '\n';
  for (const auto& line : outcome.details) out << kIndent << line << '\n';
  out.flush();
}

}  // namespace

std::string normalizeOptLevel(const std::string& level) {
  static const std::regex valid(R"(^-?O?([0-3]|s|g|z|fast)$)");
  std::smatch match;
  if (!std::regex_match(level, match, valid)) return "";
  // A bare "s" or "fast" (no O) is too far from an optimisation level to guess at.
  if (level.find('O') == std::string::npos && !std::isdigit(static_cast<unsigned char>(level.back()))) return "";
  return "-O" + match[1].str();
}

void addEmuRunOptions(CLI::App& command, EmuRunOptions& options) {
  command.add_option("files", options.files, "AscendC kernel sources with a main under ASCENDC_CPU_DEBUG")->required();
  command.add_option("-j,--jobs", options.jobs, "files built and run at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  command.add_option("--opt", options.optLevel, "optimisation level for g++ (-O0..-O3, -Os, -Og, -Ofast)")
      ->transform([](std::string level) {
        std::string normal = normalizeOptLevel(level);
        if (normal.empty()) throw CLI::ValidationError(fmt::format("'{}' is not an optimisation level", level));
        return normal;
      })
      ->capture_default_str();
  checkSeconds(
      command
          .add_option("--timeout", options.timeoutSeconds,
                      fmt::format("seconds each program may run (at most {:g}; 0: no limit)", support::kMaxSeconds))
          ->capture_default_str(),
      true);
  command.add_option("--keep", options.keepDir, "build and run in this folder and keep it");
  command.add_option("--trace-dir", options.traceDir, "write each program's instruction trace here");
  command.add_flag("--profile", options.profile,
                   "print each passing run's simulated timeline (910b2; `tilecraft perf simulate` for more)");
  command.add_flag("-q,--quiet", options.quiet, "print only the result lines");
  command.add_flag("!--no-sandbox", options.sandbox,
                   "build and run without bubblewrap (same limits, no isolation: for debugging trusted kernels)");
}

runner::Limits compileLimits() {
  runner::Limits limits;
  limits.wallSeconds = kCompileTimeoutSeconds;
  return limits;
}

runner::Limits runLimits(double timeoutSeconds) {
  runner::Limits limits;
  limits.wallSeconds = timeoutSeconds;
  return limits;
}

FileOutcome judgeCompile(const runner::BuildResult& compile) {
  if (compile.rejected) return fail("rejected by the source check", splitLines(compile.diagnostics));
  if (compile.cannotStart) return fail(compile.diagnostics);
  if (compile.timedOut) return fail(fmt::format("compile timed out after {:g} s", kCompileTimeoutSeconds));
  if (compile.termSignal != 0) return fail(fmt::format("compiler killed by signal {}", compile.termSignal));
  if (compile.ok) {
    FileOutcome ok;
    ok.passed = true;
    return ok;
  }
  // The first error and what follows it (source line, caret, the next errors), not the "In file included" noise.
  auto lines = splitLines(compile.diagnostics);
  auto first = std::find_if(lines.begin(), lines.end(),
                            [](const std::string& l) { return l.find("error:") != std::string::npos; });
  if (first == lines.end()) first = lines.begin();
  std::vector<std::string> shown(first, lines.end());
  if (shown.size() > kMaxCompilerLines) {
    size_t more = shown.size() - kMaxCompilerLines;
    shown.resize(kMaxCompilerLines);
    shown.push_back(fmt::format("... ({})", plural(more, "more line", "more lines")));
  }
  if (shown.empty()) shown.push_back(fmt::format("g++ exited with status {} and printed nothing", compile.exitCode));
  return fail("compile error", std::move(shown));
}

FileOutcome judgeRun(const runner::RunResult& run, double timeoutSeconds) {
  using runner::RunStatus;
  FileOutcome outcome = [&] {
    switch (run.status) {
      case RunStatus::Passed: break;
      case RunStatus::CheckFailed:
        // The verdict channel names the check; the notes under it are on stderr.
        if (auto failure = emulatorCheckFailure(run.err); failure && failure->summary == run.message) return *failure;
        return fail(run.message);
      case RunStatus::TimedOut:
        if (run.message.rfind("timed out", 0) == 0) {
          return fail(fmt::format("timed out after {:g} s", timeoutSeconds), tail(run.err, kMaxStderrTail));
        }
        return fail(run.message, tail(run.err, kMaxStderrTail));
      case RunStatus::Crashed:
      case RunStatus::UsageError:
        if (run.termSignal != 0) {
          return fail(fmt::format("killed by signal {}", run.termSignal), tail(run.err, kMaxStderrTail));
        }
        return fail(fmt::format("exit status {}", run.exitCode), tail(run.err, kMaxStderrTail));
      case RunStatus::CannotStart:
      case RunStatus::ForgedVerdict:
      case RunStatus::LimitExceeded:
      case RunStatus::SandboxViolation: return fail(run.message, tail(run.err, kMaxStderrTail));
    }
    auto parsed = parseReport(run.report);
    if (auto* problem = std::get_if<std::string>(&parsed)) return fail(*problem);
    const auto& launches = std::get<std::vector<Launch>>(parsed);
    if (launches.empty()) {
      return fail("no kernel launch was reported",
                  {"the program must launch its kernel with ICPU_RUN_KF under #ifdef ASCENDC_CPU_DEBUG"});
    }
    uint64_t blocks = 0;
    uint64_t instructions = 0;
    for (const auto& launch : launches) {
      if (launch.checks != "passed") {
        return fail(fmt::format("kernel {}: emulator checks {}", launch.kernel, launch.checks));
      }
      blocks += launch.blocks;
      instructions += launch.instructions;
    }
    FileOutcome passed;
    passed.passed = true;
    passed.summary =
        fmt::format("{}, {}, {}, all checks passed", plural(launches.size(), "launch", "launches"),
                    plural(blocks, "block", "blocks"), plural(instructions, "instruction", "instructions"));
    return passed;
  }();
  outcome.programOut = run.out;
  if (run.droppedBytes > 0) outcome.details.push_back(fmt::format("({} bytes of output left out)", run.droppedBytes));
  return outcome;
}

int runEmuFiles(const EmuRunOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err) {
  bool missing = false;
  for (const auto& file : options.files) {
    std::error_code ec;
    auto status = fs::status(file, ec);
    if (!fs::exists(status)) {
      err << fmt::format("error: no such kernel file: '{}'\n", file);
      missing = true;
    } else if (!fs::is_regular_file(status)) {
      err << fmt::format("error: not a kernel file: '{}' is a folder or device\n", file);
      missing = true;
    }
  }
  if (missing) return 2;
  if (!fs::exists(fs::path(options.includeDir) / "kernel_operator.h")) {
    err << fmt::format("error: emulator headers not found: no kernel_operator.h in '{}'\n", options.includeDir);
    err << "hint: set TILECRAFT_EMU_INCLUDE to the emulator's include folder (emu/include in the source tree)\n";
    return 2;
  }

  if (!prepareOutputFolder("--keep", options.keepDir, err)) return 2;
  if (!prepareOutputFolder("--trace-dir", options.traceDir, err)) return 2;
  std::optional<WorkRoot> root;
  try {
    root.emplace(options.keepDir);
  } catch (const std::exception& e) {
    err << fmt::format("error: {}\n", e.what());
    return 2;
  }
  const auto names = workNames(options.files);
  const size_t count = options.files.size();
  std::vector<std::optional<FileOutcome>> outcomes(count);
  std::mutex mutex;
  std::condition_variable ready;
  std::atomic<size_t> next{0};

  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) {
      FileOutcome outcome;
      try {
        std::optional<fs::path> trace;
        if (!options.traceDir.empty()) trace = fs::absolute(options.traceDir) / (names[i] + ".trace.jsonl");
        outcome = buildAndRun(options, service, options.files[i], root->path() / names[i], trace);
      } catch (const std::exception& e) {
        outcome = fail(e.what());
      }
      std::lock_guard lock(mutex);
      outcomes[i] = std::move(outcome);
      ready.notify_all();
    }
  };
  size_t threads = std::min(count, static_cast<size_t>(std::max(options.jobs, 1)));
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);

  bool allPassed = true;
  for (size_t i = 0; i < count; ++i) {
    std::unique_lock lock(mutex);
    ready.wait(lock, [&] { return outcomes[i].has_value(); });
    FileOutcome outcome = std::move(*outcomes[i]);
    lock.unlock();
    allPassed = allPassed && outcome.passed;
    printOutcome(out, options.files[i], outcome, options.quiet);
  }
  for (auto& thread : pool) thread.join();
  return allPassed ? 0 : 1;
}

int runEmuFiles(const EmuRunOptions& options, std::ostream& out, std::ostream& err) {
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = options.includeDir;
  serviceOptions.sandbox = options.sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(serviceOptions, err);
  if (!service) return 2;
  return runEmuFiles(options, *service, out, err);
}

}  // namespace tilecraft::cli
