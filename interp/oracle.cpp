#include "interp/oracle.h"

#include <fmt/format.h>

#include "interp/npy.h"

namespace tilecraft::interp {

std::map<std::string, HostTensor> makeInputs(const CheckedProgram& program, const dsl::KernelInfo& kernel,
                                             const std::map<std::string, int64_t>& dims,
                                             const std::map<std::string, ValueRange>& ranges, uint64_t seed,
                                             std::map<std::string, HostTensor> inputs) {
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const dsl::ParamInfo& p = kernel.params[i];
    if (!p.isTensor || !p.loaded || inputs.count(p.name)) continue;
    auto shape = paramShape(program, p, dims);
    if (!shape) continue;  // a missing dim: run() reports it where the dim is declared
    auto range = ranges.find(p.name);
    inputs[p.name] = randomTensor(
        p.type.dtype, *shape, range != ranges.end() ? range->second : defaultRange(p.type.dtype), streamSeed(seed, i));
  }
  return inputs;
}

std::optional<OracleCase> makeOracleCase(const CheckedProgram& program, const std::string& kernel,
                                         const std::map<std::string, int64_t>& dims,
                                         const std::map<std::string, double>& attrs,
                                         const std::map<std::string, ValueRange>& ranges, uint64_t seed,
                                         support::DiagnosticEngine& diagnostics) {
  const dsl::KernelInfo* info = program.kernel(kernel);
  OracleCase c;
  c.request.dims = dims;
  c.request.attrs = attrs;
  if (info) c.request.inputs = makeInputs(program, *info, dims, ranges, seed);
  auto outputs = run(program, kernel, c.request, diagnostics);
  if (!outputs) return std::nullopt;
  c.expected = std::move(*outputs);
  for (const auto& [name, tensor] : c.expected) c.tolerances[name] = Tolerance::forDType(tensor.dtype);
  return c;
}

std::string OutputCheck::summary() const { return fmt::format("{}: {}", name, error.empty() ? result.message : error); }

std::vector<OutputCheck> checkOutputs(const OracleCase& oracle, const OutputReader& read) {
  std::vector<OutputCheck> checks;
  for (const auto& [name, expected] : oracle.expected) {
    OutputCheck& check = checks.emplace_back();
    check.name = name;
    std::optional<std::string> bytes = read(name);
    if (!bytes) {
      check.error = fmt::format("the program wrote no {}.npy", name);
      continue;
    }
    std::optional<HostTensor> actual = decodeNpy(*bytes, &check.error);
    if (!actual) continue;
    check.result = compare(expected, *actual, oracle.tolerances.at(name));
  }
  return checks;
}

}  // namespace tilecraft::interp
