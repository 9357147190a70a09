// Helpers for the interpreter tests: load a program, build tensors from formulas, run and fail loudly.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "interp/interp.h"
#include "interp/numeric.h"

namespace tilecraft::interp::testing {

inline std::unique_ptr<CheckedProgram> loadText(const std::string& text, const std::string& name = "t.tile") {
  auto program = checkProgram(name, text);
  EXPECT_TRUE(program->ok()) << program->renderDiagnostics();
  return program;
}

// The text of examples/RELATIVE.
inline std::string exampleText(const std::string& relative) {
  std::ifstream in(std::string(TILECRAFT_SOURCE_DIR) + "/examples/" + relative);
  EXPECT_TRUE(in.good()) << relative;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::unique_ptr<CheckedProgram> loadExample(const std::string& relative) {
  return loadText(exampleText(relative), relative);
}

/// A tensor whose element at (i) or (i, j) or (i, j, k)... is f(flat index, multi-index), rounded to the dtype.
inline HostTensor make(dsl::DType dtype, std::vector<int64_t> shape,
                       const std::function<double(const std::vector<int64_t>&)>& f) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t e = 0; e < t.data.size(); ++e) {
    t.data[e] = roundTo(f(idx), dtype);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return t;
}

inline HostTensor values(dsl::DType dtype, std::vector<int64_t> shape, std::vector<double> data) {
  HostTensor t{dtype, std::move(shape), std::move(data)};
  for (double& v : t.data) v = roundTo(v, dtype);
  return t;
}

/// Runs and expects success; on failure the test fails with the rendered diagnostics.
inline RunOutputs runOk(const CheckedProgram& program, const RunRequest& request, const std::string& kernel = "") {
  support::DiagnosticEngine diagnostics;
  auto out = run(program, kernel, request, diagnostics);
  EXPECT_TRUE(out.has_value()) << support::renderText(program.sources, diagnostics.diagnostics());
  return out.value_or(RunOutputs{});
}

/// Runs and expects a run-time error; returns the rendered diagnostics.
inline std::string runError(const CheckedProgram& program, const RunRequest& request) {
  support::DiagnosticEngine diagnostics;
  auto out = run(program, "", request, diagnostics);
  EXPECT_FALSE(out.has_value());
  return support::renderText(program.sources, diagnostics.diagnostics());
}

}  // namespace tilecraft::interp::testing
