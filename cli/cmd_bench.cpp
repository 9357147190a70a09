// `tilecraft bench TASKS... --solutions DIR`: score solutions on a task suite (harness/bench.h), and
// `tilecraft bench merge`: one report from the results of several shards.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/registry.h"
#include "harness/bench.h"
#include "harness/golden.h"
#include "runner/service.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct BenchCommand {
  harness::BenchOptions options;
  std::string rule = "cann";
  std::string shard;
  std::string cacheDir;
  bool noSandbox = false;
};

std::string defaultCacheDir() {
  if (const char* c = std::getenv("TILECRAFT_CACHE"); c != nullptr && *c != '\0') return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') return fs::path(x) / "tilecraft";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') return fs::path(h) / ".cache" / "tilecraft";
  return ".tilecraft-cache";
}

// "i/N" with 0 <= i < N; the message says what was wrong with it.
bool parseShard(const std::string& text, int* index, int* count, std::string* error) {
  size_t slash = text.find('/');
  char* end = nullptr;
  if (slash == std::string::npos) {
    *error = fmt::format("--shard takes i/N (e.g. --shard 0/4), got '{}'", text);
    return false;
  }
  long i = std::strtol(text.c_str(), &end, 10);
  bool iOk = end == text.c_str() + slash && slash > 0;
  long n = std::strtol(text.c_str() + slash + 1, &end, 10);
  bool nOk = *end == '\0' && slash + 1 < text.size();
  if (!iOk || !nOk || n < 1 || i < 0 || i >= n || n > 100000) {
    *error = fmt::format("--shard {}: needs 0 <= i < N <= 100000 (e.g. --shard 0/4)", text);
    return false;
  }
  *index = static_cast<int>(i);
  *count = static_cast<int>(n);
  return true;
}

int runBenchCommand(BenchCommand& cmd) {
  harness::BenchOptions& o = cmd.options;
  std::optional<harness::Rule> rule = harness::ruleFromName(cmd.rule);
  if (!rule) {
    std::cerr << fmt::format("error: --rule {}: expected cann or allclose\n", cmd.rule);
    return 2;
  }
  o.rule = *rule;
  if (!cmd.shard.empty()) {
    std::string error;
    if (!parseShard(cmd.shard, &o.shardIndex, &o.shardCount, &error)) {
      std::cerr << "error: " << error << '\n';
      return 2;
    }
  }
  std::string why;
  std::optional<std::string> python = harness::findTorchPython(&why);
  if (!python) {
    std::cerr << "error: " << why << '\n';
    return 2;
  }
  std::string cache = cmd.cacheDir.empty() ? defaultCacheDir() : cmd.cacheDir;
  fs::create_directories(o.outDir);
  harness::PythonGoldenOptions goldenOptions;
  goldenOptions.python = *python;
  goldenOptions.cacheDir = fs::path(cache) / "goldens";
  goldenOptions.workDir = fs::path(o.outDir) / "work" / "golden";
  std::unique_ptr<harness::GoldenRunner> golden = harness::makePythonGoldenRunner(goldenOptions);
  runner::ServiceOptions serviceOptions;
  const char* include = std::getenv("TILECRAFT_EMU_INCLUDE");
  serviceOptions.emuInclude = include != nullptr && *include != '\0' ? include : TILECRAFT_EMU_INCLUDE_DIR;
  serviceOptions.cacheDir = (fs::path(cache) / "programs").string();
  serviceOptions.sandbox = !cmd.noSandbox;
  std::unique_ptr<runner::BuildRunService> service = runner::makeBuildRunService(serviceOptions);
  harness::BenchEnv env;
  env.service = service.get();
  env.golden = golden.get();
  return harness::runBench(o, env, std::cout, std::cerr);
}

void registerBenchCommand(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Score solutions on a task suite: compile, correctness on two seeds, "
                                                "simulated speed against eager and the hardware limit");
  auto cmd = std::make_shared<BenchCommand>();
  harness::BenchOptions& o = cmd->options;
  o.outDir = "bench-results";
  bench->add_option("TASKS", o.suites, "Task folders (CANN Bench layout), or folders holding them");
  bench->add_option("--solutions", o.solutions, "Solutions: DIR/TASK/ (or DIR/TASK/<k>/ for sample k)")
      ->capture_default_str();
  bench->add_option("--out", o.outDir, "results.jsonl, summary.md, report.html and the work folder")
      ->capture_default_str();
  bench->add_flag("--smoke", o.smoke, "Only the first case of each task");
  bench->add_flag("--resume", o.resume, "Continue the run whose results.jsonl is in --out");
  bench->add_option("--rule", cmd->rule, "Correctness rule: cann (dtype-scaled relative error) | allclose")
      ->capture_default_str();
  bench->add_option("-j,--jobs", o.jobs, "Tasks evaluated at once")->capture_default_str()->check(CLI::Range(1, 256));
  bench->add_option("--seed", o.seed, "Seed of the first input draw (the second is derived)")->capture_default_str();
  bench->add_option("--shard", cmd->shard, "Evaluate share i of N of the (task, case, sample) items: i/N");
  bench->add_option("--task", o.only, "Only this task (repeatable)");
  bench->add_option("--timeout", o.timeoutSeconds, "Seconds one kernel run may take")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  bench->add_option("--cache", cmd->cacheDir, "Golden and program cache (default $TILECRAFT_CACHE or ~/.cache/tilecraft)");
  bench->add_flag("--no-sandbox", cmd->noSandbox, "Run kernels without the sandbox (debugging only: docs/security.md)");
  bench->add_flag("-q,--quiet", o.quiet, "No progress lines");
  bench->callback([cmd, bench] {
    if (bench->get_subcommands().empty()) {
      if (cmd->options.suites.empty()) throw CLI::RequiredError("TASKS");
      int status = runBenchCommand(*cmd);
      if (status != 0) throw CLI::RuntimeError(status);
    }
  });
}

const CommandRegistration kRegistration("bench", &registerBenchCommand);

}  // namespace
}  // namespace tilecraft::cli
