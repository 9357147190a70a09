// Reductions and normalisations: one pass over the input with row statistics kept on chip (the row fits UB
// for every case this model covers, so the limit reads each element once). Statistics accumulate in fp32.
#include <algorithm>
#include <cmath>

#include "perf/work.h"

namespace tilecraft::perf {
namespace {

using V = VecClass;

double inputBytes(const TaskCase& c) {
  double total = 0;
  for (const TensorArg& a : c.inputs) total += a.bytes();
  return total;
}

int normDim(double dim, size_t rank) {
  int d = static_cast<int>(dim);
  return d < 0 ? d + static_cast<int>(rank) : d;
}

// Softmax along `dim`: max, sub, exp, sum, then the division by the row sum, in fp32. CANN Bench counts a
// division by a per-row value as a reciprocal and a multiply per element (docs/perf-model.md §3).
WorkResult softmax(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  w.bytesRead = x->bytes();
  w.bytesWritten = x->bytes();
  for (V cls : {V::Reduce, V::Unary, V::Exp, V::Reduce, V::Unary, V::Binary}) w.vec(cls, 4, n);
  addCasts(w, x->dtype, 4, n, n);
  // Along the last dim an instruction covers a row; along another dim, the contiguous block after it.
  const auto& s = x->shape();
  int d = normDim(c.attrNumber("dim", -1), s.size());
  double chunk = 1;
  for (size_t i = static_cast<size_t>(std::max(d, 0)) + (d + 1 < static_cast<int>(s.size()) ? 1 : 0); i < s.size();
       ++i) {
    chunk *= static_cast<double>(s[i]);
  }
  w.vecChunkElements = chunk;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// y = x * rsqrt(mean(x^2) + eps) * gamma, plus rstd per row.
WorkResult rmsNorm(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  double rows = n / x->dim(-1);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = x->bytes() + rows * 4;
  for (V cls : {V::Binary, V::Reduce, V::Unary, V::Binary}) w.vec(cls, 4, n);
  addCasts(w, x->dtype, 4, n, n);
  w.vecChunkElements = x->dim(-1);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Per (batch, group): mean and variance, then (x - mean) * rstd * gamma + beta; mean and rstd are outputs.
WorkResult groupNorm(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  double groups = c.attrNumber("num_groups", 1) * x->dim(0);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = x->bytes() + 2 * groups * dtypeBytes(x->dtype);
  for (V cls : {V::Reduce, V::Binary, V::Reduce, V::Unary, V::Unary, V::Unary, V::Unary}) w.vec(cls, 4, n);
  addCasts(w, x->dtype, 4, n, n);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// p-norm of every tensor of a list: |x|, the power (none for p = 1, a mul for p = 2, ln/muls/exp otherwise), sum.
WorkResult foreachNorm(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  double p = c.attrNumber("scalar", 2.0);
  w.bytesRead = x->bytes();
  w.bytesWritten = static_cast<double>(x->shapes.size()) * 4;
  w.vec(V::Unary, 4, n);
  if (p == 2.0) w.vec(V::Binary, 4, n);
  else if (p != 1.0)
    for (V cls : {V::Exp, V::Unary, V::Exp}) w.vec(cls, 4, n);
  w.vec(V::Reduce, 4, n);
  addCasts(w, x->dtype, 4, n, 0);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Per-row symmetric int8 quantisation as the golden writes it, in fp32: abs, row max, x / scale (a reciprocal
// and a multiply, as CANN Bench counts a division by a per-row value), round, clamp to [-128, 127] (maxs,
// mins), cast to int8.
WorkResult dynamicQuant(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  double rows = n / x->dim(-1);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = n * 1 + rows * 4;
  for (V cls : {V::Unary, V::Reduce, V::Unary, V::Binary, V::Cast, V::Unary, V::Unary, V::Cast}) w.vec(cls, 4, n);
  addCasts(w, x->dtype, 4, n, 0);
  w.vecChunkElements = x->dim(-1);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// x1 + x2 (written out), RMS norm with gamma, then per-row int8 quantisation.
WorkResult addRmsNormDynamicQuant(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr || c.input(1) == nullptr) return notModelled("expects x1 and x2");
  OpWork w;
  double n = x->numel();
  double rows = n / x->dim(-1);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = x->bytes() + n * 1 + rows * 4;
  for (V cls :
       {V::Binary, V::Binary, V::Reduce, V::Unary, V::Binary, V::Unary, V::Reduce, V::Unary, V::Cast, V::Cast}) {
    w.vec(cls, 4, n);
  }
  addCasts(w, x->dtype, 4, 2 * n, n);
  w.vecChunkElements = x->dim(-1);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// log_softmax over the class dimension (1), then a gather of the target's column and a reduction.
WorkResult crossEntropy(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* target = c.input(1);
  if (x == nullptr || target == nullptr) return notModelled("expects logits and target");
  OpWork w;
  double n = x->numel();
  w.bytesRead = inputBytes(c);
  bool none = c.attrString("reduction", "mean") == "none";
  w.bytesWritten = none ? target->numel() * dtypeBytes(x->dtype) : dtypeBytes(x->dtype);
  for (V cls : {V::Reduce, V::Unary, V::Exp, V::Reduce}) w.vec(cls, 4, n);
  addCasts(w, x->dtype, 4, n, 0);
  w.vecChunkElements = x->dim(1);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// MoE gating as the golden writes it: softmax along the experts (the Softmax recipe, result in x's dtype), then
// the top k of each row by streaming selection: per element a compare against the running k-th value and, in
// the worst case, a binary insertion into the sorted k best (ceil(log2 k) compares). Outputs the k values,
// their int32 expert indices and int32 row indices; the optional `finished` mask is read and applied per output.
WorkResult moeGatingTopKSoftmax(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  double experts = x->dim(-1);
  double k = std::min(c.attrNumber("k", 1), experts);
  if (experts <= 0 || k < 1) return notModelled("expects experts in the last dimension and k >= 1");
  OpWork w;
  double n = x->numel();
  double out = n / experts * k;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = out * (dtypeBytes(x->dtype) + 4 + 4);
  for (V cls : {V::Reduce, V::Unary, V::Exp, V::Reduce, V::Unary, V::Binary}) w.vec(cls, 4, n);
  addCasts(w, x->dtype, 4, n, n);
  w.vec(V::Binary, 4, n, 1 + std::ceil(std::log2(k)));
  if (c.input(1) != nullptr) w.vec(V::Binary, 4, out);
  w.vecChunkElements = experts;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Index of the maximum along `dim` (int64 result): compare and select value and index per element.
WorkResult argMax(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  const auto& s = x->shape();
  int d = normDim(c.attrNumber("dim", -1), s.size());
  if (d < 0 || d >= static_cast<int>(s.size())) return notModelled("dim out of range");
  OpWork w;
  double n = x->numel();
  w.bytesRead = x->bytes();
  w.bytesWritten = n / static_cast<double>(s[static_cast<size_t>(d)]) * 8;
  int lanes = computeLaneBytes(x->dtype, true);
  for (V cls : {V::Binary, V::Binary}) w.vec(cls, lanes, n);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Running minimum and its index along `dim`, as a parallel prefix scan: ceil(log2 L) passes over the tensor
// for a row length L, each a min with a shifted copy (the index select rides along, as CANN Bench counts it).
// 16-bit floats run in 16-bit lanes, bf16 at the 32-bit lane cost without casts. Outputs values plus int64
// indices; CANN Bench's limit counts the values only (t_hw_us never exceeds the input bytes' MTE time where
// the scan is short).
WorkResult cummin(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  const auto& s = x->shape();
  int d = normDim(c.attrNumber("dim", -1), s.size());
  if (d < 0 || d >= static_cast<int>(s.size())) return notModelled("dim out of range");
  OpWork w;
  double n = x->numel();
  double passes = std::ceil(std::log2(std::max(2.0, static_cast<double>(s[static_cast<size_t>(d)]))));
  w.bytesRead = x->bytes();
  w.bytesWritten = x->bytes() + n * 8;
  w.hapUncountedBytesWritten = n * 8;
  w.vec(V::Binary, computeLaneBytes(x->dtype, true), n, passes);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Sinkhorn normalisation of B small n x n matrices: exp once, then `iter_step` rounds of row and column
// normalisation (sum, div each), all in fp32 on chip.
WorkResult mhcSinkhorn(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double n = x->numel();
  double iters = c.attrNumber("iter_step", 20);
  w.bytesRead = x->bytes();
  w.bytesWritten = x->bytes();
  w.vec(V::Exp, 4, n);
  for (V cls : {V::Reduce, V::Div, V::Reduce, V::Div}) w.vec(cls, 4, n, iters);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Elements summed along one dimension by adaptive windows: window i spans [floor(i*in/out), ceil((i+1)*in/out)).
double windowReads(double in, double out) {
  double total = 0;
  for (double i = 0; i < out; ++i) total += std::ceil((i + 1) * in / out) - std::floor(i * in / out);
  return total;
}

// Separable average pooling: sum windows along W, then H, then D (each pass reads what the previous wrote),
// then one muls by 1/window size per output.
WorkResult adaptiveAvgPool3d(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  std::vector<double> out = c.attrList("output_size");
  if (x == nullptr || x->shape().size() != 5 || out.size() != 3)
    return notModelled("expects NCDHW input and 3 output sizes");
  const auto& s = x->shape();
  double nc = static_cast<double>(s[0] * s[1]);
  double d = static_cast<double>(s[2]), h = static_cast<double>(s[3]), wd = static_cast<double>(s[4]);
  double passW = nc * d * h * windowReads(wd, out[2]);
  double passH = nc * d * windowReads(h, out[1]) * out[2];
  double passD = nc * windowReads(d, out[0]) * out[1] * out[2];
  double outElems = nc * out[0] * out[1] * out[2];
  OpWork w;
  w.bytesRead = x->bytes();
  w.bytesWritten = outElems * dtypeBytes(x->dtype);
  w.vec(V::Binary, 4, passW + passH + passD);
  w.vec(V::Unary, 4, outElems);
  addCasts(w, x->dtype, 4, x->numel(), outElems);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

}  // namespace

std::vector<WorkEntry> normalizationWork() {
  return {
      {"Softmax", &softmax},
      {"RmsNorm", &rmsNorm},
      {"GroupNorm", &groupNorm},
      {"ForeachNorm", &foreachNorm},
      {"DynamicQuant", &dynamicQuant},
      {"AddRmsNormDynamicQuant", &addRmsNormDynamicQuant},
      {"CrossEntropyLoss", &crossEntropy},
      {"ArgMax", &argMax},
      {"MoeGatingTopKSoftmax", &moeGatingTopKSoftmax},
      {"Cummin", &cummin},
      {"MhcSinkhorn", &mhcSinkhorn},
      {"AdaptiveAvgPool3D", &adaptiveAvgPool3d},
  };
}

}  // namespace tilecraft::perf
