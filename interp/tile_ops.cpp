#include "interp/tile_ops.h"

#include <cmath>
#include <limits>

#include "interp/numeric.h"
#include "support/assert.h"

namespace tilecraft::interp::detail {

using dsl::Builtin;
using dsl::DType;

Tile makeTile(DType dtype, std::vector<int64_t> shape, double fill) {
  Tile t{dtype, std::move(shape), {}};
  t.data.assign(static_cast<size_t>(t.numel()), roundTo(fill, dtype));
  return t;
}

Tile scalarTile(double value, DType dtype) { return Tile{dtype, {}, {roundTo(value, dtype)}}; }

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<std::vector<int64_t>>& shapes) {
  size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<int64_t> out(rank, 1);
  for (const auto& s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[rank - s.size() + i];
      int64_t d = s[i];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  }
  return out;
}

Tile mapTiles(const std::vector<const Tile*>& operands, DType out, const std::function<double(const double*)>& f) {
  std::vector<std::vector<int64_t>> shapes;
  for (const Tile* t : operands) shapes.push_back(t->shape);
  auto shape = broadcastShapes(shapes);
  TC_ASSERT(shape, "the checker guarantees broadcastable operands");
  Tile r{out, *shape, {}};
  size_t rank = shape->size();
  size_t n = static_cast<size_t>(r.numel());
  r.data.resize(n);
  // Per operand, the element stride along each result dimension (0 where it broadcasts).
  std::vector<std::vector<int64_t>> strides;
  for (const Tile* t : operands) {
    std::vector<int64_t> s(rank, 0);
    int64_t stride = 1;
    for (size_t i = t->shape.size(); i-- > 0;) {
      if (t->shape[i] != 1) s[rank - t->shape.size() + i] = stride;
      stride *= t->shape[i];
    }
    strides.push_back(std::move(s));
  }
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> offset(operands.size(), 0);
  std::vector<double> args(operands.size());
  for (size_t e = 0; e < n; ++e) {
    for (size_t k = 0; k < operands.size(); ++k) args[k] = operands[k]->data[static_cast<size_t>(offset[k])];
    r.data[e] = roundTo(f(args.data()), out);
    for (size_t d = rank; d-- > 0;) {
      for (size_t k = 0; k < operands.size(); ++k) offset[k] += strides[k][d];
      if (++index[d] < (*shape)[d]) break;
      for (size_t k = 0; k < operands.size(); ++k) offset[k] -= strides[k][d] * index[d];
      index[d] = 0;
    }
  }
  return r;
}

Tile arith(char op, const Tile& a, const Tile& b) {
  DType dt = a.shape.empty() ? b.dtype : a.dtype;
  if (!dsl::isFloat(dt)) {
    // Integer tiles: exact in int64 (operands are at most 32 bits), wrapped to the dtype by mapTiles.
    return mapTiles({&a, &b}, dt, [op](const double* v) {
      auto x = static_cast<int64_t>(v[0]);
      auto y = static_cast<int64_t>(v[1]);
      switch (op) {
        case '+': return static_cast<double>(x + y);
        case '-': return static_cast<double>(x - y);
        default: return static_cast<double>(x * y);
      }
    });
  }
  return mapTiles({&a, &b}, dt, [op](const double* v) {
    switch (op) {
      case '+': return v[0] + v[1];
      case '-': return v[0] - v[1];
      case '*': return v[0] * v[1];
      case '/': return v[0] / v[1];
      default: return std::pow(v[0], v[1]);
    }
  });
}

Tile negate(const Tile& a) {
  return mapTiles({&a}, a.dtype, [](const double* v) { return -v[0]; });
}

Tile compare(const std::string& op, const Tile& a, const Tile& b) {
  return mapTiles({&a, &b}, DType::Bool, [&op](const double* v) {
    bool r = op == "<"    ? v[0] < v[1]
             : op == "<=" ? v[0] <= v[1]
             : op == ">"  ? v[0] > v[1]
             : op == ">=" ? v[0] >= v[1]
             : op == "==" ? v[0] == v[1]
                          : v[0] != v[1];
    return r ? 1.0 : 0.0;
  });
}

double gelu(double x) {
  const double k = std::sqrt(2.0 / M_PI);
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

double unaryMath(Builtin builtin, double x) {
  switch (builtin) {
    case Builtin::Exp: return std::exp(x);
    case Builtin::Log: return std::log(x);
    case Builtin::Abs: return std::fabs(x);
    case Builtin::Sqrt: return std::sqrt(x);
    case Builtin::Rsqrt: return 1.0 / std::sqrt(x);
    case Builtin::Reciprocal: return 1.0 / x;
    case Builtin::Relu: return x > 0 ? x : 0.0;
    case Builtin::Tanh: return std::tanh(x);
    case Builtin::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
    case Builtin::Gelu: return gelu(x);
    case Builtin::Silu: return x / (1.0 + std::exp(-x));
    case Builtin::Sin: return std::sin(x);
    case Builtin::Cos: return std::cos(x);
    case Builtin::Erf: return std::erf(x);
    default: TC_ASSERT(false, "not a unary math builtin"); return x;
  }
}

namespace {

// Splits a shape around `axis`: outer x extent x inner, so element (o, i, k) is at (o * extent + i) * inner + k.
struct AxisSplit {
  int64_t outer = 1;
  int64_t extent = 1;
  int64_t inner = 1;
};
AxisSplit splitAt(const std::vector<int64_t>& shape, size_t axis) {
  AxisSplit s;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d < axis) s.outer *= shape[d];
    else if (d == axis) s.extent = shape[d];
    else s.inner *= shape[d];
  }
  return s;
}

}  // namespace

Tile reduce(Builtin builtin, const Tile& x, size_t axis) {
  AxisSplit s = splitAt(x.shape, axis);
  bool arg = builtin == Builtin::Argmax || builtin == Builtin::Argmin;
  Tile r{arg ? DType::I32 : x.dtype, x.shape, {}};
  r.shape[axis] = 1;
  r.data.resize(static_cast<size_t>(s.outer * s.inner));
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t k = 0; k < s.inner; ++k) {
      auto at = [&](int64_t i) { return x.data[static_cast<size_t>((o * s.extent + i) * s.inner + k)]; };
      double acc = 0;
      int64_t best = 0;
      switch (builtin) {
        case Builtin::ReduceSum:
        case Builtin::ReduceMean:
          for (int64_t i = 0; i < s.extent; ++i) acc += at(i);
          if (builtin == Builtin::ReduceMean) acc /= static_cast<double>(s.extent);
          break;
        case Builtin::ReduceMax:
        case Builtin::ReduceMin:
        case Builtin::Argmax:
        case Builtin::Argmin: {
          bool max = builtin == Builtin::ReduceMax || builtin == Builtin::Argmax;
          acc = at(0);
          for (int64_t i = 1; i < s.extent; ++i) {
            double v = at(i);
            // The first extremum wins; a NaN makes the result NaN (and its index the answer).
            if (std::isnan(acc)) break;
            if (std::isnan(v) || (max ? v > acc : v < acc)) {
              acc = v;
              best = i;
            }
          }
          if (arg) acc = static_cast<double>(best);
          break;
        }
        default: TC_ASSERT(false, "not a reduction");
      }
      r.data[static_cast<size_t>(o * s.inner + k)] = roundTo(acc, r.dtype);
    }
  }
  return r;
}

Tile scan(Builtin builtin, const Tile& x, size_t axis) {
  AxisSplit s = splitAt(x.shape, axis);
  Tile r = x;
  bool sum = builtin == Builtin::Cumsum;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t k = 0; k < s.inner; ++k) {
      double acc = sum ? 0.0 : 1.0;
      for (int64_t i = 0; i < s.extent; ++i) {
        auto idx = static_cast<size_t>((o * s.extent + i) * s.inner + k);
        acc = sum ? acc + x.data[idx] : acc * x.data[idx];
        r.data[idx] = roundTo(acc, x.dtype);
      }
    }
  }
  return r;
}

Tile castTile(const Tile& x, DType to) {
  Tile r{to, x.shape, {}};
  r.data.reserve(x.data.size());
  for (double v : x.data) r.data.push_back(castValue(v, x.dtype, to));
  return r;
}

Tile matmul(const Tile& a, const Tile& b, DType accumulator) {
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  Tile r{accumulator, {m, n}, std::vector<double>(static_cast<size_t>(m * n))};
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p) {
        acc += a.data[static_cast<size_t>(i * k + p)] * b.data[static_cast<size_t>(p * n + j)];
      }
      r.data[static_cast<size_t>(i * n + j)] = roundTo(acc, accumulator);
    }
  }
  return r;
}

Tile transpose2d(const Tile& x) {
  int64_t rows = x.shape[0], cols = x.shape[1];
  Tile r{x.dtype, {cols, rows}, std::vector<double>(x.data.size())};
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j)
      r.data[static_cast<size_t>(j * rows + i)] = x.data[static_cast<size_t>(i * cols + j)];
  }
  return r;
}

}  // namespace tilecraft::interp::detail
