// Submits a sharded bench through harness/slurm.h with the real sbatch, for tests/slurm/slurm_test.sh: it
// checks that the generated array job, its logs and the dependent merge job behave on a real Slurm. usage:
// slurm_submit_probe TILECRAFT OUTDIR SHARDS [BENCH ARGS...]   prints "ARRAY_JOB_ID MERGE_JOB_ID"
#include <iostream>
#include <string>

#include "harness/slurm.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: slurm_submit_probe TILECRAFT OUTDIR SHARDS [BENCH ARGS...]\n";
    return 2;
  }
  tilecraft::harness::SlurmJob job;
  job.tilecraft = argv[1];
  job.outDir = argv[2];
  job.shards = std::stoi(argv[3]);
  job.benchArgs.assign(argv + 4, argv + argc);
  tilecraft::support::SystemProcessRunner runner;
  std::string error;
  auto submission = tilecraft::harness::submitSlurm(job, runner, &error);
  if (!submission) {
    std::cerr << error << "\n";
    return 1;
  }
  std::cout << submission->arrayJobId << " " << submission->mergeJobId << "\n";
  return 0;
}
