// `tilecraft fuzz` usage errors: the messages name the option and what to pass instead.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/process.h"

namespace {

tilecraft::support::ProcessResult fuzzRun(std::vector<std::string> args) {
  tilecraft::support::ProcessSpec spec;
  spec.argv = {TILECRAFT_CLI_BINARY, "fuzz"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.workdir = TILECRAFT_CLI_TEST_DATA;
  spec.timeoutSeconds = 60;
  tilecraft::support::SystemProcessRunner runner;
  return runner.run(spec);
}

TEST(TilecraftFuzzUsage, ZeroCountIsAClearUsageError) {
  auto r = fuzzRun({"--count", "0"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "--count: '0' programs: the count must be at least 1 (e.g. --count 100)\n"
            "Run with --help for more information.\n");
  EXPECT_EQ(r.out, "");
}

TEST(TilecraftFuzzUsage, NegativeCountIsAClearUsageError) {
  auto r = fuzzRun({"--count=-3"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "--count: '-3' programs: the count must be at least 1 (e.g. --count 100)\n"
            "Run with --help for more information.\n");
}

TEST(TilecraftFuzzUsage, NonNumericCountIsAClearUsageError) {
  auto r = fuzzRun({"--count", "many"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "--count: 'many' is not a whole number of programs\nRun with --help for more information.\n");
}

TEST(TilecraftFuzzUsage, MinimisingNoFailuresIsAClearUsageError) {
  auto r = fuzzRun({"--emulate", "--corpus", "c", "--minimise-failures", "0"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "--minimise-failures: '0' failures to minimise: the value must be at least 1 (e.g. --minimise-failures 4)\n"
            "Run with --help for more information.\n");
}

}  // namespace
