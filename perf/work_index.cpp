// Index, scatter, resampling and layout operators. Their limit is data movement: the compulsory bytes are
// the inputs read once and the outputs written once; vector work is the index arithmetic and blends.
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

// torch.gather: output shaped like the index, elements of x; the index is converted to offsets (muls, add).
WorkResult gather(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* index = c.input(1);
  if (x == nullptr || index == nullptr) return notModelled("expects x and index");
  OpWork w;
  double n = index->numel();
  w.bytesRead = inputBytes(c);
  w.bytesWritten = n * dtypeBytes(x->dtype);
  w.vec(V::Unary, 4, n);
  w.vec(V::Binary, 4, n);
  w.vec(V::Gather, 4, n);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// scatter(_reduce): copy x, then write (or combine) src at the indexed positions.
WorkResult scatter(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* src = c.input(2);
  if (x == nullptr || src == nullptr) return notModelled("expects x, index and src");
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = x->bytes();
  w.vec(V::Unary, 4, src->numel());
  w.vec(V::Binary, 4, src->numel(), c.attrString("reduce", "").empty() ? 1 : 2);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Rows of x summed into num_segments rows.
WorkResult unsortedSegmentSum(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr || c.input(1) == nullptr) return notModelled("expects x and segment ids");
  OpWork w;
  double rows = x->dim(0);
  double inner = x->numel() / rows;
  double segments = c.attrNumber("num_segments", rows);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = segments * inner * dtypeBytes(x->dtype);
  w.vec(V::Binary, computeLaneBytes(x->dtype, false), x->numel());
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Separable bilinear resize of NCHW: per output element two lerps per pass (sub, mul, add each), in fp32.
WorkResult resizeBilinear(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  std::vector<double> size = c.attrList("output_size");
  if (x == nullptr || x->shape().size() != 4 || size.size() != 2) return notModelled("expects NCHW input and output_size");
  const auto& s = x->shape();
  double out = static_cast<double>(s[0] * s[1]) * size[0] * size[1];
  OpWork w;
  w.bytesRead = x->bytes();
  w.bytesWritten = out * dtypeBytes(x->dtype);
  w.vec(V::Binary, 4, out, 6);
  addCasts(w, x->dtype, 4, x->numel(), out);
  w.auxTensorBytes = x->bytes();
  // Eager converts the input to NC1HWC0 and the result back over its TransData launches, and casts the result.
  w.helperBytes.emplace_back("TransData", 2 * (w.bytesRead + w.bytesWritten) / 3);
  w.helperBytes.emplace_back("Cast", 2 * w.bytesWritten);
  return modelled(std::move(w));
}

// 3-D grid sampling: per output element, the 8 (trilinear) or 1 (nearest) corner values weighted and summed;
// corner weights are computed once per grid point and shared by every channel.
WorkResult gridSampler3d(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* grid = c.input(1);
  if (x == nullptr || grid == nullptr || x->shape().size() != 5 || grid->shape().size() != 5) {
    return notModelled("expects NCDHW input and an N x D x H x W x 3 grid");
  }
  double channels = x->dim(1);
  double points = grid->numel() / 3;
  double out = points * channels;
  bool nearest = c.attrString("interpolation_mode", "bilinear") == "nearest";
  double corners = nearest ? 1 : 8;
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = out * dtypeBytes(x->dtype);
  w.vec(V::Binary, 4, out, 2 * corners);
  w.vec(V::Unary, 4, points, 3 * corners);
  addCasts(w, x->dtype, 4, out * corners, out);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// A permutation: data movement only (MTE with strided bursts; no vector work in the limit).
WorkResult transpose(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  w.bytesRead = x->bytes();
  w.bytesWritten = x->bytes();
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Slice with strides: only the selected elements need to be read and written.
WorkResult stridedSlice(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  std::vector<double> begin = c.attrList("begin"), end = c.attrList("end"), strides = c.attrList("strides");
  if (x == nullptr || begin.size() != x->shape().size() || end.size() != begin.size() || strides.size() != begin.size()) {
    return notModelled("expects begin, end and strides for every dimension");
  }
  double out = 1;
  for (size_t i = 0; i < begin.size(); ++i) {
    double dim = static_cast<double>(x->shape()[i]);
    double b = begin[i] < 0 ? begin[i] + dim : begin[i];
    double e = end[i] < 0 ? end[i] + dim : std::min(end[i], dim);
    if (strides[i] <= 0) return notModelled("non-positive stride");
    out *= std::max(0.0, std::ceil((e - b) / strides[i]));
  }
  OpWork w;
  w.bytesRead = out * dtypeBytes(x->dtype);
  w.bytesWritten = out * dtypeBytes(x->dtype);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Tokens regrouped by expert: a permuted copy of the tokens (and their scales) plus an int32 index per token.
WorkResult moeReRouting(const TaskCase& c) {
  const TensorArg* tokens = c.input(0);
  if (tokens == nullptr) return notModelled("input 0 is absent");
  OpWork w;
  double rows = tokens->dim(0);
  w.bytesRead = inputBytes(c);
  w.bytesWritten = tokens->bytes() + rows * 4 + (c.input(2) ? c.input(2)->bytes() : 0);
  w.auxTensorBytes = tokens->bytes();
  return modelled(std::move(w));
}

// out[t] = skip1 + skip2 + sum_k scale[t,k] * (expanded[row(t,k)] + bias[expert(t,k)]).
WorkResult moeFinalizeRouting(const TaskCase& c) {
  const TensorArg* expanded = c.input(0);
  if (expanded == nullptr) return notModelled("input 0 is absent");
  const TensorArg* scales = c.input(5);
  const TensorArg* skip = c.input(2);
  double hidden = expanded->dim(-1);
  double tokens = skip ? skip->dim(0)
                       : (scales ? scales->dim(0) : expanded->numel() / hidden);
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = tokens * hidden * dtypeBytes(expanded->dtype);
  w.vec(V::Binary, 4, expanded->numel(), 3);
  addCasts(w, expanded->dtype, 4, expanded->numel(), tokens * hidden);
  w.auxTensorBytes = expanded->bytes();
  return modelled(std::move(w));
}

// k largest along `dim`: a threshold filter (compare, select) per element; sorting the k survivors is small.
WorkResult topK(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  if (x == nullptr) return notModelled("input 0 is absent");
  const auto& s = x->shape();
  int d = static_cast<int>(c.attrNumber("dim", -1));
  if (d < 0) d += static_cast<int>(s.size());
  if (d < 0 || d >= static_cast<int>(s.size())) return notModelled("dim out of range");
  double k = c.attrNumber("k", 1);
  double out = x->numel() / static_cast<double>(s[static_cast<size_t>(d)]) * k;
  OpWork w;
  w.bytesRead = x->bytes();
  w.bytesWritten = out * (dtypeBytes(x->dtype) + 8);
  int lanes = computeLaneBytes(x->dtype, true);
  w.vec(V::Binary, lanes, x->numel(), 2);
  w.vec(V::Sort, lanes, out);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

}  // namespace

std::vector<WorkEntry> indexWork() {
  return {
      {"Gather", &gather},
      {"Scatter", &scatter},
      {"UnsortedSegmentSum", &unsortedSegmentSum},
      {"ResizeBilinear", &resizeBilinear},
      {"GridSampler3D", &gridSampler3d},
      {"Transpose", &transpose},
      {"StridedSlice", &stridedSlice},
      {"MoeReRouting", &moeReRouting},
      {"MoeFinalizeRouting", &moeFinalizeRouting},
      {"TopK", &topK},
  };
}

}  // namespace tilecraft::perf
