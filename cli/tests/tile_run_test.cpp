// `tilecraft run` with a fake build-and-run service: the comparison with the reference, --no-check, and emulator
// errors pointed back at the .tile line. The kernel is compiled for real; nothing is built or run.
#include "cli/tile_run.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "interp/npy.h"
#include "support/files.h"

namespace tilecraft::cli {
namespace {

namespace fs = std::filesystem;
using dsl::DType;

const char* kAddTile =
    "N = dim()\n"
    "\n"
    "@kernel\n"
    "def add(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], z: Tensor[f32, (N,)]):\n"
    "    part = split(N, cores=vector_cores())\n"
    "    for t in tiles(part, size=64):\n"
    "        with copyin:\n"
    "            a = load(x[t])\n"
    "            b = load(y[t])\n"
    "        with compute:\n"
    "            c = a + b\n"
    "        with copyout:\n"
    "            store(z[t], c)\n";

// A service that builds nothing and runs what the test scripts.
class ScriptedService : public runner::BuildRunService {
 public:
  std::function<runner::RunResult(const runner::RunRequest&)> onRun;
  std::string source;  // the generated AscendC the build was given

  runner::BuildResult build(const runner::BuildRequest& request) override {
    source = support::readFile(request.source).value_or("");
    runner::BuildResult built;
    built.ok = true;
    built.program = request.source;
    return built;
  }
  runner::RunResult run(const runner::RunRequest& request) override { return onRun(request); }
};

std::string argAfter(const std::vector<std::string>& args, const std::string& flag) {
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == flag) return args[i + 1];
  }
  return "";
}

runner::RunResult passed() {
  runner::RunResult r;
  r.status = runner::RunStatus::Passed;
  r.exitCode = 0;
  r.report = R"({"kernel":"add","blocks":1,"instructions":12,"checks":"passed"})"
             "\n";
  return r;
}

class TileRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "tilecraft-tile-run-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    std::ofstream(dir_ / "add.tile") << kAddTile;
    // x = 1..16, y = 0: z is x.
    interp::HostTensor x{DType::F32, {16}, {}};
    for (int i = 1; i <= 16; ++i) x.data.push_back(i);
    std::ofstream(dir_ / "x.npy", std::ios::binary) << interp::encodeNpy(x);
    std::ofstream(dir_ / "y.npy", std::ios::binary) << interp::encodeNpy(interp::HostTensor::zeros(DType::F32, {16}));
    options_.file = (dir_ / "add.tile").string();
    options_.shapes = {"N=16"};
    options_.inputs = {"x=" + (dir_ / "x.npy").string(), "y=" + (dir_ / "y.npy").string()};
    options_.profile = false;
  }
  void TearDown() override { fs::remove_all(dir_); }

  int run() {
    return runTile(
        options_, [this] { return &service_; }, out_, err_);
  }

  fs::path dir_;
  TileRunOptions options_;
  ScriptedService service_;
  std::ostringstream out_, err_;
};

// The kernel writes z with its first ten elements right and the rest zero.
runner::RunResult writesWrongTail(const runner::RunRequest& request) {
  std::string outDir = argAfter(request.args, "--out-dir");
  if (outDir.empty()) return passed();  // --no-check without --out-dir: the launcher writes no files
  interp::HostTensor z{DType::F32, {16}, {}};
  for (int i = 1; i <= 16; ++i) z.data.push_back(i <= 10 ? i : 0);
  std::ofstream(fs::path(outDir) / "z.npy", std::ios::binary) << interp::encodeNpy(z);
  return passed();
}

TEST_F(TileRunTest, WrongValuesFailWithTheCountTheErrorsAndTheFirstWrongElements) {
  service_.onRun = writesWrongTail;
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(out_.str(),
            "FAIL add: an output differs from the reference: z: 6 of 16 elements wrong, max abs error 16, max rel "
            "error 1\n"
            "    z: tolerance f32: rel error below 0.0012207 per element, mean below 0.00012207\n"
            "    z[10]: got 0, want 11\n"
            "    z[11]: got 0, want 12\n"
            "    z[12]: got 0, want 13\n"
            "    z[13]: got 0, want 14\n"
            "    z[14]: got 0, want 15\n"
            "    (1 more wrong in z)\n"
            "    the emulator's checks passed (1 launch, 1 block, 12 instructions, all checks passed)\n");
  EXPECT_EQ(err_.str(), "");
}

TEST_F(TileRunTest, TheKernelReadsTheInputsTheReferenceRead) {
  std::string xFile;
  service_.onRun = [&](const runner::RunRequest& request) {
    for (size_t i = 0; i + 1 < request.args.size(); ++i) {
      if (request.args[i] == "--in" && request.args[i + 1].rfind("x=", 0) == 0) xFile = request.args[i + 1].substr(2);
    }
    std::string bytes = support::readFile(xFile).value_or("");
    std::ofstream(fs::path(argAfter(request.args, "--out-dir")) / "z.npy", std::ios::binary) << bytes;
    return passed();
  };
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(out_.str(),
            "PASS add: 1 launch, 1 block, 12 instructions, all checks passed; the outputs match the reference\n"
            "    z: matches the reference (16 elements, max abs error 0, max rel error 0; f32: rel error below "
            "0.0012207 per element, mean below 0.00012207)\n");
}

TEST_F(TileRunTest, NoCheckSkipsTheReference) {
  options_.check = false;
  service_.onRun = writesWrongTail;
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(out_.str(), "PASS add: 1 launch, 1 block, 12 instructions, all checks passed\n");
}

TEST_F(TileRunTest, AMissingOutputIsAFailure) {
  service_.onRun = [](const runner::RunRequest&) { return passed(); };
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(out_.str().substr(0, out_.str().find('\n')),
            "FAIL add: an output differs from the reference: z: the program wrote no z.npy");
}

// An input the reference refuses (a gather index past the table): its diagnostic at the .tile line, then why
// nothing is compared; nothing is built.
TEST_F(TileRunTest, AReferenceThatCannotRunIsAnErrorBeforeTheBuild) {
  std::ofstream(dir_ / "gather.tile") << "T = dim()\n"
                                         "V = dim()\n"
                                         "\n"
                                         "@kernel\n"
                                         "def gather(ids: Tensor[i32, (T,)], table: Tensor[f32, (V, 8)], out: "
                                         "Tensor[f32, (T, 8)]):\n"
                                         "    toks = split(T, cores=vector_cores())\n"
                                         "    for t in tiles(toks, size=8):\n"
                                         "        with copyin:\n"
                                         "            idx = load(ids[t])\n"
                                         "        with copyin:\n"
                                         "            rows = load(table[idx, :])\n"
                                         "        with copyout:\n"
                                         "            store(out[t, :], rows)\n";
  std::ofstream(dir_ / "ids.npy", std::ios::binary) << interp::encodeNpy(interp::HostTensor{DType::I32, {1}, {99}});
  options_.file = (dir_ / "gather.tile").string();
  options_.shapes = {"T=1", "V=16"};
  options_.inputs = {"ids=" + (dir_ / "ids.npy").string()};
  bool ran = false;
  service_.onRun = [&](const runner::RunRequest&) {
    ran = true;
    return passed();
  };
  EXPECT_EQ(run(), 1);
  EXPECT_FALSE(ran);
  EXPECT_EQ(service_.source, "");  // not built
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(), options_.file +
                            ":11:31: error: gather index 99 (element 0 of 'idx') is out of range for dimension 0 of "
                            "'table' (extent 16)\n"
                            "            rows = load(table[idx, :])\n"
                            "                              ^~~\n"
                            "hint: index values must be in [0, 16)\n"
                            "error: the reference interpreter cannot run the kernel on these inputs, so there is "
                            "nothing to compare with\n"
                            "hint: fix the error above, or pass --no-check to run the kernel alone\n");
  // With --diagnostics=json the reference's diagnostic is JSON, after the compiler's (empty) object.
  options_.diagnostics = "json";
  err_.str("");
  EXPECT_EQ(run(), 1);
  EXPECT_NE(
      err_.str().find("{\"diagnostics\":[],\"errors\":0,\"warnings\":0}\n{\"diagnostics\":[{\"severity\":\"error\","),
      std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("\"message\":\"gather index 99 (element 0 of 'idx') is out of range"), std::string::npos);
}

// The 1-based number of the first line of `text` that contains `what`.
size_t lineOf(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  size_t n = 1;
  for (std::string line; std::getline(in, line); ++n) {
    if (line.find(what) != std::string::npos) return n;
  }
  return 0;
}

TEST_F(TileRunTest, AnEmulatorErrorInGeneratedCodePointsAtTheTileLine) {
  service_.onRun = [&](const runner::RunRequest& request) {
    // The emulator names the generated file by the path it was built from.
    std::string at = fs::path(request.program).string();
    size_t add = lineOf(service_.source, "    Add(");
    size_t copyIn = lineOf(service_.source, "DataCopyPad(aLocal");
    runner::RunResult r;
    r.status = runner::RunStatus::CheckFailed;
    r.exitCode = 3;
    r.message = fmt::format("{}:{}: error: Add reads past the end of the tensor", at, add);
    r.err = r.message + fmt::format("\n{}:{}: note: DataCopy wrote it here\n", at, copyIn);
    return r;
  };
  EXPECT_EQ(run(), 1);
  size_t add = lineOf(service_.source, "    Add("), copyIn = lineOf(service_.source, "DataCopyPad(aLocal");
  ASSERT_NE(add, 0u);
  ASSERT_NE(copyIn, 0u);
  EXPECT_EQ(out_.str(), fmt::format("FAIL add: {}:11: error: Add reads past the end of the tensor\n"
                                    "    note: generated code: add.cpp:{}\n"
                                    "    {}:8: note: DataCopy wrote it here (generated code: add.cpp:{})\n",
                                    options_.file, add, options_.file, copyIn));
}

}  // namespace
}  // namespace tilecraft::cli
