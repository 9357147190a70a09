// `tilecraft emu run` with a fake process runner: the verdicts, the output, and what would be run.
#include "cli/emu_run.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "runner/process_service.h"
#include "support/fake_process_runner.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;
using support::FakeProcessRunner;
using support::ProcessResult;
using support::ProcessSpec;

ProcessResult exited(int code, std::string out = "", std::string err = "") {
  ProcessResult r;
  r.exitCode = code;
  r.out = std::move(out);
  r.err = std::move(err);
  return r;
}

const char* kOneLaunch = R"({"kernel":"add_custom","blocks":8,"mode":"AIV","cores":8,"instructions":1234,)"
                         R"("pipes":{"MTE2":40,"V":20},"checks":"passed"})"
                         "\n";

// ---- verdicts -------------------------------------------------------------------------------------------------

using runner::RunResult;
using runner::RunStatus;

RunResult ran(RunStatus status, int code, std::string out = "", std::string err = "", std::string report = "",
              std::string message = "") {
  RunResult r;
  r.status = status;
  r.exitCode = code;
  r.out = std::move(out);
  r.err = std::move(err);
  r.report = std::move(report);
  r.message = std::move(message);
  return r;
}

RunResult passed(std::string report, std::string out = "") {
  return ran(RunStatus::Passed, 0, std::move(out), "", std::move(report));
}

runner::BuildResult compiled(int code, std::string diagnostics = "") {
  runner::BuildResult b;
  b.ok = code == 0;
  b.exitCode = code;
  b.diagnostics = std::move(diagnostics);
  return b;
}

TEST(EmuRunJudge, PassSummarisesTheLaunch) {
  FileOutcome o = judgeRun(passed(kOneLaunch, "max error 0\n"), 60);
  EXPECT_TRUE(o.passed);
  EXPECT_EQ(o.summary, "1 launch, 8 blocks, 1234 instructions, all checks passed");
  EXPECT_EQ(o.programOut, "max error 0\n");
}

TEST(EmuRunJudge, SeveralLaunchesAreSummed) {
  std::string report = std::string(kOneLaunch) +
                       R"({"kernel":"mul","blocks":1,"mode":"AIV","instructions":1,"checks":"passed"})" + "\n\n";
  FileOutcome o = judgeRun(passed(report), 60);
  EXPECT_TRUE(o.passed);
  EXPECT_EQ(o.summary, "2 launches, 9 blocks, 1235 instructions, all checks passed");
}

TEST(EmuRunJudge, EmulatorCheckFailureShowsItsLineAndNotes) {
  std::string err =
      "some earlier output\n"
      "broken.cpp:42: error: DataCopy writes 8192 bytes into a 4096-byte UB buffer\n"
      "broken.cpp:30: note: buffer allocated here\n"
      "broken.cpp:31: note: queue depth 2\n"
      "trailing text\n";
  FileOutcome o = judgeRun(ran(RunStatus::CheckFailed, 3, "", err, "",
                               "broken.cpp:42: error: DataCopy writes 8192 bytes into a 4096-byte UB buffer"),
                           60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "broken.cpp:42: error: DataCopy writes 8192 bytes into a 4096-byte UB buffer");
  EXPECT_EQ(o.details, (std::vector<std::string>{"broken.cpp:30: note: buffer allocated here",
                                                 "broken.cpp:31: note: queue depth 2"}));
}

TEST(EmuRunJudge, CheckFailureFromTheChannelAloneWhenStderrLacksIt) {
  // A kernel that replaced the fail handler printed nothing; the verdict channel still named the check.
  FileOutcome o = judgeRun(ran(RunStatus::CheckFailed, 0, "", "", "", "k.cpp:7: error: UB overflow"), 60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "k.cpp:7: error: UB overflow");
  EXPECT_TRUE(o.details.empty());
}

TEST(EmuRunJudge, StatusThreeWithoutAnErrorLineIsAPlainExitStatus) {
  FileOutcome o = judgeRun(ran(RunStatus::Crashed, 3, "", "mismatch at 7\n", "", "exit status 3"), 60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "exit status 3");
  EXPECT_EQ(o.details, std::vector<std::string>{"mismatch at 7"});
}

TEST(EmuRunJudge, NonZeroExitShowsTheEndOfStderr) {
  std::string err;
  for (int i = 1; i <= 12; ++i) err += "line " + std::to_string(i) + "\n";
  FileOutcome o = judgeRun(ran(RunStatus::Crashed, 1, "out\n", err, kOneLaunch, "exit status 1"), 60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "exit status 1");
  ASSERT_EQ(o.details.size(), 10u);
  EXPECT_EQ(o.details.front(), "line 3");
  EXPECT_EQ(o.details.back(), "line 12");
  EXPECT_EQ(o.programOut, "out\n");
}

TEST(EmuRunJudge, Signal) {
  RunResult r = ran(RunStatus::Crashed, -1);
  r.termSignal = 11;
  FileOutcome o = judgeRun(r, 60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "killed by signal 11");
}

TEST(EmuRunJudge, Timeout) {
  RunResult r = ran(RunStatus::TimedOut, -1, "", "", "", "timed out after 60 s (wall clock)");
  r.termSignal = 9;
  EXPECT_EQ(judgeRun(r, 60).summary, "timed out after 60 s");
  EXPECT_EQ(judgeRun(r, 2.5).summary, "timed out after 2.5 s");
  RunResult cpu = ran(RunStatus::TimedOut, -1, "", "", "", "used up its CPU time limit of 61 s");
  EXPECT_EQ(judgeRun(cpu, 60).summary, "used up its CPU time limit of 61 s");
}

TEST(EmuRunJudge, ProgramThatCannotStart) {
  RunResult r = ran(RunStatus::CannotStart, -1, "", "", "", "cannot run '/tmp/x/prog': Permission denied");
  EXPECT_EQ(judgeRun(r, 60).summary, "cannot run '/tmp/x/prog': Permission denied");
}

TEST(EmuRunJudge, ForgedVerdictAndLimitsSayWhy) {
  EXPECT_EQ(judgeRun(ran(RunStatus::ForgedVerdict, 0, "", "", "",
                         "the verdict channel carried a record without "
                         "the run's nonce"),
                     60)
                .summary,
            "the verdict channel carried a record without the run's nonce");
  FileOutcome limit = judgeRun(ran(RunStatus::LimitExceeded, -1, "", "std::bad_alloc\n", "",
                                   "ran out of memory: the address space limit is 8 GiB"),
                               60);
  EXPECT_EQ(limit.summary, "ran out of memory: the address space limit is 8 GiB");
  EXPECT_EQ(limit.details, std::vector<std::string>{"std::bad_alloc"});
}

TEST(EmuRunJudge, DroppedOutputIsCounted) {
  RunResult r = passed(kOneLaunch, "head\n... 10 bytes left out ...\ntail\n");
  r.droppedBytes = 10;
  FileOutcome o = judgeRun(r, 60);
  EXPECT_TRUE(o.passed);
  EXPECT_EQ(o.details, std::vector<std::string>{"(10 bytes of output left out)"});
}

TEST(EmuRunJudge, NoLaunchReported) {
  FileOutcome o = judgeRun(passed(""), 60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "no kernel launch was reported");
  EXPECT_EQ(o.details, std::vector<std::string>{
                           "the program must launch its kernel with ICPU_RUN_KF under #ifdef ASCENDC_CPU_DEBUG"});
}

TEST(EmuRunJudge, MalformedReport) {
  EXPECT_EQ(judgeRun(passed(std::string(kOneLaunch) + "{oops\n"), 60).summary,
            "malformed emulator report, line 2: not a JSON object");
  EXPECT_EQ(judgeRun(passed(R"({"kernel":"k","blocks":1,"instructions":2})"), 60).summary,
            "malformed emulator report, line 1: no string \"checks\"");
  EXPECT_EQ(judgeRun(passed(R"({"kernel":"k","blocks":-1,"instructions":2,"checks":"passed"})"), 60).summary,
            "malformed emulator report, line 1: no non-negative integer \"blocks\"");
}

TEST(EmuRunJudge, LaunchWhoseChecksDidNotPass) {
  FileOutcome o = judgeRun(passed(R"({"kernel":"k","blocks":1,"instructions":2,"checks":"failed"})"), 60);
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "kernel k: emulator checks failed");
}

TEST(EmuRunJudge, CompileErrorShowsTheFirstErrorAndWhatFollows) {
  std::string err =
      "In file included from x.cpp:1:\n"
      "x.cpp:5:3: error: 'DataCopyy' was not declared in this scope\n"
      "    5 |   DataCopyy(a, b, 8);\n"
      "      |   ^~~~~~~~~\n";
  FileOutcome o = judgeCompile(compiled(1, err));
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.summary, "compile error");
  EXPECT_EQ(o.details, (std::vector<std::string>{"x.cpp:5:3: error: 'DataCopyy' was not declared in this scope",
                                                 "    5 |   DataCopyy(a, b, 8);", "      |   ^~~~~~~~~"}));
}

TEST(EmuRunJudge, LongCompileErrorIsCut) {
  std::string err;
  for (int i = 0; i < 20; ++i) err += "x.cpp:" + std::to_string(i + 1) + ":1: error: bad\n";
  FileOutcome o = judgeCompile(compiled(1, err));
  ASSERT_EQ(o.details.size(), 9u);
  EXPECT_EQ(o.details[0], "x.cpp:1:1: error: bad");
  EXPECT_EQ(o.details[8], "... (12 more lines)");
}

TEST(EmuRunJudge, CompilerProblems) {
  EXPECT_TRUE(judgeCompile(compiled(0)).passed);
  runner::BuildResult missing;
  missing.cannotStart = true;
  missing.diagnostics = "cannot run 'g++': No such file or directory";
  EXPECT_EQ(judgeCompile(missing).summary, "cannot run 'g++': No such file or directory");
  runner::BuildResult slow;
  slow.timedOut = true;
  EXPECT_EQ(judgeCompile(slow).summary, "compile timed out after 300 s");
  runner::BuildResult killed;
  killed.termSignal = 9;
  EXPECT_EQ(judgeCompile(killed).summary, "compiler killed by signal 9");
  EXPECT_EQ(judgeCompile(compiled(4)).details,
            std::vector<std::string>{"g++ exited with status 4 and printed nothing"});
  runner::BuildResult rejected;
  rejected.rejected = true;
  rejected.diagnostics = "k.cpp:3: error: a submitted kernel must not define 'main'\nhint: submit the kernel only\n";
  FileOutcome r = judgeCompile(rejected);
  EXPECT_EQ(r.summary, "rejected by the source check");
  EXPECT_EQ(r.details, (std::vector<std::string>{"k.cpp:3: error: a submitted kernel must not define 'main'",
                                                 "hint: submit the kernel only"}));
}

// ---- options ---------------------------------------------------------------------------------------------------

TEST(EmuRunOptions, OptLevels) {
  EXPECT_EQ(normalizeOptLevel("-O2"), "-O2");
  EXPECT_EQ(normalizeOptLevel("O3"), "-O3");
  EXPECT_EQ(normalizeOptLevel("0"), "-O0");
  EXPECT_EQ(normalizeOptLevel("-Ofast"), "-Ofast");
  EXPECT_EQ(normalizeOptLevel("Os"), "-Os");
  EXPECT_EQ(normalizeOptLevel("fast"), "");
  EXPECT_EQ(normalizeOptLevel("-O9"), "");
  EXPECT_EQ(normalizeOptLevel("-march=native"), "");
}

struct Parsed {
  EmuRunOptions options;
  std::string error;
};

Parsed parse(std::vector<std::string> args) {
  Parsed parsed;
  CLI::App app("test", "run");
  addEmuRunOptions(app, parsed.options);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last-first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    parsed.error = e.what();
  }
  return parsed;
}

TEST(EmuRunOptions, DefaultsAndValues) {
  Parsed d = parse({"a.cpp"});
  EXPECT_EQ(d.error, "");
  EXPECT_EQ(d.options.files, std::vector<std::string>{"a.cpp"});
  EXPECT_EQ(d.options.jobs, 2);
  EXPECT_EQ(d.options.optLevel, "-O1");
  EXPECT_EQ(d.options.timeoutSeconds, 60);
  EXPECT_FALSE(d.options.quiet);
  EXPECT_TRUE(d.options.sandbox);
  EXPECT_FALSE(parse({"--no-sandbox", "a.cpp"}).options.sandbox);

  Parsed p =
      parse({"--opt", "-O2", "-j", "3", "--timeout", "1.5", "--keep", "k", "--trace-dir", "t", "-q", "a.cpp", "b.cpp"});
  EXPECT_EQ(p.error, "");
  EXPECT_EQ(p.options.optLevel, "-O2");
  EXPECT_EQ(p.options.jobs, 3);
  EXPECT_EQ(p.options.timeoutSeconds, 1.5);
  EXPECT_EQ(p.options.keepDir, "k");
  EXPECT_EQ(p.options.traceDir, "t");
  EXPECT_TRUE(p.options.quiet);
  EXPECT_EQ(p.options.files, (std::vector<std::string>{"a.cpp", "b.cpp"}));
  EXPECT_EQ(parse({"--opt", "3", "a.cpp"}).options.optLevel, "-O3");
}

TEST(EmuRunOptions, BadValuesAreRejected) {
  EXPECT_EQ(parse({"--opt", "O9", "a.cpp"}).error, "--opt: 'O9' is not an optimisation level");
  EXPECT_NE(parse({"--jobs", "0", "a.cpp"}).error.find("--jobs"), std::string::npos);
  EXPECT_NE(parse({"--timeout", "-1", "a.cpp"}).error.find("--timeout"), std::string::npos);
  EXPECT_EQ(parse({}).error, "files is required");
}

// ---- whole runs with the fake runner ------------------------------------------------------------------------

class EmuRunFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "tilecraft-cli-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    fs::create_directories(dir_ / "include");
    std::ofstream(dir_ / "include" / "kernel_operator.h") << "// stub\n";
    options_.includeDir = (dir_ / "include").string();
    previous_ = fs::current_path();
    fs::current_path(dir_);  // kernel names in the output are the arguments, relative to here
  }
  void TearDown() override {
    fs::current_path(previous_);
    fs::remove_all(dir_);
  }
  void addKernel(const std::string& name) {
    fs::create_directories((dir_ / name).parent_path());
    std::ofstream(dir_ / name) << "// kernel\n";
    options_.files.push_back(name);
  }
  int run() {
    out_.str("");
    err_.str("");
    runner::ProcessRunnerService service(fake_, options_.includeDir);
    return runEmuFiles(options_, service, out_, err_);
  }
  // A fake child: the compiler always succeeds; the program writes the report line and prints its name.
  void emulateSuccess() {
    fake_.setHandler([](const ProcessSpec& spec) {
      if (spec.argv[0] == "g++") return exited(0);
      std::ofstream(spec.env.at("TILECRAFT_EMU_REPORT"), std::ios::app) << kOneLaunch;
      return exited(0, "ran " + fs::path(spec.workdir).filename().string() + "\n");
    });
  }

  fs::path dir_;
  fs::path previous_;
  EmuRunOptions options_;
  FakeProcessRunner fake_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(EmuRunFiles, MissingFilesAreNamedBeforeAnythingRuns) {
  addKernel("good.cpp");
  options_.files.push_back("missing.cpp");
  options_.files.push_back("also_missing.cpp");
  fs::create_directories(dir_ / "folder.cpp");
  options_.files.push_back("folder.cpp");
  EXPECT_EQ(run(), 2);
  EXPECT_EQ(err_.str(),
            "error: no such kernel file: 'missing.cpp'\n"
            "error: no such kernel file: 'also_missing.cpp'\n"
            "error: not a kernel file: 'folder.cpp' is a folder or device\n");
  EXPECT_EQ(out_.str(), "");
  EXPECT_TRUE(fake_.specs().empty());
}

TEST_F(EmuRunFiles, MissingEmulatorHeadersAreAUsageError) {
  addKernel("good.cpp");
  options_.includeDir = "no-such-include";
  EXPECT_EQ(run(), 2);
  EXPECT_EQ(err_.str(),
            "error: emulator headers not found: no kernel_operator.h in 'no-such-include'\n"
            "hint: set TILECRAFT_EMU_INCLUDE to the emulator's include folder (emu/include in the source tree)\n");
  EXPECT_TRUE(fake_.specs().empty());
}

TEST_F(EmuRunFiles, CompilesWithTheCpuDebugCommandAndRunsWithAReport) {
  addKernel("k/add_custom.cpp");
  options_.optLevel = "-O2";
  options_.timeoutSeconds = 7;
  emulateSuccess();
  EXPECT_EQ(run(), 0);
  auto specs = fake_.specs();
  ASSERT_EQ(specs.size(), 2u);
  const ProcessSpec& compile = specs[0];
  ASSERT_EQ(compile.argv.size(), 10u);
  std::string program = compile.argv[9];
  EXPECT_EQ(compile.argv,
            (std::vector<std::string>{"g++", "-std=c++17", "-O2", "-DASCENDC_CPU_DEBUG", "-I", options_.includeDir,
                                      "k/add_custom.cpp", "-pthread", "-o", program}));
  EXPECT_EQ(program, "k/add_custom");  // ProcessRunnerService builds next to the source
  EXPECT_EQ(compile.timeoutSeconds, kCompileTimeoutSeconds);
  EXPECT_EQ(compile.env, (std::map<std::string, std::string>{{"LC_ALL", "C"}}));
  const ProcessSpec& exec = specs[1];
  EXPECT_EQ(exec.argv, std::vector<std::string>{program});
  EXPECT_EQ(fs::path(exec.workdir).filename(), "add_custom");
  EXPECT_EQ(exec.timeoutSeconds, 7);
  EXPECT_EQ(exec.env.at("TILECRAFT_EMU_REPORT"), (fs::path(exec.workdir) / "report.jsonl").string());
  EXPECT_EQ(exec.env.count("TILECRAFT_EMU_TRACE"), 0u);
  EXPECT_EQ(out_.str(),
            "    ran add_custom\n"
            "PASS k/add_custom.cpp: 1 launch, 8 blocks, 1234 instructions, all checks passed\n");
  // Without --keep the build folder is temporary.
  EXPECT_FALSE(fs::exists(exec.workdir));
}

TEST_F(EmuRunFiles, ResultsComeInArgumentOrderWhateverFinishesFirst) {
  addKernel("slow.cpp");
  addKernel("fast.cpp");
  addKernel("bad.cpp");
  options_.jobs = 3;
  fake_.setHandler([](const ProcessSpec& spec) {
    if (spec.argv[0] == "g++") {
      if (spec.argv[6] == "slow.cpp") std::this_thread::sleep_for(std::chrono::milliseconds(200));
      if (spec.argv[6] == "bad.cpp") return exited(1, "", "bad.cpp:1:1: error: expected ';'\n");
      return exited(0);
    }
    std::ofstream(spec.env.at("TILECRAFT_EMU_REPORT")) << kOneLaunch;
    return exited(0, "hello\n");
  });
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(out_.str(),
            "    hello\n"
            "PASS slow.cpp: 1 launch, 8 blocks, 1234 instructions, all checks passed\n"
            "    hello\n"
            "PASS fast.cpp: 1 launch, 8 blocks, 1234 instructions, all checks passed\n"
            "FAIL bad.cpp: compile error\n"
            "    bad.cpp:1:1: error: expected ';'\n");
}

TEST_F(EmuRunFiles, CheckFailureLine) {
  addKernel("broken.cpp");
  fake_.setHandler([](const ProcessSpec& spec) {
    if (spec.argv[0] == "g++") return exited(0);
    return exited(3, "partial\n", "broken.cpp:42: error: UB overflow\nbroken.cpp:40: note: allocated here\n");
  });
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(out_.str(),
            "    partial\n"
            "FAIL broken.cpp: broken.cpp:42: error: UB overflow\n"
            "    broken.cpp:40: note: allocated here\n");
}

TEST_F(EmuRunFiles, QuietLeavesOutTheProgramsOutput) {
  addKernel("a.cpp");
  options_.quiet = true;
  emulateSuccess();
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(out_.str(), "PASS a.cpp: 1 launch, 8 blocks, 1234 instructions, all checks passed\n");
}

TEST_F(EmuRunFiles, KeepUsesUniqueFoldersAndClearsOldReports) {
  addKernel("a/add.cpp");
  addKernel("b/add.cpp");
  options_.keepDir = "kept";
  emulateSuccess();
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(run(), 0);  // a second run into the same folder must not count the first run's launches
  EXPECT_EQ(out_.str(),
            "    ran add\n"
            "PASS a/add.cpp: 1 launch, 8 blocks, 1234 instructions, all checks passed\n"
            "    ran add-2\n"
            "PASS b/add.cpp: 1 launch, 8 blocks, 1234 instructions, all checks passed\n");
  EXPECT_TRUE(fs::exists(dir_ / "kept" / "add" / "report.jsonl"));
  EXPECT_TRUE(fs::exists(dir_ / "kept" / "add-2" / "report.jsonl"));
}

TEST_F(EmuRunFiles, TraceDirReceivesEachProgramsTrace) {
  addKernel("add.cpp");
  options_.traceDir = "traces";
  fake_.setHandler([](const ProcessSpec& spec) {
    if (spec.argv[0] == "g++") return exited(0);
    std::ofstream(spec.env.at("TILECRAFT_EMU_REPORT")) << kOneLaunch;
    std::ofstream(spec.env.at("TILECRAFT_EMU_TRACE")) << "{\"launch\":1}\n";
    return exited(0);
  });
  EXPECT_EQ(run(), 0);
  auto specs = fake_.specs();
  ASSERT_EQ(specs.size(), 2u);
  EXPECT_EQ(specs[1].env.at("TILECRAFT_EMU_TRACE"), (fs::path(specs[1].workdir) / "trace.jsonl").string());
  std::ifstream trace(dir_ / "traces" / "add.trace.jsonl");
  std::string line;
  EXPECT_TRUE(std::getline(trace, line));
  EXPECT_EQ(line, "{\"launch\":1}");
}

TEST_F(EmuRunFiles, CompilerThatCannotStart) {
  addKernel("a.cpp");
  fake_.setHandler([](const ProcessSpec& spec) {
    ProcessResult r;
    r.err = "cannot run '" + spec.argv[0] + "': No such file or directory";
    return r;
  });
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(out_.str(), "FAIL a.cpp: cannot run 'g++': No such file or directory\n");
}

}  // namespace
}  // namespace tilecraft::cli
