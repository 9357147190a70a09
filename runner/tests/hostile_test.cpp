// The hostile-kernel suite: programs that try to escape, hang, exhaust or lie (hostile/hostile.cpp), built
// and run through the real service under bubblewrap with tight limits. Each must be contained and classified.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "runner/service.h"

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = TILECRAFT_SOURCE_DIR;

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Processes on the host whose first argument is `program`: what a run left behind.
int processesRunning(const std::string& program) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = readText(entry.path() / "cmdline");
    if (cmdline.substr(0, cmdline.find('\0')) == program) ++count;
  }
  return count;
}

class Hostile : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ServiceOptions options;
    options.emuInclude = (kSourceDir / "emu/include").string();
    // Kept between runs (the key is the content): the suite builds the program once, not once per test
    // process.
    options.cacheDir = (fs::temp_directory_path() / "tilecraft-runner-test-builds").string();
    service_ = makeBuildRunService(options).release();
    BuildRequest request;
    request.source = (kSourceDir / "runner/tests/hostile/hostile.cpp").string();
    request.optLevel = "-O0";
    build_ = new BuildResult(service_->build(request));
  }
  static void TearDownTestSuite() {
    delete service_;
    delete build_;
  }
  void SetUp() override {
    ASSERT_TRUE(build_->ok) << build_->diagnostics;
    std::string pattern = (fs::temp_directory_path() / "tilecraft-hostile-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    work_ = pattern;
  }
  void TearDown() override { fs::remove_all(work_); }

  RunResult run(std::vector<std::string> args, Limits limits = tight()) {
    RunRequest request;
    request.program = build_->program;
    request.args = std::move(args);
    request.workDir = work_.string();
    request.limits = limits;
    return service_->run(request);
  }
  static Limits tight() {
    Limits limits;
    limits.wallSeconds = 5;
    limits.addressSpaceBytes = 1ull << 30;
    limits.maxProcesses = 16;
    limits.fileSizeBytes = 1ull << 20;
    limits.outputCapBytes = 64 << 10;
    return limits;
  }

  static BuildRunService* service_;
  static BuildResult* build_;
  fs::path work_;
};

BuildRunService* Hostile::service_ = nullptr;
BuildResult* Hostile::build_ = nullptr;

TEST_F(Hostile, AnHonestRunPasses) {
  RunResult r = run({"pass"});
  EXPECT_EQ(r.status, RunStatus::Passed) << r.message << r.err;
  EXPECT_EQ(r.report.find("{\"kernel\":\"hostile_kernel\",\"blocks\":2,"), 0u) << r.report;
}

TEST_F(Hostile, EndlessLoopTimesOut) {
  Limits limits = tight();
  limits.wallSeconds = 1;
  RunResult r = run({"loop"}, limits);
  EXPECT_EQ(r.status, RunStatus::TimedOut);
  EXPECT_EQ(r.message, "timed out after 1 s (wall clock)");
  EXPECT_LT(r.seconds, 3);
}

TEST_F(Hostile, CpuTimeLimitEndsALoop) {
  Limits limits = tight();
  limits.wallSeconds = 10;
  limits.cpuSeconds = 1;
  RunResult r = run({"loop"}, limits);
  EXPECT_EQ(r.status, RunStatus::TimedOut);
  EXPECT_EQ(r.message, "used up its CPU time limit of 1 s");
}

TEST_F(Hostile, TwentyGibibytesExceedTheAddressSpace) {
  RunResult r = run({"alloc"});
  EXPECT_EQ(r.status, RunStatus::LimitExceeded) << r.message << r.err;
  EXPECT_EQ(r.message, "ran out of memory: the address space limit is 1 GiB");
}

TEST_F(Hostile, ForkStormIsContainedAndLeavesNothing) {
  Limits limits = tight();
  limits.wallSeconds = 2;
  RunResult r = run({"fork-storm"}, limits);
  EXPECT_TRUE(r.status == RunStatus::LimitExceeded || r.status == RunStatus::TimedOut) << runStatusName(r.status);
  EXPECT_EQ(processesRunning(build_->program), 0);
}

TEST_F(Hostile, SetsidDaemonDiesWithTheRun) {
  RunResult r = run({"daemon"});
  EXPECT_EQ(r.status, RunStatus::Passed) << r.message;
  EXPECT_EQ(processesRunning(build_->program), 0);
}

TEST_F(Hostile, WritingOutsideTheWorkFolderFails) {
  // The system is read-only; the rest of the host's folders (this test's own) are not there at all.
  fs::path here = fs::current_path() / (work_.filename().string() + "-outside.txt");
  const std::pair<fs::path, const char*> attempts[] = {{"/usr/tilecraft-escaped.txt", "Read-only file system"},
                                                       {here, "No such file or directory"}};
  for (const auto& [outside, error] : attempts) {
    RunResult r = run({"write", outside.string()});
    EXPECT_EQ(r.status, RunStatus::Crashed);
    EXPECT_EQ(r.message, "exit status 1");
    EXPECT_EQ(r.err, fmt::format("cannot write {}: {}\n", outside.string(), error));
    EXPECT_FALSE(fs::exists(outside));
  }
  // Its /tmp is its own: a file written there is not the host's.
  fs::path tmp = fs::path("/tmp") / (work_.filename().string() + "-private.txt");
  RunResult inTmp = run({"write", tmp.string()});
  EXPECT_EQ(inTmp.status, RunStatus::Passed) << inTmp.err;
  EXPECT_FALSE(fs::exists(tmp));
}

TEST_F(Hostile, HostFilesAreNotVisible) {
  ASSERT_TRUE(fs::exists("/etc/hostname") || fs::exists("/etc/passwd"));
  for (const char* file : {"/etc/hostname", "/etc/passwd"}) {
    RunResult r = run({"read", file});
    EXPECT_EQ(r.status, RunStatus::Crashed) << file;
    EXPECT_EQ(r.err, fmt::format("cannot read {}: No such file or directory\n", file));
  }
}

// The service's caller may hold descriptors without close-on-exec (a CI runner's log, a terminal): the
// program must not inherit them, or it could write to host files it was never shown.
TEST_F(Hostile, InheritableHostDescriptorsDoNotReachTheProgram) {
  fs::path log = work_.parent_path() / (work_.filename().string() + ".log");
  int leaked = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);  // deliberately without O_CLOEXEC
  ASSERT_GE(leaked, 0);
  RunResult r = run({"descriptors"});
  ::close(leaked);
  std::string written = readText(log);
  fs::remove(log);
  // 0-2 and the verdict channel (runner/sandbox.h; the emulator has read and closed its nonce descriptor).
  EXPECT_EQ(r.out, "0 1 2 100\n") << r.message;
  EXPECT_EQ(written, "");
}

TEST_F(Hostile, NoNetworkNotEvenLoopback) {
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t length = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &length);
  RunResult r = run({"socket", std::to_string(ntohs(addr.sin_port))});
  EXPECT_EQ(r.status, RunStatus::Crashed);
  // Its loopback is its own, with nothing listening on it.
  EXPECT_EQ(r.err, "cannot connect: Connection refused\n");
  ::fcntl(listener, F_SETFL, O_NONBLOCK);
  EXPECT_LT(::accept(listener, nullptr, nullptr), 0);  // nobody came
  ::close(listener);
}

TEST_F(Hostile, StdoutFloodIsCappedAndCounted) {
  RunResult r = run({"flood"});
  EXPECT_EQ(r.status, RunStatus::Passed) << r.message;
  uint64_t total = (64ull << 20) + std::string("the end\n").size();
  EXPECT_EQ(r.droppedBytes, total - (64 << 10));
  std::string marker = fmt::format("\n... {} bytes left out ...\n", r.droppedBytes);
  EXPECT_EQ(r.out.size(), (64u << 10) + marker.size());
  EXPECT_EQ(r.out.substr(32 << 10, marker.size()), marker);
  EXPECT_EQ(r.out.substr(r.out.size() - 8), "the end\n");
}

TEST_F(Hostile, FileSizeLimit) {
  RunResult r = run({"big-file"});
  EXPECT_EQ(r.status, RunStatus::LimitExceeded);
  EXPECT_EQ(r.message, "wrote past the file size limit of 1 MiB");
}

TEST_F(Hostile, ForgedReportIsCaught) {
  RunResult r = run({"forge"});
  EXPECT_EQ(r.status, RunStatus::ForgedVerdict);
  EXPECT_EQ(r.message, "the verdict channel carried a record without the run's nonce");
  // It may not live to print its fake PASS: a write to a descriptor whose reader is gone ends it (SIGPIPE).
  EXPECT_TRUE(r.out.empty() || r.out == "PASS hostile: 1 launch, all checks passed\n") << r.out;
  EXPECT_EQ(r.report, "");
}

TEST_F(Hostile, LeavingInsideALaunchIsNotAPass) {
  RunResult r = run({"exit-in-launch"});
  EXPECT_EQ(r.status, RunStatus::ForgedVerdict);
  EXPECT_EQ(r.message,
            "exit status 0 without the emulator's final record: the program ended inside a kernel launch, or "
            "bypassed the emulator's exit");
}

TEST_F(Hostile, CheckFailureReachesTheParent) {
  RunResult r = run({"check"});
  EXPECT_EQ(r.status, RunStatus::CheckFailed);
  EXPECT_EQ(r.exitCode, 3);
  // The kernel's own call site, wherever it sits in the file.
  std::string source = readText(kSourceDir / "runner/tests/hostile/hostile.cpp");
  size_t at = source.find("tcemu::fail(");
  ASSERT_NE(at, std::string::npos);
  auto line = 1 + std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  EXPECT_EQ(r.message, fmt::format("{}/runner/tests/hostile/hostile.cpp:{}: error: the hostile kernel's own failure",
                                   kSourceDir.string(), line))
      << r.message;
}

TEST_F(Hostile, OverriddenFailHandlerCannotHideTheFailure) {
  RunResult r = run({"fail-handler"});
  EXPECT_EQ(r.exitCode, 0);  // the handler ended the program "successfully"
  EXPECT_EQ(r.status, RunStatus::CheckFailed);
  EXPECT_NE(r.message.find("error: the hostile kernel's own failure"), std::string::npos) << r.message;
}

TEST_F(Hostile, KillingItsParentReachesOnlyTheSandboxInit) {
  RunResult r = run({"kill-parent"});
  EXPECT_EQ(r.status, RunStatus::Passed) << r.message;  // and this test process is still here
}

TEST_F(Hostile, SignalsAndUsageErrors) {
  RunResult segv = run({"segv"});
  EXPECT_EQ(segv.status, RunStatus::Crashed);
  EXPECT_EQ(segv.message, "killed by signal 11 (SIGSEGV)");
  RunResult usage = run({"usage"});
  EXPECT_EQ(usage.status, RunStatus::UsageError);
  EXPECT_EQ(usage.message, "error: unknown argument 'x'");
}

TEST_F(Hostile, InputsReadOnlyOutputsInTheWorkFolderTraceAndACleanEnvironment) {
  fs::path inputs = work_.string() + "-inputs";
  fs::create_directories(inputs);
  std::ofstream(inputs / "x.bin") << "input bytes";
  RunRequest request;
  request.program = build_->program;
  request.args = {"copy", (inputs / "x.bin").string()};
  request.workDir = work_.string();
  request.readOnlyPaths = {inputs.string()};
  request.trace = true;
  request.limits = tight();
  ::setenv("TILECRAFT_TEST_SECRET", "leaked", 1);
  RunResult r = service_->run(request);
  ::unsetenv("TILECRAFT_TEST_SECRET");
  EXPECT_EQ(r.status, RunStatus::Passed) << r.message << r.err;
  EXPECT_EQ(readText(work_ / "out.bin"), "input bytes");
  EXPECT_EQ(r.tracePath, (work_ / "trace.jsonl").string());
  EXPECT_EQ(readText(work_ / "trace.jsonl").find("{\"launch\":1,\"kernel\":\"hostile_kernel\""), 0u);
  // The allowlist, and no verdict-channel variable left for the kernel to find.
  EXPECT_EQ(r.out, fmt::format("HOME={0}\nLC_ALL=C\nPATH=/usr/local/bin:/usr/bin:/bin\nTILECRAFT_EMU_TRACE={0}/"
                               "trace.jsonl\nTMPDIR=/tmp\nPWD={0}\n",
                               work_.string()));
  fs::remove_all(inputs);
}

TEST_F(Hostile, TheCompilerCannotIncludeHostFiles) {
  std::ofstream(work_ / "peek.cpp") << "#include \"/etc/hostname\"\nint main() { return 0; }\n";
  BuildRequest request;
  request.source = (work_ / "peek.cpp").string();
  BuildResult b = service_->build(request);
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.diagnostics.find("fatal error: /etc/hostname: No such file or directory"), std::string::npos)
      << b.diagnostics;
}

TEST_F(Hostile, SecondBuildIsCached) {
  BuildRequest request;
  request.source = (kSourceDir / "runner/tests/hostile/hostile.cpp").string();
  request.optLevel = "-O0";
  BuildResult again = service_->build(request);
  EXPECT_TRUE(again.ok);
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.key, build_->key);
  EXPECT_EQ(again.program, build_->program);
}

}  // namespace
}  // namespace tilecraft::runner
