// runBench with a scripted build-and-run service and golden: every way a run can end reaches the right row, and
// the rows alone make the report (resume, order). Real kernels and goldens run in bench_e2e.sh.
#include "harness/bench.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "interp/npy.h"

namespace tilecraft::harness {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(TILECRAFT_SOURCE_DIR) / "harness" / "tests" / "data" / "bench";

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

interp::HostTensor relu(interp::HostTensor t) {
  for (double& v : t.data) v = std::max(v, 0.0);
  return t;
}

// relu in C++: the golden of the test suite's tasks.
class ReluGolden final : public GoldenRunner {
 public:
  GoldenResult run(const Task& task, const Case&, const std::vector<NamedTensor>& inputs) override {
    ++calls;
    GoldenResult r;
    r.ok = !fail;
    r.error = fail ? "ZeroDivisionError: division by zero" : "";
    r.outputs = {{task.outputs.front().name, relu(inputs.front().tensor)}};
    r.ops = {{"aten::relu", {inputs.front().tensor.shape}, {inputs.front().tensor.shape}, {"float16"}, {"float16"}}};
    return r;
  }
  GoldenResult makeInputs(const Task&, const Case&, uint64_t) override { return {}; }
  GoldenResult prepareInputs(const Task&, const Case&, const std::vector<NamedTensor>& generated) override {
    GoldenResult r;
    r.ok = true;
    r.outputs = generated;
    return r;
  }
  bool fail = false;
  int calls = 0;
};

// Builds nothing; each run is answered by `script`, which by default behaves as a correct relu kernel.
class ScriptedService final : public runner::BuildRunService {
 public:
  runner::BuildResult build(const runner::BuildRequest& request) override {
    ++builds;
    runner::BuildResult b;
    b.ok = true;
    b.program = request.source;
    return b;
  }
  runner::RunResult run(const runner::RunRequest& request) override {
    ++runs;
    return script ? script(request) : correct(request);
  }
  // Reads --in x=FILE, writes --out-dir DIR/y.npy = transform(relu(x)).
  static runner::RunResult correct(
      const runner::RunRequest& request,
      const std::function<void(interp::HostTensor&, const interp::HostTensor&)>& change = {}) {
    std::string in, outDir;
    for (size_t i = 0; i + 1 < request.args.size(); ++i) {
      if (request.args[i] == "--in") in = request.args[i + 1].substr(request.args[i + 1].find('=') + 1);
      if (request.args[i] == "--out-dir") outDir = request.args[i + 1];
    }
    std::string error;
    interp::HostTensor x = *interp::decodeNpy(readText(in), &error);
    interp::HostTensor y = relu(x);
    if (change) change(y, x);
    std::ofstream(fs::path(outDir) / "y.npy", std::ios::binary) << interp::encodeNpy(y);
    runner::RunResult r;
    r.status = runner::RunStatus::Passed;
    r.exitCode = 0;
    return r;
  }
  std::function<runner::RunResult(const runner::RunRequest&)> script;
  int builds = 0, runs = 0;
};

runner::RunResult ended(runner::RunStatus status, std::string message) {
  runner::RunResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

class Bench : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = fs::temp_directory_path() / ("tilecraft-bench-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(out_);
  }
  void TearDown() override { fs::remove_all(out_); }

  BenchOptions options(const std::string& solutions, const std::string& task = "relu") {
    BenchOptions o;
    o.suites = {(kData / "tasks").string()};
    o.solutions = (kData / "solutions" / solutions).string();
    o.outDir = out_.string();
    o.only = {task};
    o.quiet = true;
    o.jobs = 1;
    return o;
  }
  int run(const BenchOptions& o) {
    BenchEnv env;
    env.service = &service_;
    env.golden = &golden_;
    out.str("");
    err.str("");
    return runBench(o, env, out, err);
  }
  std::vector<Record> rows() {
    std::vector<std::string> problems;
    return readResults((out_ / "results.jsonl").string(), &problems);
  }

  fs::path out_;
  ScriptedService service_;
  ReluGolden golden_;
  std::ostringstream out, err;
};

TEST_F(Bench, CorrectKernelBuildsOncePerFileAndRunsTwoSeedsPerCase) {
  ASSERT_EQ(run(options("good")), 0) << err.str();
  std::vector<Record> r = rows();
  ASSERT_EQ(r.size(), 3u);
  for (const Record& row : r) {
    EXPECT_TRUE(row.correct) << row.message;
    EXPECT_EQ(row.failure, Failure::None);
    EXPECT_GT(row.limitUs, 0);
    EXPECT_GT(row.eagerUs, 0);
    EXPECT_EQ(row.eagerSource, "model");
  }
  EXPECT_EQ(r[0].instantiation, "relu.tile");
  EXPECT_EQ(r[1].instantiation, "relu_f32.tile");  // case 2 is f32
  EXPECT_EQ(service_.builds, 2);                   // relu.tile and relu_f32.tile, each once
  EXPECT_EQ(service_.runs, 6);                     // 3 cases x 2 seeds
  EXPECT_EQ(golden_.calls, 6);
  EXPECT_TRUE(fs::exists(out_ / "summary.md"));
  EXPECT_TRUE(fs::exists(out_ / "report.html"));
  EXPECT_NE(out.str().find("relu"), std::string::npos);
}

TEST_F(Bench, EveryWayARunEndsIsClassified) {
  struct Expect {
    runner::RunStatus status;
    const char* message;
    Failure failure;
  };
  const Expect cases[] = {
      {runner::RunStatus::TimedOut, "timed out after 120 s", Failure::Timeout},
      {runner::RunStatus::Crashed, "killed by SIGSEGV", Failure::Crash},
      {runner::RunStatus::LimitExceeded, "address space limit", Failure::Crash},
      {runner::RunStatus::ForgedVerdict, "exit 0 without the emulator's verdict", Failure::SandboxViolation},
      {runner::RunStatus::SandboxViolation, "socket refused", Failure::SandboxViolation},
      {runner::RunStatus::CheckFailed,
       "relu.cpp:40: error: Add src0 on pipe V reads data that DataCopy on pipe MTE2 wrote, with no queue, flag or "
       "barrier between them",
       Failure::Hazard},
      {runner::RunStatus::CheckFailed, "relu.cpp:12: error: DataCopy of 64 bytes at GM offset 4096 is out of bounds",
       Failure::MemoryCheck},
  };
  for (const Expect& e : cases) {
    fs::remove_all(out_);
    service_.script = [&](const runner::RunRequest&) { return ended(e.status, e.message); };
    ASSERT_EQ(run(options("good")), 0) << err.str();
    std::vector<Record> r = rows();
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0].failure, e.failure) << runner::runStatusName(e.status);
    EXPECT_TRUE(r[0].compiled);
    EXPECT_FALSE(r[0].correct);
    EXPECT_EQ(r[0].message, e.message);
  }
}

TEST_F(Bench, WrongValuesAndTrivialOutputs) {
  service_.script = [](const runner::RunRequest& r) {
    return ScriptedService::correct(r, [](interp::HostTensor& y, const interp::HostTensor&) { y.data[0] += 0.5; });
  };
  ASSERT_EQ(run(options("good")), 0);
  std::vector<Record> r = rows();
  EXPECT_EQ(r[0].failure, Failure::NumericMismatch);
  EXPECT_EQ(r[0].message.substr(0, 20), "seed 1: y: mean rel ");

  fs::remove_all(out_);
  // A kernel that copies its input: passes allclose on tiny values, refused by the anti-cheat check.
  service_.script = [](const runner::RunRequest& r) {
    return ScriptedService::correct(r, [](interp::HostTensor& y, const interp::HostTensor& x) { y.data = x.data; });
  };
  BenchOptions o = options("good", "tiny_relu");
  o.rule = Rule::AllClose;
  ASSERT_EQ(run(o), 0);
  r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].failure, Failure::AntiCheat);
  EXPECT_EQ(r[0].message, "seed 1: y is a copy of input 'x' but the golden is not");
}

TEST_F(Bench, SecondSeedCatchesAKernelThatIgnoresItsInputs) {
  // Right for the first seed's inputs, stale for the second: what caching an output gives.
  std::map<std::string, std::string> firstOutput;
  service_.script = [&](const runner::RunRequest& r) {
    runner::RunResult result = ScriptedService::correct(r);
    std::string outDir;
    for (size_t i = 0; i + 1 < r.args.size(); ++i) {
      if (r.args[i] == "--out-dir") outDir = r.args[i + 1];
    }
    std::string key = fs::path(outDir).parent_path().parent_path().string() + "/" +
                      fs::path(outDir).parent_path().filename().string().substr(0, 6);
    fs::path y = fs::path(outDir) / "y.npy";
    if (!firstOutput.count(key)) {
      firstOutput[key] = readText(y);
    } else {
      std::ofstream(y, std::ios::binary) << firstOutput[key];
    }
    return result;
  };
  ASSERT_EQ(run(options("good")), 0);
  std::vector<Record> r = rows();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].failure, Failure::NumericMismatch);
  EXPECT_EQ(r[0].message.substr(0, 8), "seed 2: ");
}

TEST_F(Bench, BrokenGoldenIsReportedPerCaseAndNotScored) {
  golden_.fail = true;
  ASSERT_EQ(run(options("good")), 0);
  std::vector<Record> r = rows();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].failure, Failure::GoldenError);
  EXPECT_EQ(r[0].message, "golden failed: ZeroDivisionError: division by zero");
  EXPECT_EQ(service_.runs, 0);
}

TEST_F(Bench, MissingSolutionScoresAsNotCompiled) {
  ASSERT_EQ(run(options("zeros")), 0);  // zeros/ has tiny_relu only
  std::vector<Record> r = rows();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].failure, Failure::NoSolution);
  EXPECT_FALSE(r[0].compiled);
}

TEST_F(Bench, ResumeEvaluatesOnlyWhatIsMissingAndGivesTheSameReport) {
  ASSERT_EQ(run(options("good")), 0);
  std::string full = readText(out_ / "summary.md");
  std::string lines = readText(out_ / "results.jsonl");
  // Keep the first row and half of the second, as a kill -9 in the middle of a write leaves them.
  size_t first = lines.find('\n') + 1;
  std::ofstream(out_ / "results.jsonl", std::ios::binary | std::ios::trunc) << lines.substr(0, first + 40);
  fs::remove(out_ / "summary.md");
  int runsBefore = service_.runs;
  BenchOptions o = options("good");
  EXPECT_EQ(run(o), 2);
  EXPECT_EQ(err.str(), fmt::format("error: {} already holds 1 results; pass --resume to continue that run, or choose "
                                   "another --out\n",
                                   (out_ / "results.jsonl").string()));
  o.resume = true;
  ASSERT_EQ(run(o), 0);
  EXPECT_EQ(err.str(), fmt::format("warning: {}:2: the last line is incomplete (the run was interrupted): it is "
                                   "dropped and its row evaluated again\n",
                                   (out_ / "results.jsonl").string()));
  EXPECT_EQ(service_.runs - runsBefore, 4);  // cases 2 and 3, two seeds each
  EXPECT_EQ(readText(out_ / "summary.md"), full);
  EXPECT_EQ(rows().size(), 3u);
}

TEST_F(Bench, ShardsPartitionTheWork) {
  std::vector<std::string> keys;
  for (int shard = 0; shard < 2; ++shard) {
    fs::remove_all(out_);
    BenchOptions o = options("good");
    o.shardIndex = shard;
    o.shardCount = 2;
    ASSERT_EQ(run(o), 0);
    for (const Record& r : rows()) keys.push_back(recordKey(r));
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"relu/1/0", "relu/2/0", "relu/3/0"}));
}

TEST_F(Bench, ADtypeTilecraftDoesNotRepresentIsNotEvaluable) {
  BenchOptions o = options("good", "fp8_relu");
  o.suites = {(kData / "unsupported").string()};
  ASSERT_EQ(run(o), 0) << err.str();
  std::vector<Record> r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].failure, Failure::NotEvaluable);
  EXPECT_EQ(r[0].message, "input 1 (x) is float8_e4m3fn, which Tilecraft does not represent");
  EXPECT_EQ(golden_.calls, 0);
  EXPECT_EQ(service_.runs, 0);
}

TEST_F(Bench, UsageErrors) {
  BenchOptions o = options("good");
  o.suites = {"/no/such/tasks"};
  EXPECT_EQ(run(o), 2);
  EXPECT_EQ(err.str(), "error: task folder '/no/such/tasks' does not exist\n");
  o = options("nope");
  EXPECT_EQ(run(o), 2);
  EXPECT_EQ(err.str(), fmt::format("error: solutions folder '{}' does not exist\n", o.solutions));
}

}  // namespace
}  // namespace tilecraft::harness

namespace tilecraft::harness {
namespace {

// The services (service/) judge one solution through judgeTask: the same rows runBench writes, and no results file.
TEST_F(Bench, JudgeTaskGivesTheRowsRunBenchWrites) {
  ASSERT_EQ(run(options("good")), 0) << err.str();
  std::vector<Record> fromRun = rows();
  TaskLoad load = loadTask(kData / "tasks" / "level1" / "relu");
  ASSERT_TRUE(load.task) << (load.errors.empty() ? "" : load.errors.front().str());
  std::vector<const Case*> cases;
  for (const Case& c : load.task->cases) cases.push_back(&c);
  std::vector<Solution> solutions = findSolutions(kData / "solutions" / "good", "relu");
  ASSERT_EQ(solutions.size(), 1u);
  BenchOptions o = options("good");
  o.outDir = (out_ / "judged").string();
  BenchEnv env;
  env.service = &service_;
  env.golden = &golden_;
  perf::ArchSpec arch = perf::loadArchByName("910b2", perf::defaultArchDir());
  std::mutex goldenMutex;
  std::vector<Record> judged = judgeTask(*load.task, cases, solutions.front(), o, env, arch, goldenMutex);
  ASSERT_EQ(judged.size(), fromRun.size());
  for (size_t i = 0; i < judged.size(); ++i) {
    EXPECT_EQ(recordKey(judged[i]), recordKey(fromRun[i]));
    EXPECT_EQ(judged[i].correct, fromRun[i].correct);
    EXPECT_EQ(judged[i].failure, fromRun[i].failure);
    EXPECT_EQ(judged[i].instantiation, fromRun[i].instantiation);
    EXPECT_EQ(judged[i].limitUs, fromRun[i].limitUs);
    EXPECT_EQ(judged[i].eagerUs, fromRun[i].eagerUs);
  }
  EXPECT_FALSE(fs::exists(out_ / "judged" / "results.jsonl"));
}

}  // namespace
}  // namespace tilecraft::harness
