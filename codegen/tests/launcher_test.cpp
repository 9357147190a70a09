// The generated CPU-debug launcher's usage errors: each message's exact text and the exit status 2 it gives
// (`tilecraft run` passes both through). One kernel build per example serves all its cases.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/driver.h"
#include "codegen/tests/e2e_support.h"
#include "support/process.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

class LauncherErrors : public ::testing::Test {
 protected:
  // Builds examples/<example>.tile against the emulator once per test suite run.
  static fs::path build(const std::string& example) {
    fs::path tile = fs::path(TILECRAFT_SOURCE_DIR) / "examples" / (example + ".tile");
    std::string pattern = (fs::temp_directory_path() / "tilecraft-launcher-XXXXXX").string();
    EXPECT_NE(::mkdtemp(pattern.data()), nullptr);
    fs::path dir = pattern;
    std::string code, kernel;
    std::ostringstream diags;
    EXPECT_EQ(compileToAscendC({tile.string(), "text"}, code, kernel, diags), 0) << diags.str();
    std::ofstream(dir / "k.cpp") << code;
    support::ProcessResult built = buildAgainstEmulator(dir / "k.cpp", dir / "k");
    EXPECT_EQ(built.exitCode, 0) << built.err;
    return dir;
  }

  // Runs the launcher with `args`; the status must be 2 and stderr exactly `expected`.
  static void expectUsageError(const fs::path& dir, std::vector<std::string> args, const std::string& expected) {
    support::SystemProcessRunner runner;
    support::ProcessSpec spec;
    spec.argv = {(dir / "k").string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.timeoutSeconds = 300;
    support::ProcessResult ran = runner.run(spec);
    EXPECT_EQ(ran.exitCode, 2) << ran.err;
    EXPECT_EQ(ran.err, expected);
  }
};

TEST_F(LauncherErrors, ValuesAndArgumentsOfAdam) {
  fs::path dir = build("optimizer/adam");
  const std::vector<std::string> ok = {"N=64", "lr=0.1", "beta1=0.9", "beta2=0.99", "eps=1e-6"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = ok;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  expectUsageError(dir, with({"step=1.5"}), "error: step=1.5 is not an integer\n");
  expectUsageError(dir, {"N=-4", "lr=0.1", "beta1=0.9", "beta2=0.99", "eps=1e-6", "step=1"},
                   "error: N=-4 is not a non-negative integer\n");
  expectUsageError(dir, {"N=64", "lr=fast", "beta1=0.9", "beta2=0.99", "eps=1e-6", "step=2"},
                   "error: lr=fast is not a number\n");
  expectUsageError(dir, ok, "error: missing step=<value> (an attribute without a default)\n");
  expectUsageError(dir, with({"step=1", "K=3"}), "error: unknown value 'K'\n");
  expectUsageError(dir, with({"step=1", "--in", "bias=b.npy"}),
                   "error: --in names 'bias', which is not an input tensor\n");
  expectUsageError(dir, with({"step=1", "--in", "grad"}), "error: --in takes NAME=FILE, got 'grad'\n");
  expectUsageError(dir, with({"step=1", "--seed"}), "error: --seed needs a value\n");
  expectUsageError(dir, with({"step=1", "fast"}),
                   "error: unexpected argument 'fast' (expected NAME=VALUE, --seed S, --in NAME=FILE, --out-dir DIR "
                   "or --show K)\n");
  expectUsageError(dir, with({"step=1", "--in", "grad=" + (dir / "missing.npy").string()}),
                   "error: cannot open '" + (dir / "missing.npy").string() + "'\n");
  fs::path shortFile = dir / "short.bin";
  std::ofstream(shortFile, std::ios::binary) << std::string(12, '\0');
  expectUsageError(dir, with({"step=1", "--in", "grad=" + shortFile.string()}),
                   "error: '" + shortFile.string() + "' holds 12 bytes of data; the tensor needs 256\n");
  fs::remove_all(dir);
}

TEST_F(LauncherErrors, DimAboveItsDeclaredMax) {
  fs::path dir = build("broadcast/scale_shift");
  expectUsageError(dir, {"M=4", "N=5000", "scale=2"}, "error: N=5000 is above its declared max 4096\n");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilecraft::codegen
