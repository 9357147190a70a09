#include "fuzz/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <span>
#include <vector>

namespace tilecraft::fuzz {

namespace {

using interp::SplitMix64;

// Which of a 2-D value's extents are the tile's (true) and which are 1 (a reduced axis, or a bias row). Any two
// broadcast together; 1-D values are always full.
struct Extent {
  bool rows = true;
  bool cols = true;
  bool operator==(const Extent&) const = default;
  static constexpr Extent full() { return {true, true}; }
};

struct Val {
  std::string name;
  Extent extent = Extent::full();
  double bound = 1;  // a bound on |value|, so chains stay finite and within every dtype's range
  bool used = false;
};

bool mentions(const std::string& expr, const std::string& name) {
  for (size_t pos = expr.find(name); pos != std::string::npos; pos = expr.find(name, pos + 1)) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    bool before = pos == 0 || !word(expr[pos - 1]);
    bool after = pos + name.size() == expr.size() || !word(expr[pos + name.size()]);
    if (before && after) return true;
  }
  return false;
}

Extent join(Extent a, Extent b) { return {a.rows || b.rows, a.cols || b.cols}; }

class Generator {
 public:
  Generator(uint64_t seed) : rng_(seed) { program_.seed = seed; }
  FuzzProgram run();

 private:
  int64_t pick(int64_t lo, int64_t hi) { return rng_.uniformInt(lo, hi); }
  bool chance(int percent) { return pick(0, 99) < percent; }
  template <typename T>
  const T& choose(std::span<const T> items) {
    return items[static_cast<size_t>(pick(0, static_cast<int64_t>(items.size()) - 1))];
  }
  const char* choose(std::initializer_list<const char*> items) {
    return *(items.begin() + pick(0, static_cast<int64_t>(items.size()) - 1));
  }

  // --- statements in the compute block ---------------------------------------------------------------------
  std::string fresh() { return fmt::format("t{}", next_++); }
  const Val& recent() {
    // Prefer the latest values, so chains grow deep rather than wide.
    size_t n = vals_.size();
    size_t back = static_cast<size_t>(pick(0, std::min<int64_t>(2, static_cast<int64_t>(n) - 1)));
    return vals_[n - 1 - back];
  }
  // Another value than `other` where there is one, so that 'a - a' does not cancel the chain to zero.
  const Val& any(const std::string& other = {}) {
    const Val* v = nullptr;
    for (int tries = 0; tries < 4 && (!v || v->name == other); ++tries) {
      v = &vals_[static_cast<size_t>(pick(0, static_cast<int64_t>(vals_.size()) - 1))];
    }
    return *v;
  }
  void emit(const std::string& expr, Extent extent, double bound) {
    for (Val& old : vals_) old.used = old.used || mentions(expr, old.name);
    Val v{fresh(), extent, bound};
    body_ += fmt::format("            {} = {}\n", v.name, expr);
    vals_.push_back(v);
  }
  void markUsed(const std::string& name) {
    for (Val& v : vals_) v.used = v.used || v.name == name;
  }
  void foldUnused();
  void floatOp();
  void intOp();
  void rowOp();
  std::string scalar();

  FuzzProgram finish(const std::string& text);
  std::string floatFamily();
  std::string intFamily();

  SplitMix64 rng_;
  FuzzProgram program_;
  std::vector<Val> vals_;
  std::string body_;
  int next_ = 0;
  std::vector<std::string> attrs_;  // names of f32 (or i32) attributes
  std::string compute_ = "f32";     // the compute dtype
  std::string family_;
  int reduceAxis_ = -1;  // rows: -1 gives Col; columns: 0 gives Row
};

std::string Generator::scalar() {
  if (!attrs_.empty() && chance(50))
    return attrs_[static_cast<size_t>(pick(0, static_cast<int64_t>(attrs_.size()) - 1))];
  return choose({"0.5", "2.0", "1.5", "0.25", "3.0"});
}

// One random float operation on recent values. Bounds: attributes lie in [0.5, 2], literals in [0.25, 3].
void Generator::floatOp() {
  const Val a = recent();
  // f16 tops out at 65504: its chains are squashed earlier, so that products of two values stay finite.
  if (a.bound > (compute_ == "f16" ? 100 : 1e3)) {
    emit(chance(50) ? fmt::format("tanh({})", a.name) : fmt::format("clamp({}, -4.0, 4.0)", a.name), a.extent, 4);
    return;
  }
  const Val b = any(a.name);
  switch (pick(0, 17)) {
    case 0: emit(fmt::format("{} + {}", a.name, b.name), join(a.extent, b.extent), a.bound + b.bound); return;
    case 1: emit(fmt::format("{} - {}", a.name, b.name), join(a.extent, b.extent), a.bound + b.bound); return;
    case 2: emit(fmt::format("{} * {}", a.name, b.name), join(a.extent, b.extent), a.bound * b.bound); return;
    case 3: emit(fmt::format("{} / (abs({}) + 1.0)", a.name, b.name), join(a.extent, b.extent), a.bound); return;
    case 4: emit(fmt::format("{} * {}", a.name, scalar()), a.extent, a.bound * 3); return;
    case 5: emit(fmt::format("{} - {}", scalar(), a.name), a.extent, a.bound + 3); return;
    case 6: {
      const char* f = choose({"abs", "relu", "tanh", "sigmoid", "gelu", "silu", "sin", "cos", "erf"});
      emit(fmt::format("{}({})", f, a.name), a.extent, a.bound + 1);
      return;
    }
    case 7:
      if (a.bound <= 4) emit(fmt::format("exp({})", a.name), a.extent, 60);
      else emit(fmt::format("exp(tanh({}))", a.name), a.extent, 3);
      return;
    case 8: {
      const char* f =
          choose({"log(abs({}) + 1.0)", "sqrt(abs({}))", "rsqrt(abs({}) + 1.0)", "reciprocal(abs({}) + 0.5)"});
      emit(fmt::format(fmt::runtime(f), a.name), a.extent, a.bound + 2);
      return;
    }
    case 9:
      if (chance(50))
        emit(fmt::format("pow(abs({}) + 0.5, {})", a.name, choose({"2.0", "0.5"})), a.extent,
             (a.bound + 1) * (a.bound + 1));
      else emit(fmt::format("{} ** 2", a.name), a.extent, a.bound * a.bound);
      return;
    case 10:
      emit(fmt::format("{}({}, {})", choose({"maximum", "minimum"}), a.name, b.name), join(a.extent, b.extent),
           std::max(a.bound, b.bound));
      return;
    case 11:
      emit(fmt::format("where({} {} {}, {}, {} * 0.5)", a.name, choose({"<", ">", "<=", ">="}), b.name, a.name, b.name),
           join(a.extent, b.extent), std::max(a.bound, b.bound));
      return;
    case 12: emit(fmt::format("leaky_relu({}, {})", a.name, choose({"0.1", "0.01"})), a.extent, a.bound); return;
    case 13: emit(fmt::format("clamp({}, -0.5, {})", a.name, choose({"0.5", "0.75"})), a.extent, 0.75); return;
    case 14: emit(fmt::format("-{}", a.name), a.extent, a.bound); return;
    case 15: {
      // Round trips through narrower types: the reference's rounding and truncation rules, exercised.
      std::string via = compute_ == "f32" ? (a.bound < 6e4 ? choose({"f16", "bf16", "i32"}) : "bf16")
                                          : (a.bound < 3e4 ? choose({"f32", "i16"}) : "f32");
      emit(fmt::format("cast(cast({}, {}), {})", a.name, via, compute_), a.extent, a.bound + 1);
      return;
    }
    default:
      if (family_ == "elementwise") {
        emit(fmt::format("{} + {}", a.name, scalar()), a.extent, a.bound + 3);
      } else {
        rowOp();
      }
      return;
  }
}

// Reductions and scans along the template's reduction axis: -1 (rows, giving Col) or 0 (columns, giving Row).
void Generator::rowOp() {
  const Val a = recent();
  Extent reduced = reduceAxis_ == -1 ? Extent{a.extent.rows, false} : Extent{false, a.extent.cols};
  if (a.extent == reduced) {  // the axis is already 1
    emit(fmt::format("{} * {}", a.name, scalar()), a.extent, a.bound * 3);
    return;
  }
  std::string axis = fmt::format("axis={}", reduceAxis_);
  bool sumFits = compute_ != "f16" || a.bound <= 32;  // a sum of up to 1024 elements must stay within f16
  switch (pick(0, 5)) {
    case 0:
      if (sumFits) emit(fmt::format("reduce_sum({}, {})", a.name, axis), reduced, a.bound * 1024);
      else emit(fmt::format("reduce_mean({}, {})", a.name, axis), reduced, a.bound);
      return;
    case 1: emit(fmt::format("reduce_mean({}, {})", a.name, axis), reduced, a.bound); return;
    case 2:
      emit(fmt::format("{}({}, {})", choose({"reduce_max", "reduce_min"}), a.name, axis), reduced, a.bound);
      return;
    case 3: {
      // softmax: two statements, the second a broadcast against the reduction
      std::string e = fresh();
      body_ += fmt::format("            {} = exp({} - reduce_max({}, {}))\n", e, a.name, a.name, axis);
      markUsed(a.name);
      vals_.push_back(Val{e, a.extent, 1});
      emit(fmt::format("{} / reduce_sum({}, {})", e, e, axis), a.extent, 1);
      return;
    }
    case 4: {
      // a normalisation: (x - mean) * rsqrt(var + eps)
      std::string d = fresh();
      body_ += fmt::format("            {} = {} - reduce_mean({}, {})\n", d, a.name, a.name, axis);
      markUsed(a.name);
      vals_.push_back(Val{d, a.extent, 2 * a.bound});
      emit(fmt::format("{} * rsqrt(reduce_mean({} * {}, {}) + 1e-5)", d, d, d, axis), a.extent, 1100);
      return;
    }
    default:
      if (sumFits && chance(50)) emit(fmt::format("cumsum({}, {})", a.name, axis), a.extent, a.bound * 1024);
      else emit(fmt::format("cumprod(tanh({}), {})", a.name, axis), a.extent, 1);
      return;
  }
}

void Generator::intOp() {
  const Val a = recent();
  const Val b = any(a.name);
  // Keep every value within i16 (or well within i32): wrapping is defined, but it is not what these tests probe.
  const double cap = compute_ == "i16" ? 3e4 : 1e6;
  auto emitCapped = [&](const std::string& expr, double bound) {
    if (bound <= cap) {
      emit(expr, Extent::full(), bound);
    } else {
      emit(fmt::format("maximum(minimum({}, 100), -100)", a.name), Extent::full(), 100);
    }
  };
  switch (pick(0, 6)) {
    case 0: emitCapped(fmt::format("{} + {}", a.name, b.name), a.bound + b.bound); return;
    case 1: emitCapped(fmt::format("{} - {}", a.name, b.name), a.bound + b.bound); return;
    case 2: emitCapped(fmt::format("{} * {}", a.name, b.name), a.bound * b.bound); return;
    case 3:
      emitCapped(fmt::format("{}({}, {})", choose({"maximum", "minimum"}), a.name, b.name), std::max(a.bound, b.bound));
      return;
    case 4: emitCapped(fmt::format("{} * {}", a.name, attrs_.empty() ? "3" : attrs_[0]), a.bound * 5); return;
    case 5: emitCapped(fmt::format("{} + {}", a.name, pick(-20, 20)), a.bound + 20); return;
    default:
      if (compute_ == "i32") emitCapped(fmt::format("relu({})", a.name), a.bound);
      else emitCapped(fmt::format("-{}", a.name), a.bound);
      return;
  }
}

// Adds every value nothing used into the last one, so that no part of the chain is dead code and the output
// depends on every operation; squashes the sum when it could leave the dtype's range.
void Generator::foldUnused() {
  bool isInt = compute_ == "i32" || compute_ == "i16";
  const double cap = compute_ == "i16" ? 3e4 : compute_ == "f16" ? 3e4 : 1e6;
  std::vector<Val> unused;
  for (size_t i = 0; i + 1 < vals_.size(); ++i) {
    if (!vals_[i].used) unused.push_back(vals_[i]);
  }
  for (const Val& u : unused) {
    const Val last = vals_.back();
    double bound = last.bound + u.bound;
    if (bound > cap) {
      if (isInt)
        emit(fmt::format("maximum(minimum({}, 100), -100) + maximum(minimum({}, 100), -100)", last.name, u.name),
             join(last.extent, u.extent), 200);
      else emit(fmt::format("tanh({}) + tanh({})", last.name, u.name), join(last.extent, u.extent), 2);
    } else {
      emit(fmt::format("{} + {}", last.name, u.name), join(last.extent, u.extent), bound);
    }
  }
}

// Sizes that are mostly not multiples of 32 bytes, so tails and padding are exercised.
int64_t runExtent(SplitMix64& rng, int64_t hi) {
  int64_t n = rng.uniformInt(1, hi);
  if (rng.uniformInt(0, 4) == 0) n = std::max<int64_t>(1, (n / 16) * 16);  // sometimes aligned
  return n;
}

std::string Generator::floatFamily() {
  static constexpr const char* kIo[] = {"f32", "f16", "bf16"};
  std::string io = kIo[pick(0, 2)];
  compute_ = io == "f16" && chance(50) ? "f16" : "f32";
  family_ = choose({"elementwise", "rows", "columns"});
  int inputs = static_cast<int>(pick(1, 3));
  int nattrs = static_cast<int>(pick(0, 2));
  std::string params;
  std::string full = family_ == "elementwise" ? "(N,)" : "(M, N)";
  for (int i = 0; i < inputs; ++i) {
    params += fmt::format("x{}: Tensor[{}, {}], ", i, io, full);
    program_.ranges[fmt::format("x{}", i)] = interp::ValueRange{-2, 2};
  }
  bool bias = family_ != "elementwise" && chance(60);
  if (bias) {
    params += fmt::format("b0: Tensor[{}, (1, N)], ", io);
    program_.ranges["b0"] = interp::ValueRange{-1, 1};
  }
  params += fmt::format("y: Tensor[{}, {}]", io, full);
  bool second = family_ == "rows" && chance(30);
  if (second) params += fmt::format(", s: Tensor[{}, (M, 1)]", io);
  for (int i = 0; i < nattrs; ++i) {
    std::string name = fmt::format("a{}", i);
    double value = static_cast<double>(pick(2, 8)) * 0.25;  // in [0.5, 2], exact in every float dtype
    if (chance(40)) {
      params += fmt::format(", {}: f32 = {}", name, value);
    } else {
      params += fmt::format(", {}: f32", name);
      program_.attrs[name] = value;
    }
    attrs_.push_back(name);
  }

  std::string castIn = compute_ == io ? "{}" : fmt::format("cast({{}}, {})", compute_);
  std::string castOut = compute_ == io ? "{}" : fmt::format("cast({{}}, {})", io);
  std::string text;
  std::string index;  // how the loop indexes the tensors
  std::string loads;
  std::string indent = "        ";
  if (family_ == "elementwise") {
    program_.dims["N"] = runExtent(rng_, 3000);
    int64_t size = 64 << pick(0, 4);
    text = fmt::format(
        "N = dim()\n\n@kernel\ndef {}({}):\n    part = split(N, cores=vector_cores())\n"
        "    for t in tiles(part, size={}{}):\n",
        program_.kernel, params, size, chance(25) ? ", buffers=1" : "");
    index = "t";
  } else if (family_ == "rows") {
    static constexpr int64_t kMax[] = {16, 100, 256, 512, 1000};
    int64_t nmax = kMax[pick(0, 4)];
    int64_t rows = std::max<int64_t>(1, std::min<int64_t>(8, 1024 / nmax) >> pick(0, 2));
    program_.dims["M"] = pick(1, 12);
    program_.dims["N"] = runExtent(rng_, nmax);
    text =
        fmt::format("M = dim()\nN = dim(max={})\n\n@kernel\ndef {}({}):\n    rows = split(M, cores=vector_cores())\n",
                    nmax, program_.kernel, params);
    if (bias) text += "    with copyin:\n        g0 = load(b0[0:1, :])\n";
    text += fmt::format("    for r in tiles(rows, size={}):\n", rows);
    index = "r, :";
    reduceAxis_ = -1;
  } else {
    int64_t cols = 16 << pick(0, 3);
    int64_t rows = std::max<int64_t>(1, std::min<int64_t>(8, 1024 / cols) >> pick(0, 2));
    program_.dims["M"] = runExtent(rng_, 40);
    program_.dims["N"] = runExtent(rng_, 300);
    text = fmt::format(
        "M = dim()\nN = dim()\n\n@kernel\ndef {}({}):\n    cols = split(N, cores=vector_cores())\n"
        "    for c in tiles(cols, size={}):\n",
        program_.kernel, params, cols);
    if (bias) text += "        with copyin:\n            g0 = load(b0[0:1, c])\n";
    text += fmt::format("        for r in tiles(M, size={}):\n", rows);
    index = "r, c";
    indent = "            ";
    reduceAxis_ = 0;
  }
  std::string loadBlock = indent + "with copyin:\n";
  for (int i = 0; i < inputs; ++i) loadBlock += fmt::format("{}    v{} = load(x{}[{}])\n", indent, i, i, index);
  text += loadBlock;
  for (int i = 0; i < inputs; ++i) emit(fmt::format(fmt::runtime(castIn), fmt::format("v{}", i)), Extent::full(), 2);
  if (bias) {
    emit(fmt::format(fmt::runtime(castIn), "g0"), Extent{false, true}, 1);
  }
  int ops = static_cast<int>(pick(2, 8));
  for (int i = 0; i < ops; ++i) floatOp();
  foldUnused();
  // The output is full-extent: fold a reduced value back against a full one.
  Val last = vals_.back();
  if (!(last.extent == Extent::full()))
    emit(fmt::format("{} * {}", vals_[0].name, last.name), Extent::full(), last.bound * 2);
  if (vals_.back().bound > 3e4) emit(fmt::format("tanh({})", vals_.back().name), Extent::full(), 1);
  std::string out = vals_.back().name;
  std::string colOut;
  if (second) {
    const Val& a = vals_.back();
    emit(fmt::format("reduce_max({}, axis=-1)", a.name), Extent{true, false}, a.bound);
    colOut = vals_.back().name;
  }
  std::string body = body_;
  // Indent the compute statements for the columns template (one loop deeper).
  if (family_ == "columns") {
    std::string deeper;
    size_t pos = 0;
    while (pos < body.size()) {
      size_t end = body.find('\n', pos);
      deeper += "    " + body.substr(pos, end - pos + 1);
      pos = end + 1;
    }
    body = deeper;
  }
  text += indent + "with compute:\n" + body;
  text += indent + "with copyout:\n";
  text += fmt::format("{}    store(y[{}], {})\n", indent, index, fmt::format(fmt::runtime(castOut), out));
  if (second) text += fmt::format("{}    store(s[r, :], {})\n", indent, fmt::format(fmt::runtime(castOut), colOut));
  return text;
}

std::string Generator::intFamily() {
  std::string io = chance(60) ? "i32" : "i16";
  compute_ = io;
  family_ = "integer";
  int inputs = static_cast<int>(pick(1, 3));
  std::string params;
  for (int i = 0; i < inputs; ++i) {
    params += fmt::format("x{}: Tensor[{}, (N,)], ", i, io);
    program_.ranges[fmt::format("x{}", i)] = interp::ValueRange{-50, 50};
  }
  params += fmt::format("y: Tensor[{}, (N,)]", io);
  if (chance(50)) {
    params += ", k0: i32";
    program_.attrs["k0"] = static_cast<double>(pick(-5, 5));
    attrs_.push_back("k0");
  }
  program_.dims["N"] = runExtent(rng_, 3000);
  std::string text = fmt::format(
      "N = dim()\n\n@kernel\ndef {}({}):\n    part = split(N, cores=vector_cores())\n"
      "    for t in tiles(part, size={}):\n        with copyin:\n",
      program_.kernel, params, 64 << pick(0, 4));
  for (int i = 0; i < inputs; ++i) {
    text += fmt::format("            v{} = load(x{}[t])\n", i, i);
    vals_.push_back(Val{fmt::format("v{}", i), Extent::full(), 50});
  }
  int ops = static_cast<int>(pick(2, 8));
  for (int i = 0; i < ops; ++i) intOp();
  foldUnused();
  text += "        with compute:\n" + body_;
  text += fmt::format("        with copyout:\n            store(y[t], {})\n", vals_.back().name);
  return text;
}

FuzzProgram Generator::run() {
  program_.kernel = fmt::format("fuzz_{}", program_.seed);
  std::string text = chance(20) ? intFamily() : floatFamily();
  program_.family = family_;
  program_.source = fmt::format("# generated by tilecraft fuzz, seed {} ({})\n", program_.seed, family_) + text;
  return program_;
}

}  // namespace

FuzzProgram generate(uint64_t seed) { return Generator(seed).run(); }

}  // namespace tilecraft::fuzz
