// `tilecraft bench TASKS... --solutions DIR`: score solutions on a task suite (harness/bench.h); with --generator
// llm, a model's solutions generated first (cli/bench_generator.h); and `tilecraft bench merge`: one report from
// the results of several shards.
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/bench_generator.h"
#include "cli/flags.h"
#include "cli/judge_setup.h"
#include "cli/registry.h"
#include "harness/bench.h"
#include "harness/golden.h"
#include "harness/merge.h"
#include "harness/progress.h"
#include "harness/slurm.h"
#include "harness/shard.h"
#include "runner/service.h"
#include "support/numbers.h"
#include "support/process.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

struct BenchCommand {
  harness::BenchOptions options;
  std::string rule = "cann";
  std::string shard;
  std::string cacheDir;
  bool noSandbox = false;
  bool slurm = false;
  int shards = 2;
  std::vector<std::string> sbatch;
  std::vector<std::string> mergeShards;
  std::string mergeOut;
  GeneratorFlags generator;
};

// The arguments a shard runs with: this command's own, without --slurm, --shards, --sbatch, --shard and --out.
std::vector<std::string> shardArguments(const BenchCommand& cmd) {
  const harness::BenchOptions& o = cmd.options;
  std::vector<std::string> args = o.suites;
  if (!o.solutions.empty()) args.insert(args.end(), {"--solutions", o.solutions});
  if (o.smoke) args.push_back("--smoke");
  args.insert(args.end(), {"--rule", cmd.rule, "--seed", std::to_string(o.seed), "--timeout",
                           fmt::format("{}", o.timeoutSeconds), "--jobs", std::to_string(o.jobs)});
  for (const std::string& t : o.only) args.insert(args.end(), {"--task", t});
  if (!cmd.cacheDir.empty()) args.insert(args.end(), {"--cache", cmd.cacheDir});
  if (cmd.noSandbox) args.push_back("--no-sandbox");
  args.push_back("--quiet");
  return args;
}

int submitToSlurm(const BenchCommand& cmd) {
  harness::SlurmJob job;
  std::error_code ec;
  job.tilecraft = fs::read_symlink("/proc/self/exe", ec).string();
  job.benchArgs = shardArguments(cmd);
  job.outDir = cmd.options.outDir;
  job.shards = cmd.shards;
  // The shards run from this folder (on a cluster, a shared file system), so relative paths mean the same there.
  job.sbatchOptions.push_back("--chdir=" + fs::current_path().string());
  job.sbatchOptions.insert(job.sbatchOptions.end(), cmd.sbatch.begin(), cmd.sbatch.end());
  support::SystemProcessRunner runner;
  std::string error;
  std::optional<harness::SlurmSubmission> submitted = harness::submitSlurm(job, runner, &error);
  if (!submitted) {
    std::cerr << "error: " << error << '\n';
    return 1;
  }
  std::cout << fmt::format("submitted array job {} ({} shards) and merge job {}; the report will be in {}\n",
                           submitted->arrayJobId, job.shards, submitted->mergeJobId, job.outDir);
  return 0;
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
    std::optional<harness::Shard> shard = harness::parseShard(cmd.shard, &error);
    if (!shard) {
      std::cerr << "error: " << error << '\n';
      return 2;
    }
    o.shardIndex = shard->index;
    o.shardCount = shard->count;
  }
  if (cmd.generator.generator == "llm") {
    if (cmd.slurm || cmd.shard.size()) {
      std::cerr << "error: --generator llm runs here: drop --slurm and --shard\n";
      return 2;
    }
    return runGeneratorBench(o, cmd.cacheDir, cmd.noSandbox, cmd.generator);
  }
  if (cmd.slurm) return submitToSlurm(cmd);
  return runBenchWithParts(o, cmd.cacheDir, !cmd.noSandbox, std::cout, std::cerr);
}

void registerBenchCommand(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench",
                                       "Score solutions on a task suite: compile, correctness on two seeds, "
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
  checkSeed(bench->add_option("--seed", o.seed, "Seed of the first input draw (the second is derived)")
                ->capture_default_str());
  bench->add_option("--shard", cmd->shard, "Evaluate share i of N of the (task, case, sample) items: i/N");
  bench->add_option("--task", o.only, "Only this task (repeatable)");
  checkSeconds(bench
                   ->add_option("--timeout", o.timeoutSeconds,
                                fmt::format("Seconds one kernel run may take (at most {:g})", support::kMaxSeconds))
                   ->capture_default_str(),
               false);
  bench->add_option("--cache", cmd->cacheDir,
                    "Golden and program cache (default $TILECRAFT_CACHE or ~/.cache/tilecraft)");
  bench->add_flag("--no-sandbox", cmd->noSandbox, "Run kernels without the sandbox (debugging only: docs/security.md)");
  bench->add_flag("-q,--quiet", o.quiet, "No progress lines");
  CLI::Option* slurm =
      bench->add_flag("--slurm", cmd->slurm, "Submit the run as a Slurm array job of --shards shards and a merge job");
  bench->add_option("--shards", cmd->shards, "--slurm: how many shards (array tasks)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000))
      ->needs(slurm);
  bench
      ->add_option("--sbatch", cmd->sbatch,
                   "--slurm: an sbatch option for both jobs (repeatable), e.g. "
                   "--sbatch=--partition=cpu")
      ->needs(slurm);
  addGeneratorFlags(bench, cmd->generator);

  CLI::App* merge = bench->add_subcommand("merge",
                                          "One report from the results of several shards (or runs of "
                                          "disjoint work): results.jsonl, summary.md, report.html");
  merge->add_option("SHARD", cmd->mergeShards, "Shard output folders (or their results.jsonl files)")->required();
  merge->add_option("--out", cmd->mergeOut, "Where the merged results and reports go")->required();
  merge->callback([cmd] {
    if (!prepareOutputFolder("--out", cmd->mergeOut, std::cerr)) throw CLI::RuntimeError(2);
    int status = harness::runBenchMerge(cmd->mergeShards, cmd->mergeOut, std::cout, std::cerr);
    if (status != 0) throw CLI::RuntimeError(status);
  });
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
