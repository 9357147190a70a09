#include "harness/slurm.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/fake_process_runner.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

class SlurmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tilecraft-slurm-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    job_.tilecraft = "/opt/tc/bin/tilecraft";
    job_.benchArgs = {"tasks dir", "--solutions", "it's/sol", "--smoke"};
    job_.outDir = (dir_ / "out").string();
    job_.shards = 3;
    job_.sbatchOptions = {"--partition=cpu", "--time=1:00:00"};
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  static support::ProcessResult printed(const std::string& out) {
    support::ProcessResult r;
    r.exitCode = 0;
    r.out = out;
    return r;
  }

  fs::path dir_;
  SlurmJob job_;
};

TEST_F(SlurmTest, SubmitsTheArrayThenTheMergeAfterIt) {
  support::FakeProcessRunner runner;
  runner.push(printed("4242\n"));
  runner.push(printed("4243;cluster\n"));
  std::string error;
  std::optional<SlurmSubmission> sub = submitSlurm(job_, runner, &error);
  ASSERT_TRUE(sub.has_value()) << error;
  EXPECT_EQ(sub->arrayJobId, "4242");
  EXPECT_EQ(sub->mergeJobId, "4243");
  std::vector<support::ProcessSpec> specs = runner.specs();
  ASSERT_EQ(specs.size(), 2u);
  std::string out = job_.outDir;
  EXPECT_EQ(specs[0].argv, (std::vector<std::string>{"sbatch", "--parsable", "--job-name=tilecraft-bench",
                                                     "--array=0-2", "--output=" + out + "/slurm/shard-%a.log",
                                                     "--partition=cpu", "--time=1:00:00", out + "/slurm/array.sh"}));
  EXPECT_EQ(specs[1].argv,
            (std::vector<std::string>{"sbatch", "--parsable", "--job-name=tilecraft-bench-merge",
                                      "--dependency=afterok:4242", "--output=" + out + "/slurm/merge.log",
                                      "--partition=cpu", "--time=1:00:00", out + "/slurm/merge.sh"}));
  EXPECT_EQ(read(sub->arrayScript), slurmArrayScript(job_));
  EXPECT_EQ(read(sub->mergeScript), slurmMergeScript(job_));
}

// The scripts run as Slurm would run them (sh, SLURM_ARRAY_TASK_ID set), with a stand-in tilecraft that
// prints its arguments one per line: quoting must deliver every argument intact.
TEST_F(SlurmTest, ScriptsPassEveryArgumentIntact) {
  fs::path fake = dir_ / "fake tilecraft";
  std::ofstream(fake) << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n";
  fs::permissions(fake, fs::perms::owner_all);
  job_.tilecraft = fake.string();
  job_.outDir = (dir_ / "out 'x'").string();
  fs::path array = dir_ / "array.sh", merge = dir_ / "merge.sh", printedArgs = dir_ / "args.txt";
  std::ofstream(array) << slurmArrayScript(job_);
  std::ofstream(merge) << slurmMergeScript(job_);
  std::string run = "SLURM_ARRAY_TASK_ID=2 sh '" + array.string() + "' > '" + printedArgs.string() + "'";
  ASSERT_EQ(std::system(run.c_str()), 0);
  std::string o = job_.outDir;
  EXPECT_EQ(read(printedArgs.string()),
            "bench\ntasks dir\n--solutions\nit's/sol\n--smoke\n--shard\n2/3\n--out\n" + o + "/shard-2\n");
  run = "sh '" + merge.string() + "' > '" + printedArgs.string() + "'";
  ASSERT_EQ(std::system(run.c_str()), 0);
  EXPECT_EQ(read(printedArgs.string()),
            "bench\nmerge\n" + o + "/shard-0\n" + o + "/shard-1\n" + o + "/shard-2\n--out\n" + o + "\n");
}

TEST_F(SlurmTest, PercentInTheOutputFolderIsLiteralForSlurm) {
  job_.outDir = "runs/100%";
  std::vector<std::string> argv = sbatchArrayCommand(job_, "s.sh");
  EXPECT_EQ(argv[4], "--output=runs/100%%/slurm/shard-%a.log");
}

TEST_F(SlurmTest, OptionsTilecraftSetsAreRefused) {
  for (const char* option : {"--array=0-9", "--array", "-a", "-a0-3", "--dependency=afterany:1", "-d"}) {
    support::FakeProcessRunner runner;
    job_.sbatchOptions = {"--partition=cpu", option};
    std::string error;
    EXPECT_FALSE(submitSlurm(job_, runner, &error).has_value());
    EXPECT_EQ(error, std::string("--slurm: sbatch option '") + option +
                         "' is set by tilecraft (one array task per shard, the merge after them)");
    EXPECT_TRUE(runner.specs().empty());
  }
}

TEST_F(SlurmTest, ZeroShardsIsAnError) {
  support::FakeProcessRunner runner;
  job_.shards = 0;
  std::string error;
  EXPECT_FALSE(submitSlurm(job_, runner, &error).has_value());
  EXPECT_EQ(error, "--slurm: the shard count must be at least 1, got 0");
}

TEST_F(SlurmTest, SbatchFailureStopsBeforeTheMerge) {
  support::FakeProcessRunner runner;
  support::ProcessResult failed;
  failed.exitCode = 1;
  failed.err = "sbatch: error: invalid partition specified: cpu\nmore\n";
  runner.push(failed);
  std::string error;
  EXPECT_FALSE(submitSlurm(job_, runner, &error).has_value());
  EXPECT_EQ(error,
            "--slurm: sbatch failed (exit status 1) submitting the array job: "
            "sbatch: error: invalid partition specified: cpu");
  EXPECT_EQ(runner.specs().size(), 1u);
}

TEST_F(SlurmTest, MissingJobIdIsAnError) {
  support::FakeProcessRunner runner;
  runner.push(printed("4242\n"));
  runner.push(printed("Submitted batch job\n"));
  std::string error;
  EXPECT_FALSE(submitSlurm(job_, runner, &error).has_value());
  EXPECT_EQ(error, "--slurm: sbatch printed no job id for the merge job: 'Submitted batch job'");
}

TEST_F(SlurmTest, UnwritableOutputFolderIsAnError) {
  support::FakeProcessRunner runner;
  std::ofstream(dir_ / "file") << "x";
  job_.outDir = (dir_ / "file").string();
  std::string error;
  EXPECT_FALSE(submitSlurm(job_, runner, &error).has_value());
  EXPECT_EQ(error.rfind("--slurm: cannot write " + job_.outDir + "/slurm/array.sh: ", 0), 0u) << error;
  EXPECT_TRUE(runner.specs().empty());
}

TEST(ShellQuote, SingleQuotesSurviveTheShell) {
  EXPECT_EQ(shellQuote("a b"), "'a b'");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuote(""), "''");
}

}  // namespace
}  // namespace tilecraft::harness
