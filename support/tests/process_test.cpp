// Real child processes through /bin/sh, and the fake used by the CLI tests.
#include "support/process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "support/fake_process_runner.h"

namespace tilecraft::support {
namespace {

ProcessResult runShell(const std::string& script, ProcessSpec spec = {}) {
  spec.argv = {"/bin/sh", "-c", script};
  SystemProcessRunner runner;
  return runner.run(spec);
}

TEST(SystemProcessRunner, CapturesStdoutStderrAndExitCode) {
  ProcessResult r = runShell("echo hello; echo oops >&2; exit 7");
  EXPECT_EQ(r.exitCode, 7);
  EXPECT_EQ(r.termSignal, 0);
  EXPECT_FALSE(r.timedOut);
  EXPECT_EQ(r.out, "hello\n");
  EXPECT_EQ(r.err, "oops\n");
  EXPECT_GE(r.seconds, 0.0);
}

TEST(SystemProcessRunner, ReportsTerminatingSignal) {
  ProcessResult r = runShell("kill -SEGV $$");
  EXPECT_EQ(r.exitCode, -1);
  EXPECT_EQ(r.termSignal, SIGSEGV);
  EXPECT_FALSE(r.timedOut);
}

TEST(SystemProcessRunner, TimeoutKillsTheWholeProcessGroup) {
  ProcessSpec spec;
  spec.timeoutSeconds = 0.3;
  // The grandchild keeps stdout open; unless the group is killed, reading would wait for it.
  ProcessResult r = runShell("echo started; sleep 30 & sleep 30; echo never", spec);
  EXPECT_TRUE(r.timedOut);
  EXPECT_EQ(r.termSignal, SIGKILL);
  EXPECT_EQ(r.out, "started\n");
  EXPECT_LT(r.seconds, 10.0);
}

TEST(SystemProcessRunner, TimeoutAppliesToAChildThatClosedItsOutput) {
  ProcessSpec spec;
  spec.timeoutSeconds = 0.3;
  ProcessResult r = runShell("exec >&- 2>&-; sleep 30", spec);
  EXPECT_TRUE(r.timedOut);
  EXPECT_LT(r.seconds, 10.0);
}

TEST(SystemProcessRunner, LeftoverBackgroundProcessDoesNotHoldUsUp) {
  // Without a timeout: the shell exits at once, its background sleep still holds stdout and is ended.
  ProcessResult r = runShell("sleep 30 & echo done");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, "done\n");
  EXPECT_LT(r.seconds, 10.0);
}

// True once `pid` has ended (gone, or a zombie waiting for whoever inherited it).
bool processEnded(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  auto close = text.rfind(')');
  return text.empty() || (close != std::string::npos && text.substr(close + 2, 1) == "Z");
}

TEST(SystemProcessRunner, ChildDiesWithItsParent) {
  std::string pidFile = ::testing::TempDir() + "tilecraft-process-test-child.pid";
  std::remove(pidFile.c_str());
  pid_t parent = ::fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    runShell("echo $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; exec sleep 30");
    ::_exit(0);
  }
  std::string childPid;
  for (int i = 0; i < 500 && childPid.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream(pidFile) >> childPid;
  }
  ASSERT_FALSE(childPid.empty());
  ::kill(parent, SIGKILL);
  ::waitpid(parent, nullptr, 0);
  bool ended = false;
  for (int i = 0; i < 500 && !ended; ++i) {
    ended = processEnded(static_cast<pid_t>(std::stoi(childPid)));
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(ended);
  std::remove(pidFile.c_str());
}

TEST(SystemProcessRunner, NoTimeoutWhenChildFinishesInTime) {
  ProcessSpec spec;
  spec.timeoutSeconds = 20;
  ProcessResult r = runShell("exit 0", spec);
  EXPECT_FALSE(r.timedOut);
  EXPECT_EQ(r.exitCode, 0);
}

TEST(SystemProcessRunner, LargeOutputOnBothStreamsDoesNotDeadlock) {
  // Far more than a pipe buffer (64 KiB) on each stream, interleaved.
  ProcessResult r = runShell(
      "i=0; while [ $i -lt 4000 ]; do "
      "echo 0123456789012345678901234567890123456789012345678901234567890123456789; "
      "echo abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij >&2; "
      "i=$((i+1)); done");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out.size(), 4000u * 71u);
  EXPECT_EQ(r.err.size(), 4000u * 71u);
}

TEST(SystemProcessRunner, EnvironmentIsInheritedAndExtended) {
  ::setenv("TILECRAFT_PROCESS_TEST_INHERITED", "from-parent", 1);
  ProcessSpec spec;
  spec.env = {{"TILECRAFT_PROCESS_TEST_ADDED", "added value"}, {"TILECRAFT_PROCESS_TEST_INHERITED", "overridden"}};
  ProcessResult r =
      runShell("echo \"$TILECRAFT_PROCESS_TEST_ADDED|$TILECRAFT_PROCESS_TEST_INHERITED|${HOME:+home}\"", spec);
  ::unsetenv("TILECRAFT_PROCESS_TEST_INHERITED");
  EXPECT_EQ(r.out, std::string("added value|overridden|") + (::getenv("HOME") ? "home" : "") + "\n");
}

TEST(SystemProcessRunner, StdinDataIsDelivered) {
  ProcessSpec spec;
  spec.stdinData = "line one\nline two\n";
  ProcessResult r = runShell("cat", spec);
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out, spec.stdinData);
}

TEST(SystemProcessRunner, LargeStdinToAChildThatStopsReadingDoesNotKillUs) {
  ProcessSpec spec;
  spec.stdinData = std::string(1 << 20, 'x');
  ProcessResult r = runShell("head -c 10 >/dev/null; exit 4", spec);
  EXPECT_EQ(r.exitCode, 4);
}

TEST(SystemProcessRunner, WithoutStdinDataTheChildSeesEndOfFile) {
  ProcessResult r = runShell("cat; echo done");
  EXPECT_EQ(r.out, "done\n");
}

TEST(SystemProcessRunner, RunsInTheWorkingDirectory) {
  ProcessSpec spec;
  spec.workdir = "/";
  ProcessResult r = runShell("pwd", spec);
  EXPECT_EQ(r.out, "/\n");
}

TEST(SystemProcessRunner, LimitsAreSetInTheChild) {
  ProcessSpec spec;
  spec.memoryLimitBytes = 64ull << 20;
  spec.timeoutSeconds = 2.5;
  ProcessResult r = runShell("ulimit -v; ulimit -t", spec);
  // ulimit -v is in KiB; the CPU limit is the timeout rounded up plus one second, as a backstop.
  EXPECT_EQ(r.out, "65536\n4\n");
}

TEST(SystemProcessRunner, LimitsNeverExceedTheInheritedHardLimit) {
  // Raising a hard limit is not permitted, so a run with a long timeout inside a process whose CPU time is
  // already capped (a tilecraft started by a tilecraft) must still start. The cap is set in a forked copy of
  // this test so that it does not stay on the test process.
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    rlimit cap{10, 10};
    if (::setrlimit(RLIMIT_CPU, &cap) != 0) ::_exit(2);
    ProcessSpec spec;
    spec.timeoutSeconds = 100;
    ProcessResult r = runShell("ulimit -H -t", spec);
    ::_exit(r.exitCode == 0 && r.out == "10\n" && r.err.empty() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(SystemProcessRunner, NoLimitsByDefault) {
  ProcessResult r = runShell("ulimit -v; ulimit -t");
  EXPECT_EQ(r.out, "unlimited\nunlimited\n");
}

TEST(SystemProcessRunner, ExecFailureIsReportedClearly) {
  SystemProcessRunner runner;
  ProcessSpec spec;
  spec.argv = {"tilecraft-no-such-program-xyz", "arg"};
  ProcessResult r = runner.run(spec);
  EXPECT_EQ(r.exitCode, -1);
  EXPECT_EQ(r.termSignal, 0);
  EXPECT_EQ(r.err, "cannot run 'tilecraft-no-such-program-xyz': No such file or directory");
}

TEST(SystemProcessRunner, BadWorkingDirectoryIsReportedClearly) {
  ProcessSpec spec;
  spec.workdir = "/tilecraft/no/such/dir";
  ProcessResult r = runShell("true", spec);
  EXPECT_EQ(r.exitCode, -1);
  EXPECT_EQ(r.err,
            "cannot run '/bin/sh': cannot enter working directory '/tilecraft/no/such/dir': No such file or directory");
}

TEST(SystemProcessRunner, EmptyCommandLineIsAnError) {
  SystemProcessRunner runner;
  ProcessResult r = runner.run(ProcessSpec{});
  EXPECT_EQ(r.exitCode, -1);
  EXPECT_EQ(r.err, "cannot run a process: empty command line");
}

TEST(SystemProcessRunner, ParallelRunsKeepTheirOutputApart) {
  constexpr int kThreads = 4;
  std::vector<ProcessResult> results(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([i, &results] {
      ProcessSpec spec;
      spec.env = {{"N", std::to_string(i)}};
      results[static_cast<size_t>(i)] = runShell("sleep 0.1; echo $N", spec);
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(results[static_cast<size_t>(i)].out, std::to_string(i) + "\n");
}

TEST(FakeProcessRunner, RecordsSpecsAndReturnsQueuedResultsInOrder) {
  FakeProcessRunner fake;
  ProcessResult first;
  first.exitCode = 3;
  first.err = "boom";
  fake.push(first);
  ProcessSpec spec;
  spec.argv = {"g++", "x.cpp"};
  EXPECT_EQ(fake.run(spec).exitCode, 3);
  EXPECT_EQ(fake.run(spec).exitCode, 0);  // queue exhausted: success
  ASSERT_EQ(fake.specs().size(), 2u);
  EXPECT_EQ(fake.specs()[0].argv[1], "x.cpp");
}

TEST(FakeProcessRunner, HandlerDecidesResults) {
  FakeProcessRunner fake;
  fake.setHandler([](const ProcessSpec& spec) {
    ProcessResult r;
    r.exitCode = static_cast<int>(spec.argv.size());
    return r;
  });
  ProcessSpec spec;
  spec.argv = {"a", "b", "c"};
  EXPECT_EQ(fake.run(spec).exitCode, 3);
}

}  // namespace
}  // namespace tilecraft::support
