#include "fuzz/mutate_campaign.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <regex>
#include <thread>

#include "support/files.h"

namespace tilecraft::fuzz {
namespace {

constexpr uint64_t kMemoryLimit = 4ull << 30;

std::vector<std::string> dimNames(const std::string& text) {
  static const std::regex kDim(R"((^|\n)[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*dim[ \t]*\()");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kDim); it != std::sregex_iterator(); ++it) {
    std::string name = (*it)[2].str();
    if (std::find(names.begin(), names.end(), name) == names.end() && names.size() < 16) names.push_back(name);
  }
  return names;
}

std::string signalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    default: return fmt::format("signal {}", sig);
  }
}

// The first and last kilobyte of a child's stderr, for a report that stays readable.
std::string excerpt(const std::string& text) {
  if (text.size() <= 3000) return text;
  return text.substr(0, 2000) + fmt::format("\n[... {} bytes ...]\n", text.size() - 3000) +
         text.substr(text.size() - 1000);
}

std::string commandLine(const std::string& tilecraft, const Stage& stage, const std::string& file) {
  std::string cmd = tilecraft;
  for (const std::string& a : stage.args) cmd += " " + (a == "{file}" ? file : a);
  return cmd;
}

struct Run {
  Stage stage;
  support::ProcessResult result;
  Verdict verdict;
};

class Executor {
 public:
  Executor(const MutateOptions& options, support::ProcessRunner& runner) : options_(options), runner_(runner) {}

  Run run(const Stage& stage, const std::string& path) {
    support::ProcessSpec spec;
    spec.argv.push_back(options_.tilecraft);
    for (const std::string& a : stage.args) spec.argv.push_back(a == "{file}" ? path : a);
    spec.timeoutSeconds = options_.timeoutSeconds;
    spec.memoryLimitBytes = kMemoryLimit;
    Run r{stage, runner_.run(spec), {}};
    r.verdict = judgeRun(r.result, options_.timeoutSeconds, stage.name == "json");
    return r;
  }

  bool write(const std::filesystem::path& path, const std::string& text, std::ostream& err) {
    std::string error;
    if (support::writeFileAtomically(path, text, &error)) return true;
    err << "error: " << error << "\n";
    return false;
  }

 private:
  const MutateOptions& options_;
  support::ProcessRunner& runner_;
};

struct Failure {
  uint64_t seed = 0;
  std::string program;
  std::vector<std::string> steps;
  std::string text;
  Run run;
};

// Minimises (when allowed) and writes the reproducer of `f`: failures/<name>.tile, the mutant as found
// (<name>.found.tile) when minimising changed it, and <name>.txt with what failed and how to replay it.
void writeReproducer(const MutateOptions& options, Executor& exec, const Failure& f, const std::string& name,
                     const std::string& replay, bool minimiseIt, std::ostream& out, std::ostream& err) {
  std::filesystem::path dir = options.workDir / "failures";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string text = f.text;
  // A hang costs a whole timeout per try: those are kept as found.
  if (minimiseIt && options.minimiseRuns > 0 && f.run.verdict.category != "timeout") {
    std::filesystem::path probe = options.workDir / (name + ".probe.tile");
    text = minimise(
        f.text,
        [&](const std::string& candidate) {
          if (!exec.write(probe, candidate, err)) return false;
          Run r = exec.run(f.run.stage, probe.string());
          return !r.verdict.ok && r.verdict.category == f.run.verdict.category;
        },
        options.minimiseRuns);
    std::filesystem::remove(probe, ec);
  }
  std::filesystem::path tile = dir / (name + ".tile");
  exec.write(tile, text, err);
  if (text != f.text) exec.write(dir / (name + ".found.tile"), f.text, err);
  std::string report = fmt::format("{}: {}\n", f.run.stage.name, f.run.verdict.detail);
  if (!f.program.empty()) report += fmt::format("seed program: {}\n", f.program);
  for (const std::string& s : f.steps) report += fmt::format("mutation: {}\n", s);
  report += fmt::format("reproducer: {} ({} bytes{})\n", tile.filename().string(), text.size(),
                        text != f.text ? fmt::format(", minimised from {}", f.text.size()) : "");
  report += fmt::format("run it: {}\n", commandLine("tilecraft", f.run.stage, tile.filename().string()));
  if (!replay.empty()) report += fmt::format("replay: {}\n", replay);
  report += "--- stderr ---\n" + excerpt(f.run.result.err) + "\n";
  exec.write(dir / (name + ".txt"), report, err);
  out << fmt::format("  reproducer: {} ({} bytes{})\n", tile.string(), text.size(),
                     text != f.text ? fmt::format(", minimised from {}", f.text.size()) : "");
}

std::string kindsArgument(const std::vector<MutationKind>& kinds) {
  return kinds == allMutationKinds() ? "all" : mutationKindList(kinds);
}

std::string replayCommand(const MutateOptions& options, uint64_t seed) {
  return fmt::format("tilecraft_mutate --replay {} --kinds {}", seed, kindsArgument(options.kinds));
}

bool prepareWorkDir(const MutateOptions& options, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(options.workDir, ec);
  if (ec) {
    err << fmt::format("error: cannot create the work folder {}: {}\n", options.workDir.string(), ec.message());
    return false;
  }
  return true;
}

}  // namespace

std::vector<Stage> stagesFor(const std::string& text, bool sampled) {
  std::vector<Stage> stages = {{"check", {"compile", "{file}", "--emit=ir"}}};
  if (!sampled) return stages;
  stages.push_back({"ascendc", {"compile", "{file}", "--emit=ascendc"}});
  Stage interp{"interp", {"interp", "{file}", "--seed", "1"}};
  // Small sizes that are not multiples of 32 bytes: the padded last tile is where boundary bugs live.
  int size = 24;
  for (const std::string& dim : dimNames(text)) {
    interp.args.push_back("--shape");
    interp.args.push_back(fmt::format("{}={}", dim, size));
    size += 8;
  }
  stages.push_back(interp);
  stages.push_back({"json", {"compile", "{file}", "--emit=ast", "--diagnostics=json"}});
  return stages;
}

Verdict judgeRun(const support::ProcessResult& result, double timeoutSeconds, bool jsonDiagnostics) {
  auto fail = [](std::string category, std::string detail) { return Verdict{false, category, detail}; };
  if (result.timedOut) return fail("timeout", fmt::format("timeout: no exit within {} s", timeoutSeconds));
  if (result.termSignal != 0) {
    std::string name = signalName(result.termSignal);
    std::string why = result.err.find("internal error") != std::string::npos ? " after an internal error" : "";
    return fail("signal " + name, fmt::format("killed by {}{}", name, why));
  }
  if (result.exitCode < 0) return fail("not started", "not started: " + result.err);
  if (result.exitCode > 2) {
    return fail(fmt::format("exit status {}", result.exitCode),
                fmt::format("exit status {} (only 0, 1 and 2 are documented)", result.exitCode));
  }
  for (const std::string* text : {&result.out, &result.err}) {
    size_t at = text->find("internal error");
    if (at == std::string::npos) at = text->find("internal compiler error");
    if (at != std::string::npos) {
      size_t begin = text->rfind('\n', at);
      begin = begin == std::string::npos ? 0 : begin + 1;
      std::string line = text->substr(begin, text->find('\n', at) - begin);
      return fail("internal error", "internal error: " + line.substr(0, 300));
    }
  }
  // Exit status 2 is a usage error, written as text before the diagnostics format applies.
  if (jsonDiagnostics && result.exitCode != 2) {
    // nlohmann's parser refuses invalid UTF-8 in strings, as every strict JSON reader does.
    if (nlohmann::json::parse(result.err, nullptr, false).is_discarded()) {
      return fail("invalid JSON",
                  fmt::format("--diagnostics=json wrote {} bytes that are not valid JSON (UTF-8)", result.err.size()));
    }
  }
  return {};
}

std::string minimise(const std::string& text, const std::function<bool(const std::string&)>& stillFails, int maxRuns) {
  int runs = 0;
  auto tryCandidate = [&](const std::string& candidate) { return runs++ < maxRuns && stillFails(candidate); };
  std::string best = text;
  // Delta debugging over units (lines, then bytes): remove chunks of halving size while the failure stays.
  auto reduce = [&](bool byLines) {
    std::vector<std::string> units;
    if (byLines) {
      size_t begin = 0;
      for (size_t i = 0; i < best.size(); ++i) {
        if (best[i] == '\n') {
          units.push_back(best.substr(begin, i + 1 - begin));
          begin = i + 1;
        }
      }
      if (begin < best.size()) units.push_back(best.substr(begin));
    } else {
      for (char c : best) units.emplace_back(1, c);
    }
    for (size_t chunk = std::max<size_t>(1, units.size() / 2); chunk >= 1 && runs < maxRuns; chunk /= 2) {
      for (size_t start = 0; start < units.size() && runs < maxRuns;) {
        std::string candidate;
        for (size_t i = 0; i < units.size(); ++i) {
          if (i < start || i >= start + chunk) candidate += units[i];
        }
        if (candidate.size() < best.size() && tryCandidate(candidate)) {
          units.erase(units.begin() + static_cast<std::ptrdiff_t>(start),
                      units.begin() + static_cast<std::ptrdiff_t>(std::min(units.size(), start + chunk)));
          best = candidate;
        } else {
          start += chunk;
        }
      }
      if (chunk == 1) break;
    }
  };
  reduce(true);
  reduce(false);
  return best;
}

// The seed programs, with the work folder ready; empty (the error said) when either is missing.
static std::vector<SeedProgram> loadSeedsAndWorkDir(const MutateOptions& options, std::ostream& err) {
  std::vector<SeedProgram> programs = loadSeedPrograms(options.root);
  if (programs.empty()) {
    err << fmt::format("error: no .tile files under {0}/examples or {0}/solutions (--root is the repository)\n",
                       options.root.string());
    return {};
  }
  if (!prepareWorkDir(options, err)) return {};
  return programs;
}

int runMutate(const MutateOptions& options, support::ProcessRunner& runner, std::ostream& out, std::ostream& err) {
  std::vector<SeedProgram> programs = loadSeedsAndWorkDir(options, err);
  if (programs.empty()) return 2;
  Executor exec(options, runner);
  auto started = std::chrono::steady_clock::now();
  std::vector<std::vector<Run>> runs(static_cast<size_t>(options.count));
  std::vector<std::string> texts(runs.size());
  std::atomic<int64_t> next{0};
  std::atomic<bool> writeFailed{false};
  std::mutex errMutex;
  auto worker = [&](int id) {
    std::filesystem::path path = options.workDir / fmt::format("mutant_{}.tile", id);
    for (int64_t i = next++; i < options.count; i = next++) {
      uint64_t seed = options.seed + static_cast<uint64_t>(i);
      Mutant m = makeMutant(programs, options.kinds, seed);
      {
        std::string error;
        if (!support::writeFileAtomically(path, m.text, &error)) {
          std::lock_guard lock(errMutex);
          err << "error: " << error << "\n";
          writeFailed = true;
          return;
        }
      }
      bool sampled = options.sampleEvery > 0 && seed % static_cast<uint64_t>(options.sampleEvery) == 0;
      for (const Stage& stage : stagesFor(m.text, sampled))
        runs[static_cast<size_t>(i)].push_back(exec.run(stage, path.string()));
      texts[static_cast<size_t>(i)] = std::move(m.text);
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, options.jobs); ++j) threads.emplace_back(worker, j);
  for (std::thread& t : threads) t.join();
  if (writeFailed) return 2;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  // One failure per mutant (its first failing stage, the one minimised); the other stages it fails are named.
  int64_t total = 0, exits[3] = {0, 0, 0};
  std::vector<Failure> failures;
  std::vector<std::string> alsoFailing;
  for (size_t i = 0; i < runs.size(); ++i) {
    const Run* first = nullptr;
    std::vector<std::string> others;
    for (const Run& r : runs[i]) {
      ++total;
      if (r.verdict.ok) ++exits[r.result.exitCode];
      else if (first == nullptr) first = &r;
      else others.push_back(fmt::format("{}: {}", r.stage.name, r.verdict.detail));
    }
    if (first == nullptr) continue;
    Mutant m = makeMutant(programs, options.kinds, options.seed + i);
    failures.push_back({m.seed, m.program, m.steps, texts[i], *first});
    alsoFailing.push_back(fmt::format("{}", fmt::join(others, "; ")));
  }
  for (size_t k = 0; k < failures.size(); ++k) {
    const Failure& f = failures[k];
    out << fmt::format("FAIL seed {} ({}; {}): {}: {}\n", f.seed, f.program, fmt::join(f.steps, "; "), f.run.stage.name,
                       f.run.verdict.detail);
    if (!alsoFailing[k].empty()) out << "  also " << alsoFailing[k] << "\n";
    writeReproducer(options, exec, f, fmt::format("seed_{}", f.seed), replayCommand(options, f.seed),
                    static_cast<int>(k) < options.minimiseFailures, out, err);
    out << fmt::format("  replay: {}\n", replayCommand(options, f.seed));
  }
  out << fmt::format(
      "mutate: {} mutants from seed {} of {} programs (kinds {}): {} runs in {:.1f} s, exit 0: {}, 1: {}, 2: {}; "
      "{} failing mutant{}\n",
      options.count, options.seed, programs.size(), kindsArgument(options.kinds), total, seconds, exits[0], exits[1],
      exits[2], failures.size(), failures.size() == 1 ? "" : "s");
  return failures.empty() ? 0 : 1;
}

int replayMutant(const MutateOptions& options, uint64_t seed, support::ProcessRunner& runner, std::ostream& out,
                 std::ostream& err) {
  std::vector<SeedProgram> programs = loadSeedsAndWorkDir(options, err);
  if (programs.empty()) return 2;
  Executor exec(options, runner);
  Mutant m = makeMutant(programs, options.kinds, seed);
  std::filesystem::path path = options.workDir / fmt::format("replay_{}.tile", seed);
  if (!exec.write(path, m.text, err)) return 2;
  out << fmt::format("seed {}: {}; {}\nmutant: {} ({} bytes)\n", seed, m.program, fmt::join(m.steps, "; "),
                     path.string(), m.text.size());
  int failed = 0;
  for (const Stage& stage : stagesFor(m.text, true)) {
    Run r = exec.run(stage, path.string());
    out << fmt::format("{}: {}: {}\n", stage.name, commandLine(options.tilecraft, stage, path.string()),
                       r.verdict.ok ? fmt::format("exit status {}", r.result.exitCode) : "FAIL " + r.verdict.detail);
    if (!r.verdict.ok) {
      ++failed;
      out << excerpt(r.result.err) << "\n";
    }
  }
  return failed == 0 ? 0 : 1;
}

int runCorpus(const MutateOptions& options, const std::filesystem::path& dir, support::ProcessRunner& runner,
              std::ostream& out, std::ostream& err) {
  std::vector<std::filesystem::path> files = support::listFilesRecursively(dir, ".tile");
  if (files.empty()) {
    err << fmt::format("error: no .tile files under {}\n", dir.string());
    return 2;
  }
  if (!prepareWorkDir(options, err)) return 2;
  Executor exec(options, runner);
  int64_t failed = 0, total = 0;
  for (const std::filesystem::path& file : files) {
    std::string text = support::readFile(file).value_or("");
    for (const Stage& stage : stagesFor(text, true)) {
      ++total;
      Run r = exec.run(stage, file.string());
      if (r.verdict.ok) continue;
      ++failed;
      out << fmt::format("FAIL {}: {}: {}\n  run it: {}\n", file.lexically_relative(dir).generic_string(), stage.name,
                         r.verdict.detail, commandLine(options.tilecraft, stage, file.string()));
    }
  }
  out << fmt::format("corpus: {} files, {} runs: {} failed\n", files.size(), total, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace tilecraft::fuzz
