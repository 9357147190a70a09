// A valid 10,000-term sum (z = x + y + y + ... + y) goes through every stage that walks expressions (parser,
// checker, lowering, emitter, interpreter) without recursing once per term, and the emulated kernel matches the
// interpreter. It crashed the checker with a stack overflow before operator chains were walked iteratively.
// The kernel is built at -O0: g++ -O1 takes over 15 minutes on its 10,000 vector calls (-O0: about a minute),
// so the suite name ends in CodegenE2E and `make sanitize` leaves it out with the other end-to-end suites.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "codegen/driver.h"
#include "codegen/tests/e2e_support.h"
#include "interp/compare.h"
#include "interp/npy.h"
#include "interp/oracle.h"
#include "support/process.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

std::string sumProgram(int terms) {
  std::string body = "a";
  for (int i = 1; i < terms; ++i) body += " + b";
  return fmt::format(R"(N = dim()

@kernel
def sum_chain(x: Tensor[f16, (N,)], y: Tensor[f16, (N,)], z: Tensor[f16, (N,)]):
    part = split(N, cores=vector_cores())
    for t in tiles(part, size=512):
        with copyin:
            a = load(x[t])
            b = load(y[t])
        with compute:
            c = {}
        with copyout:
            store(z[t], c)
)",
                     body);
}

TEST(SumChainCodegenE2E, TenThousandTermSumMatchesTheInterpreter) {
  fs::path dir = tempDir("chain");
  fs::path tile = dir / "sum_chain.tile";
  std::string text = sumProgram(10000);
  std::ofstream(tile) << text;

  std::string code, kernel;
  std::ostringstream diags;
  ASSERT_EQ(compileToAscendC({tile.string(), "text"}, code, kernel, diags), 0) << diags.str();
  EXPECT_GE(std::count(code.begin(), code.end(), '\n'), 10000);
  std::ofstream(dir / "k.cpp") << code;

  support::ProcessResult built = buildAgainstEmulator(dir / "k.cpp", dir / "k", "-O0", {}, 900);
  support::SystemProcessRunner runner;
  ASSERT_EQ(built.exitCode, 0) << built.err;

  auto program = interp::checkProgram("sum_chain.tile", text);
  ASSERT_TRUE(program->ok()) << program->renderDiagnostics();
  // Inputs in [-1, 1) and y small, so the f16 sum stays finite: 10,000 roundings, in the same order on both sides.
  std::map<std::string, interp::ValueRange> ranges{{"y", {-0.01, 0.01}}};
  support::DiagnosticEngine interpDiags;
  auto oracle = interp::makeOracleCase(*program, "", {{"N", 1000}}, {}, ranges, 5, interpDiags);
  ASSERT_TRUE(oracle.has_value());
  support::ProcessSpec exec;
  exec.argv = {(dir / "k").string(), "--out-dir", dir.string(), "N=1000"};
  for (const auto& [input, tensor] : oracle->request.inputs) {
    fs::path file = dir / (input + ".in.npy");
    std::ofstream(file, std::ios::binary) << interp::encodeNpy(tensor);
    exec.argv.push_back("--in");
    exec.argv.push_back(input + "=" + file.string());
  }
  exec.timeoutSeconds = 600;
  support::ProcessResult ran = runner.run(exec);
  ASSERT_EQ(ran.exitCode, 0) << ran.err;
  std::string error;
  auto actual = interp::decodeNpy(readText(dir / "z.npy"), &error);
  ASSERT_TRUE(actual.has_value()) << error;
  interp::CompareResult cmp = interp::compare(oracle->expected.at("z"), *actual, oracle->tolerances.at("z"));
  EXPECT_TRUE(cmp.pass) << cmp.message;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilecraft::codegen
