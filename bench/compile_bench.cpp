// Compile speed of the Tile DSL compiler: one `tilecraft compile FILE --emit=ascendc`, in process (read the
// file, front end, lowering, the pass pipeline, the emitter), per example in examples/. Target: under 20 ms
// for every example (docs/compiler.md, "Compile speed"). An example the AscendC path refuses is timed up to
// its error and labelled with it, so the table still covers all of them.
//   build/bench/compile_bench [--benchmark_filter=softmax]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "bench/compile_loop.h"

namespace {

namespace fs = std::filesystem;

// The first line of the diagnostics, without its `file:line:col: ` prefix: what the label shows for a
// refusal.
void compileExample(benchmark::State& state, const std::string& path) { compileFileInLoop(state, path); }

// Registers one case per example, in name order so the table is the same on every run.
void registerExamples() {
  fs::path root = fs::path(TILECRAFT_SOURCE_DIR) / "examples";
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && entry.path().extension() == ".tile") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::string name = fs::relative(file, root).replace_extension().generic_string();
    benchmark::RegisterBenchmark(name.c_str(), compileExample, file.string())->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  registerExamples();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
