// The productions modelled on checker-accepted programs that broke the compiler (issue 10, docs/fuzzing.md
// "Compiler patterns"): each keeps the shape of the program that broke and randomises the rest (dtypes, sizes,
// the chain of operations between the loads and the stores), so that the fuzzer finds the class, not the one
// program.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "fuzz/generator_core.h"
#include "interp/interp.h"

namespace tilecraft::fuzz::detail {

namespace {

const char* ioDtype(int64_t roll) { return roll == 0 ? "f32" : roll == 1 ? "f16" : "bf16"; }

bool passesTheChecker(const std::string& text) {
  return interp::checkProgram("generated.tile", text)->diagnostics.diagnostics().empty();
}

}  // namespace

// Constant-width slices at an offset computed on the device (`x[k*C : k*C + C]`): the last chunk runs past the
// end of N, where loads read pad and stores are dropped (issue 10's slice_past_end_not_padded).
std::string Generator::chunksFamily() {
  family_ = "chunks";
  tag("chunk-past-end");
  std::string io = ioDtype(pick(0, 2));
  compute_ = io == "f16" && chance(50) ? "f16" : "f32";
  int64_t width = 32 << pick(0, 3);
  bool twoD = chance(40);
  bool stepLoop = chance(40);  // `for o in range(0, N, C)` instead of `k*C`
  int inputs = static_cast<int>(pick(1, 2));
  std::string full = twoD ? "(M, N)" : "(N,)";
  std::string params;
  for (int i = 0; i < inputs; ++i) {
    params += fmt::format("x{}: Tensor[{}, {}], ", i, io, full);
    program_.ranges[fmt::format("x{}", i)] = interp::ValueRange{-2, 2};
  }
  params += fmt::format("y: Tensor[{}, {}]", io, full);
  addAttrs(params, static_cast<int>(pick(0, 2)));
  std::vector<std::string> prelude = powScalars();
  std::string text = fmt::format("C = {}\n{}N = dim()\n\n@kernel\ndef {}({}):\n", width, twoD ? "M = dim()\n" : "",
                                 program_.kernel, params);
  std::string loop = stepLoop ? "for o in range(0, N, C):" : "for k in range(0, cdiv(N, C)):";
  std::string slice = stepLoop ? "o : o + C" : "k*C : k*C + C";
  std::string indent = "        ";
  if (twoD) {
    program_.dims["M"] = pick(1, 12);
    text += "    rows = split(M, cores=vector_cores())\n" + indented(prelude, "    ");
    text += fmt::format("    for r in tiles(rows, size={}):\n        {}\n", int64_t{1} << pick(0, 2), loop);
    slice = "r, " + slice;
    indent = "            ";
  } else {
    text += indented(prelude, "    ") + "    " + loop + "\n";
  }
  int64_t n = runExtent(rng_, twoD ? 700 : 3000);
  if (n % width == 0) n = std::max<int64_t>(1, n - pick(1, 15));  // mostly a short last chunk
  program_.dims["N"] = n;
  text += indent + "with copyin:\n";
  for (int i = 0; i < inputs; ++i) {
    text += fmt::format("{}    v{} = load(x{}[{}])\n", indent, i, i, slice);
    emit(castTo(fmt::format("v{}", i), io, compute_), Extent::full(), 2);
  }
  floatChain(static_cast<int>(pick(2, 6)), false);
  reassignLast();
  text += indent + "with compute:\n" + indented(stmts_, indent + "    ");
  text += fmt::format("{}with copyout:\n{}    store(y[{}], {})\n", indent, indent, slice,
                      castTo(vals_.back().name, compute_, io));
  return text;
}

// An index tile made in `compute` and read by a gather load in a later `copyin` (issue 10's
// cast_then_gather_hazard): the scalar unit reads what the vector unit wrote.
std::string Generator::gatherFamily() {
  family_ = "gather";
  tag("compute-index-gather");
  std::string io = ioDtype(pick(0, 2));
  compute_ = io == "f16" && chance(50) ? "f16" : "f32";
  bool wide = chance(50);  // i64 indices cast to i32, else i32 indices clamped into the table
  int64_t vocab = pick(1, 40);
  static constexpr int64_t kMax[] = {16, 64, 256, 1024};
  int64_t dmax = kMax[pick(0, 3)];
  int64_t size = std::max<int64_t>(1, std::min<int64_t>(32, 4096 / dmax) >> pick(0, 1));
  program_.dims["V"] = vocab;
  program_.dims["D"] = runExtent(rng_, dmax);
  program_.dims["L"] = pick(1, 300);
  bool extra = chance(40);  // an ordinary load beside the index, combined with the gathered rows
  std::string params = fmt::format("w: Tensor[{}, (V, D)], idx: Tensor[{}, (L,)], ", io, wide ? "i64" : "i32");
  program_.ranges["w"] = interp::ValueRange{-2, 2};
  if (extra) {
    params += fmt::format("x0: Tensor[{}, (L, D)], ", io);
    program_.ranges["x0"] = interp::ValueRange{-2, 2};
  }
  params += fmt::format("y: Tensor[{}, (L, D)]", io);
  addAttrs(params, static_cast<int>(pick(0, 2)));
  std::vector<std::string> prelude = powScalars();
  std::string index;
  if (wide) {
    program_.ranges["idx"] = interp::ValueRange{0, static_cast<double>(vocab - 1)};
    index = chance(50) ? "cast(i0, i32)" : "minimum(cast(i0, i32), V - 1)";
  } else {
    program_.ranges["idx"] = interp::ValueRange{-3, static_cast<double>(vocab + 2)};
    int64_t shift = pick(-2, 2);
    std::string shifted = shift == 0 ? "i0" : fmt::format("i0 {} {}", shift < 0 ? "-" : "+", std::abs(shift));
    index = chance(50) ? fmt::format("minimum(relu({}), V - 1)", shifted)
                       : fmt::format("maximum(minimum({}, V - 1), 0)", shifted);
  }
  std::string text =
      kernelHead(fmt::format("V = dim()\nD = dim(max={})\nL = dim()", dmax), params, "part", "L", prelude);
  text +=
      fmt::format("    for t in tiles(part, size={}):\n        with copyin:\n            i0 = load(idx[t])\n", size);
  if (extra) text += "            u0 = load(x0[t, :])\n";
  text += fmt::format("        with compute:\n            ids = {}\n", index);
  text += "        with copyin:\n            rows = load(w[ids, :])\n";
  emit(castTo("rows", io, compute_), Extent::full(), 2);
  if (extra) emit(castTo("u0", io, compute_), Extent::full(), 2);
  reduceAxis_ = -1;
  floatChain(static_cast<int>(pick(2, 6)), true);
  reassignLast();
  text += "        with compute:\n" + indented(stmts_, "            ");
  text +=
      fmt::format("        with copyout:\n            store(y[t, :], {})\n", castTo(vals_.back().name, compute_, io));
  return text;
}

// One or two long rows per tile with buffers=1, the work split over two or three compute blocks, f32 and
// bf16/f16 tensors mixed, a row parameter (cast in a compute block before the loop), two outputs: the shape of
// issue 10's ub_overflow_* programs. The row length is the largest of a few that the checker accepts, so the
// layout sits near the UB capacity.
std::string Generator::bigRowsFamily() {
  family_ = "bigrows";
  tag("buffers1-multi-compute");
  tag("near-capacity");
  int64_t roll = pick(0, 4);
  std::string io = roll < 2 ? "bf16" : roll < 4 ? "f32" : "f16";
  compute_ = io == "f16" && chance(30) ? "f16" : "f32";
  longRows_ = true;
  reduceAxis_ = -1;
  int inputs = static_cast<int>(pick(1, 3));
  std::vector<std::string> dtypes;
  bool mixed = false;
  std::string params;
  for (int i = 0; i < inputs; ++i) {
    dtypes.push_back(io != "f32" && chance(30) ? "f32" : io);
    mixed = mixed || dtypes.back() != io;
    params += fmt::format("x{}: Tensor[{}, (M, N)], ", i, dtypes.back());
    program_.ranges[fmt::format("x{}", i)] = interp::ValueRange{-2, 2};
  }
  if (mixed) tag("mixed-dtypes");
  bool gamma = chance(70);
  bool castBefore = gamma && compute_ != io && chance(60);
  if (gamma) {
    params += fmt::format("g: Tensor[{}, (1, N)], ", io);
    program_.ranges["g"] = interp::ValueRange{-1, 1};
  }
  if (castBefore) tag("compute-before-loop");
  bool second = chance(60);
  params += fmt::format("y: Tensor[{}, (M, N)]", io);
  if (second) params += fmt::format(", h: Tensor[{}, (M, N)]", io);
  addAttrs(params, static_cast<int>(pick(0, 2)));
  std::vector<std::string> prelude = powScalars();

  for (int i = 0; i < inputs; ++i)
    emit(castTo(fmt::format("v{}", i), dtypes[static_cast<size_t>(i)], compute_), Extent::full(), 2);
  if (gamma && castBefore) {
    vals_.push_back(Val{"gf", Extent{false, true}, 1});
  } else if (gamma) {
    emit(castTo("g0", io, compute_), Extent{false, true}, 1);
  }
  floatChain(static_cast<int>(pick(3, 8)), true);
  // Two or three compute blocks, cut between statements; the reassignments all go into the last one.
  std::vector<size_t> cuts;
  int blocks = static_cast<int>(std::min<int64_t>(pick(2, 3), static_cast<int64_t>(stmts_.size())));
  for (int b = 1; b < blocks; ++b) {
    size_t lo = cuts.empty() ? 1 : cuts.back() + 1;
    size_t hi = stmts_.size() - static_cast<size_t>(blocks - b);
    if (lo > hi) break;
    cuts.push_back(static_cast<size_t>(pick(static_cast<int64_t>(lo), static_cast<int64_t>(hi))));
  }
  // The second output: the latest full-extent value of the first block.
  std::string mid;
  if (second) {
    size_t end = cuts.empty() ? stmts_.size() : cuts.front();
    for (size_t i = end; i-- > 0 && mid.empty();) {
      std::string name = stmts_[i].substr(0, stmts_[i].find(" = "));
      for (const Val& v : vals_) {
        if (v.name == name && v.extent == Extent::full()) mid = name;
      }
    }
    if (mid.empty()) mid = vals_.front().name;
  }
  reassignLast();
  std::string out = vals_.back().name;
  if (second && mid == out && program_.patterns.back() == "reassigned-store") mid = vals_.front().name;
  std::string computeBlocks;
  for (size_t i = 0, c = 0; i < stmts_.size(); ++i) {
    if (i == 0 || (c < cuts.size() && i == cuts[c])) {
      if (i != 0) ++c;
      computeBlocks += "        with compute:\n";
    }
    computeBlocks += "            " + stmts_[i] + "\n";
  }
  std::string loads;
  for (int i = 0; i < inputs; ++i) loads += fmt::format("            v{} = load(x{}[r, :])\n", i, i);
  std::string stores;
  if (second) stores += fmt::format("            store(h[r, :], {})\n", castTo(mid, compute_, io));
  stores += fmt::format("            store(y[r, :], {})\n", castTo(out, compute_, io));
  auto render = [&](int64_t nmax, int64_t rows) {
    std::string text = kernelHead(fmt::format("M = dim()\nN = dim(max={})", nmax), params, "rows", "M", prelude);
    if (gamma) text += "    with copyin:\n        g0 = load(g[0:1, :])\n";
    if (castBefore) text += fmt::format("    with compute:\n        gf = cast(g0, {})\n", compute_);
    text += fmt::format("    for r in tiles(rows, size={}, buffers=1):\n        with copyin:\n", rows);
    return text + loads + computeBlocks + "        with copyout:\n" + stores;
  };
  static constexpr int64_t kMax[] = {8192, 6144, 4096, 2048, 1024, 512};
  size_t first = static_cast<size_t>(pick(0, 3));
  int64_t rows = int64_t{1} << pick(0, 1);
  std::string text;
  int64_t nmax = 0;
  for (size_t i = first; i < std::size(kMax) && nmax == 0; ++i) {
    for (int64_t r = rows; r >= 1 && nmax == 0; r /= 2) {
      text = render(kMax[i], r);
      if (passesTheChecker(text)) nmax = kMax[i];
    }
  }
  if (nmax == 0) nmax = 512;  // fits nowhere: fuzz_tests reports the program
  program_.dims["M"] = pick(1, 6);
  program_.dims["N"] = std::max<int64_t>(1, nmax - pick(0, nmax / 2));
  return text;
}

// A row statistic `(r, 1)` stored into a 1-D view (issue 10's store_col_into_1d), or a column statistic
// `(1, c)` of a tensor with a constant number of rows stored into a 1-D view; 1-D parameters loaded and
// broadcast as rows.
std::string Generator::colStoreFamily() {
  family_ = "colstore";
  std::string io = ioDtype(pick(0, 2));
  compute_ = io == "f16" && chance(50) ? "f16" : "f32";
  bool columns = chance(40);
  int inputs = static_cast<int>(pick(1, 2));
  bool bias = chance(50);
  bool full = chance(50);  // also the full-extent result
  int64_t height = int64_t{2} << pick(0, 2);
  std::string shape = columns ? fmt::format("({}, N)", height) : "(M, N)";
  std::string params;
  for (int i = 0; i < inputs; ++i) {
    params += fmt::format("x{}: Tensor[{}, {}], ", i, io, shape);
    program_.ranges[fmt::format("x{}", i)] = interp::ValueRange{-2, 2};
  }
  if (bias) {
    params += fmt::format("b0: Tensor[{}, (N,)], ", io);
    program_.ranges["b0"] = interp::ValueRange{-1, 1};
    tag("load-1d-as-row");
  }
  params += fmt::format("z: Tensor[{}, ({},)]", io, columns ? "N" : "M");
  if (full) params += fmt::format(", y: Tensor[{}, {}]", io, shape);
  tag(columns ? "store-row-into-1d" : "store-col-into-1d");
  addAttrs(params, static_cast<int>(pick(0, 2)));
  std::vector<std::string> prelude = powScalars();
  std::string text;
  std::string index;
  std::string zIndex;
  if (columns) {
    int64_t cols = 16 << pick(0, 3);
    program_.dims["N"] = runExtent(rng_, 300);
    text = kernelHead("N = dim()", params, "cols", "N", prelude);
    text += fmt::format("    for c in tiles(cols, size={}):\n        with copyin:\n", cols);
    if (bias) text += "            g0 = load(b0[c])\n";
    index = ":, c";
    zIndex = "c";
    reduceAxis_ = 0;
  } else {
    static constexpr int64_t kMax[] = {16, 64, 100, 256, 512};
    int64_t nmax = kMax[pick(0, 4)];
    int64_t rows = std::max<int64_t>(1, std::min<int64_t>(64, 4096 / nmax) >> pick(0, 3));
    program_.dims["M"] = pick(1, 150);
    program_.dims["N"] = runExtent(rng_, nmax);
    text = kernelHead(fmt::format("M = dim()\nN = dim(max={})", nmax), params, "rows", "M", prelude);
    if (bias) text += "    with copyin:\n        g0 = load(b0[:])\n";
    text += fmt::format("    for r in tiles(rows, size={}):\n        with copyin:\n", rows);
    index = "r, :";
    zIndex = "r";
    reduceAxis_ = -1;
  }
  for (int i = 0; i < inputs; ++i) {
    text += fmt::format("            v{} = load(x{}[{}])\n", i, i, index);
    emit(castTo(fmt::format("v{}", i), io, compute_), Extent::full(), 2);
  }
  if (bias) emit(castTo("g0", io, compute_), Extent{false, true}, 1);
  floatChain(static_cast<int>(pick(1, 5)), true);
  reassignLast();
  const Val last = vals_.back();
  std::string axis = fmt::format("axis={}", reduceAxis_);
  Extent reduced = columns ? Extent{false, true} : Extent{true, false};
  switch (pick(0, 3)) {
    case 0: emit(fmt::format("reduce_max({}, {})", last.name, axis), reduced, last.bound); break;
    case 1: emit(fmt::format("reduce_mean({}, {})", last.name, axis), reduced, last.bound); break;
    case 2:
      emit(fmt::format("reduce_min({}, {}) * {}", last.name, axis, scalar()), reduced, last.bound * kScalarBound);
      break;
    default: {
      // log-sum-exp, as the repro computes it
      std::string m = fresh();
      stmts_.push_back(fmt::format("{} = reduce_max({}, {})", m, last.name, axis));
      vals_.push_back(Val{m, reduced, last.bound, true});
      std::string s = fresh();
      stmts_.push_back(fmt::format("{} = reduce_sum(exp({} - {}), {})", s, last.name, m, axis));
      vals_.push_back(Val{s, reduced, 1024, true});
      emit(fmt::format("{} + log({})", m, s), reduced, last.bound + 8);
      break;
    }
  }
  text += "        with compute:\n" + indented(stmts_, "            ");
  text += "        with copyout:\n";
  if (full) text += fmt::format("            store(y[{}], {})\n", index, castTo(last.name, compute_, io));
  text += fmt::format("            store(z[{}], {})\n", zIndex, castTo(vals_.back().name, compute_, io));
  return text;
}

}  // namespace tilecraft::fuzz::detail
