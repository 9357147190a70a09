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

// Bilinear resize of NCHW, in fp32: per output element fetch the 4 neighbours (a copy each), weight them
// (4 mul) and sum them (3 add), as for GridSampler3D's corners; the row and column weights are per output
// row and column, negligible.
WorkResult resizeBilinear(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  std::vector<double> size = c.attrList("output_size");
  if (x == nullptr || x->shape().size() != 4 || size.size() != 2)
    return notModelled("expects NCHW input and output_size");
  const auto& s = x->shape();
  double out = static_cast<double>(s[0] * s[1]) * size[0] * size[1];
  OpWork w;
  w.bytesRead = x->bytes();
  w.bytesWritten = out * dtypeBytes(x->dtype);
  w.vec(V::Unary, 4, out, 4);
  w.vec(V::Binary, 4, out, 4 + 3);
  addCasts(w, x->dtype, 4, x->numel(), out);
  w.auxTensorBytes = x->bytes();
  // Eager converts the input to NC1HWC0 and the result back over its TransData launches, and casts the result.
  w.helperBytes.emplace_back("TransData", 2 * (w.bytesRead + w.bytesWritten) / 3);
  w.helperBytes.emplace_back("Cast", 2 * w.bytesWritten);
  return modelled(std::move(w));
}

// 3-D grid sampling. Per output element (one per grid point and channel): trilinear fetches the 8 corner
// values (a copy each), weights them (8 mul) and sums them (7 add); nearest fetches one. Per grid point, shared
// by every channel: unnormalise the 3 coordinates (muls, adds), floor or round them, and for trilinear the 3
// fractions, their complements and the 8 corner weights (2 mul each); then the base offset (2 mul, 2 add).
// Computed in the input's lanes (fp16 natively), as CANN Bench counts it: its t_hw_us per element is half
// for fp16 what it is for fp32.
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
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = out * dtypeBytes(x->dtype);
  int lanes = computeLaneBytes(x->dtype, true);
  if (nearest) {
    w.vec(V::Unary, lanes, out);
    w.vec(V::Unary, lanes, points, 3 * 2 + 3);
  } else {
    w.vec(V::Unary, lanes, out, 8);
    w.vec(V::Binary, lanes, out, 8 + 7);
    w.vec(V::Unary, lanes, points, 3 * 2 + 3 + 3 + 3);
    w.vec(V::Binary, lanes, points, 8 * 2);
  }
  w.vec(V::Binary, lanes, points, 4);
  addCasts(w, x->dtype, lanes, x->numel(), out);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Morphological dilation (max-plus windows): per output element and filter tap an add of the tap's weight and
// a max into the running result (taps adds, taps - 1 maxes), in the input's lanes (fp16 natively). Output size
// as the golden: SAME ceil(in / stride); VALID (in - effective window + stride) / stride, with explicit pads.
WorkResult dilation2d(const TaskCase& c) {
  const TensorArg* x = c.input(0);
  const TensorArg* filter = c.input(1);
  std::vector<double> strides = c.attrList("strides"), rates = c.attrList("rates"), pads = c.attrList("pads");
  if (x == nullptr || filter == nullptr || x->shape().size() != 4 || filter->shape().size() != 3 ||
      strides.size() != 4 || rates.size() != 4) {
    return notModelled("expects a 4-D input, a 3-D filter, and 4 strides and rates");
  }
  bool nhwc = c.attrString("data_format", "NHWC") == "NHWC";
  const auto& s = x->shape();
  double batch = static_cast<double>(s[0]);
  double channels = static_cast<double>(nhwc ? s[3] : s[1]);
  double inH = static_cast<double>(nhwc ? s[1] : s[2]), inW = static_cast<double>(nhwc ? s[2] : s[3]);
  double kh = filter->dim(0), kw = filter->dim(1);
  double effH = (kh - 1) * rates[1] + 1, effW = (kw - 1) * rates[2] + 1;
  double outH = 0, outW = 0;
  if (c.attrString("padding_mode", "SAME") == "SAME") {
    outH = std::ceil(inH / strides[1]);
    outW = std::ceil(inW / strides[2]);
  } else {
    double padH = pads.size() == 4 ? pads[0] + pads[1] : 0, padW = pads.size() == 4 ? pads[2] + pads[3] : 0;
    outH = std::floor((inH + padH - effH + strides[1]) / strides[1]);
    outW = std::floor((inW + padW - effW + strides[2]) / strides[2]);
  }
  double out = batch * channels * std::max(0.0, outH) * std::max(0.0, outW);
  double taps = kh * kw;
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = out * dtypeBytes(x->dtype);
  int lanes = computeLaneBytes(x->dtype, true);
  w.vec(V::Binary, lanes, out, 2 * taps - 1);
  addCasts(w, x->dtype, lanes, x->numel(), out);
  w.auxTensorBytes = x->bytes();
  return modelled(std::move(w));
}

// Non-maximum suppression over n boxes: the golden's pairwise intersection over all n^2 ordered pairs, 4 max/min
// for the corners, 2 sub, 2 clamps at 0 and a mul (9 instructions per pair). CANN Bench counts that much and no
// more (t_hw_us is n^2 x 9 at its vector rate in every case): the IoU division and the greedy, data-dependent
// pick are left out. Reads boxes and scores, writes at most n int32 indices.
WorkResult nms(const TaskCase& c) {
  const TensorArg* boxes = c.input(0);
  if (boxes == nullptr || boxes->shape().size() != 2 || boxes->dim(1) != 4) return notModelled("expects n x 4 boxes");
  double n = boxes->dim(0);
  OpWork w;
  w.bytesRead = inputBytes(c);
  w.bytesWritten = n * 4;
  w.vec(V::Binary, 4, n * n, 9);
  w.auxTensorBytes = boxes->bytes();
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
  if (x == nullptr || begin.size() != x->shape().size() || end.size() != begin.size() ||
      strides.size() != begin.size()) {
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
  double tokens = skip ? skip->dim(0) : (scales ? scales->dim(0) : expanded->numel() / hidden);
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
      {"Dilation2D", &dilation2d},
      {"NMS", &nms},
  };
}

}  // namespace tilecraft::perf
