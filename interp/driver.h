// `tilecraft interp FILE.tile --shape N=1000 [--attr alpha=0.5] [--seed S] [--out DIR]`: runs a kernel on the
// reference interpreter with seeded (or given) inputs and writes its outputs as .npy. Testable without a process.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "interp/files.h"

namespace tilecraft::interp {

struct InterpOptions {
  std::string file;
  std::string kernel;               // empty: the file's only kernel
  std::vector<std::string> shapes;  // NAME=VALUE, one per dim()
  std::vector<std::string> attrs;   // NAME=VALUE
  std::vector<std::string> inputs;  // NAME=FILE.npy: a given input instead of a generated one
  std::vector<std::string> ranges;  // NAME=LO:HI: the value range of a generated input
  uint64_t seed = 0;
  std::string outDir;                    // empty: only print the summary
  bool saveInputs = false;               // also write the inputs, as NAME.in.npy
  std::vector<std::string> params = {};  // NAME=VALUE: a dtype or const parameter (dsl/generic.h)
};

/// Exit status: 0 success; 1 the program has errors, or the run failed (diagnostics on `err`); 2 bad usage or an
/// unreadable file.
int runInterp(const InterpOptions& options, Files& files, std::ostream& out, std::ostream& err);

}  // namespace tilecraft::interp
