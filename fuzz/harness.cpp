#include "fuzz/harness.h"

#include <fmt/format.h>

namespace tilecraft::fuzz {

std::optional<ComparisonCase> prepareComparison(const FuzzProgram& program, uint64_t inputSeed, std::string* error) {
  auto checked = interp::checkProgram(fmt::format("fuzz_{}.tile", program.seed), program.source);
  // A generated program must be clean: a warning is as much a generator bug as an error.
  if (!checked->diagnostics.diagnostics().empty()) {
    *error = checked->renderDiagnostics();
    return std::nullopt;
  }
  support::DiagnosticEngine diagnostics;
  auto oracle = interp::makeOracleCase(*checked, program.kernel, program.dims, program.attrs, program.ranges, inputSeed,
                                       diagnostics);
  if (!oracle) {
    *error = support::renderText(checked->sources, diagnostics.diagnostics());
    return std::nullopt;
  }
  return ComparisonCase{program, std::move(*oracle)};
}

}  // namespace tilecraft::fuzz
