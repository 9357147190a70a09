// The one registry of DSL builtins: names, arity, keywords, dtypes on 910B, work-buffer needs and the AscendC
// API each lowers to. The checker, the "did you mean" hints and the language reference all come from this table.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "dsl/types.h"

namespace tilecraft::dsl {

// clang-format off
enum class Builtin : unsigned char {
  // module level
  Dim,
  // work decomposition and host arithmetic
  Split, Tiles, Grid, Range, VectorCores, CubeCores, Cdiv, Min, Max,
  // data movement and creation
  Load, Store, Copy, Zeros, Full, Cast,
  // elementwise
  Exp, Log, Abs, Sqrt, Rsqrt, Reciprocal, Relu, Tanh, Sigmoid, Gelu, Silu, Sin, Cos, Erf,
  Maximum, Minimum, Pow, LeakyRelu, Clamp, Where,
  // reductions, scans, gather, cube
  ReduceSum, ReduceMax, ReduceMin, ReduceMean, Argmax, Argmin, Cumsum, Cumprod, Gather, Matmul,
};
// clang-format on

enum class BuiltinCategory : unsigned char {
  Module,      // only in module-level definitions
  Structure,   // split/tiles/grid/range and core counts
  HostScalar,  // integer arithmetic on scalars
  Movement,    // load/store/copy: the only ops that change memory
  Creation,    // zeros/full
  Vector,      // elementwise, reductions, scans, gather, cast: UB tiles, in 'with compute'
  Cube,        // matmul: L0A x L0B -> L0C, in 'with compute'
};

struct BuiltinInfo {
  Builtin id;
  const char* name;
  BuiltinCategory category;
  int minArgs;
  int maxArgs;
  std::string_view keywords;  // space-separated keyword arguments it accepts
  DTypeSet dtypes;            // element dtypes of its tile operands on 910B; empty = not a tile operation
  int workFactor;             // work buffer reserved in UB, as a multiple of the input tile's bytes
  const char* signature;      // as the language reference writes it
  const char* ascendc;        // what it lowers to
};

std::span<const BuiltinInfo> allBuiltins();
const BuiltinInfo& builtinInfo(Builtin id);
const BuiltinInfo* findBuiltin(std::string_view name);
bool acceptsKeyword(const BuiltinInfo& info, std::string_view keyword);

/// Levenshtein distance, for "did you mean" suggestions.
size_t editDistance(std::string_view a, std::string_view b);
/// The closest candidate within a distance that scales with the word length, if any.
std::optional<std::string> closestName(std::string_view word, std::span<const std::string> candidates);

}  // namespace tilecraft::dsl
