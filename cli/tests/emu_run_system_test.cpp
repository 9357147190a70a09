// `emu run` with real g++ and real child processes in the sandbox, against a stub emulator (tests/data/stub_emu) that keeps
// only the run contract, so these tests do not depend on the real emulator's state.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli/emu_run.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;

class EmuRunSystem : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = fs::current_path();
    fs::current_path(fs::path(TILECRAFT_CLI_TEST_DATA) / "stub_emu");
    options_.includeDir = ".";
    options_.quiet = false;
  }
  void TearDown() override { fs::current_path(previous_); }
  // The real service, sandboxed.
  int run() { return runEmuFiles(options_, out_, err_); }

  fs::path previous_;
  EmuRunOptions options_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(EmuRunSystem, EveryKindOfOutcome) {
  options_.files = {"stub_pass.cpp", "stub_check.cpp", "stub_syntax.cpp", "stub_wrong.cpp", "stub_hang.cpp"};
  options_.timeoutSeconds = 0.5;
  options_.optLevel = "-O0";
  EXPECT_EQ(run(), 1);
  std::string out = out_.str();
  EXPECT_EQ(err_.str(), "");
  std::string expectedStart =
      "    computed 16 values\n"
      "PASS stub_pass.cpp: 2 launches, 12 blocks, 120 instructions, all checks passed\n"
      "    before the launch\n"
      "FAIL stub_check.cpp: stub_check.cpp:6: error: DataCopy reads past the end of x\n"
      "    stub_check.cpp:6: note: from the stub emulator\n"
      "FAIL stub_syntax.cpp: compile error\n"
      "    stub_syntax.cpp:5:10: error: 'undeclaredThing' was not declared in this scope\n";
  EXPECT_EQ(out.substr(0, expectedStart.size()), expectedStart);
  std::string expectedEnd =
      "FAIL stub_wrong.cpp: exit status 1\n"
      "    mismatch at index 3: 2 != 5\n"
      "FAIL stub_hang.cpp: timed out after 0.5 s\n";
  ASSERT_GE(out.size(), expectedEnd.size());
  EXPECT_EQ(out.substr(out.size() - expectedEnd.size()), expectedEnd);
}

TEST_F(EmuRunSystem, TraceDirAndKeepReceiveTheFiles) {
  fs::path scratch = fs::temp_directory_path() / "tilecraft-cli-system-test";
  fs::remove_all(scratch);
  options_.files = {"stub_pass.cpp"};
  options_.keepDir = (scratch / "keep").string();
  options_.traceDir = (scratch / "traces").string();
  EXPECT_EQ(run(), 0);
  EXPECT_TRUE(fs::is_regular_file(scratch / "keep" / "stub_pass" / "prog"));
  EXPECT_TRUE(fs::is_regular_file(scratch / "keep" / "stub_pass" / "report.jsonl"));
  EXPECT_TRUE(fs::is_directory(scratch / "traces"));
  fs::remove_all(scratch);
}

TEST_F(EmuRunSystem, NoSandboxRunsTheSameWay) {
  options_.files = {"stub_pass.cpp", "stub_check.cpp"};
  options_.sandbox = false;
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(out_.str(),
            "    computed 16 values\n"
            "PASS stub_pass.cpp: 2 launches, 12 blocks, 120 instructions, all checks passed\n"
            "    before the launch\n"
            "FAIL stub_check.cpp: stub_check.cpp:6: error: DataCopy reads past the end of x\n"
            "    stub_check.cpp:6: note: from the stub emulator\n");
}

}  // namespace
}  // namespace tilecraft::cli
