#include <fmt/format.h>
#include <gtest/gtest.h>

#include <csignal>
#include <sstream>

#include "fuzz/mutate_campaign.h"
#include "support/fake_process_runner.h"
#include "support/files.h"

namespace tilecraft::fuzz {
namespace {

const char* const kProgram =
    "N = dim()\n"
    "\n"
    "@kernel\n"
    "def add(x: Tensor[f16, (N,)], y: Tensor[f16, (N,)], z: Tensor[f16, (N,)]):\n"
    "    for t in tiles(N, size=4096):\n"
    "        with compute:\n"
    "            c = load(x[t]) + 1.5\n";

size_t lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

TEST(Mutate, SeedProgramsAreTheExamplesAndSolutionsInOrder) {
  std::vector<SeedProgram> programs = loadSeedPrograms(TILECRAFT_SOURCE_DIR);
  ASSERT_GE(programs.size(), 40u);
  EXPECT_EQ(programs.front().name.rfind("examples/", 0), 0u) << programs.front().name;
  EXPECT_EQ(programs.back().name.rfind("solutions/", 0), 0u) << programs.back().name;
  for (size_t i = 1; i < programs.size(); ++i) EXPECT_LT(programs[i - 1].name, programs[i].name);
  for (const SeedProgram& p : programs) EXPECT_FALSE(p.text.empty()) << p.name;
}

TEST(Mutate, TheSameSeedGivesTheSameMutant) {
  std::vector<SeedProgram> programs = {{"a.tile", kProgram}, {"b.tile", std::string(kProgram) + "# more\n"}};
  size_t differing = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    Mutant a = makeMutant(programs, allMutationKinds(), seed);
    Mutant b = makeMutant(programs, allMutationKinds(), seed);
    EXPECT_EQ(a.text, b.text);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.program, b.program);
    ASSERT_GE(a.steps.size(), 1u);
    ASSERT_LE(a.steps.size(), 3u);
    if (a.text != makeMutant(programs, allMutationKinds(), seed + 1).text) ++differing;
  }
  EXPECT_GE(differing, 45u);
}

TEST(Mutate, EachKindDoesWhatItsNameSays) {
  std::string what;
  for (uint64_t s = 1; s <= 20; ++s) {
    interp::SplitMix64 rng(s);
    std::string deleted = applyMutation(MutationKind::DeleteLine, kProgram, rng, &what);
    EXPECT_EQ(lines(deleted), lines(kProgram) - 1);
    EXPECT_EQ(what.rfind("delete-line ", 0), 0u) << what;
    std::string duplicated = applyMutation(MutationKind::DuplicateLine, kProgram, rng, &what);
    EXPECT_EQ(lines(duplicated), lines(kProgram) + 1);
    std::string cut = applyMutation(MutationKind::Truncate, kProgram, rng, &what);
    EXPECT_EQ(std::string(kProgram).rfind(cut, 0), 0u) << "a prefix";
    std::string nested = applyMutation(MutationKind::DeepNesting, kProgram, rng, &what);
    EXPECT_GT(nested.size(), std::string(kProgram).size() + 7) << what;
    std::string huge = applyMutation(MutationKind::HugeNumber, kProgram, rng, &what);
    EXPECT_NE(huge, kProgram) << what;
    std::string swapped = applyMutation(MutationKind::SwapTokens, kProgram, rng, &what);
    EXPECT_NE(swapped, kProgram) << what;
    std::string odd = applyMutation(MutationKind::OddBytes, kProgram, rng, &what);
    EXPECT_NE(odd, kProgram) << what;
  }
}

TEST(Mutate, OnlyTheChosenKindsAreApplied) {
  std::vector<SeedProgram> programs = {{"a.tile", kProgram}};
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    Mutant m = makeMutant(programs, {MutationKind::Truncate}, seed);
    for (const std::string& step : m.steps) EXPECT_EQ(step.rfind("truncate at byte ", 0), 0u) << step;
    EXPECT_EQ(std::string(kProgram).rfind(m.text, 0), 0u);
  }
}

TEST(Mutate, KindListsAreParsedAndUnknownNamesRefused) {
  std::string error;
  EXPECT_EQ(parseMutationKinds("all", &error)->size(), allMutationKinds().size());
  auto two = parseMutationKinds("truncate,odd-bytes,truncate", &error);
  ASSERT_TRUE(two);
  EXPECT_EQ(mutationKindList(*two), "truncate,odd-bytes");
  EXPECT_FALSE(parseMutationKinds("truncate,nesting", &error));
  EXPECT_EQ(error,
            "unknown mutation kind 'nesting' (expected all, or a comma-separated list of delete-line,"
            "duplicate-line,truncate,swap-tokens,deep-nesting,huge-number,odd-bytes)");
}

support::ProcessResult exited(int code, std::string err = {}) {
  support::ProcessResult r;
  r.exitCode = code;
  r.err = std::move(err);
  return r;
}

TEST(Mutate, RunsAreJudgedOnWhatTheCommandPromises) {
  EXPECT_TRUE(judgeRun(exited(0), 5, false).ok);
  EXPECT_TRUE(judgeRun(exited(1, "t.tile:1:1: error: expected an expression\n"), 5, false).ok);
  EXPECT_TRUE(judgeRun(exited(2, "error: cannot read x\n"), 5, true).ok) << "usage errors are text";
  EXPECT_EQ(judgeRun(exited(3), 5, false).category, "exit status 3");
  support::ProcessResult killed;
  killed.termSignal = SIGSEGV;
  EXPECT_EQ(judgeRun(killed, 5, false).detail, "killed by SIGSEGV");
  support::ProcessResult hung;
  hung.timedOut = true;
  hung.termSignal = SIGKILL;
  EXPECT_EQ(judgeRun(hung, 5, false).detail, "timeout: no exit within 5 s");
  Verdict internal = judgeRun(exited(1, "ok\ninternal compiler error: verifier: bad\n"), 5, false);
  EXPECT_EQ(internal.category, "internal error");
  EXPECT_EQ(internal.detail, "internal error: internal compiler error: verifier: bad");
  EXPECT_TRUE(judgeRun(exited(1, R"({"diagnostics":[],"errors":0})"), 5, true).ok);
  EXPECT_EQ(judgeRun(exited(1, "{\"diagnostics\":[\"\xff\"]}"), 5, true).category, "invalid JSON");
}

TEST(Mutate, TheMinimiserKeepsTheFailureAndDropsTheRest) {
  int calls = 0;
  auto fails = [&](const std::string& t) {
    ++calls;
    return t.find("BAD") != std::string::npos;
  };
  std::string text = "line one\nline two BAD here\nline three\nline four\n";
  EXPECT_EQ(minimise(text, fails, 1000), "BAD");
  calls = 0;
  std::string limited = minimise(text, fails, 2);
  EXPECT_EQ(calls, 2);
  EXPECT_NE(limited.find("BAD"), std::string::npos);
}

TEST(Mutate, StagesSetEveryDimForTheInterpreter) {
  std::vector<Stage> stages = stagesFor("M = dim()\nN = dim(max=64)\nM = dim()\n", true);
  ASSERT_EQ(stages.size(), 4u);
  EXPECT_EQ(stages[0].args, (std::vector<std::string>{"compile", "{file}", "--emit=ir"}));
  EXPECT_EQ(stages[2].args,
            (std::vector<std::string>{"interp", "{file}", "--seed", "1", "--shape", "M=24", "--shape", "N=32"}));
  EXPECT_EQ(stagesFor("", false).size(), 1u);
}

// The campaign on a fake `tilecraft` that crashes on any file holding "@kernel": every failure is listed with
// its replay command and written out minimised.
TEST(Mutate, AFailingMutantIsWrittenOutMinimisedWithItsReplayCommand) {
  std::filesystem::path root = std::filesystem::path(testing::TempDir()) / "mutate_root";
  std::filesystem::path work = std::filesystem::path(testing::TempDir()) / "mutate_work";
  std::filesystem::remove_all(root);
  std::filesystem::remove_all(work);
  std::filesystem::create_directories(root / "examples");
  std::string error;
  ASSERT_TRUE(support::writeFileAtomically(root / "examples/add.tile", kProgram, &error)) << error;
  support::FakeProcessRunner runner;
  runner.setHandler([](const support::ProcessSpec& spec) {
    std::string text = support::readFile(spec.argv.at(2)).value_or("");
    if (text.find("@kernel") == std::string::npos) return exited(1, "t.tile: error: no kernel\n");
    support::ProcessResult r;
    r.termSignal = SIGSEGV;
    return r;
  });
  MutateOptions o;
  o.tilecraft = "tc";
  o.root = root;
  o.workDir = work;
  o.count = 6;
  o.seed = 10;
  o.sampleEvery = 0;
  o.kinds = {MutationKind::DuplicateLine};  // keeps "@kernel" in every mutant
  std::ostringstream out, err;
  EXPECT_EQ(runMutate(o, runner, out, err), 1) << err.str();
  EXPECT_NE(out.str().find("FAIL seed 10 (examples/add.tile; duplicate-line "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("check: killed by SIGSEGV\n"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("  replay: tilecraft_mutate --replay 10 --kinds duplicate-line\n"), std::string::npos);
  EXPECT_NE(out.str().find("exit 0: 0, 1: 0, 2: 0; 6 failing mutants\n"), std::string::npos) << out.str();
  EXPECT_EQ(support::readFile(work / "failures/seed_10.tile"), "@kernel");
  std::string report = support::readFile(work / "failures/seed_10.txt").value_or("");
  EXPECT_EQ(report.rfind("check: killed by SIGSEGV\nseed program: examples/add.tile\nmutation: duplicate-line ", 0), 0u)
      << report;
  EXPECT_NE(report.find("run it: tilecraft compile seed_10.tile --emit=ir\n"), std::string::npos) << report;
  EXPECT_EQ(runner.specs().front().argv.at(0), "tc");
  EXPECT_EQ(runner.specs().front().timeoutSeconds, o.timeoutSeconds);
}

TEST(Mutate, ACampaignThatKeepsEveryPromisePasses) {
  support::FakeProcessRunner runner;  // exit status 0 for every run, with the JSON of no diagnostics
  runner.setHandler([](const support::ProcessSpec&) { return exited(0, R"({"diagnostics":[],"errors":0})"); });
  MutateOptions o;
  o.root = TILECRAFT_SOURCE_DIR;
  o.workDir = std::filesystem::path(testing::TempDir()) / "mutate_pass";
  o.count = 8;
  o.sampleEvery = 4;
  o.jobs = 2;
  std::ostringstream out, err;
  EXPECT_EQ(runMutate(o, runner, out, err), 0) << err.str();
  EXPECT_EQ(runner.specs().size(), 8u + 2u * 3u) << "seeds 4 and 8 sampled";
  EXPECT_NE(out.str().find("mutate: 8 mutants from seed 1 of "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("exit 0: 14, 1: 0, 2: 0; 0 failing mutants\n"), std::string::npos) << out.str();
}

TEST(Mutate, NoSeedProgramsIsAUsageError) {
  support::FakeProcessRunner runner;
  MutateOptions o;
  o.root = std::filesystem::path(testing::TempDir()) / "no_such_root";
  std::ostringstream out, err;
  EXPECT_EQ(runMutate(o, runner, out, err), 2);
  EXPECT_EQ(err.str(), fmt::format("error: no .tile files under {0}/examples or {0}/solutions (--root is the "
                                   "repository)\n",
                                   o.root.string()));
}

TEST(Mutate, AnUnwritableWorkFolderIsAUsageError) {
  std::filesystem::path file = std::filesystem::path(testing::TempDir()) / "mutate_work_is_a_file";
  std::string error;
  ASSERT_TRUE(support::writeFileAtomically(file, "x", &error)) << error;
  support::FakeProcessRunner runner;
  MutateOptions o;
  o.root = TILECRAFT_SOURCE_DIR;
  o.workDir = file / "sub";
  std::ostringstream out, err;
  EXPECT_EQ(runMutate(o, runner, out, err), 2);
  EXPECT_EQ(err.str().rfind(fmt::format("error: cannot create the work folder {}: ", o.workDir.string()), 0), 0u)
      << err.str();
  EXPECT_TRUE(runner.specs().empty());
}

TEST(Mutate, TheCorpusRunListsEachFailingFileAndStage) {
  std::filesystem::path dir = std::filesystem::path(testing::TempDir()) / "mutate_corpus";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "frontend");
  std::string error;
  ASSERT_TRUE(support::writeFileAtomically(dir / "frontend/ok.tile", "N = dim()\n", &error)) << error;
  ASSERT_TRUE(support::writeFileAtomically(dir / "frontend/bad.tile", "crash\n", &error)) << error;
  support::FakeProcessRunner runner;
  runner.setHandler([](const support::ProcessSpec& spec) {
    if (support::readFile(spec.argv.at(2)).value_or("") == "crash\n" && spec.argv.at(1) == "interp") {
      support::ProcessResult r;
      r.termSignal = SIGABRT;
      return r;
    }
    return exited(1, R"({"diagnostics":[],"errors":1})");
  });
  MutateOptions o;
  o.tilecraft = "tc";
  o.workDir = std::filesystem::path(testing::TempDir()) / "mutate_corpus_work";
  std::ostringstream out, err;
  EXPECT_EQ(runCorpus(o, dir, runner, out, err), 1) << err.str();
  EXPECT_EQ(out.str(),
            fmt::format("FAIL frontend/bad.tile: interp: killed by SIGABRT\n  run it: tc interp {} --seed 1\n"
                        "corpus: 2 files, 8 runs: 1 failed\n",
                        (dir / "frontend/bad.tile").string()));
  std::ostringstream out2, err2;
  EXPECT_EQ(runCorpus(o, dir / "none", runner, out2, err2), 2);
  EXPECT_EQ(err2.str(), fmt::format("error: no .tile files under {}\n", (dir / "none").string()));
}

}  // namespace
}  // namespace tilecraft::fuzz
