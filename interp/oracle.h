// The oracle side of an end-to-end test: seeded inputs for a kernel, the reference outputs and the tolerance per
// output. The compile -> emulator -> compare loop takes an OracleCase and checks the device's outputs with
// compare() (compare.h).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "interp/compare.h"
#include "interp/interp.h"
#include "interp/random.h"

namespace tilecraft::interp {

struct OracleCase {
  RunRequest request;                           // dims, attributes and the generated inputs
  RunOutputs expected;                          // the reference outputs, by tensor name
  std::map<std::string, Tolerance> tolerances;  // per output, from its dtype
};

/// Generates every tensor the kernel loads (in parameter order, input k from streamSeed(seed, k) with k the
/// parameter's position; `ranges` by tensor name, defaultRange otherwise) and keeps tensors already in `inputs`.
std::map<std::string, HostTensor> makeInputs(const CheckedProgram& program, const dsl::KernelInfo& kernel,
                                             const std::map<std::string, int64_t>& dims,
                                             const std::map<std::string, ValueRange>& ranges, uint64_t seed,
                                             std::map<std::string, HostTensor> inputs = {});

/// Inputs, reference outputs and tolerances for one run; nullopt with the diagnostics reported on a run-time
/// error (an unknown kernel, a missing dim, an index out of range ...).
std::optional<OracleCase> makeOracleCase(const CheckedProgram& program, const std::string& kernel,
                                         const std::map<std::string, int64_t>& dims,
                                         const std::map<std::string, double>& attrs,
                                         const std::map<std::string, ValueRange>& ranges, uint64_t seed,
                                         support::DiagnosticEngine& diagnostics);

/// One output of a device run checked against the reference: what `fuzz --emulate` and `tilecraft run` judge.
struct OutputCheck {
  std::string name;
  std::string error;     // the output could not be read ("the program wrote no y.npy", a malformed .npy); else ""
  CompareResult result;  // when error is empty
  bool pass() const { return error.empty() && result.pass; }
  /// "y: " and the error or the comparison's message.
  std::string summary() const;
};

/// The bytes of the device's NAME.npy for output NAME; nullopt when there is none.
using OutputReader = std::function<std::optional<std::string>(const std::string& name)>;

/// Reads each reference output's counterpart through `read` and compares it under the output's tolerance; one
/// check per output, in name order.
std::vector<OutputCheck> checkOutputs(const OracleCase& oracle, const OutputReader& read);

}  // namespace tilecraft::interp
