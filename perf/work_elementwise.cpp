// Elementwise and broadcast operators: one GM read per input, one write per output, and a fixed instruction
// recipe per element. Recipes are the AscendC vector instructions a tuned kernel issues (docs/perf-model.md).
#include <algorithm>
#include <cmath>
#include <vector>

#include "perf/work.h"

namespace tilecraft::perf {
namespace {

using V = VecClass;

double inputBytes(const TaskCase& c) {
  double total = 0;
  for (const TensorArg& a : c.inputs) total += a.bytes();
  return total;
}

// The common shape: read every input, write one tensor shaped like input 0, run `recipe` per element.
// Activations run natively in fp16 (the vector unit has fp16 lanes) and in fp32 for bf16 and fp32.
WorkResult activation(const TaskCase& c, const std::vector<V>& recipe, bool f16Native = true) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  w.bytesRead = inputBytes(c);
  w.bytesWritten = x->bytes();
  int lanes = computeLaneBytes(x->dtype, f16Native);
  for (V cls : recipe) w.vec(cls, lanes, n);
  addCasts(w, x->dtype, lanes, n, n);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

WorkResult exp(const TaskCase& c) {
  // base^(scale*x+shift) = exp(ln(base)*scale*x + ln(base)*shift): a muls unless the factor is 1, an adds
  // unless the shift is 0, then exp. base <= 0 means e.
  double base = c.attrNumber("base", -1.0);
  double factor = (base <= 0 ? 1.0 : std::log(base)) * c.attrNumber("scale", 1.0);
  std::vector<V> recipe;
  if (factor != 1.0) recipe.push_back(V::Unary);
  if (c.attrNumber("shift", 0.0) != 0.0) recipe.push_back(V::Unary);
  recipe.push_back(V::Exp);
  return activation(c, recipe);
}

// 1 / (1 + exp(-x)): muls, exp, adds, div.
WorkResult sigmoid(const TaskCase& c) { return activation(c, {V::Unary, V::Exp, V::Unary, V::Div}); }

// PyTorch's formulas, one instruction per step; CANN Bench counts erf and tanh as one transcendental
// instruction each, priced like exp (docs/perf-model.md §3).
//   none: x * 0.5 * (1 + erf(x / sqrt(2)))                   muls, erf, adds, muls, mul
//   tanh: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))    mul, mul, muls, add, muls, tanh, adds, muls, mul
WorkResult gelu(const TaskCase& c) {
  if (c.attrString("approximate", "none") == "tanh") {
    return activation(c, {V::Binary, V::Binary, V::Unary, V::Binary, V::Unary, V::Exp, V::Unary, V::Unary, V::Binary});
  }
  return activation(c, {V::Unary, V::Exp, V::Unary, V::Unary, V::Binary});
}

// PyTorch's x * tanh(log1p(exp(x))): exp, log1p, tanh (transcendentals at exp's cost), mul.
WorkResult mish(const TaskCase& c) { return activation(c, {V::Exp, V::Exp, V::Exp, V::Binary}); }

WorkResult maximum(const TaskCase& c) { return activation(c, {V::Binary}); }

// x * mask * scale: cast the mask to x's type, mul, muls.
WorkResult maskedScale(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* mask = c.input(1);
  if (x == nullptr || mask == nullptr) return notModelled("x or mask is absent");
  WorkResult r = activation(c, {V::Binary, V::Unary});
  r.work.vec(V::Cast, computeLaneBytes(x->dtype, true), mask->numel());
  return r;
}

// silu(a) * b over the two halves of `dim`: output is half the input.
WorkResult swiGlu(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double out = x->numel() / 2;
  w.bytesRead = x->bytes();
  w.bytesWritten = x->bytes() / 2;
  int lanes = computeLaneBytes(x->dtype, true);
  for (V cls : {V::Unary, V::Exp, V::Unary, V::Div, V::Binary}) w.vec(cls, lanes, out);
  addCasts(w, x->dtype, lanes, x->numel(), out);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// self + scalar * t1 / t2 over tensor lists; writes a list shaped like self.
WorkResult foreachAddcdiv(const TaskCase& c) {
  const TensorArg* self = c.input(0);
  if (self == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = self->numel();
  w.bytesRead = inputBytes(c);
  w.bytesWritten = self->bytes();
  int lanes = computeLaneBytes(self->dtype, true);
  for (V cls : {V::Div, V::Unary, V::Binary}) w.vec(cls, lanes, n);
  addCasts(w, self->dtype, lanes, 3 * n, n);
  w.auxTensorBytes = self->bytes();
  return modelled(std::move(w));
}

// AdamW on (var, m, v, grad): reads four tensors, updates three in place, computed in fp32 with the scalar
// factors (bias corrections, lr, weight decay) folded into scalar operands:
//   m = b1 m + (1-b1) g            muls, axpy
//   v = b2 v + (1-b2) g*g          mul, muls, axpy
//   d = sqrt(v) * c2 + eps         sqrt, muls, adds
//   var = var (1 - lr wd) - c1 m/d  div, muls, axpy
WorkResult applyAdamW(const TaskCase& c) {
  const TensorArg* var = c.input(0);
  if (var == nullptr || c.inputs.size() < 4) return notModelled("expects var, m, v, grad");
  OpWork w;
  double n = var->numel();
  w.bytesRead = inputBytes(c);
  w.bytesWritten = 3 * var->bytes();
  int lanes = computeLaneBytes(var->dtype, false);
  for (V cls : {V::Unary, V::Binary, V::Binary, V::Unary, V::Binary, V::Sqrt, V::Unary, V::Unary, V::Div, V::Unary,
                V::Binary}) {
    w.vec(cls, lanes, n);
  }
  addCasts(w, var->dtype, lanes, 4 * n, 3 * n);
  w.auxTensorBytes = var->bytes();
  return modelled(std::move(w));
}

// q, k rotated by (cos, sin): out = x*cos + rotate(x)*sin, rotate = negate half / swap pairs.
WorkResult rotaryPosEmb(const TaskCase& c) {
  const TensorArg* q = c.input(0);
  const TensorArg* k = c.input(1);
  if (q == nullptr || k == nullptr) return notModelled("q or k is absent");
  OpWork w;
  double n = q->numel() + k->numel();
  w.bytesRead = inputBytes(c);
  w.bytesWritten = q->bytes() + k->bytes();
  int lanes = computeLaneBytes(q->dtype, true);
  for (V cls : {V::Binary, V::Binary, V::Unary, V::Binary}) w.vec(cls, lanes, n);
  addCasts(w, q->dtype, lanes, n, n);
  w.auxTensorBytes = q->bytes();
  // Eager prepares cos/sin (concat, broadcast view, repeat-interleave) at their own small size; only the
  // layout-1 transposes move q- and k-sized tensors (the default round trip).
  double tables = 0;
  for (size_t i = 2; i < c.inputs.size(); ++i) tables += c.inputs[i].bytes();
  for (const char* name : {"ConcatD", "BroadcastTo", "RepeatInterleaveV2"})
    w.helperBytes.emplace_back(name, 2 * tables);
  return modelled(std::move(w));
}

// Stein's binary GCD, branch-free over whole vectors: one pass per bit of the largest magnitude N (from
// `value_range`, else the dtype's range), each pass sub, min, abs, and, compare, shift, select (7
// instructions) in the operands' own integer lanes (int16 in 16-bit lanes, int64 at twice the 32-bit cost).
WorkResult gcd(const TaskCase& c) {
  const TensorArg* a = c.input(0);
  const TensorArg* b = c.input(1);
  if (a == nullptr || b == nullptr) return notModelled("expects two inputs");
  double maxAbs = 0;
  for (const TensorArg* t : {a, b}) {
    if (t->valueRange) maxAbs = std::max({maxAbs, std::fabs(t->valueRange->first), std::fabs(t->valueRange->second)});
    else maxAbs = std::max(maxAbs, std::pow(2.0, 8.0 * dtypeBytes(t->dtype) - 1));
  }
  double bits = std::ceil(std::log2(maxAbs + 1));
  OpWork w;
  double n = std::max(a->numel(), b->numel());
  w.bytesRead = a->bytes() + b->bytes();
  w.bytesWritten = n * dtypeBytes(a->dtype);
  w.vec(V::Binary, dtypeBytes(a->dtype), n, 7 * bits);
  w.auxTensorBytes = a->bytes();
  return modelled(std::move(w));
}

// Dequantise (int32 x * weight scale * activation scale, or a float input), swish(a) * b over two halves,
// then per-row dynamic quantisation of the result to int8 plus one fp32 scale per row.
WorkResult dequantSwigluQuant(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  double out = n / 2;
  double rows = n / x->dim(-1);
  double read = 0;
  for (const TensorArg& a : c.inputs) read += a.bytes();
  w.bytesRead = read;
  w.bytesWritten = out * 1 + rows * 4;
  int lanes = 4;
  if (x->dtype == DType::I32) {
    w.vec(V::Cast, lanes, n);
    w.vec(V::Binary, lanes, n, 2);
  }
  for (V cls : {V::Unary, V::Exp, V::Unary, V::Div, V::Binary}) w.vec(cls, lanes, out);
  for (V cls : {V::Unary, V::Reduce, V::Unary, V::Cast, V::Cast}) w.vec(cls, lanes, out);
  addCasts(w, x->dtype, lanes, n, 0);
  w.vecChunkElements = x->dim(-1) / 2;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

}  // namespace

std::vector<WorkEntry> elementwiseWork() {
  return {
      {"Exp", &exp},
      {"Sigmoid", &sigmoid},
      {"Gelu", &gelu},
      {"Mish", &mish},
      {"Maximum", &maximum},
      {"MaskedScale", &maskedScale},
      {"SwiGlu", &swiGlu},
      {"ForeachAddcdivScalar", &foreachAddcdiv},
      {"ApplyAdamW", &applyAdamW},
      {"ApplyRotaryPosEmb", &rotaryPosEmb},
      {"Gcd", &gcd},
      {"DequantSwigluQuant", &dequantSwigluQuant},
  };
}

}  // namespace tilecraft::perf
