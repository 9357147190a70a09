// `tilecraft fuzz [--seed S] [--count N] [--out DIR]`: generates programs, checks each through the front end and
// the reference interpreter, and prints (or writes) them with the `tilecraft interp` line that replays them.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include "fuzz/generator.h"
#include "interp/files.h"

namespace tilecraft::fuzz {

struct FuzzOptions {
  uint64_t seed = 1;
  int64_t count = 1;
  Mix mix = Mix::All;
  std::string outDir;  // empty: print the programs on stdout
};

/// The `tilecraft interp` command line that runs `program` from `path` with its shapes, attributes and ranges.
std::string replayCommand(const FuzzProgram& program, const std::string& path);

/// Exit status: 0 every program is valid and runs; 1 some program failed (a generator bug: its source and
/// diagnostics go to `err`); 2 a file could not be written.
int runFuzz(const FuzzOptions& options, interp::Files& files, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::fuzz
