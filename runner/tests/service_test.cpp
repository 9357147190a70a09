// The service with a scripted sandbox: the one compile command, the build cache, the source check, and every
// verdict the parent decides from the exit status and the nonce-tagged channel.
#include "runner/service.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>

#include "runner/sandbox.h"

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;

class FakeSandbox final : public Sandbox {
 public:
  std::function<SandboxResult(const SandboxSpec&)> handler;
  std::vector<SandboxSpec> specs;
  SandboxResult run(const SandboxSpec& spec) override {
    specs.push_back(spec);
    return handler(spec);
  }
};

SandboxResult exited(int code, std::string channel = "", std::string err = "") {
  SandboxResult r;
  r.started = true;
  r.exitCode = code;
  r.channel = std::move(channel);
  r.err = std::move(err);
  return r;
}

const std::string kLaunch = R"({"kernel":"add","blocks":8,"instructions":10,"checks":"passed"})";

class Service : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "tilecraft-service-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    fs::create_directories(dir_ / "emu");
    std::ofstream(dir_ / "emu" / "kernel_operator.h") << "// emulator\n";
    fs::create_directories(dir_ / "work");
    std::ofstream(dir_ / "k.cpp") << "#include \"kernel_operator.h\"\n";
    std::ofstream(dir_ / "prog") << "";
    fake_ = std::make_shared<FakeSandbox>();
    // Builds succeed and leave a program where the compiler was told to.
    fake_->handler = [](const SandboxSpec& spec) {
      if (spec.argv[0] == "g++") std::ofstream(spec.argv.back()) << "binary";
      return exited(0);
    };
    ServiceOptions options;
    options.emuInclude = (dir_ / "emu").string();
    options.cacheDir = (dir_ / "cache").string();
    options.sandboxOverride = fake_;
    service_ = makeBuildRunService(options);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunResult runWith(std::function<SandboxResult(const std::string& nonce)> answer, RunRequest request = {}) {
    fake_->handler = [answer](const SandboxSpec& spec) { return answer(spec.nonce); };
    if (request.program.empty()) request.program = (dir_ / "prog").string();
    if (request.workDir.empty()) request.workDir = (dir_ / "work").string();
    return service_->run(request);
  }

  fs::path dir_;
  std::shared_ptr<FakeSandbox> fake_;
  std::unique_ptr<BuildRunService> service_;
};

TEST_F(Service, OneCompileCommandForEveryone) {
  BuildRequest request;
  request.source = "k.cpp";
  request.includeDirs = {"inc"};
  request.defines = {"N=4"};
  EXPECT_EQ(compileCommand(request, "/emu", "g++", "out"),
            (std::vector<std::string>{"g++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-DASCENDC_CPU_DEBUG", "-I",
                                      "/emu", "-I", "inc", "-DN=4", "k.cpp", "-pthread", "-o", "out"}));
  request.warnings = false;
  request.optLevel = "-O2";
  EXPECT_EQ(compileCommand(request, "/emu", "g++", "out")[2], "-O2");
  EXPECT_EQ(compileCommand(request, "/emu", "g++", "out")[3], "-DASCENDC_CPU_DEBUG");
}

TEST_F(Service, BuildRunsTheCompilerInTheSandboxAndCachesByContent) {
  BuildRequest request;
  request.source = (dir_ / "k.cpp").string();
  BuildResult first = service_->build(request);
  ASSERT_TRUE(first.ok) << first.diagnostics;
  EXPECT_FALSE(first.cached);
  EXPECT_EQ(first.key.size(), 16u);
  EXPECT_EQ(first.program, (dir_ / "cache" / first.key / "prog").string());
  ASSERT_EQ(fake_->specs.size(), 1u);
  const SandboxSpec& spec = fake_->specs[0];
  EXPECT_EQ(
      spec.env,
      (std::map<std::string, std::string>{
          {"HOME", spec.workDir}, {"LC_ALL", "C"}, {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"TMPDIR", "/tmp"}}));
  EXPECT_EQ(spec.readOnlyPaths, (std::vector<std::string>{(dir_ / "emu").string(), dir_.string()}));
  EXPECT_FALSE(spec.reportChannel);

  BuildResult again = service_->build(request);
  EXPECT_TRUE(again.ok && again.cached);
  EXPECT_EQ(again.key, first.key);
  EXPECT_EQ(fake_->specs.size(), 1u);  // nothing compiled

  request.optLevel = "-O2";
  EXPECT_NE(service_->build(request).key, first.key);
  request.optLevel = "-O1";
  std::ofstream(dir_ / "emu" / "kernel_operator.h") << "// another emulator\n";
  auto other = makeBuildRunService({(dir_ / "emu").string(), (dir_ / "cache").string(), true, "g++", fake_});
  EXPECT_NE(other->build(request).key, first.key);  // the emulator's headers are part of the key
}

TEST_F(Service, UntrustedSourcesAreCheckedBeforeAnythingRuns) {
  std::ofstream(dir_ / "bad.cpp") << "#include \"kernel_operator.h\"\nint main() { return 0; }\n";
  BuildRequest request;
  request.source = (dir_ / "bad.cpp").string();
  request.untrusted = true;
  BuildResult b = service_->build(request);
  EXPECT_FALSE(b.ok);
  EXPECT_TRUE(b.rejected);
  EXPECT_EQ(b.diagnostics, (dir_ / "bad.cpp").string() +
                               ":2: error: a submitted kernel must not define 'main'\n"
                               "hint: submit the kernel only; the harness builds its own launcher around it\n");
  EXPECT_TRUE(fake_->specs.empty());
}

TEST_F(Service, BuildFailuresKeepTheCompilersWords) {
  fake_->handler = [](const SandboxSpec&) { return exited(1, "", "k.cpp:1:1: error: expected ';'\n"); };
  BuildRequest request;
  request.source = (dir_ / "k.cpp").string();
  BuildResult b = service_->build(request);
  EXPECT_FALSE(b.ok);
  EXPECT_EQ(b.exitCode, 1);
  EXPECT_EQ(b.diagnostics, "k.cpp:1:1: error: expected ';'\n");
  request.source = (dir_ / "missing.cpp").string();
  EXPECT_EQ(service_->build(request).diagnostics, "cannot read the kernel source '" + request.source + "'");
}

TEST_F(Service, RunGetsTheAllowlistTheChannelAndTheProgramsFolder) {
  RunRequest request;
  request.args = {"--seed", "1"};
  request.trace = true;
  request.env = {{"TILECRAFT_EMU_EXTRA", "1"}};
  RunResult r =
      runWith([](const std::string& n) { return exited(0, n + " {\"end\":true,\"launches\":0}\n"); }, request);
  EXPECT_EQ(r.status, RunStatus::Passed);
  const SandboxSpec& spec = fake_->specs.at(0);
  std::string work = (dir_ / "work").string();
  EXPECT_EQ(spec.argv, (std::vector<std::string>{(dir_ / "prog").string(), "--seed", "1"}));
  EXPECT_EQ(spec.env, (std::map<std::string, std::string>{{"HOME", work},
                                                          {"LC_ALL", "C"},
                                                          {"PATH", "/usr/local/bin:/usr/bin:/bin"},
                                                          {"TILECRAFT_EMU_EXTRA", "1"},
                                                          {"TILECRAFT_EMU_NONCE_FD", "101"},
                                                          {"TILECRAFT_EMU_REPORT_FD", "100"},
                                                          {"TILECRAFT_EMU_TRACE", work + "/trace.jsonl"},
                                                          {"TMPDIR", "/tmp"}}));
  EXPECT_TRUE(spec.reportChannel);
  EXPECT_EQ(spec.nonce.size(), 32u);
  EXPECT_EQ(spec.readOnlyPaths, std::vector<std::string>{dir_.string()});
  runWith([](const std::string& n) { return exited(0, n + " {\"end\":true,\"launches\":0}\n"); });
  EXPECT_NE(fake_->specs.at(1).nonce, spec.nonce);  // one per run
}

TEST_F(Service, Verdicts) {
  auto verdict = [&](std::function<SandboxResult(const std::string&)> answer) {
    RunResult r = runWith(std::move(answer));
    return std::string(runStatusName(r.status)) + ": " + r.message;
  };
  auto end = [](const std::string& n) { return n + " {\"end\":true,\"launches\":1}\n"; };
  RunResult pass = runWith([&](const std::string& n) { return exited(0, n + " " + kLaunch + "\n" + end(n)); });
  EXPECT_EQ(pass.status, RunStatus::Passed);
  EXPECT_EQ(pass.report, kLaunch + "\n");
  EXPECT_EQ(verdict([&](const std::string& n) { return exited(0, "0123 " + kLaunch + "\n" + end(n)); }),
            "forged-verdict: the verdict channel carried a record without the run's nonce");
  EXPECT_EQ(verdict([&](const std::string& n) { return exited(0, n + " " + kLaunch + "\n"); }),
            "forged-verdict: exit status 0 without the emulator's final record: the program ended inside a kernel "
            "launch, or bypassed the emulator's exit");
  EXPECT_EQ(verdict([](const std::string& n) {
              return exited(0, n + " {\"check\":\"failed\",\"text\":\"k.cpp:9: error: UB \\\"x\\\" overflows\\n"
                                   "k.cpp:3: note: here\\n\"}\n");
            }),
            "check-failed: k.cpp:9: error: UB \"x\" overflows");
  EXPECT_EQ(verdict([](const std::string&) { return exited(2, "", "error: missing N=<value>\n"); }),
            "usage-error: error: missing N=<value>");
  EXPECT_EQ(verdict([](const std::string&) { return exited(2); }),
            "usage-error: the program refused its arguments (exit status 2)");
  EXPECT_EQ(verdict([](const std::string&) { return exited(1); }), "crashed: exit status 1");
  EXPECT_EQ(verdict([](const std::string&) { return exited(3); }), "crashed: exit status 3");
  EXPECT_EQ(verdict([](const std::string&) {
              return exited(134, "",
                            "terminate called after throwing an instance "
                            "of 'std::bad_alloc'\n");
            }),
            "limit-exceeded: ran out of memory: the address space limit is 8 GiB");
  auto signalled = [](int sig) {
    return [sig](const std::string&) {
      SandboxResult r = exited(-1);
      r.termSignal = sig;
      return r;
    };
  };
  EXPECT_EQ(verdict(signalled(SIGSEGV)), "crashed: killed by signal 11 (SIGSEGV)");
  EXPECT_EQ(verdict(signalled(SIGXCPU)), "timed-out: used up its CPU time limit of 61 s");
  EXPECT_EQ(verdict(signalled(SIGXFSZ)), "limit-exceeded: wrote past the file size limit of 1 GiB");
  EXPECT_EQ(verdict([](const std::string&) {
              SandboxResult r = exited(-1);
              r.termSignal = SIGKILL;
              r.timedOut = true;
              return r;
            }),
            "timed-out: timed out after 60 s (wall clock)");
  EXPECT_EQ(verdict([](const std::string&) {
              SandboxResult r = exited(1);
              r.processLimitHit = true;
              return r;
            }),
            "limit-exceeded: tried to start more than 64 processes");
  EXPECT_EQ(verdict([](const std::string&) {
              SandboxResult r;
              r.startError = "cannot start the sandbox: bwrap: setting up uid map: Permission denied";
              return r;
            }),
            "cannot-start: cannot start the sandbox: bwrap: setting up uid map: Permission denied");
}

TEST_F(Service, RunRequestsThatCannotStart) {
  RunRequest request;
  request.program = (dir_ / "nothing").string();
  request.workDir = (dir_ / "work").string();
  RunResult r = service_->run(request);
  EXPECT_EQ(r.status, RunStatus::CannotStart);
  EXPECT_EQ(r.message, "no program '" + request.program + "' to run");
  request.program = (dir_ / "prog").string();
  request.readOnlyPaths = {(dir_ / "inputs").string()};
  r = service_->run(request);
  EXPECT_EQ(r.message, "no such file or folder '" + request.readOnlyPaths[0] + "' to show the program");
  request.readOnlyPaths.clear();
  request.workDir = (dir_ / "no-work").string();
  EXPECT_EQ(service_->run(request).message, "no work folder '" + request.workDir + "'");
  EXPECT_TRUE(fake_->specs.empty());
}

}  // namespace
}  // namespace tilecraft::runner
