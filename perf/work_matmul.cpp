// Matmul-like operators: GEMMs, grouped and quantised GEMMs, and convolutions as implicit GEMMs.
// The cube does 2*M*N*K FLOPs; GM traffic is compulsory (A, B and C once: re-reads of a tile are served from
// L1, or from L2 when operands fit it). MTE1 re-reads A once per N tile and B once per M tile; the tile is the
// largest square of 16-multiples whose fp32 accumulator fits half of L0C (double-buffered).
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

CubeType cubeTypeOf(DType t) {
  if (t == DType::I8 || t == DType::U8) return CubeType::Int8;
  if (t == DType::F32) return CubeType::F32;
  return CubeType::F16;
}

// The 910B2 L0C is 128 KiB: a 128 x 128 fp32 accumulator fills half, leaving room to double-buffer.
constexpr double kTile = 128;

void addGemm(OpWork& w, double m, double n, double k, int inBytes, int outBytes) {
  w.cubeFlops += 2 * m * n * k;
  w.l0aBytes += m * k * inBytes * std::ceil(n / kTile);
  w.l0bBytes += k * n * inBytes * std::ceil(m / kTile);
  w.fixBytes += m * n * outBytes;
}

// x [M,K] int8 @ w [K,N] int8, dequantised on the way out by FIXPIPE to fp16/bf16.
WorkResult quantMatmul(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* wt = c.input(1);
  if (x == nullptr || wt == nullptr || x->shape().size() != 2 || wt->shape().size() != 2)
    return notModelled("expects 2-D x and weight");
  double m = static_cast<double>(x->shape()[0]), k = static_cast<double>(x->shape()[1]),
         n = static_cast<double>(wt->shape()[1]);
  OpWork w;
  w.cubeType = CubeType::Int8;
  addGemm(w, m, n, k, 1, 2);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = m * n * 2;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// x [M,K] fp16/bf16 @ dequant(w [K,N] int8): the weight is cast and scaled (plus offset) on the vector unit.
WorkResult weightQuantBatchMatmul(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* wt = c.input(1);
  if (x == nullptr || wt == nullptr || x->shape().size() != 2 || wt->shape().size() != 2)
    return notModelled("expects 2-D x and weight");
  double m = static_cast<double>(x->shape()[0]), k = static_cast<double>(x->shape()[1]),
         n = static_cast<double>(wt->shape()[1]);
  OpWork w;
  w.cubeType = CubeType::F16;
  addGemm(w, m, n, k, 2, 2);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = m * n * dtypeBytes(x->dtype);
  w.vec(V::Cast, 2, k * n);
  w.vec(V::Binary, 2, k * n, c.input(4) != nullptr || c.input(3) != nullptr ? 2 : 1);
  w.auxTensorBytes = wt->bytes();
  return modelled(std::move(w));
}

// Every row of x belongs to one group, so the FLOPs are those of one [M,K] x [K,N] GEMM; all weights are read.
WorkResult groupedMatmul(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* wt = c.input(1);
  if (x == nullptr || wt == nullptr || x->shape().size() != 2 || wt->shape().size() != 3)
    return notModelled("expects x [M,K] and weight [G,K,N]");
  bool transposed = c.attrNumber("transpose_weight", 0) != 0;
  double m = static_cast<double>(x->shape()[0]);
  double k = static_cast<double>(transposed ? wt->shape()[2] : wt->shape()[1]);
  double n = static_cast<double>(transposed ? wt->shape()[1] : wt->shape()[2]);
  OpWork w;
  w.cubeType = cubeTypeOf(x->dtype);
  int bytes = dtypeBytes(x->dtype);
  addGemm(w, m, n, k, bytes, bytes);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = m * n * bytes;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

double outSize(double in, double kernel, double stride, double padTotal, double dilation) {
  return std::floor((in + padTotal - dilation * (kernel - 1) - 1) / stride) + 1;
}

// NCHW convolution as an implicit GEMM: M = N*Ho*Wo, N = Cout, K = Cin/groups * kh * kw.
WorkResult conv2d(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* wt = c.input(1);
  if (x == nullptr || wt == nullptr || x->shape().size() != 4 || wt->shape().size() != 4)
    return notModelled("expects NCHW x and OIHW weight");
  std::vector<double> st = c.attrList("strides"), pads = c.attrList("pads"), dil = c.attrList("dilations");
  if (st.size() != 2 || pads.size() != 4 || dil.size() != 2)
    return notModelled("expects strides[2], pads[4], dilations[2]");
  const auto& xs = x->shape();
  const auto& ws = wt->shape();
  double ho = outSize(static_cast<double>(xs[2]), static_cast<double>(ws[2]), st[0], pads[0] + pads[1], dil[0]);
  double wo = outSize(static_cast<double>(xs[3]), static_cast<double>(ws[3]), st[1], pads[2] + pads[3], dil[1]);
  double m = static_cast<double>(xs[0]) * ho * wo;
  double n = static_cast<double>(ws[0]);
  double k = static_cast<double>(ws[1] * ws[2] * ws[3]);
  OpWork w;
  w.cubeType = cubeTypeOf(x->dtype);
  int bytes = dtypeBytes(x->dtype);
  addGemm(w, m, n, k, bytes, bytes);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = m * n * bytes;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// dW = sum over batch and output positions of grad_out x im2col(x): M = Cout, N = Cin*kd*kh*kw, K = N*Do*Ho*Wo.
WorkResult conv3dBackpropFilter(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* grad = c.input(1);
  std::vector<double> filter = c.attrList("filter_size");
  if (x == nullptr || grad == nullptr || grad->shape().size() != 5 || filter.size() != 5)
    return notModelled("expects 5-D x, grad and filter_size");
  const auto& gs = grad->shape();
  double m = filter[0];
  double n = filter[1] * filter[2] * filter[3] * filter[4];
  double k = static_cast<double>(gs[0] * gs[2] * gs[3] * gs[4]);
  OpWork w;
  w.cubeType = cubeTypeOf(x->dtype);
  addGemm(w, m, n, k, dtypeBytes(x->dtype), 4);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = m * n * 4;
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// One filter per channel: no reduction over channels, so no cube; kh*kw multiply-adds per output on the vector unit.
WorkResult depthwiseConv2d(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  std::vector<double> ks = c.attrList("kernelSize"), st = c.attrList("stride"), pad = c.attrList("padding"),
                      dil = c.attrList("dilation");
  if (x == nullptr || x->shape().size() != 4 || ks.size() != 2 || st.size() != 2 || pad.size() != 2 ||
      dil.size() != 2) {
    return notModelled("expects NCHW x, kernelSize, stride, padding, dilation");
  }
  const auto& xs = x->shape();
  double ho = outSize(static_cast<double>(xs[2]), ks[0], st[0], 2 * pad[0], dil[0]);
  double wo = outSize(static_cast<double>(xs[3]), ks[1], st[1], 2 * pad[1], dil[1]);
  double out = static_cast<double>(xs[0] * xs[1]) * ho * wo;
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = out * dtypeBytes(x->dtype);
  int lanes = computeLaneBytes(x->dtype, true);
  w.vec(V::Binary, lanes, out, 2 * ks[0] * ks[1]);
  addCasts(w, x->dtype, lanes, x->numel(), out);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

}  // namespace

std::vector<WorkEntry> matmulWork() {
  return {
      {"QuantMatmul", &quantMatmul},
      {"WeightQuantBatchMatmul", &weightQuantBatchMatmul},
      {"GroupedMatmul", &groupedMatmul},
      {"Conv2D", &conv2d},
      {"Conv3DBackpropFilter", &conv3dBackpropFilter},
      {"DepthwiseConv2D", &depthwiseConv2d},
  };
}

}  // namespace tilecraft::perf
