#include "fuzz/emulate.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "codegen/driver.h"
#include "codegen/emitter.h"
#include "fuzz/harness.h"
#include "fuzz/minimise.h"
#include "interp/compare.h"
#include "interp/npy.h"
#include "support/files.h"

namespace tilecraft::fuzz {

namespace {

namespace fs = std::filesystem;

// One program on its way through the loop. Each is touched by one thread at a time (a batch's build, then its
// own run), so it needs no lock.
struct Item {
  uint64_t seed = 0;
  size_t index = 0;  // in the list of programs
  FuzzProgram generated;
  std::optional<ComparisonCase> comparison;
  std::string tile;    // the .tile file in the work folder
  std::string code;    // its AscendC, namespaced for a batch
  std::string binary;  // the batch program that holds it, once built
  std::optional<Failure> failure;

  const FuzzProgram& program() const { return comparison->program; }
  void fail(Stage stage, std::string message, std::string detail = {}) {
    failure = Failure{
        seed, comparison ? label(comparison->program) : std::string(), stage, std::move(message), std::move(detail),
        index};
  }
};

std::string namespaceOf(const FuzzProgram& program) { return "tc_" + program.kernel; }

void writeFile(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  if (!out) throw std::runtime_error(fmt::format("cannot write '{}'", path.string()));
}

// The first `n` lines of a child's output: enough to see the error, short enough for a terminal.
std::string headLines(const std::string& text, int n) {
  size_t pos = 0;
  for (int i = 0; i < n && pos != std::string::npos; ++i) {
    pos = text.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos || pos >= text.size()) return text;
  return text.substr(0, pos) + "...\n";
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// The work folder's path is noise in a report: g++'s messages keep the file name only.
std::string shortPaths(std::string text, const std::string& source) {
  std::string name = fs::path(source).filename().string();
  for (size_t pos = text.find(source); pos != std::string::npos; pos = text.find(source, pos + name.size())) {
    text.replace(pos, source.size(), name);
  }
  return text;
}

// Runs body(0..n-1) on up to `jobs` threads. Bodies do not throw: each records its own failure.
void parallelFor(size_t n, int jobs, const std::function<void(size_t)>& body) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < n; i = next++) body(i);
  };
  std::vector<std::thread> threads;
  size_t extra = std::min<size_t>(n, static_cast<size_t>(std::max(jobs, 1))) - std::min<size_t>(n, 1);
  for (size_t t = 0; t < extra; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

class Loop {
 public:
  Loop(const EmulateOptions& options, runner::BuildRunService& service, fs::path dir)
      : options_(options), service_(service), dir_(std::move(dir)) {}

  EmulateSummary run(const std::vector<FuzzProgram>& programs);

 private:
  double now() const {
    if (options_.clock) return options_.clock();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  void prepare(Item& item);
  void buildGroup(const std::vector<Item*>& group, const std::string& name);
  void runOne(Item& item);

  const EmulateOptions& options_;
  runner::BuildRunService& service_;
  fs::path dir_;
  std::atomic<int> builds_{0};
};

void Loop::prepare(Item& item) {
  const FuzzProgram& program = item.generated;
  std::string error;
  item.comparison = prepareComparison(program, item.seed, &error);
  if (!item.comparison) {
    item.failure = Failure{
        item.seed, label(program), Stage::Reference, "the program does not run on the reference (a generator bug)",
        error,     item.index};
    return;
  }
  item.tile = (dir_ / (program.kernel + ".tile")).string();
  writeFile(item.tile, program.source);
  std::string kernel;
  std::ostringstream diagnostics;
  if (codegen::compileToAscendC({item.tile, "text", namespaceOf(program)}, item.code, kernel, diagnostics) != 0) {
    std::string text = diagnostics.str();
    item.fail(Stage::Compile, firstLine(text), text);
  }
}

// Builds `group` into one program. A failed build (an error or any warning) is split in halves until each
// failing kernel stands alone, so the report names it and the others still run.
void Loop::buildGroup(const std::vector<Item*>& group, const std::string& name) {
  std::vector<std::string> names, namespaces, code;
  for (const Item* item : group) {
    names.push_back(item->program().kernel);
    namespaces.push_back(namespaceOf(item->program()));
    code.push_back(item->code);
  }
  fs::path source = dir_ / (name + ".cpp");
  std::vector<LineRange> ranges;
  std::ofstream out(source, std::ios::binary);
  out << batchSource(names, namespaces, code, &ranges);
  runner::BuildResult built;
  if (out.flush()) {
    ++builds_;
    built = service_.build(buildRequest(source.string(), options_));
  } else {
    built.diagnostics = fmt::format("cannot write '{}'", source.string());
  }
  if (built.ok && built.diagnostics.empty()) {
    for (Item* item : group) item->binary = built.program;
    return;
  }
  auto message = [&](const std::string& messages) {
    return built.timedOut      ? fmt::format("g++ timed out after {} s", options_.buildTimeoutSeconds)
           : built.cannotStart ? firstLine(built.diagnostics)
           : messages.find("error:") != std::string::npos ? "the generated AscendC does not build"
                                                          : "the generated AscendC builds with a warning";
  };
  if (group.size() == 1) {
    group[0]->fail(Stage::Build, message(built.diagnostics),
                   headLines(shortPaths(built.diagnostics, source.string()), 20));
    return;
  }
  // g++'s messages name lines of the batch's file: the kernels they point into fail, the others are built again
  // without them. Messages only inside the headers name no kernel: then halve the batch.
  std::vector<size_t> named = kernelsNamedBy(built.diagnostics, source.string(), ranges);
  if (!named.empty() && named.size() < group.size()) {
    std::vector<Item*> rest;
    for (size_t k = 0; k < group.size(); ++k) {
      if (std::binary_search(named.begin(), named.end(), k)) {
        std::string own = messagesFor(built.diagnostics, source.string(), ranges[k]);
        group[k]->fail(Stage::Build, message(own), headLines(own, 20));
      } else {
        rest.push_back(group[k]);
      }
    }
    buildGroup(rest, name + "r");
    return;
  }
  size_t half = group.size() / 2;
  buildGroup({group.begin(), group.begin() + static_cast<std::ptrdiff_t>(half)}, name + "a");
  buildGroup({group.begin() + static_cast<std::ptrdiff_t>(half), group.end()}, name + "b");
}

void Loop::runOne(Item& item) {
  const FuzzProgram& program = item.program();
  const interp::OracleCase& oracle = item.comparison->oracle;
  fs::path dir = dir_ / program.kernel;
  std::error_code ec;
  fs::create_directories(dir, ec);
  runner::RunRequest request;
  request.program = item.binary;
  request.args = {program.kernel, "--out-dir", dir.string()};
  for (const auto& [name, value] : program.dims) request.args.push_back(fmt::format("{}={}", name, value));
  for (const auto& [name, value] : program.attrs) request.args.push_back(fmt::format("{}={}", name, value));
  for (const auto& [name, tensor] : oracle.request.inputs) {
    fs::path file = dir / ("in_" + name + ".npy");
    std::ofstream(file, std::ios::binary) << interp::encodeNpy(tensor);
    request.args.push_back("--in");
    request.args.push_back(name + "=" + file.string());
  }
  request.workDir = dir.string();
  request.limits.wallSeconds = options_.runTimeoutSeconds;
  runner::RunResult ran = service_.run(request);
  if (ran.status != runner::RunStatus::Passed) {
    using runner::RunStatus;
    std::string message =
        ran.status == RunStatus::TimedOut && ran.message.rfind("timed out", 0) == 0
            ? fmt::format("timed out after {} s", options_.runTimeoutSeconds)
        : ran.status == RunStatus::CheckFailed || ran.exitCode == 3 ? "an emulator check failed (exit status 3)"
        : ran.status == RunStatus::Crashed && ran.termSignal != 0   ? fmt::format("killed by signal {}", ran.termSignal)
        : ran.status == RunStatus::Crashed || ran.status == RunStatus::UsageError
            ? fmt::format("exit status {}", ran.exitCode)
            : fmt::format("{}: {}", runner::runStatusName(ran.status), ran.message);
    item.fail(Stage::Run, message, headLines(ran.err, 20));
    return;
  }
  std::string mismatches;
  auto read = [&](const std::string& name) { return support::readFile(dir / (name + ".npy")); };
  for (const interp::OutputCheck& check : interp::checkOutputs(oracle, read)) {
    if (!check.pass()) mismatches += fmt::format("{}{}", mismatches.empty() ? "" : "; ", check.summary());
  }
  if (!mismatches.empty()) {
    item.fail(Stage::Compare, mismatches);
    return;  // its inputs and outputs stay in a work folder given with workDir
  }
  fs::remove_all(dir, ec);
}

EmulateSummary Loop::run(const std::vector<FuzzProgram>& programs) {
  EmulateSummary summary;
  summary.programs = static_cast<int64_t>(programs.size());
  std::vector<Item> items(programs.size());
  double start = now();
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].seed = programs[i].seed;
    items[i].index = i;
    items[i].generated = programs[i];
    prepare(items[i]);
  }
  double built = now();
  summary.prepareSeconds = built - start;

  std::vector<std::vector<Item*>> batches;
  for (Item& item : items) {
    if (item.failure) continue;
    if (batches.empty() || batches.back().size() >= static_cast<size_t>(std::max(options_.batchSize, 1))) {
      batches.emplace_back();
    }
    batches.back().push_back(&item);
  }
  parallelFor(batches.size(), options_.jobs, [&](size_t b) { buildGroup(batches[b], fmt::format("batch{}", b)); });
  double ran = now();
  summary.buildSeconds = ran - built;
  summary.builds = builds_;

  std::vector<Item*> runnable;
  for (Item& item : items) {
    if (!item.failure) runnable.push_back(&item);
  }
  parallelFor(runnable.size(), options_.jobs, [&](size_t i) { runOne(*runnable[i]); });
  summary.runSeconds = now() - ran;

  for (Item& item : items) {
    if (item.failure) {
      summary.failures.push_back(*item.failure);
    } else {
      ++summary.passed;
    }
  }
  return summary;
}

// The failing program's .tile and its standalone AscendC (the form `tilecraft compile --emit=ascendc` writes,
// not the batch's namespaced one), so it can be rebuilt and rerun alone.
void keepFailure(const Failure& failure, const fs::path& keep, Mix mix) {
  FuzzProgram program = generate(failure.seed, mix);
  fs::path tile = keep / (program.kernel + ".tile");
  writeFile(tile, program.source);
  if (failure.stage == Stage::Reference || failure.stage == Stage::Compile) return;
  std::string code, kernel;
  std::ostringstream ignored;
  if (codegen::compileToAscendC({tile.string(), "text"}, code, kernel, ignored) == 0) {
    writeFile(keep / (program.kernel + ".cpp"), code);
  }
}

}  // namespace

const char* stageName(Stage stage) {
  switch (stage) {
    case Stage::Reference: return "reference";
    case Stage::Compile: return "compile";
    case Stage::Build: return "build";
    case Stage::Run: return "run";
    case Stage::Compare: return "compare";
  }
  return "";
}

const char* failureKind(Stage stage) {
  switch (stage) {
    case Stage::Reference: return "generator bug";
    case Stage::Compile:
    case Stage::Build: return "compile error";
    case Stage::Run: return "emulator error";
    case Stage::Compare: return "wrong values";
  }
  return "";
}

std::string emulateReplayCommand(uint64_t seed, const std::string& keepDir, Mix mix) {
  std::string cmd =
      fmt::format("tilecraft fuzz --emulate{} --seed {} --count 1", mix == Mix::Patterns ? " --patterns" : "", seed);
  return keepDir.empty() ? cmd : cmd + " --keep " + keepDir;
}

std::string failureLine(const Failure& failure, const std::string& keepDir, Mix mix) {
  return fmt::format("FAIL seed {} ({}) {} [{}]: {} | replay: {}", failure.seed, failure.family,
                     stageName(failure.stage), failureKind(failure.stage), failure.message,
                     emulateReplayCommand(failure.seed, keepDir, mix));
}

std::string batchSource(const std::vector<std::string>& kernelNames, const std::vector<std::string>& namespaces,
                        const std::vector<std::string>& kernelCode, std::vector<LineRange>* ranges) {
  std::string s = "// A batch of kernels generated by tilecraft fuzz --emulate: one build for all of them.\n";
  s += codegen::batchPrelude();
  auto lines = [](const std::string& text) { return static_cast<int64_t>(std::count(text.begin(), text.end(), '\n')); };
  int64_t line = lines(s);  // lines so far
  for (const std::string& code : kernelCode) {
    s += "\n" + code;
    int64_t first = line + 2;
    line += 1 + lines(code);
    if (ranges) ranges->push_back({first, line});
  }
  std::string list;
  for (const std::string& name : kernelNames) list += " " + name;
  s += "\n#ifdef ASCENDC_CPU_DEBUG\n";
  s += "// Usage: PROGRAM KERNEL NAME=VALUE... [--in NAME=FILE]... [--out-dir DIR]: runs one kernel of the batch.\n";
  s += "int main(int argc, char** argv) {\n";
  s += "  if (argc < 2) {\n";
  s += fmt::format("    std::fprintf(stderr, \"usage: %s KERNEL NAME=VALUE... (kernels:{})\\n\", argv[0]);\n", list);
  s += "    return 2;\n  }\n";
  s += "  const std::string kernel = argv[1];\n";
  for (size_t i = 0; i < kernelNames.size(); ++i) {
    s += fmt::format("  if (kernel == \"{}\") return {}::Run(argc - 1, argv + 1);\n", kernelNames[i], namespaces[i]);
  }
  s += "  std::fprintf(stderr, \"error: no kernel '%s' in this batch\\n\", argv[1]);\n";
  s += "  return 2;\n}\n#endif  // ASCENDC_CPU_DEBUG\n";
  return s;
}

namespace {

// Every (line, position of the line's start in err) where err names `source:LINE:`.
std::vector<std::pair<int64_t, size_t>> sourceLines(const std::string& err, const std::string& source) {
  std::vector<std::pair<int64_t, size_t>> out;
  std::string key = source + ":";
  for (size_t pos = err.find(key); pos != std::string::npos; pos = err.find(key, pos + 1)) {
    size_t digits = pos + key.size();
    int64_t line = 0;
    auto [end, ec] = std::from_chars(err.data() + digits, err.data() + err.size(), line);
    if (ec != std::errc() || end == err.data() + digits) continue;
    size_t lineStart = err.rfind('\n', pos);
    out.push_back({line, lineStart == std::string::npos ? 0 : lineStart + 1});
  }
  return out;
}

}  // namespace

std::vector<size_t> kernelsNamedBy(const std::string& err, const std::string& source,
                                   const std::vector<LineRange>& ranges) {
  std::vector<size_t> named;
  for (const auto& [line, start] : sourceLines(err, source)) {
    for (size_t k = 0; k < ranges.size(); ++k) {
      if (line >= ranges[k].first && line <= ranges[k].last) named.push_back(k);
    }
  }
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  return named;
}

std::string messagesFor(const std::string& err, const std::string& source, LineRange range) {
  std::string out;
  size_t taken = std::string::npos;  // the start of the last line taken, so a line is not taken twice
  for (const auto& [line, start] : sourceLines(err, source)) {
    if (line < range.first || line > range.last || (taken != std::string::npos && start <= taken)) continue;
    size_t end = start;
    for (int i = 0; i < 3 && end != std::string::npos; ++i) {
      end = err.find('\n', end);
      if (end != std::string::npos) ++end;
    }
    std::string piece = err.substr(start, end == std::string::npos ? std::string::npos : end - start);
    taken = end == std::string::npos ? err.size() : end - 1;
    out += piece;
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  return shortPaths(out, source);
}

runner::BuildRequest buildRequest(const std::string& source, const EmulateOptions& options) {
  runner::BuildRequest request;
  request.source = source;
  request.optLevel = "-O1";
  request.warnings = true;
  request.limits.wallSeconds = options.buildTimeoutSeconds;
  return request;
}

support::ProcessSpec buildSpec(const std::string& source, const std::string& binary, const EmulateOptions& options) {
  support::ProcessSpec spec;
  spec.argv = runner::compileCommand(buildRequest(source, options), options.emuInclude, "g++", binary);
  spec.env["LC_ALL"] = "C";  // messages in English, without typographic quotes
  spec.timeoutSeconds = options.buildTimeoutSeconds;
  return spec;
}

EmulateSummary emulate(const EmulateOptions& options, runner::BuildRunService& service) {
  std::vector<FuzzProgram> programs;
  for (int64_t i = 0; i < options.count; ++i)
    programs.push_back(generate(options.seed + static_cast<uint64_t>(i), options.mix));
  return emulatePrograms(programs, options, service);
}

EmulateSummary emulatePrograms(const std::vector<FuzzProgram>& programs, const EmulateOptions& options,
                               runner::BuildRunService& service) {
  bool temporary = options.workDir.empty();
  fs::path dir;
  if (temporary) {
    std::string pattern = (fs::temp_directory_path() / "tilecraft-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error(fmt::format("cannot create a temporary folder: {}", std::strerror(errno)));
    }
    dir = pattern;
  } else {
    std::error_code ec;
    fs::create_directories(options.workDir, ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create '{}': {}", options.workDir, ec.message()));
    dir = fs::absolute(options.workDir);
  }
  // The folder goes whatever happens: a thousand programs leave a few hundred megabytes of binaries.
  struct Cleanup {
    fs::path dir;
    bool active;
    ~Cleanup() {
      std::error_code ec;
      if (active) fs::remove_all(dir, ec);
    }
  } cleanup{dir, temporary};
  return Loop(options, service, dir).run(programs);
}

std::string checkAtLeastOne(const std::string& value, const char* unit, const char* example) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
    return fmt::format("'{}' is not a whole number of {}", value, unit);
  }
  if (n < 1) return fmt::format("'{}' {}: the value must be at least 1 (e.g. {})", value, unit, example);
  return "";
}

int runEmulate(const EmulateOptions& options, runner::BuildRunService& service, std::ostream& out, std::ostream& err) {
  EmulateSummary summary;
  try {
    summary = emulate(options, service);
    if (!options.keepDir.empty() && !summary.failures.empty()) {
      std::error_code ec;
      fs::create_directories(options.keepDir, ec);
      if (ec) throw std::runtime_error(fmt::format("cannot create '{}': {}", options.keepDir, ec.message()));
      for (const Failure& f : summary.failures) keepFailure(f, options.keepDir, options.mix);
    }
  } catch (const std::runtime_error& e) {
    err << "error: " << e.what() << "\n";
    return 2;
  }
  for (const Failure& f : summary.failures) {
    err << failureLine(f, options.keepDir, options.mix) << "\n";
    std::istringstream lines(f.detail);
    for (std::string line; std::getline(lines, line);) err << "    " << line << "\n";
  }
  if (!summary.failures.empty()) {
    std::map<std::string, int> kinds;
    for (const Failure& f : summary.failures) ++kinds[failureKind(f.stage)];
    std::string list;
    for (const auto& [kind, n] : kinds) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", n, kind);
    err << "failures by kind: " << list << "\n";
  }
  if (!options.corpusDir.empty()) {
    int minimised = 0;
    for (const Failure& f : summary.failures) {
      if (f.stage == Stage::Reference || minimised >= options.minimiseFailures) continue;
      ++minimised;
      FuzzProgram found = generate(f.seed, options.mix);
      try {
        Minimised m = minimiseFailure(found, f, options, service);
        std::string path = saveToCorpus(m, found, options.corpusDir, options.mix);
        err << fmt::format("minimised seed {} ({}): {} -> {} lines in {} rounds ({} candidates), saved to {}\n", f.seed,
                           failureKind(m.failure.stage), m.linesBefore, m.linesAfter, m.rounds, m.candidates, path);
      } catch (const std::runtime_error& e) {
        err << "error: " << e.what() << "\n";
        return 2;
      }
    }
  }
  out << fmt::format(
      "fuzz --emulate: {} program{} from seed {}: {} passed, {} failed; prepare {:.1f} s, build {:.1f} s "
      "({} g++ run{}, up to {} per batch), run {:.1f} s, {} job{}\n",
      summary.programs, summary.programs == 1 ? "" : "s", options.seed, summary.passed, summary.failures.size(),
      summary.prepareSeconds, summary.buildSeconds, summary.builds, summary.builds == 1 ? "" : "s", options.batchSize,
      summary.runSeconds, options.jobs, options.jobs == 1 ? "" : "s");
  return summary.failures.empty() ? 0 : 1;
}

int runEmulate(const EmulateOptions& options, std::ostream& out, std::ostream& err) {
  runner::ServiceOptions serviceOptions;
  serviceOptions.emuInclude = options.emuInclude;
  serviceOptions.sandbox = options.sandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::startBuildRunService(serviceOptions, err);
  if (!service) return 2;
  return runEmulate(options, *service, out, err);
}

}  // namespace tilecraft::fuzz
