// The compile benchmarks' measured loop: FILE through the whole compiler to AscendC once per iteration, labelled
// with the generated line count or the first error (compile_bench: the examples; stage_bench: long stages).
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "codegen/driver.h"

inline void compileFileInLoop(benchmark::State& state, const std::string& path) {
  std::string code, kernel;
  std::ostringstream err;
  int status = 0;
  for (auto _ : state) {
    code.clear();
    err.str("");
    status = tilecraft::codegen::compileToAscendC({path, "text"}, code, kernel, err);
    benchmark::DoNotOptimize(code.data());
  }
  if (status == 0) {
    state.SetLabel("ok, " + std::to_string(std::count(code.begin(), code.end(), '\n')) + " lines");
    return;
  }
  std::string diagnostics = err.str();
  std::string line = diagnostics.substr(0, diagnostics.find('\n'));
  size_t at = line.find("error: ");
  state.SetLabel(at == std::string::npos ? line : line.substr(at));
}
