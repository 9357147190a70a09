// `fuzz --emulate` with a fake process runner: the batching, the isolation of a kernel that breaks its batch's
// build, and the failure report. The real builds and runs are the fuzz.emulate_1000 ctest.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

#include "fuzz/emulate.h"
#include "fuzz/harness.h"
#include "fuzz/minimise.h"
#include "interp/interp.h"
#include "interp/npy.h"
#include "runner/process_service.h"
#include "support/fake_process_runner.h"

namespace tilecraft::fuzz {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string argAfter(const support::ProcessSpec& spec, const std::string& flag) {
  for (size_t i = 0; i + 1 < spec.argv.size(); ++i) {
    if (spec.argv[i] == flag) return spec.argv[i + 1];
  }
  return "";
}

// A stand-in for g++ and for the batch programs: builds succeed unless the batch holds a kernel in
// `warnIn`; a run writes the reference's own outputs (so it passes), except for the seeds told to crash or to
// be wrong.
class FakeToolchain {
 public:
  std::set<uint64_t> warnIn, errorIn, crash, wrong;
  std::string crashIfSourceHas, wrongIfSourceHas;  // a program whose .tile holds this crashes, or is wrong

  bool inputsMatched(uint64_t seed) {
    std::lock_guard lock(mutex_);
    return inputsMatched_.count(seed) && inputsMatched_[seed];
  }

  void install(support::FakeProcessRunner& runner) {
    runner.setHandler([this](const support::ProcessSpec& spec) { return answer(spec); });
  }

 private:
  support::ProcessResult answer(const support::ProcessSpec& spec) {
    support::ProcessResult r;
    r.exitCode = 0;
    if (spec.argv[0] == "g++") {
      std::string source = readText(spec.argv[8]);
      for (uint64_t seed : warnIn) {
        if (source.find(fmt::format("namespace tc_fuzz_{} {{", seed)) != std::string::npos) {
          r.err = "batch.cpp:12:7: warning: unused variable 'x' [-Wunused-variable]\n";
        }
      }
      // An error g++ points at a line of the kernel's own code, five lines into its namespace.
      for (uint64_t seed : errorIn) {
        size_t at = source.find(fmt::format("namespace tc_fuzz_{} {{", seed));
        if (at == std::string::npos) continue;
        int64_t line = 1 + std::count(source.begin(), source.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 5;
        r.exitCode = 1;
        r.err += fmt::format(
            "{}: In function 'int f()':\n{}:{}:3: error: 'x' was not declared in this scope\n"
            "{:>5} |   x = 1;\n      |   ^\n",
            spec.argv[8], spec.argv[8], line, line);
      }
      return r;
    }
    // The kernel's own .tile (the minimiser's candidates are not generate(seed)'s program) beside its out-dir.
    uint64_t seed = std::stoull(spec.argv[1].substr(std::string("fuzz_").size()));
    std::string source = readText(argAfter(spec, "--out-dir") + ".tile");
    auto has = [&](const std::string& marker) { return !marker.empty() && source.find(marker) != std::string::npos; };
    if (crash.count(seed) || has(crashIfSourceHas)) {
      r.exitCode = 3;
      r.err = "emulator: DataCopy reads past the end of GM\n";
      return r;
    }
    FuzzProgram program = generate(seed);
    program.kernel = spec.argv[1];
    program.source = source;
    std::string error;
    auto c = prepareComparison(program, seed, &error);
    size_t inputs = 0;
    bool matched = true;
    for (size_t i = 0; i + 1 < spec.argv.size(); ++i) {
      if (spec.argv[i] != "--in") continue;
      const std::string& arg = spec.argv[i + 1];
      std::string name = arg.substr(0, arg.find('='));
      ++inputs;
      matched = matched && c->oracle.request.inputs.count(name) &&
                readText(arg.substr(arg.find('=') + 1)) == interp::encodeNpy(c->oracle.request.inputs.at(name));
    }
    {
      std::lock_guard lock(mutex_);
      inputsMatched_[seed] = matched && inputs == c->oracle.request.inputs.size();
    }
    for (auto [name, tensor] : c->oracle.expected) {
      if (wrong.count(seed) || has(wrongIfSourceHas)) {
        for (double& v : tensor.data) v = v * 2 + 1;
      }
      std::ofstream(fs::path(argAfter(spec, "--out-dir")) / (name + ".npy"), std::ios::binary)
          << interp::encodeNpy(tensor);
    }
    return r;
  }

  std::mutex mutex_;
  std::map<uint64_t, bool> inputsMatched_;
};

class Emulate : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "tilecraft-fuzz-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    options_.workDir = (dir_ / "work").string();
    options_.emuInclude = "/emu/include";
    options_.clock = [this] { return ticks_ += 1.5; };  // each phase "takes" 1.5 s
    toolchain_.install(runner_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<support::ProcessSpec> builds() const {
    std::vector<support::ProcessSpec> out;
    for (const auto& s : runner_.specs()) {
      if (s.argv[0] == "g++") out.push_back(s);
    }
    return out;
  }
  std::vector<support::ProcessSpec> runs() const {
    std::vector<support::ProcessSpec> out;
    for (const auto& s : runner_.specs()) {
      if (s.argv[0] != "g++") out.push_back(s);
    }
    return out;
  }

  fs::path dir_;
  EmulateOptions options_;
  double ticks_ = 0;
  FakeToolchain toolchain_;
  support::FakeProcessRunner runner_;
  runner::ProcessRunnerService service_{runner_, "/emu/include"};  // the service's contract over the fake
};

TEST_F(Emulate, BuildsProgramsInBatchesAndRunsEachAlone) {
  options_.seed = 3;
  options_.count = 5;
  options_.batchSize = 2;
  options_.jobs = 2;
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(out.str(),
            "fuzz --emulate: 5 programs from seed 3: 5 passed, 0 failed; prepare 1.5 s, build 1.5 s (3 g++ runs, up "
            "to 2 per batch), run 1.5 s, 2 jobs\n");

  // Seeds 3 4 | 5 6 | 7: three builds, with the flags of every emulated kernel build.
  std::vector<support::ProcessSpec> b = builds();
  ASSERT_EQ(b.size(), 3u);
  std::set<std::string> sources;
  for (const auto& s : b) {
    std::string source = s.argv[8];
    EXPECT_EQ(s.argv, buildSpec(source, s.argv[11], options_).argv);
    EXPECT_EQ(std::vector<std::string>(s.argv.begin(), s.argv.begin() + 8),
              (std::vector<std::string>{"g++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-DASCENDC_CPU_DEBUG", "-I",
                                        "/emu/include"}));
    sources.insert(fs::path(source).filename().string());
  }
  EXPECT_EQ(sources, (std::set<std::string>{"batch0.cpp", "batch1.cpp", "batch2.cpp"}));
  std::string batch1 = readText(fs::path(options_.workDir) / "batch1.cpp");
  EXPECT_THAT(batch1, HasSubstr("namespace tc_fuzz_5 {"));
  EXPECT_THAT(batch1, HasSubstr("namespace tc_fuzz_6 {"));
  EXPECT_THAT(batch1, Not(HasSubstr("namespace tc_fuzz_4 {")));

  // Each program runs once, from the batch that holds it, on the reference's inputs.
  std::vector<support::ProcessSpec> r = runs();
  ASSERT_EQ(r.size(), 5u);
  std::set<std::string> ran;
  for (const auto& s : r) {
    ran.insert(s.argv[1]);
    uint64_t seed = std::stoull(s.argv[1].substr(5));
    EXPECT_EQ(fs::path(s.argv[0]).filename().string(), fmt::format("batch{}", (seed - 3) / 2)) << s.argv[1];
    FuzzProgram p = generate(seed);
    for (const auto& [dim, value] : p.dims) {
      EXPECT_NE(std::find(s.argv.begin(), s.argv.end(), fmt::format("{}={}", dim, value)), s.argv.end());
    }
    // Every input came from a file holding the reference's own input.
    EXPECT_TRUE(toolchain_.inputsMatched(seed)) << seed;
  }
  EXPECT_EQ(ran, (std::set<std::string>{"fuzz_3", "fuzz_4", "fuzz_5", "fuzz_6", "fuzz_7"}));
}

TEST_F(Emulate, AKernelThatBreaksItsBatchIsIsolatedAndTheOthersStillRun) {
  options_.seed = 1;
  options_.count = 4;
  options_.batchSize = 4;
  options_.keepDir = (dir_ / "keep").string();
  toolchain_.warnIn = {2};
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 1);
  // 1-4 warns, 1-2 warns, 3-4 builds, then 1 and 2 alone: five builds.
  EXPECT_EQ(builds().size(), 5u);
  EXPECT_EQ(runs().size(), 3u);
  std::string family = label(generate(2));
  EXPECT_EQ(err.str(),
            fmt::format("FAIL seed 2 ({}) build [compile error]: the generated AscendC builds with a warning | replay: "
                        "tilecraft fuzz --emulate --seed 2 --count 1 --keep {}\n"
                        "    batch.cpp:12:7: warning: unused variable 'x' [-Wunused-variable]\n"
                        "failures by kind: 1 compile error\n",
                        family, options_.keepDir));
  EXPECT_THAT(out.str(),
              HasSubstr("4 programs from seed 1: 3 passed, 1 failed; prepare 1.5 s, build 1.5 s (5 g++ runs"));
  // The failing program's source and its standalone AscendC are kept.
  EXPECT_EQ(readText(fs::path(options_.keepDir) / "fuzz_2.tile"), generate(2).source);
  std::string code = readText(fs::path(options_.keepDir) / "fuzz_2.cpp");
  EXPECT_THAT(code, HasSubstr("int main(int argc, char** argv)"));
  EXPECT_THAT(code, Not(HasSubstr("namespace tc_fuzz_2")));
  EXPECT_FALSE(fs::exists(fs::path(options_.keepDir) / "fuzz_1.tile"));
}

TEST_F(Emulate, AKernelTheCompilerPointsAtFailsAndTheRestIsBuiltWithoutIt) {
  options_.seed = 1;
  options_.count = 4;
  options_.batchSize = 4;
  toolchain_.errorIn = {3};
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 1);
  // The batch, then the batch without seed 3: no halving.
  std::vector<support::ProcessSpec> b = builds();
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(fs::path(b[1].argv[8]).filename().string(), "batch0r.cpp");
  std::string batch = readText(fs::path(options_.workDir) / "batch0.cpp");
  auto at = batch.begin() + static_cast<std::ptrdiff_t>(batch.find("namespace tc_fuzz_3 {"));
  int64_t line = 1 + std::count(batch.begin(), at, '\n') + 5;
  EXPECT_EQ(
      err.str(),
      fmt::format("FAIL seed 3 ({}) build [compile error]: the generated AscendC does not build | replay: tilecraft "
                  "fuzz --emulate --seed 3 --count 1\n"
                  "    batch0.cpp:{}:3: error: 'x' was not declared in this scope\n"
                  "    {:>5} |   x = 1;\n"
                  "          |   ^\n"
                  "failures by kind: 1 compile error\n",
                  label(generate(3)), line, line));
  EXPECT_EQ(runs().size(), 3u);
  EXPECT_THAT(out.str(), HasSubstr("4 programs from seed 1: 3 passed, 1 failed;"));
}

TEST(EmulateBatch, CompilerMessagesAreTracedToTheKernelsWhoseLinesTheyName) {
  std::vector<LineRange> ranges;
  std::string s =
      batchSource({"fuzz_1", "fuzz_2"}, {"tc_fuzz_1", "tc_fuzz_2"},
                  {"// one\nnamespace tc_fuzz_1 {\n}\n", "// two\nnamespace tc_fuzz_2 {\nint x;\n}\n"}, &ranges);
  ASSERT_EQ(ranges.size(), 2u);
  std::vector<std::string> lines;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  EXPECT_EQ(lines[static_cast<size_t>(ranges[0].first - 1)], "// one");
  EXPECT_EQ(lines[static_cast<size_t>(ranges[0].last - 1)], "}");
  EXPECT_EQ(lines[static_cast<size_t>(ranges[1].first - 1)], "// two");
  EXPECT_EQ(lines[static_cast<size_t>(ranges[1].last - 2)], "int x;");

  std::string inKernel2 = fmt::format("/w/b.cpp:{}:5: warning: unused variable 'x'\n", ranges[1].last - 1);
  std::string inHeader = "/emu/include/emu/ops.h:77:3: error: no match\n/w/b.cpp:3:1: note: in the prelude\n";
  EXPECT_EQ(kernelsNamedBy(inKernel2, "/w/b.cpp", ranges), (std::vector<size_t>{1}));
  EXPECT_EQ(kernelsNamedBy(inHeader, "/w/b.cpp", ranges), (std::vector<size_t>{}));
  EXPECT_EQ(kernelsNamedBy(inKernel2, "/w/other.cpp", ranges), (std::vector<size_t>{}));
  EXPECT_EQ(messagesFor(inHeader + inKernel2, "/w/b.cpp", ranges[1]),
            fmt::format("b.cpp:{}:5: warning: unused variable 'x'\n", ranges[1].last - 1));
}

TEST_F(Emulate, ReportsRunAndCompareFailuresBySeed) {
  options_.seed = 10;
  options_.count = 4;
  toolchain_.crash = {11};
  toolchain_.wrong = {13};
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 1);
  std::string f11 = label(generate(11)), f13 = label(generate(13));
  std::string text = err.str();
  EXPECT_THAT(text, HasSubstr(fmt::format(
                        "FAIL seed 11 ({}) run [emulator error]: an emulator check failed (exit status 3) | replay: "
                        "tilecraft fuzz --emulate --seed 11 --count 1\n"
                        "    emulator: DataCopy reads past the end of GM\n",
                        f11)));
  EXPECT_THAT(text, HasSubstr(fmt::format("FAIL seed 13 ({}) compare [wrong values]: y: ", f13)));
  EXPECT_THAT(text, HasSubstr(" elements out of tolerance; mean rel error "));
  EXPECT_THAT(text, HasSubstr("| replay: tilecraft fuzz --emulate --seed 13 --count 1\n"));
  // Failures come in seed order.
  EXPECT_LT(text.find("seed 11"), text.find("seed 13"));
  EXPECT_THAT(out.str(), HasSubstr("4 programs from seed 10: 2 passed, 2 failed;"));
}

// The first elementwise program of the default mix whose chain has `marker`.
uint64_t firstElementwiseWith(const std::string& marker) {
  for (uint64_t seed = 1;; ++seed) {
    FuzzProgram p = generate(seed);
    if (p.family == "elementwise" && p.source.find(marker) != std::string::npos) return seed;
  }
}

int lineCount(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

// The program without the corpus header still passes the checker and still holds the marker.
void expectValidReproducer(const std::string& saved, const std::string& marker) {
  std::string program = saved;
  while (program.rfind("# ", 0) == 0) program = program.substr(program.find('\n') + 1);
  EXPECT_THAT(program, HasSubstr(marker));
  auto checked = interp::checkProgram("min.tile", program);
  EXPECT_TRUE(checked->diagnostics.diagnostics().empty()) << program << checked->renderDiagnostics();
}

TEST_F(Emulate, AnEmulatorErrorIsClassifiedMinimisedAndSavedToTheCorpus) {
  options_.seed = firstElementwiseWith("exp(");
  options_.count = 1;
  options_.corpusDir = (dir_ / "corpus").string();
  toolchain_.crashIfSourceHas = "exp(";
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 1);
  uint64_t seed = options_.seed;
  std::string text = err.str();
  EXPECT_THAT(text, HasSubstr(fmt::format("FAIL seed {} ({}) run [emulator error]: ", seed, label(generate(seed)))));
  EXPECT_THAT(text, HasSubstr("failures by kind: 1 emulator error\n"));
  fs::path saved = fs::path(options_.corpusDir) / "emulator-error" / fmt::format("fuzz_{}.tile", seed);
  EXPECT_THAT(text, HasSubstr(fmt::format("minimised seed {} (emulator error): {} -> ", seed,
                                          lineCount(generate(seed).source))));
  EXPECT_THAT(text, HasSubstr("saved to " + saved.string() + "\n"));
  std::string reproducer = readText(saved);
  EXPECT_EQ(
      reproducer.rfind(fmt::format("# emulator error ({}), found by tilecraft fuzz --emulate --seed {} --count 1\n"
                                   "# run: emulator: DataCopy reads past the end of GM\n",
                                   label(generate(seed)), seed),
                       0),
      0u)
      << reproducer;
  EXPECT_THAT(reproducer, HasSubstr(fmt::format("; run: tilecraft run fuzz_{}.tile --shape N=", seed)));
  // Smaller than found, and still a valid program with the construct that fails: one load, the exp, one store
  // and the lines around them.
  EXPECT_LT(lineCount(reproducer) - 3, lineCount(generate(seed).source));
  EXPECT_LE(lineCount(reproducer) - 3, 14) << reproducer;
  expectValidReproducer(reproducer, "exp(");
  EXPECT_EQ(readText(saved.parent_path() / fmt::format("fuzz_{}.found.tile", seed)), generate(seed).source);
}

TEST_F(Emulate, WrongValuesAreClassifiedAndSavedApartFromEmulatorErrors) {
  options_.seed = firstElementwiseWith("tanh(");
  options_.count = 1;
  options_.corpusDir = (dir_ / "corpus").string();
  toolchain_.wrongIfSourceHas = "tanh(";
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 1);
  uint64_t seed = options_.seed;
  EXPECT_THAT(err.str(),
              HasSubstr(fmt::format("FAIL seed {} ({}) compare [wrong values]: y: ", seed, label(generate(seed)))));
  EXPECT_THAT(err.str(), HasSubstr("failures by kind: 1 wrong values\n"));
  fs::path saved = fs::path(options_.corpusDir) / "wrong-values" / fmt::format("fuzz_{}.tile", seed);
  std::string reproducer = readText(saved);
  EXPECT_EQ(reproducer.rfind("# wrong values (", 0), 0u) << reproducer;
  expectValidReproducer(reproducer, "tanh(");
  EXPECT_FALSE(fs::exists(fs::path(options_.corpusDir) / "emulator-error"));
}

TEST_F(Emulate, ACorpusFolderThatCannotBeMadeIsStatusTwoWithThePath) {
  options_.seed = firstElementwiseWith("exp(");
  options_.count = 1;
  std::ofstream(dir_ / "file") << "x";
  options_.corpusDir = (dir_ / "file").string();
  toolchain_.crashIfSourceHas = "exp(";
  std::ostringstream out, err;
  ASSERT_EQ(runEmulate(options_, service_, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr(fmt::format("error: cannot create '{}/emulator-error': Not a directory\n",
                                               options_.corpusDir)));
}

TEST(EmulateMinimise, TheSignatureIgnoresNumbersButNotTheStageOrTheOutput) {
  Failure a{1, "rows", Stage::Compare, "y: 3 of 40 elements out of tolerance; mean rel error 0.5", ""};
  Failure b{2, "rows", Stage::Compare, "y: 17 of 99 elements out of tolerance; mean rel error 2.5", ""};
  Failure c{2, "rows", Stage::Compare, "s: 17 of 99 elements out of tolerance", ""};
  Failure d{3, "gather", Stage::Run, "an emulator check failed (exit status 3)",
            "b.cpp:812: error: cross-pipe hazard: GetValue on pipe S\nnote: here\n"};
  EXPECT_EQ(failureSignature(a), "compare: y");
  EXPECT_EQ(failureSignature(a), failureSignature(b));
  EXPECT_NE(failureSignature(a), failureSignature(c));
  EXPECT_EQ(failureSignature(d), "run: error: cross-pipe hazard: GetValue on pipe S");
  // A compile error's work folder and line are not part of it.
  Failure e{4, "chunks", Stage::Compile, "/tmp/tilecraft-fuzz-5UoE0q/fuzz_8.tile:8:5: error: no float powers", ""};
  Failure f{4, "chunks", Stage::Compile, "/tmp/tilecraft-fuzz-a1B2c3/fuzz_8_m3.tile:4:5: error: no float powers", ""};
  EXPECT_EQ(failureSignature(e), "compile: error: no float powers");
  EXPECT_EQ(failureSignature(e), failureSignature(f));
  EXPECT_EQ(withoutLocation("a.tile:3:1: error: bad\nnote: x"), "error: bad");
  EXPECT_EQ(withoutLocation("an emulator check failed (exit status 3)"), "an emulator check failed (exit status 3)");
}

TEST(EmulateReport, FailureLineNamesSeedStageAndReplay) {
  Failure f{42, "rows", Stage::Run, "an emulator check failed (exit status 3)", "detail"};
  EXPECT_EQ(failureLine(f, ""),
            "FAIL seed 42 (rows) run [emulator error]: an emulator check failed (exit status 3) | replay: "
            "tilecraft fuzz --emulate --seed 42 --count 1");
  EXPECT_EQ(emulateReplayCommand(7, "out/fail"), "tilecraft fuzz --emulate --seed 7 --count 1 --keep out/fail");
  EXPECT_EQ(emulateReplayCommand(7, "", Mix::Patterns), "tilecraft fuzz --emulate --patterns --seed 7 --count 1");
  EXPECT_STREQ(failureKind(Stage::Compare), "wrong values");
  EXPECT_STREQ(failureKind(Stage::Run), "emulator error");
  EXPECT_STREQ(failureKind(Stage::Compile), "compile error");
  EXPECT_STREQ(failureKind(Stage::Build), "compile error");
}

TEST(EmulateBatch, OneTranslationUnitWithOneMainThatRunsTheNamedKernel) {
  std::string s = batchSource({"fuzz_1", "fuzz_2"}, {"tc_fuzz_1", "tc_fuzz_2"},
                              {"namespace tc_fuzz_1 {\n}\n", "namespace tc_fuzz_2 {\n}\n"});
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("#include \"kernel_operator.h\""), 1u);
  EXPECT_EQ(count("namespace tclaunch {"), 1u);  // one launcher runtime for all the kernels
  EXPECT_EQ(count("int main("), 1u);
  EXPECT_LT(s.find("namespace tclaunch {"), s.find("namespace tc_fuzz_1 {"));
  EXPECT_LT(s.find("namespace tc_fuzz_2 {"), s.find("int main("));
  EXPECT_THAT(s, HasSubstr("  if (kernel == \"fuzz_1\") return tc_fuzz_1::Run(argc - 1, argv + 1);\n"
                           "  if (kernel == \"fuzz_2\") return tc_fuzz_2::Run(argc - 1, argv + 1);\n"
                           "  std::fprintf(stderr, \"error: no kernel '%s' in this batch\\n\", argv[1]);\n"));
  EXPECT_THAT(s, HasSubstr("usage: %s KERNEL NAME=VALUE... (kernels: fuzz_1 fuzz_2)"));
}

TEST(EmulateUsage, JobsAndBatchSizeMustBeAtLeastOne) {
  EXPECT_EQ(checkAtLeastOne("2", "jobs", "--jobs 2"), "");
  EXPECT_EQ(checkAtLeastOne("0", "jobs", "--jobs 2"), "'0' jobs: the value must be at least 1 (e.g. --jobs 2)");
  EXPECT_EQ(checkAtLeastOne("-4", "programs per build", "--batch-size 50"),
            "'-4' programs per build: the value must be at least 1 (e.g. --batch-size 50)");
  EXPECT_EQ(checkAtLeastOne("two", "jobs", "--jobs 2"), "'two' is not a whole number of jobs");
  EXPECT_EQ(checkAtLeastOne("", "jobs", "--jobs 2"), "'' is not a whole number of jobs");
}

}  // namespace
}  // namespace tilecraft::fuzz
