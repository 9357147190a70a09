// Compile time of one long stage: a kernel whose compute block holds N statements (v_i = v_{i-1} * 0.5 + a),
// compiled in process to AscendC (front end, lowering, passes, buffer placement, emitter). Placement and the
// checker's capacity search were quadratic in N (64k statements took 17.7 s, 200k did not finish); kernels
// past the parser's statement limit (dsl/parser.h, 20,000) are refused before any of that runs. Figures and
// the command are in docs/compiler.md, "Compile speed".
//   build/bench/stage_bench [--benchmark_filter=16000]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/compile_loop.h"

namespace {

namespace fs = std::filesystem;

std::string stageProgram(int64_t statements) {
  std::string text =
      "N = dim()\n\n@kernel\ndef stage(x: Tensor[f32, (N,)], z: Tensor[f32, (N,)]):\n"
      "    part = split(N, cores=vector_cores())\n    for t in tiles(part, size=256):\n"
      "        with copyin:\n            a = load(x[t])\n        with compute:\n            v0 = a * 0.5\n";
  for (int64_t i = 1; i < statements; ++i) {
    text += "            v" + std::to_string(i) + " = v" + std::to_string(i - 1) + " * 0.5 + a\n";
  }
  text += "        with copyout:\n            store(z[t], v" + std::to_string(statements - 1) + ")\n";
  return text;
}

void compileStage(benchmark::State& state) {
  std::string pattern = (fs::temp_directory_path() / "tilecraft-stage-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    state.SkipWithError("cannot make a temporary folder");
    return;
  }
  fs::path file = fs::path(pattern) / "stage.tile";
  std::ofstream(file) << stageProgram(state.range(0));
  compileFileInLoop(state, file.string());
  fs::remove_all(pattern);
}

}  // namespace

BENCHMARK(compileStage)->Arg(16000)->Arg(64000)->Arg(200000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
