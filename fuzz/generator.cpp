#include "fuzz/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <span>
#include <vector>

#include "fuzz/generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "fuzz/generator_core.h"

namespace tilecraft::fuzz {

namespace detail {

using interp::SplitMix64;

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

std::string indented(const std::vector<std::string>& lines, const std::string& indent) {
  std::string out;
  for (const std::string& line : lines) out += indent + line + "\n";
  return out;
}

const Val& Generator::recent() {
  // Prefer the latest values, so chains grow deep rather than wide.
  size_t n = vals_.size();
  size_t back = static_cast<size_t>(pick(0, std::min<int64_t>(2, static_cast<int64_t>(n) - 1)));
  return vals_[n - 1 - back];
}

// Another value than `other` where there is one, so that 'a - a' does not cancel the chain to zero.
const Val& Generator::any(const std::string& other) {
  const Val* v = nullptr;
  for (int tries = 0; tries < 4 && (!v || v->name == other); ++tries) {
    v = &vals_[static_cast<size_t>(pick(0, static_cast<int64_t>(vals_.size()) - 1))];
  }
  return *v;
}

void Generator::emit(const std::string& expr, Extent extent, double bound) {
  for (Val& old : vals_) old.used = old.used || mentions(expr, old.name);
  Val v{fresh(), extent, bound};
  stmts_.push_back(fmt::format("{} = {}", v.name, expr));
  vals_.push_back(v);
}

void Generator::markUsed(const std::string& name) {
  for (Val& v : vals_) v.used = v.used || v.name == name;
}

std::string Generator::scalar() {
  if (!scalars_.empty() && chance(60))
    return scalars_[static_cast<size_t>(pick(0, static_cast<int64_t>(scalars_.size()) - 1))];
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
    case 4: emit(fmt::format("{} * {}", a.name, scalar()), a.extent, a.bound * kScalarBound); return;
    case 5: emit(fmt::format("{} - {}", scalar(), a.name), a.extent, a.bound + kScalarBound); return;
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
      if (!rowOps_) {
        emit(fmt::format("{} + {}", a.name, scalar()), a.extent, a.bound + kScalarBound);
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
    emit(fmt::format("{} * {}", a.name, scalar()), a.extent, a.bound * kScalarBound);
    return;
  }
  std::string axis = fmt::format("axis={}", reduceAxis_);
  bool sumFits = compute_ != "f16" || a.bound <= 32;  // a sum of up to 1024 elements must stay within f16
  int op = static_cast<int>(pick(0, 5));
  if (longRows_ && (op == 0 || op == 5)) op = op == 0 ? 1 : 2;  // rows of thousands: no sums or scans
  switch (op) {
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
      stmts_.push_back(fmt::format("{} = exp({} - reduce_max({}, {}))", e, a.name, a.name, axis));
      markUsed(a.name);
      vals_.push_back(Val{e, a.extent, 1});
      emit(fmt::format("{} / reduce_sum({}, {})", e, e, axis), a.extent, 1);
      return;
    }
    case 4: {
      // a normalisation: (x - mean) * rsqrt(var + eps)
      std::string d = fresh();
      stmts_.push_back(fmt::format("{} = {} - reduce_mean({}, {})", d, a.name, a.name, axis));
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

void Generator::addAttrs(std::string& params, int n) {
  for (int i = 0; i < n; ++i) {
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
}

// `s0 = a1 ** 1.5` is a host value; assigned twice it becomes a device value (issue 10's device_pow_float).
std::vector<std::string> Generator::powScalars() {
  std::vector<std::string> lines;
  if (attrs_.empty() || !chance(modifierChance_)) return lines;
  tag("pow-scalar");
  const std::string& base = attrs_[static_cast<size_t>(pick(0, static_cast<int64_t>(attrs_.size()) - 1))];
  const char* power = choose({"2", "0.5", "1.5", "2.0"});  // the base is in [0.5, 2]: at most 4
  lines.push_back(fmt::format("s0 = {} ** {}", base, power));
  if (chance(60)) {
    tag("reassigned-scalar");
    lines.push_back(chance(50) ? lines[0] : choose({"s0 = s0 * 0.5", "s0 = s0 + 0.25"}));
  }
  scalars_.push_back("s0");
  return lines;
}

void Generator::useScalars() {
  for (const std::string& s : scalars_) {
    bool used = std::any_of(stmts_.begin(), stmts_.end(), [&](const std::string& st) { return mentions(st, s); });
    if (!used) {
      const Val last = vals_.back();
      emit(fmt::format("{} * {}", last.name, s), last.extent, last.bound * kScalarBound);
    }
  }
}

void Generator::reassignLast() {
  if (!chance(modifierChance_)) return;
  tag("reassigned-store");
  const double cap = compute_ == "f16" ? 3e4 : 1e6;
  Val& last = vals_.back();
  const Val first = vals_.front();
  int times = static_cast<int>(pick(1, 3));
  for (int i = 0; i < times; ++i) {
    std::string expr;
    double bound = last.bound;
    switch (pick(0, 3)) {
      case 0:
        expr = fmt::format("{} * {}", last.name, scalar());
        bound *= kScalarBound;
        break;
      case 1:
        expr = first.extent == Extent::full() ? fmt::format("{} + {}", last.name, first.name)
                                              : fmt::format("{} + 0.5", last.name);
        bound += first.bound;
        break;
      case 2:
        expr = fmt::format("tanh({})", last.name);
        bound = 1;
        break;
      default:
        expr = fmt::format("{} - 0.5", last.name);
        bound += 0.5;
        break;
    }
    if (bound > cap) {
      expr = fmt::format("tanh({})", last.name);
      bound = 1;
    }
    stmts_.push_back(fmt::format("{} = {}", last.name, expr));
    last.bound = bound;
  }
}

void Generator::floatChain(int ops, bool rowOps) {
  rowOps_ = rowOps;
  for (int i = 0; i < ops; ++i) floatOp();
  useScalars();
  foldUnused();
  // The output is full-extent: fold a reduced value back against a full one.
  Val last = vals_.back();
  if (!(last.extent == Extent::full()))
    emit(fmt::format("{} * {}", vals_[0].name, last.name), Extent::full(), last.bound * 2);
  if (vals_.back().bound > 3e4) emit(fmt::format("tanh({})", vals_.back().name), Extent::full(), 1);
}

std::string Generator::kernelHead(const std::string& dims, const std::string& params, const char* part,
                                  const char* extent, const std::vector<std::string>& prelude) const {
  return fmt::format("{}\n\n@kernel\ndef {}({}):\n    {} = split({}, cores=vector_cores())\n{}", dims, program_.kernel,
                     params, part, extent, indented(prelude, "    "));
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
  // A 1-D bias loaded and broadcast as a (1, n) row: the load side of the extent-1 views.
  bool bias1d = bias && chance(modifierChance_);
  if (bias) {
    params += fmt::format("b0: Tensor[{}, {}], ", io, bias1d ? "(N,)" : "(1, N)");
    program_.ranges["b0"] = interp::ValueRange{-1, 1};
    if (bias1d) tag("load-1d-as-row");
  }
  params += fmt::format("y: Tensor[{}, {}]", io, full);
  bool second = family_ == "rows" && chance(30);
  // The (r, 1) statistic stored into a 1-D view (issue 10's store_col_into_1d) or into an (M, 1) tensor.
  bool second1d = second && chance(50);
  if (second) params += fmt::format(", s: Tensor[{}, {}]", io, second1d ? "(M,)" : "(M, 1)");
  if (second1d) tag("store-col-into-1d");
  addAttrs(params, nattrs);
  std::vector<std::string> prelude = powScalars();

  std::string text;
  std::string index;  // how the loop indexes the tensors
  std::string indent = "        ";
  if (family_ == "elementwise") {
    program_.dims["N"] = runExtent(rng_, 3000);
    int64_t size = 64 << pick(0, 4);
    text = kernelHead("N = dim()", params, "part", "N", prelude);
    text += fmt::format("    for t in tiles(part, size={}{}):\n", size, chance(25) ? ", buffers=1" : "");
    index = "t";
  } else if (family_ == "rows") {
    static constexpr int64_t kMax[] = {16, 100, 256, 512, 1000};
    int64_t nmax = kMax[pick(0, 4)];
    int64_t rows = std::max<int64_t>(1, std::min<int64_t>(8, 1024 / nmax) >> pick(0, 2));
    program_.dims["M"] = pick(1, 12);
    program_.dims["N"] = runExtent(rng_, nmax);
    text = kernelHead(fmt::format("M = dim()\nN = dim(max={})", nmax), params, "rows", "M", prelude);
    if (bias) text += fmt::format("    with copyin:\n        g0 = load(b0[{}])\n", bias1d ? ":" : "0:1, :");
    text += fmt::format("    for r in tiles(rows, size={}):\n", rows);
    index = "r, :";
    reduceAxis_ = -1;
  } else {
    int64_t cols = 16 << pick(0, 3);
    int64_t rows = std::max<int64_t>(1, std::min<int64_t>(8, 1024 / cols) >> pick(0, 2));
    program_.dims["M"] = runExtent(rng_, 40);
    program_.dims["N"] = runExtent(rng_, 300);
    text = kernelHead("M = dim()\nN = dim()", params, "cols", "N", prelude);
    text += fmt::format("    for c in tiles(cols, size={}):\n", cols);
    if (bias) text += fmt::format("        with copyin:\n            g0 = load(b0[{}])\n", bias1d ? "c" : "0:1, c");
    text += fmt::format("        for r in tiles(M, size={}):\n", rows);
    index = "r, c";
    indent = "            ";
    reduceAxis_ = 0;
  }
  text += indent + "with copyin:\n";
  for (int i = 0; i < inputs; ++i) text += fmt::format("{}    v{} = load(x{}[{}])\n", indent, i, i, index);
  for (int i = 0; i < inputs; ++i) emit(castTo(fmt::format("v{}", i), io, compute_), Extent::full(), 2);
  if (bias) emit(castTo("g0", io, compute_), Extent{false, true}, 1);
  floatChain(static_cast<int>(pick(2, 8)), family_ != "elementwise");
  reassignLast();
  std::string out = vals_.back().name;
  std::string colOut;
  if (second) {
    const Val& a = vals_.back();
    emit(fmt::format("reduce_max({}, axis=-1)", a.name), Extent{true, false}, a.bound);
    colOut = vals_.back().name;
  }
  text += indent + "with compute:\n" + indented(stmts_, indent + "    ");
  text += indent + "with copyout:\n";
  text += fmt::format("{}    store(y[{}], {})\n", indent, index, castTo(out, compute_, io));
  if (second)
    text += fmt::format("{}    store(s[{}], {})\n", indent, second1d ? "r" : "r, :", castTo(colOut, compute_, io));
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
  text += "        with compute:\n" + indented(stmts_, "            ");
  text += fmt::format("        with copyout:\n            store(y[t], {})\n", vals_.back().name);
  return text;
}

// The productions and their weights (percent of the seeds) in each mix. docs/fuzzing.md, "Compiler patterns", lists
// what each one exercises.
struct Production {
  const char* name;
  int weight[2];  // Mix::All, Mix::Patterns
};
// clang-format off
constexpr Production kProductions[] = {
    {"integer",  {15, 0}},
    {"float",    {49, 20}},  // elementwise, rows, columns (with the 1-D views, `**` scalars, reassigned stores)
    {"chunks",   {9, 20}},
    {"gather",   {9, 20}},
    {"bigrows",  {9, 20}},
    {"colstore", {9, 20}},
};
// clang-format on

FuzzProgram Generator::run() {
  program_.kernel = fmt::format("fuzz_{}", program_.seed);
  size_t mix = mix_ == Mix::All ? 0 : 1;
  if (mix_ == Mix::Patterns) modifierChance_ = 60;
  int64_t roll = pick(0, 99);
  std::string production;
  for (const Production& p : kProductions) {
    if (roll < p.weight[mix]) {
      production = p.name;
      break;
    }
    roll -= p.weight[mix];
  }
  std::string text = production == "integer"   ? intFamily()
                     : production == "float"   ? floatFamily()
                     : production == "chunks"  ? chunksFamily()
                     : production == "gather"  ? gatherFamily()
                     : production == "bigrows" ? bigRowsFamily()
                                               : colStoreFamily();
  program_.family = family_;
  program_.source = fmt::format("# generated by tilecraft fuzz, seed {} ({})\n", program_.seed, label(program_)) + text;
  return program_;
}

}  // namespace detail

FuzzProgram generate(uint64_t seed, Mix mix) { return detail::Generator(seed, mix).run(); }

std::string label(const FuzzProgram& program) {
  std::string out = program.family;
  for (size_t i = 0; i < program.patterns.size(); ++i) out += (i == 0 ? ": " : ", ") + program.patterns[i];
  return out;
}

}  // namespace tilecraft::fuzz
