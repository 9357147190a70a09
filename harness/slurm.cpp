#include "harness/slurm.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

namespace tilecraft::harness {
namespace {

constexpr const char* kOptionTaken =
    "--slurm: sbatch option '{}' is set by tilecraft (one array task per shard, "
    "the merge after them)";

std::string shardDir(const SlurmJob& job, const std::string& index) { return job.outDir + "/shard-" + index; }

// Slurm expands %-patterns in --output paths: a literal '%' in DIR is written "%%".
std::string slurmPattern(const std::string& path) {
  std::string out;
  for (char c : path) {
    out += c;
    if (c == '%') out += '%';
  }
  return out;
}

bool takenOption(const std::string& option) {
  for (const char* name : {"--array", "--dependency"}) {
    std::string n = name;
    if (option == n || option.rfind(n + "=", 0) == 0) return true;
  }
  // Short forms, attached or not: -a 0-3, -a0-3, -d afterok:1.
  return option.size() >= 2 && option[0] == '-' && (option[1] == 'a' || option[1] == 'd');
}

bool writeFile(const std::string& path, const std::string& text, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (ec || !out) {
    *error = fmt::format("--slurm: cannot write {}: {}", path, ec ? ec.message() : std::strerror(errno));
    return false;
  }
  return true;
}

// Runs one sbatch --parsable and returns the job id it printed ("123" or "123;cluster").
std::optional<std::string> submit(support::ProcessRunner& runner, const std::vector<std::string>& argv,
                                  const char* what, std::string* error) {
  support::ProcessSpec spec;
  spec.argv = argv;
  support::ProcessResult result = runner.run(spec);
  std::string firstErr = result.err.substr(0, result.err.find('\n'));
  if (result.exitCode != 0) {
    std::string status =
        result.exitCode >= 0 ? std::to_string(result.exitCode) : fmt::format("signal {}", result.termSignal);
    *error = fmt::format("--slurm: sbatch failed (exit status {}) submitting the {}: {}", status, what, firstErr);
    return std::nullopt;
  }
  std::string id = result.out.substr(0, result.out.find_first_of(";\n"));
  while (!id.empty() && (id.back() == ' ' || id.back() == '\r')) id.pop_back();
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    std::string shown = result.out;
    while (!shown.empty() && shown.back() == '\n') shown.pop_back();
    *error = fmt::format("--slurm: sbatch printed no job id for the {}: '{}'", what, shown);
    return std::nullopt;
  }
  return id;
}

}  // namespace

std::string shellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string slurmArrayScript(const SlurmJob& job) {
  std::string command = shellQuote(job.tilecraft) + " bench";
  for (const std::string& arg : job.benchArgs) command += " " + shellQuote(arg);
  command += fmt::format(" --shard \"$SLURM_ARRAY_TASK_ID/{}\" --out {}\"$SLURM_ARRAY_TASK_ID\"", job.shards,
                         shellQuote(job.outDir + "/shard-"));
  return fmt::format(
      "#!/bin/sh\n"
      "# tilecraft bench on Slurm: array task i evaluates shard i/{} into {}/shard-i "
      "(docs/bench-reports.md).\n"
      "set -eu\n"
      "exec {}\n",
      job.shards, job.outDir, command);
}

std::string slurmMergeScript(const SlurmJob& job) {
  std::string command = shellQuote(job.tilecraft) + " bench merge";
  for (int i = 0; i < job.shards; ++i) command += " " + shellQuote(shardDir(job, std::to_string(i)));
  command += " --out " + shellQuote(job.outDir);
  return fmt::format(
      "#!/bin/sh\n"
      "# tilecraft bench on Slurm: merges the {} shards' rows into {} once every array task succeeded.\n"
      "set -eu\n"
      "exec {}\n",
      job.shards, job.outDir, command);
}

std::vector<std::string> sbatchArrayCommand(const SlurmJob& job, const std::string& scriptPath) {
  std::vector<std::string> argv = {"sbatch", "--parsable", "--job-name=" + job.jobName,
                                   fmt::format("--array=0-{}", job.shards - 1),
                                   "--output=" + slurmPattern(job.outDir) + "/slurm/shard-%a.log"};
  argv.insert(argv.end(), job.sbatchOptions.begin(), job.sbatchOptions.end());
  argv.push_back(scriptPath);
  return argv;
}

std::vector<std::string> sbatchMergeCommand(const SlurmJob& job, const std::string& scriptPath,
                                            const std::string& dependsOn) {
  std::vector<std::string> argv = {"sbatch", "--parsable", "--job-name=" + job.jobName + "-merge",
                                   "--dependency=afterok:" + dependsOn,
                                   "--output=" + slurmPattern(job.outDir) + "/slurm/merge.log"};
  argv.insert(argv.end(), job.sbatchOptions.begin(), job.sbatchOptions.end());
  argv.push_back(scriptPath);
  return argv;
}

std::optional<SlurmSubmission> submitSlurm(const SlurmJob& job, support::ProcessRunner& runner, std::string* error) {
  if (job.shards < 1) {
    *error = fmt::format("--slurm: the shard count must be at least 1, got {}", job.shards);
    return std::nullopt;
  }
  for (const std::string& option : job.sbatchOptions) {
    if (takenOption(option)) {
      *error = fmt::format(kOptionTaken, option);
      return std::nullopt;
    }
  }
  SlurmSubmission submission;
  submission.arrayScript = job.outDir + "/slurm/array.sh";
  submission.mergeScript = job.outDir + "/slurm/merge.sh";
  if (!writeFile(submission.arrayScript, slurmArrayScript(job), error) ||
      !writeFile(submission.mergeScript, slurmMergeScript(job), error)) {
    return std::nullopt;
  }
  std::optional<std::string> arrayId =
      submit(runner, sbatchArrayCommand(job, submission.arrayScript), "array job", error);
  if (!arrayId) return std::nullopt;
  submission.arrayJobId = *arrayId;
  std::optional<std::string> mergeId =
      submit(runner, sbatchMergeCommand(job, submission.mergeScript, *arrayId), "merge job", error);
  if (!mergeId) return std::nullopt;
  submission.mergeJobId = *mergeId;
  return submission;
}

}  // namespace tilecraft::harness
