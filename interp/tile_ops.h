// Private to the interpreter: on-chip tile values and the tile operations, each computed in double and rounded
// to the result dtype (numeric.h). interp.cpp evaluates programs; tile_ops.cpp does the arithmetic.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dsl/builtins.h"
#include "dsl/types.h"

namespace tilecraft::interp::detail {

/// A tile (or a bool mask) of a concrete shape. Rank 0 stands for a number that met a tile.
struct Tile {
  dsl::DType dtype = dsl::DType::F32;
  std::vector<int64_t> shape;
  std::vector<double> data;
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

Tile makeTile(dsl::DType dtype, std::vector<int64_t> shape, double fill);
/// A number used with a tile takes the tile's dtype (language §3).
Tile scalarTile(double value, dsl::DType dtype);

/// numpy broadcasting of concrete shapes; nullopt when they do not broadcast.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<std::vector<int64_t>>& shapes);

/// Applies `f` elementwise over broadcast operands; the result has dtype `out` and every element is rounded to it.
Tile mapTiles(const std::vector<const Tile*>& operands, dsl::DType out, const std::function<double(const double*)>& f);

/// `+ - * / **` and unary minus on tiles of `dtype` (integers: exact int64 arithmetic, then wrapped).
Tile arith(char op, const Tile& a, const Tile& b);
Tile negate(const Tile& a);
/// `< <= > >= == !=` as a bool mask; `op` is the Python spelling.
Tile compare(const std::string& op, const Tile& a, const Tile& b);

/// The unary math builtins (exp ... erf) on one element, in double.
double unaryMath(dsl::Builtin builtin, double x);
/// GELU as AscendC's Gelu computes it: the tanh approximation 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))).
double gelu(double x);

/// reduce_* and argmax/argmin over `axis` (kept with extent 1); cumsum/cumprod along `axis`.
Tile reduce(dsl::Builtin builtin, const Tile& x, size_t axis);
Tile scan(dsl::Builtin builtin, const Tile& x, size_t axis);

Tile castTile(const Tile& x, dsl::DType to);
/// (M, K) @ (K, N) accumulated in double and rounded once to `accumulator` (f32, or i32 for i8 operands).
Tile matmul(const Tile& a, const Tile& b, dsl::DType accumulator);
Tile transpose2d(const Tile& x);

}  // namespace tilecraft::interp::detail
