// The built `tilecraft` executable: version, help, and the exit status of usage errors.
#include <gtest/gtest.h>

#include <string>

#include "support/process.h"

namespace {

tilecraft::support::ProcessResult tilecraftRun(std::vector<std::string> args) {
  tilecraft::support::ProcessSpec spec;
  spec.argv = {TILECRAFT_CLI_BINARY};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.workdir = TILECRAFT_CLI_TEST_DATA;
  spec.timeoutSeconds = 60;
  tilecraft::support::SystemProcessRunner runner;
  return runner.run(spec);
}

TEST(TilecraftMain, Version) {
  auto r = tilecraftRun({"--version"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, "tilecraft 0.1.0\n");
}

TEST(TilecraftMain, HelpListsTheEmuCommand) {
  auto r = tilecraftRun({"--help"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("Usage: tilecraft [OPTIONS] SUBCOMMAND"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  emu "), std::string::npos) << r.out;
}

TEST(TilecraftMain, MissingSubcommandIsAUsageError) {
  auto r = tilecraftRun({});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "A subcommand is required\nRun with --help for more information.\n");
}

TEST(TilecraftMain, MissingKernelFileIsAUsageError) {
  auto r = tilecraftRun({"emu", "run", "stub_emu/stub_pass.cpp", "no_such_kernel.cpp"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "error: no such kernel file: 'no_such_kernel.cpp'\n");
  EXPECT_EQ(r.out, "");
}

TEST(TilecraftMain, BadOptionValueIsAUsageError) {
  auto r = tilecraftRun({"emu", "run", "--opt", "-O7", "stub_emu/stub_pass.cpp"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "--opt: '-O7' is not an optimisation level\nRun with --help for more information.\n");
}

TEST(TilecraftMain, EmulatorIncludeFolderComesFromTheEnvironment) {
  // With the stub emulator the whole path runs: exit status 0 only if the files pass.
  ::setenv("TILECRAFT_EMU_INCLUDE", "stub_emu", 1);
  auto r = tilecraftRun({"emu", "run", "--quiet", "stub_emu/stub_pass.cpp"});
  ::unsetenv("TILECRAFT_EMU_INCLUDE");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, "PASS stub_emu/stub_pass.cpp: 2 launches, 12 blocks, 120 instructions, all checks passed\n");
  EXPECT_EQ(r.exitCode, 0);
}

TEST(TilecraftMain, AFailingKernelExitsWithOne) {
  ::setenv("TILECRAFT_EMU_INCLUDE", "stub_emu", 1);
  auto r = tilecraftRun({"emu", "run", "--quiet", "stub_emu/stub_wrong.cpp"});
  ::unsetenv("TILECRAFT_EMU_INCLUDE");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out, "FAIL stub_emu/stub_wrong.cpp: exit status 1\n    mismatch at index 3: 2 != 5\n");
}

}  // namespace
