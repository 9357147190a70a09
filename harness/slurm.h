// `tilecraft bench --slurm [sbatch options]`: one Slurm array job with one array task per shard (each runs
// `tilecraft bench ... --shard $SLURM_ARRAY_TASK_ID/N --out DIR/shard-$SLURM_ARRAY_TASK_ID`) and a merge job
// that starts when every array task succeeded (`--dependency=afterok:<array job>`) and runs `tilecraft bench
// merge DIR/shard-0 ... DIR/shard-<N-1> --out DIR`. sbatch runs behind support::ProcessRunner.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "support/process.h"

namespace tilecraft::harness {

struct SlurmJob {
  std::string tilecraft;                   // the binary every node runs (an absolute path on a shared file system)
  std::vector<std::string> benchArgs;      // bench's own arguments (TASKS, --solutions SOL, --smoke, ...) without
                                           // --slurm, --shard and --out
  std::string outDir;                      // DIR: shard i writes DIR/shard-<i>, the merge job DIR itself
  int shards = 1;                          // N: array tasks 0..N-1
  std::vector<std::string> sbatchOptions;  // passed through to both sbatch calls, e.g. --partition=cpu --time=2:00:00
                                           // (--wait makes each call return when its job has finished)
  std::string jobName = "tilecraft-bench";
};

// The scripts sbatch receives: POSIX sh, every argument single-quoted.
std::string slurmArrayScript(const SlurmJob& job);
std::string slurmMergeScript(const SlurmJob& job);

// The sbatch command lines (the script path last), as submitSlurm runs them; the merge one after `dependsOn`.
std::vector<std::string> sbatchArrayCommand(const SlurmJob& job, const std::string& scriptPath);
std::vector<std::string> sbatchMergeCommand(const SlurmJob& job, const std::string& scriptPath,
                                            const std::string& dependsOn);

struct SlurmSubmission {
  std::string arrayJobId, mergeJobId;
  std::string arrayScript, mergeScript;  // where the scripts were written: DIR/slurm/{array,merge}.sh
};

// Writes the two scripts under DIR/slurm/ (the shards' and the merge's logs go there too) and submits them.
// Errors (nullopt, `error` set):
//   "--slurm: the shard count must be at least 1, got N"
//   "--slurm: sbatch option 'OPT' is set by tilecraft (one array task per shard, the merge after them)"
//     for --array/-a and --dependency/-d in any spelling
//   "--slurm: cannot write DIR/slurm/array.sh: <reason>"
//   "--slurm: sbatch failed (exit status S) submitting the array job: <sbatch's stderr, first line>"
//   "--slurm: sbatch printed no job id for the array job: '<its stdout>'"   (the same two for the merge job)
std::optional<SlurmSubmission> submitSlurm(const SlurmJob& job, support::ProcessRunner& runner, std::string* error);

// 'text' as one POSIX shell word.
std::string shellQuote(const std::string& text);

}  // namespace tilecraft::harness
