// A generator of random valid Tile DSL programs, for fuzzing the compiler: elementwise chains with scalar
// attributes, broadcasts, row and column reductions, softmax- and norm-like row ops, casts, at random dtypes and
// tile sizes, with small run shapes that are mostly not aligned to 32 bytes. Every program passes the front end
// with no diagnostic and runs on the reference interpreter (fuzz_tests checks seeds 1..1000).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "interp/random.h"

namespace tilecraft::fuzz {

struct FuzzProgram {
  uint64_t seed = 0;
  std::string family;                                // elementwise | integer | rows | columns
  std::string kernel;                                // fuzz_<seed>
  std::string source;                                // the .tile text
  std::map<std::string, int64_t> dims;               // the shapes to run it on
  std::map<std::string, double> attrs;               // values for the scalar attributes
  std::map<std::string, interp::ValueRange> ranges;  // per input tensor
};

/// The same seed gives the same program on every machine (SplitMix64, no floating point in the choices). Every
/// program is for the reference and for the whole compiler and emulator alike (`fuzz --emulate`): the AscendC
/// emitter supports every construct the generator uses.
FuzzProgram generate(uint64_t seed);

}  // namespace tilecraft::fuzz
