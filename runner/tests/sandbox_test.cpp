// The sandbox's pieces that need no child: the output cap, the bubblewrap command line, the messages; and the
// no-sandbox mode's limits with real children.
#include "runner/sandbox.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;

TEST(CappedOutput, KeepsEverythingUnderTheCap) {
  CappedOutput out(10);
  out.append("hello", 5);
  out.append("abc", 3);
  EXPECT_EQ(out.text(), "helloabc");
  EXPECT_EQ(out.dropped(), 0u);
}

TEST(CappedOutput, KeepsTheFirstAndLastHalfAndCountsTheRest) {
  CappedOutput out(8);
  std::string text = "0123456789abcdefghij";  // 20 bytes: 0123 kept, ghij kept, 12 dropped
  for (char c : text) out.append(&c, 1);
  EXPECT_EQ(out.dropped(), 12u);
  EXPECT_EQ(out.text(), "0123\n... 12 bytes left out ...\nghij");
  CappedOutput once(8);
  once.append(text.data(), text.size());
  EXPECT_EQ(once.text(), out.text());
}

TEST(BubblewrapArgv, ReadOnlySystemOneWritableFolderNoNetworkCleanEnvironment) {
  SandboxSpec spec;
  spec.argv = {"/cache/k/prog", "--seed", "1"};
  spec.env = {{"LC_ALL", "C"}, {"PATH", "/usr/bin"}};
  spec.workDir = "/tmp/work";
  spec.readOnlyPaths = {"/tmp/work/inputs", "/data"};
  std::vector<std::string> argv = bubblewrapArgv(spec);
  auto has = [&](std::vector<std::string> seq) {
    return std::search(argv.begin(), argv.end(), seq.begin(), seq.end()) != argv.end();
  };
  EXPECT_EQ(argv[0], "bwrap");
  for (const char* flag : {"--die-with-parent", "--new-session", "--unshare-all", "--clearenv"}) {
    EXPECT_TRUE(has({flag})) << flag;
  }
  EXPECT_TRUE(has({"--cap-drop", "ALL"}));
  EXPECT_TRUE(has({"--ro-bind", "/usr", "/usr"}));
  EXPECT_TRUE(has({"--tmpfs", "/tmp"}));
  EXPECT_TRUE(has({"--setenv", "LC_ALL", "C", "--setenv", "PATH", "/usr/bin"}));
  EXPECT_TRUE(has({"--chdir", "/tmp/work"}));
  EXPECT_FALSE(has({"--ro-bind", "/", "/"}));
  EXPECT_FALSE(has({"--share-net"}));
  // The work folder is bound before the read-only folder inside it, so that one stays read-only.
  auto at = [&](const std::string& what) { return std::find(argv.begin(), argv.end(), what) - argv.begin(); };
  EXPECT_EQ(argv[static_cast<size_t>(at("/tmp/work") - 1)], "--bind");
  EXPECT_LT(at("/tmp/work"), at("/tmp/work/inputs"));
  EXPECT_EQ(argv[static_cast<size_t>(at("/tmp/work/inputs") - 1)], "--ro-bind");
  // The program and its arguments come last, after "--".
  EXPECT_EQ(std::vector<std::string>(argv.end() - 4, argv.end()),
            (std::vector<std::string>{"--", "/cache/k/prog", "--seed", "1"}));
}

TEST(SandboxMessages, UnavailableSaysHowToEnableIt) {
  EXPECT_EQ(sandboxUnavailableMessage("bwrap: No permissions to creating new namespace"),
            "cannot start the sandbox: bwrap: No permissions to creating new namespace; bubblewrap needs to create "
            "namespaces: enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 and "
            "user.max_user_namespaces > 0; in a container, allow unshare, e.g. docker run --security-opt "
            "seccomp=unconfined), or rerun with --no-sandbox (no isolation: trusted code only)");
}

TEST(NoSandbox, SameLimitsAndCleanEnvironment) {
  auto sandbox = makeSystemSandbox(SandboxMode::None);
  SandboxSpec spec;
  spec.argv = {"/bin/sh", "-c", "env; ulimit -v; ulimit -f"};
  spec.env = {{"PATH", "/usr/bin:/bin"}, {"ONLY", "this"}};
  spec.workDir = fs::temp_directory_path().string();
  spec.limits.addressSpaceBytes = 1ull << 30;
  spec.limits.fileSizeBytes = 1ull << 20;
  SandboxResult r = sandbox->run(spec);
  ASSERT_TRUE(r.started) << r.startError;
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_NE(r.out.find("ONLY=this\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("HOME="), std::string::npos) << r.out;              // nothing inherited
  EXPECT_NE(r.out.find("\n1048576\n2048\n"), std::string::npos) << r.out;  // KiB, 512-byte blocks
}

TEST(NoSandbox, ProgramThatDoesNotExist) {
  auto sandbox = makeSystemSandbox(SandboxMode::None);
  SandboxSpec spec;
  spec.argv = {"/no/such/program"};
  SandboxResult r = sandbox->run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.startError, "cannot run '/no/such/program': No such file or directory");
}

TEST(NoSandbox, WorkFolderThatDoesNotExist) {
  auto sandbox = makeSystemSandbox(SandboxMode::None);
  SandboxSpec spec;
  spec.argv = {"/bin/true"};
  spec.workDir = "/no/such/work";
  SandboxResult r = sandbox->run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.startError, "cannot run '/bin/true': cannot enter its work folder: No such file or directory");
}

TEST(Bubblewrap, MissingBubblewrapIsNamedWithTheFix) {
  auto sandbox = makeSystemSandbox(SandboxMode::Bubblewrap, "/nonexistent/bwrap");
  SandboxSpec spec;
  spec.argv = {"true"};
  SandboxResult r = sandbox->run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.startError,
            "cannot start the sandbox: bubblewrap (bwrap) is not installed; install the Debian package "
            "'bubblewrap', or rerun with --no-sandbox (no isolation: trusted code only)");
}

TEST(Bubblewrap, ABadBindIsAStartError) {
  auto sandbox = makeSystemSandbox(SandboxMode::Bubblewrap);
  SandboxSpec spec;
  spec.argv = {"true"};
  spec.env = {{"PATH", "/usr/bin:/bin"}};
  spec.readOnlyPaths = {"/no/such/folder"};
  SandboxResult r = sandbox->run(spec);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.startError,
            "cannot start the sandbox: bwrap: Can't find source path /no/such/folder: No such file or directory");
}

}  // namespace
}  // namespace tilecraft::runner
