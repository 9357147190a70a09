// The hook of the fuzzing loop: a generated program in, everything the compile -> emulator -> compare step needs
// out. Until the AscendC emitter exists, fuzz_tests runs the front end and the reference on every program.
#pragma once

#include <optional>
#include <string>

#include "fuzz/generator.h"
#include "interp/oracle.h"

namespace tilecraft::fuzz {

struct ComparisonCase {
  FuzzProgram program;
  interp::OracleCase oracle;  // inputs (oracle.request), reference outputs, tolerances per output
};

/// Checks the program with the front end and runs it on the reference with inputs from `inputSeed`. nullopt
/// with `error` set (the rendered diagnostics, or the interpreter's) when either step fails: a generator bug.
std::optional<ComparisonCase> prepareComparison(const FuzzProgram& program, uint64_t inputSeed, std::string* error);

}  // namespace tilecraft::fuzz
