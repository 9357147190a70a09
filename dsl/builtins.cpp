#include "dsl/builtins.h"

#include <algorithm>
#include <vector>

#include "support/assert.h"

namespace tilecraft::dsl {

namespace {

using D = DType;
constexpr DTypeSet kArith{D::I16, D::F16, D::I32, D::F32};  // Add/Sub/Mul/Max/Min and their scalar forms
constexpr DTypeSet kFloat{D::F16, D::F32};                  // Div, Exp, Ln, ..., reductions, high-level math
constexpr DTypeSet kRelu{D::F16, D::I32, D::F32};
constexpr DTypeSet kFill{D::I16, D::F16, D::BF16, D::I32, D::F32};  // Duplicate (b16 and b32)
constexpr DTypeSet kAny{D::F16, D::BF16, D::F32, D::I8, D::U8, D::I16, D::I32, D::I64};
constexpr DTypeSet kCube{D::F16, D::BF16, D::F32, D::I8};
constexpr DTypeSet kScanSum{D::F16, D::F32, D::I32};
constexpr DTypeSet kGather{D::I16, D::F16, D::I32, D::F32};

using C = BuiltinCategory;
const BuiltinInfo kBuiltins[] = {
    {Builtin::Dim, "dim", C::Module, 0, 0, "max", {}, 0, "dim(max=None)", "a tiling-struct field"},
    {Builtin::Split,
     "split",
     C::Structure,
     1,
     1,
     "cores",
     {},
     0,
     "split(extent, cores=vector_cores())",
     "GetBlockIdx() and the per-core range in the tiling struct"},
    {Builtin::Tiles,
     "tiles",
     C::Structure,
     1,
     1,
     "size buffers",
     {},
     0,
     "tiles(extent_or_range, size=S, buffers=2)",
     "a tile loop with a tail tile; buffers = TQue depth"},
    {Builtin::Grid,
     "grid",
     C::Structure,
     1,
     1,
     "size cores buffers",
     {},
     0,
     "grid((E0, E1, ...), size=(S0, S1, ...), cores=cube_cores())",
     "block tiles dealt round-robin to cores"},
    {Builtin::Range, "range", C::Structure, 1, 3, "", {}, 0, "range([start,] stop[, step])", "a scalar for loop"},
    {Builtin::VectorCores,
     "vector_cores",
     C::Structure,
     0,
     1,
     "",
     {},
     0,
     "vector_cores([n])",
     "blockDim over AIV cores (48 on 910B2)"},
    {Builtin::CubeCores,
     "cube_cores",
     C::Structure,
     0,
     1,
     "",
     {},
     0,
     "cube_cores([n])",
     "blockDim over AIC cores (24 on 910B2)"},
    {Builtin::Cdiv, "cdiv", C::HostScalar, 2, 2, "", {}, 0, "cdiv(a, b)", "(a + b - 1) / b"},
    {Builtin::Min, "min", C::HostScalar, 2, 2, "", {}, 0, "min(a, b)", "std::min on scalars"},
    {Builtin::Max, "max", C::HostScalar, 2, 2, "", {}, 0, "max(a, b)", "std::max on scalars"},
    {Builtin::Load, "load", C::Movement, 1, 1, "to pad", kAny, 0, "load(x[...], to=UB, pad=0)",
     "DataCopy / DataCopyPad GM->UB, DataCopy Nd2Nz GM->L1"},
    {Builtin::Store, "store", C::Movement, 2, 2, "accumulate", kAny, 0, "store(y[...], value, accumulate=False)",
     "DataCopy / DataCopyPad UB->GM, Fixpipe L0C->GM; SetAtomicAdd when accumulating"},
    {Builtin::Copy, "copy", C::Movement, 1, 1, "to transpose", kAny, 0, "copy(value, to=MEM, transpose=False)",
     "LoadData L1->L0A/L0B, DataCopy UB->UB, Fixpipe L0C->workspace->UB"},
    {Builtin::Zeros, "zeros", C::Creation, 2, 2, "mem", kFill, 0, "zeros(shape, dtype, mem=UB)",
     "Duplicate(0); in L0C: the first Mmad starts from zero"},
    {Builtin::Full, "full", C::Creation, 3, 3, "mem", kFill, 0, "full(shape, value, dtype, mem=UB)", "Duplicate"},
    {Builtin::Cast, "cast", C::Vector, 2, 2, "", kAny, 0, "cast(x, dtype)", "Cast (direct conversions only)"},
    {Builtin::Exp, "exp", C::Vector, 1, 1, "", kFloat, 0, "exp(x)", "Exp"},
    {Builtin::Log, "log", C::Vector, 1, 1, "", kFloat, 0, "log(x)", "Ln"},
    {Builtin::Abs, "abs", C::Vector, 1, 1, "", kFloat, 0, "abs(x)", "Abs"},
    {Builtin::Sqrt, "sqrt", C::Vector, 1, 1, "", kFloat, 0, "sqrt(x)", "Sqrt"},
    {Builtin::Rsqrt, "rsqrt", C::Vector, 1, 1, "", kFloat, 0, "rsqrt(x)", "Rsqrt"},
    {Builtin::Reciprocal, "reciprocal", C::Vector, 1, 1, "", kFloat, 0, "reciprocal(x)", "Reciprocal"},
    {Builtin::Relu, "relu", C::Vector, 1, 1, "", kRelu, 0, "relu(x)", "Relu"},
    {Builtin::Tanh, "tanh", C::Vector, 1, 1, "", kFloat, 1, "tanh(x)", "Tanh (high-level API)"},
    {Builtin::Sigmoid, "sigmoid", C::Vector, 1, 1, "", kFloat, 1, "sigmoid(x)", "Sigmoid (high-level API)"},
    {Builtin::Gelu, "gelu", C::Vector, 1, 1, "", kFloat, 1, "gelu(x)", "Gelu (high-level API)"},
    {Builtin::Silu, "silu", C::Vector, 1, 1, "", kFloat, 1, "silu(x)", "Silu (high-level API)"},
    {Builtin::Sin, "sin", C::Vector, 1, 1, "", kFloat, 1, "sin(x)", "Sin (high-level API)"},
    {Builtin::Cos, "cos", C::Vector, 1, 1, "", kFloat, 1, "cos(x)", "Cos (high-level API)"},
    {Builtin::Erf, "erf", C::Vector, 1, 1, "", kFloat, 1, "erf(x)", "Erf (high-level API)"},
    {Builtin::Maximum, "maximum", C::Vector, 2, 2, "", kArith, 0, "maximum(a, b)", "Max / Maxs"},
    {Builtin::Minimum, "minimum", C::Vector, 2, 2, "", kArith, 0, "minimum(a, b)", "Min / Mins"},
    {Builtin::Pow, "pow", C::Vector, 2, 2, "", kFloat, 1, "pow(x, e)", "Power (high-level API)"},
    {Builtin::LeakyRelu, "leaky_relu", C::Vector, 2, 2, "", kFloat, 0, "leaky_relu(x, slope)", "LeakyRelu"},
    {Builtin::Clamp, "clamp", C::Vector, 3, 3, "", kFloat, 0, "clamp(x, lo, hi)", "Maxs then Mins"},
    {Builtin::Where, "where", C::Vector, 3, 3, "", kFloat, 0, "where(mask, a, b)", "Select"},
    {Builtin::ReduceSum, "reduce_sum", C::Vector, 1, 1, "axis", kFloat, 1, "reduce_sum(x, axis=-1)",
     "WholeReduceSum / ReduceSum, Add across rows"},
    {Builtin::ReduceMax, "reduce_max", C::Vector, 1, 1, "axis", kFloat, 1, "reduce_max(x, axis=-1)",
     "WholeReduceMax / ReduceMax, Max across rows"},
    {Builtin::ReduceMin, "reduce_min", C::Vector, 1, 1, "axis", kFloat, 1, "reduce_min(x, axis=-1)",
     "WholeReduceMin / ReduceMin, Min across rows"},
    {Builtin::ReduceMean, "reduce_mean", C::Vector, 1, 1, "axis", kFloat, 1, "reduce_mean(x, axis=-1)",
     "a sum reduction then Muls(1/n)"},
    {Builtin::Argmax, "argmax", C::Vector, 1, 1, "axis", kFloat, 1, "argmax(x, axis=-1)", "ReduceMax with calIndex"},
    {Builtin::Argmin, "argmin", C::Vector, 1, 1, "axis", kFloat, 1, "argmin(x, axis=-1)", "ReduceMin with calIndex"},
    {Builtin::Cumsum, "cumsum", C::Vector, 1, 1, "axis", kScanSum, 0, "cumsum(x, axis=-1)",
     "Add of each row (or column block) into the next"},
    {Builtin::Cumprod, "cumprod", C::Vector, 1, 1, "axis", kFloat, 0, "cumprod(x, axis=-1)",
     "Mul of each row (or column block) into the next"},
    {Builtin::Gather, "gather", C::Vector, 2, 2, "", kGather, 0, "gather(table, index)",
     "Gather with byte offsets computed from index"},
    {Builtin::Matmul, "matmul", C::Cube, 2, 2, "", kCube, 0, "matmul(a, b)  or  a @ b", "Mmad"},
};

}  // namespace

std::span<const BuiltinInfo> allBuiltins() { return kBuiltins; }

const BuiltinInfo& builtinInfo(Builtin id) {
  const BuiltinInfo& info = kBuiltins[static_cast<size_t>(id)];
  TC_ASSERT(info.id == id, "kBuiltins is not in enum order");
  return info;
}

const BuiltinInfo* findBuiltin(std::string_view name) {
  for (const BuiltinInfo& info : kBuiltins) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

bool acceptsKeyword(const BuiltinInfo& info, std::string_view keyword) {
  std::string_view rest = info.keywords;
  while (!rest.empty()) {
    size_t space = rest.find(' ');
    if (rest.substr(0, space) == keyword) return true;
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return false;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closestName(std::string_view word, std::span<const std::string> candidates) {
  // About one edit per three letters: 'lod' -> 'load', 'reduce_summ' -> 'reduce_sum', but not 'nope' -> 'copy'.
  size_t limit = std::max<size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  size_t bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    size_t d = editDistance(word, c);
    if (d < bestDistance || (d == bestDistance && best && c < *best)) {
      bestDistance = d;
      best = c;
    }
  }
  if (bestDistance > limit) return std::nullopt;
  return best;
}

}  // namespace tilecraft::dsl
