// A generator of random valid Tile DSL programs, for fuzzing the compiler: elementwise chains with scalar
// attributes, broadcasts, row and column reductions, softmax- and norm-like row ops, casts, at random dtypes and
// tile sizes, with small run shapes that are mostly not aligned to 32 bytes; and the patterns that once broke the
// compiler (docs/fuzzing.md, "Compiler patterns"): constant-width chunks at device offsets past the end, index
// tiles made in compute for a gather load, buffers=1 with several compute blocks near the UB capacity, (r, 1)
// and 1-D views, reassigned stored values, scalar `**` of float attributes. Every program passes the front end with no
// diagnostic and runs on the reference interpreter (fuzz_tests checks seeds 1..1000 of the default mix and
// 1..400 of the patterns mix).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "interp/random.h"

namespace tilecraft::fuzz {

/// Which productions a seed draws from: all of them (by their weights), or only the patterns that broke the
/// compiler (the fast ctest's mix).
enum class Mix { All, Patterns };

struct FuzzProgram {
  uint64_t seed = 0;
  std::string family;                                // elementwise | integer | rows | columns | chunks | ...
  std::vector<std::string> patterns;                 // the bug patterns it contains (docs/fuzzing.md)
  std::string kernel;                                // fuzz_<seed>
  std::string source;                                // the .tile text
  std::map<std::string, int64_t> dims;               // the shapes to run it on
  std::map<std::string, double> attrs;               // values for the scalar attributes
  std::map<std::string, interp::ValueRange> ranges;  // per input tensor
};

/// The same seed (and mix) gives the same program on every machine (SplitMix64, no floating point in the
/// choices). Every program is for the reference and for the whole compiler and emulator alike
/// (`fuzz --emulate`): the AscendC emitter supports every construct the generator uses.
FuzzProgram generate(uint64_t seed, Mix mix = Mix::All);

/// "rows" or, with patterns, "rows: pow-scalar, reassigned-store": the family and what it exercises.
std::string label(const FuzzProgram& program);

}  // namespace tilecraft::fuzz
