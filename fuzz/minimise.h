// Minimising a program that `fuzz --emulate` found failing: delta debugging over its lines (a stage block goes
// with its body), each round's candidates built as one batch, keeping a candidate while it fails the same way;
// then the reproducer is saved to a corpus folder, one subfolder per kind of failure (docs/fuzzing.md).
#pragma once

#include <string>

#include "fuzz/emulate.h"

namespace tilecraft::fuzz {

/// What "fails the same way" compares: the stage, and the failure's first line without its location, numbers
/// blanked ("compare: y", the output, for wrong values; the emulator's first error for an emulator error).
std::string failureSignature(const Failure& failure);

/// The first line of a message from its "error: " on (no path, line or column), or the whole first line.
std::string withoutLocation(const std::string& message);

struct Minimised {
  FuzzProgram program;  // the smallest program found that still fails the same way
  Failure failure;      // how it fails
  int rounds = 0;       // rounds that removed something
  int candidates = 0;   // candidate programs tried
  int64_t linesBefore = 0;
  int64_t linesAfter = 0;
};

/// Minimises `program`, which fails as `failure` under `options` (its work folder, jobs, sandbox), in at most
/// `maxRounds` rounds of two batches each.
Minimised minimiseFailure(const FuzzProgram& program, const Failure& failure, const EmulateOptions& options,
                          runner::BuildRunService& service, int maxRounds = 16);

/// Writes DIR/KIND/fuzz_SEED.tile (KIND: wrong-values, emulator-error, compile-error), the minimised program
/// with a header that says how it fails and how to run it, and DIR/KIND/fuzz_SEED.found.tile, the program as
/// generated. Returns the reproducer's path; throws std::runtime_error when a file cannot be written.
std::string saveToCorpus(const Minimised& minimised, const FuzzProgram& found, const std::string& dir, Mix mix);

/// The `tilecraft run` command line for a program: its shapes and attributes, its inputs' ranges and seed.
std::string runCommand(const FuzzProgram& program, const std::string& path);

}  // namespace tilecraft::fuzz
