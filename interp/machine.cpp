#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "interp/machine.h"
#include "interp/numeric.h"
#include "support/assert.h"

namespace tilecraft::interp::detail {

std::string shapeText(const std::vector<int64_t>& shape) { return fmt::format("({})", fmt::join(shape, ", ")); }

// ------------------------------------------------------------------------------------------------------------
// Setup and the launch
// ------------------------------------------------------------------------------------------------------------

void Machine::bindModule() {
  for (NodeId item : ast_.items(ast_.root())) {
    if (ast_.kind(item) != NodeKind::ConstDef) continue;
    const std::string& name = ast_.node(item).name;
    NodeId value = ast_.child(item, 0);
    if (sema_.calls[value] == Builtin::Dim) {
      auto it = request_.dims.find(name);
      if (it == request_.dims.end())
        fail(item, fmt::format("no value for dim '{}'", name), fmt::format("pass --shape {}=N", name));
      if (it->second < 0) fail(item, fmt::format("dim '{}' is {}; sizes are non-negative", name, it->second));
      module_[name] = IntV{it->second};
      continue;
    }
    const dsl::Type& t = typeOf(value);
    if (t.constInt) {
      module_[name] = IntV{*t.constInt};
    } else if (t.constFloat) {
      module_[name] = FloatV{*t.constFloat};
    } else {
      module_[name] = eval(value);
    }
  }
  // A dim(max=M) is a promise the host tiling relies on: a larger run-time value is the caller's error.
  for (NodeId item : ast_.items(ast_.root())) {
    if (ast_.kind(item) != NodeKind::ConstDef || sema_.calls[ast_.child(item, 0)] != Builtin::Dim) continue;
    NodeId call = ast_.child(item, 0);
    for (NodeId a : ast_.callArgs(call)) {
      if (ast_.kind(a) != NodeKind::Keyword || ast_.node(a).name != "max") continue;
      const dsl::Type& mt = typeOf(ast_.child(a, 0));
      int64_t value = std::get<IntV>(module_[ast_.node(item).name]).v;
      if (mt.constInt && value > *mt.constInt) {
        fail(item, fmt::format("dim '{}' is {} but is declared with max={}", ast_.node(item).name, value, *mt.constInt),
             fmt::format("use a value up to {}, or raise max= (the tile sizes were checked against it)", *mt.constInt));
      }
    }
  }
}

void Machine::bindParams() {
  tensors_.resize(kernel_.params.size());
  shapes_.resize(kernel_.params.size());
  for (size_t i = 0; i < kernel_.params.size(); ++i) {
    const dsl::ParamInfo& p = kernel_.params[i];
    paramIndex_[p.name] = i;
    if (!p.isTensor) {
      // A scalar attribute: the request's value or the default, rounded to the attribute's dtype.
      DType dtype = p.type.dtype;
      double value = 0;
      if (auto it = request_.attrs.find(p.name); it != request_.attrs.end()) {
        value = it->second;
      } else if (ast_.node(p.node).kids.size() > 1) {
        value = asNumber(p.node, eval(ast_.child(p.node, 1)));
      } else {
        fail(p.node, fmt::format("no value for attribute '{}' ({})", p.name, dsl::dtypeName(dtype)),
             fmt::format("pass --attr {}=VALUE", p.name));
      }
      if (dsl::isFloat(dtype)) {
        env_[p.name] = FloatV{roundTo(value, dtype)};
      } else if (dtype == DType::Bool) {
        env_[p.name] = BoolV{value != 0};
      } else {
        if (value != std::trunc(value)) {
          fail(p.node,
               fmt::format("attribute '{}' is {} but must be an integer ({})", p.name, value, dsl::dtypeName(dtype)));
        }
        env_[p.name] = IntV{static_cast<int64_t>(roundTo(value, dtype))};
      }
      continue;
    }
    auto shape = paramShape(program_, p, request_.dims);
    TC_ASSERT(shape, "bindModule checked every dim");
    shapes_[i] = *shape;
    if (p.loaded) {
      auto it = request_.inputs.find(p.name);
      if (it == request_.inputs.end()) {
        fail(p.node,
             fmt::format("no input for tensor '{}' ({}{})", p.name, dsl::dtypeName(p.type.dtype), shapeText(*shape)));
      }
      const HostTensor& in = it->second;
      if (in.dtype != p.type.dtype || in.shape != *shape) {
        fail(p.node, fmt::format("input '{}' is {} but the kernel expects {}{}", p.name, describe(in),
                                 dsl::dtypeName(p.type.dtype), shapeText(*shape)));
      }
      tensors_[i] = in;
    } else {
      // Outputs start as zeros: store(..., accumulate=True) adds into a zero-initialised tensor (language §7).
      tensors_[i] = HostTensor::zeros(p.type.dtype, *shape);
    }
  }
}

// The core count of the kernel's split(), or 0 when it has none (a grid walks every block itself).
int64_t Machine::coresOfSplit() const {
  for (NodeId s : ast_.kernelBody(kernel_.node)) {
    if (ast_.kind(s) != NodeKind::Assign) continue;
    NodeId value = ast_.child(s, 1);
    if (ast_.kind(value) != NodeKind::Call || sema_.calls[value] != Builtin::Split) continue;
    int64_t count = dsl::kVectorCores;
    for (NodeId a : ast_.callArgs(value)) {
      if (ast_.kind(a) != NodeKind::Keyword || ast_.node(a).name != "cores") continue;
      NodeId cores = ast_.child(a, 0);
      const dsl::Type& t = typeOf(cores);
      count = t.cores > 0 ? t.cores : t.cube ? dsl::kCubeCores : dsl::kVectorCores;
    }
    return count;
  }
  return 0;
}

RunOutputs Machine::run() {
  bindModule();
  bindParams();
  std::map<std::string, Value> initial = env_;
  int64_t cores = coresOfSplit();
  coreCount_ = cores > 0 ? cores : 1;
  // Every core runs the whole body on its own share; cores never see each other's locals, only GM.
  for (core_ = 0; core_ < coreCount_; ++core_) {
    env_ = initial;
    block(ast_.kernelBody(kernel_.node));
  }
  RunOutputs outputs;
  for (size_t i = 0; i < kernel_.params.size(); ++i) {
    if (kernel_.params[i].isTensor && kernel_.params[i].stored) outputs[kernel_.params[i].name] = tensors_[i];
  }
  return outputs;
}

// ------------------------------------------------------------------------------------------------------------
// Statements
// ------------------------------------------------------------------------------------------------------------

void Machine::block(std::span<const NodeId> stmts) {
  for (NodeId s : stmts) statement(s);
}

void Machine::statement(NodeId id) {
  const dsl::Node& n = ast_.node(id);
  switch (n.kind) {
    case NodeKind::Assign: env_[ast_.node(n.kids[0]).name] = eval(n.kids[1]); return;
    case NodeKind::AugAssign: {
      Value a = eval(n.kids[0]);
      Value b = eval(n.kids[1]);
      env_[ast_.node(n.kids[0]).name] = evalBinary(id, n.op, a, b);
      return;
    }
    case NodeKind::ExprStmt: eval(n.kids[0]); return;
    case NodeKind::Pass: return;
    case NodeKind::For: forLoop(id); return;
    case NodeKind::With: block(ast_.withBody(id)); return;  // stages order the device's work, not the values
    case NodeKind::If: {
      Value c = eval(ast_.ifCond(id));
      bool taken = std::holds_alternative<BoolV>(c) ? std::get<BoolV>(c).v : asNumber(id, c) != 0;
      block(taken ? ast_.ifThen(id) : ast_.ifElse(id));
      return;
    }
    default: return;  // docstrings and anything else without an effect
  }
}

void Machine::forLoop(NodeId id) {
  NodeId iter = ast_.forIter(id);
  auto targets = ast_.forTargets(id);
  Builtin kind = *sema_.calls[iter];
  std::vector<NodeId> args;
  std::map<std::string, NodeId> kw;
  for (NodeId a : ast_.callArgs(iter)) {
    if (ast_.kind(a) == NodeKind::Keyword) kw[ast_.node(a).name] = ast_.child(a, 0);
    else args.push_back(a);
  }
  auto body = ast_.forBody(id);
  if (kind == Builtin::Range) {
    std::vector<int64_t> v;
    for (NodeId a : args) v.push_back(asInt(a, eval(a)));
    int64_t start = v.size() == 1 ? 0 : v[0];
    int64_t stop = v.size() == 1 ? v[0] : v[1];
    int64_t step = v.size() == 3 ? v[2] : 1;
    TC_ASSERT(step > 0, "the checker requires a positive constant step");
    for (int64_t i = start; i < stop; i += step) {
      env_[ast_.node(targets[0]).name] = IntV{i};
      block(body);
    }
    return;
  }
  if (kind == Builtin::Tiles) {
    Value extent = eval(args[0]);
    // size=auto is the checker's choice (docs/language.md section 10), recorded as the size's constant.
    const std::optional<int64_t>& chosen = sema_.types[kw.at("size")].constInt;
    int64_t size = chosen ? *chosen : asInt(kw.at("size"), eval(kw.at("size")));
    int64_t start = 0, len = 0;
    if (auto* r = std::get_if<RangeVal>(&extent)) {
      start = r->start;
      len = r->len;
    } else {
      len = asInt(args[0], extent);
    }
    for (int64_t s = start; s < start + len; s += size) {
      env_[ast_.node(targets[0]).name] = TileVar{s, std::min(size, start + len - s), size};
      block(body);
    }
    return;
  }
  // grid((E0, ...), size=(S0, ...)): every block in row-major order. Which core runs a block changes nothing
  // but the order of atomic adds.
  std::vector<int64_t> extents = shapeOf(args[0]);
  std::vector<int64_t> sizes = shapeOf(kw.at("size"));
  std::vector<int64_t> counts;
  int64_t total = 1;
  for (size_t i = 0; i < extents.size(); ++i) {
    counts.push_back((extents[i] + sizes[i] - 1) / sizes[i]);
    total *= counts.back();
  }
  for (int64_t b = 0; b < total; ++b) {
    int64_t rest = b;
    for (size_t i = extents.size(); i-- > 0;) {
      int64_t blockIndex = rest % counts[i];
      rest /= counts[i];
      int64_t s = blockIndex * sizes[i];
      env_[ast_.node(targets[i]).name] = TileVar{s, std::min(sizes[i], extents[i] - s), sizes[i]};
    }
    block(body);
  }
}

// ------------------------------------------------------------------------------------------------------------
// Expressions
// ------------------------------------------------------------------------------------------------------------

int64_t Machine::asInt(NodeId id, const Value& v) {
  if (auto* i = std::get_if<IntV>(&v)) return i->v;
  if (auto* b = std::get_if<BoolV>(&v)) return b->v;
  internalError(id, "expected an integer here");
}

double Machine::asNumber(NodeId id, const Value& v) {
  if (auto* i = std::get_if<IntV>(&v)) return static_cast<double>(i->v);
  if (auto* f = std::get_if<FloatV>(&v)) return f->v;
  if (auto* b = std::get_if<BoolV>(&v)) return b->v ? 1.0 : 0.0;
  internalError(id, "expected a number here");
}

const Tile& Machine::tileOf(NodeId id, const Value& v) {
  if (auto* t = std::get_if<Tile>(&v)) return *t;
  internalError(id, "expected a tile here");
}

Tile Machine::asTile(NodeId id, const Value& v, DType dtype) {
  if (auto* t = std::get_if<Tile>(&v)) return *t;
  return detail::scalarTile(asNumber(id, v), dtype);
}

DType Machine::dtypeArg(NodeId id) const { return typeOf(id).dtypeValue.value_or(DType::F32); }

// shape := (d0, d1, ...) | d; each a constant, a dim, or a tile variable (its valid length).
std::vector<int64_t> Machine::shapeOf(NodeId node) {
  std::vector<NodeId> elems;
  if (ast_.kind(node) == NodeKind::Tuple) elems.assign(ast_.node(node).kids.begin(), ast_.node(node).kids.end());
  else elems.push_back(node);
  std::vector<int64_t> shape;
  for (NodeId e : elems) {
    Value v = eval(e);
    if (auto* t = std::get_if<TileVar>(&v)) shape.push_back(t->len);
    else shape.push_back(asInt(e, v));
  }
  return shape;
}

Value Machine::eval(NodeId id) {
  const dsl::Node& n = ast_.node(id);
  switch (n.kind) {
    case NodeKind::Name: return evalName(id);
    case NodeKind::IntLit: return IntV{n.intValue};
    case NodeKind::FloatLit: return FloatV{n.floatValue};
    case NodeKind::BoolLit: return BoolV{n.intValue != 0};
    case NodeKind::NoneLit: return NoValue{};
    case NodeKind::Unary: return evalUnary(id);
    case NodeKind::Binary: return evalChain(id);
    case NodeKind::Compare: return evalCompare(id);
    case NodeKind::Logical: return evalChain(id);
    case NodeKind::Call: return evalCall(id);
    case NodeKind::Subscript: return evalSubscript(id);
    case NodeKind::Attribute: return evalAttribute(id);
    default: return NoValue{};
  }
}

// An operator chain (a + b + c ..., p and q and ...) is as deep as it is long, and nothing else in the tree is
// deeper than the parser's nesting limit: the chain's links are walked with a loop, left operand first.
Value Machine::evalChain(NodeId id) {
  auto isLink = [&](NodeId e) {
    NodeKind kind = ast_.kind(e);
    return kind == NodeKind::Logical || (kind == NodeKind::Binary && ast_.node(e).op != OpKind::Pow);
  };
  std::vector<NodeId> links{id};
  while (isLink(ast_.child(links.back(), 0))) links.push_back(ast_.child(links.back(), 0));
  Value acc = eval(ast_.child(links.back(), 0));
  for (auto link = links.rbegin(); link != links.rend(); ++link) {
    const dsl::Node& n = ast_.node(*link);
    if (n.kind == NodeKind::Binary) {
      Value b = eval(n.kids[1]);
      acc = evalBinary(*link, n.op, acc, b);
      continue;
    }
    bool a = std::get<BoolV>(acc).v;
    if (n.op == OpKind::And && !a) acc = BoolV{false};
    else if (n.op == OpKind::Or && a) acc = BoolV{true};
    else acc = BoolV{std::get<BoolV>(eval(n.kids[1])).v};
  }
  return acc;
}

Value Machine::evalName(NodeId id) {
  const std::string& name = ast_.node(id).name;
  if (auto it = env_.find(name); it != env_.end()) return it->second;
  if (auto it = paramIndex_.find(name); it != paramIndex_.end() && kernel_.params[it->second].isTensor) {
    View v{it->second, {}};
    for (int64_t d : shapes_[it->second]) v.dims.push_back(ViewDim{ViewDim::Kind::Span, 0, d, {}});
    return v;
  }
  if (auto it = module_.find(name); it != module_.end()) return it->second;
  return NoValue{};  // builtins, dtypes, memories, stages: read by the calls that take them
}

Value Machine::evalUnary(NodeId id) {
  const dsl::Node& n = ast_.node(id);
  Value a = eval(n.kids[0]);
  if (n.op == OpKind::Not) return BoolV{!std::get<BoolV>(a).v};
  if (n.op == OpKind::Pos) return a;
  if (auto* t = std::get_if<Tile>(&a)) return detail::negate(*t);
  if (auto* i = std::get_if<IntV>(&a)) return IntV{-i->v};
  return FloatV{-asNumber(id, a)};
}

Value Machine::scalarArith(NodeId id, OpKind op, const Value& a, const Value& b) {
  if (std::holds_alternative<IntV>(a) && std::holds_alternative<IntV>(b) && op != OpKind::Div) {
    int64_t x = std::get<IntV>(a).v, y = std::get<IntV>(b).v;
    switch (op) {
      case OpKind::Add: return IntV{x + y};
      case OpKind::Sub: return IntV{x - y};
      case OpKind::Mul: return IntV{x * y};
      case OpKind::FloorDiv:
      case OpKind::Mod: {
        if (y == 0) fail(id, fmt::format("integer division by zero ({} {} 0)", x, dsl::opSpelling(op)));
        int64_t q = x / y - ((x % y != 0) && ((x < 0) != (y < 0)));  // Python's floor division
        return IntV{op == OpKind::FloorDiv ? q : x - q * y};
      }
      case OpKind::Pow: {
        if (y < 0) fail(id, fmt::format("integer power with negative exponent {}", y));
        int64_t r = 1;
        for (int64_t i = 0; i < y; ++i) r *= x;
        return IntV{r};
      }
      default: break;
    }
  }
  double x = asNumber(id, a), y = asNumber(id, b);
  switch (op) {
    case OpKind::Add: return FloatV{x + y};
    case OpKind::Sub: return FloatV{x - y};
    case OpKind::Mul: return FloatV{x * y};
    case OpKind::Div: return FloatV{x / y};
    case OpKind::Pow: return FloatV{std::pow(x, y)};
    default: internalError(id, fmt::format("operator '{}' is not defined on these scalars", dsl::opSpelling(op)));
  }
}

Value Machine::evalBinary(NodeId id, OpKind op, const Value& a, const Value& b) {
  const Tile* ta = std::get_if<Tile>(&a);
  const Tile* tb = std::get_if<Tile>(&b);
  if (!ta && !tb) return scalarArith(id, op, a, b);
  if (op == OpKind::MatMul) {
    auto acc = dsl::mmadAccumulator(ta->dtype);
    return detail::matmul(*ta, *tb, acc.value_or(DType::F32));
  }
  DType dtype = ta ? ta->dtype : tb->dtype;
  Tile x = asTile(id, a, dtype);
  Tile y = asTile(id, b, dtype);
  switch (op) {
    case OpKind::Add: return detail::arith('+', x, y);
    case OpKind::Sub: return detail::arith('-', x, y);
    case OpKind::Mul: return detail::arith('*', x, y);
    case OpKind::Div: return detail::arith('/', x, y);
    case OpKind::Pow: return detail::arith('^', x, y);
    default: internalError(id, fmt::format("operator '{}' is not defined on tiles", dsl::opSpelling(op)));
  }
}

Value Machine::evalCompare(NodeId id) {
  const dsl::Node& n = ast_.node(id);
  Value a = eval(n.kids[0]);
  Value b = eval(n.kids[1]);
  const Tile* ta = std::get_if<Tile>(&a);
  const Tile* tb = std::get_if<Tile>(&b);
  std::string op = dsl::opSpelling(n.op);
  if (ta || tb) {
    DType dtype = ta ? ta->dtype : tb->dtype;
    return detail::compare(op, asTile(id, a, dtype), asTile(id, b, dtype));
  }
  double x = asNumber(id, a), y = asNumber(id, b);
  if (std::holds_alternative<IntV>(a) && std::holds_alternative<IntV>(b)) {
    int64_t i = std::get<IntV>(a).v, j = std::get<IntV>(b).v;
    return BoolV{op == "<"    ? i < j
                 : op == "<=" ? i <= j
                 : op == ">"  ? i > j
                 : op == ">=" ? i >= j
                 : op == "==" ? i == j
                              : i != j};
  }
  return BoolV{op == "<"    ? x < y
               : op == "<=" ? x <= y
               : op == ">"  ? x > y
               : op == ">=" ? x >= y
               : op == "==" ? x == y
                            : x != y};
}

Value Machine::evalAttribute(NodeId id) {
  const dsl::Node& n = ast_.node(id);
  Value base = eval(n.kids[0]);
  if (auto* t = std::get_if<TileVar>(&base)) {
    if (n.name == "start") return IntV{t->start};
    if (n.name == "len") return IntV{t->len};
    return IntV{t->size};
  }
  if (auto* r = std::get_if<RangeVal>(&base)) return IntV{n.name == "start" ? r->start : r->len};
  internalError(id, fmt::format("'{}' has no attribute '{}'", nameOf(n.kids[0]), n.name));
}

// x[...] of a GM tensor is a view; v[...] of a tile is a constant sub-tile.
Value Machine::evalSubscript(NodeId id) {
  NodeId baseNode = ast_.subscriptBase(id);
  Value base = eval(baseNode);
  auto indices = ast_.subscriptIndices(id);
  if (auto* view = std::get_if<View>(&base)) {
    View r{view->param, {}};
    const std::vector<int64_t>& shape = shapes_[view->param];
    for (size_t d = 0; d < shape.size(); ++d) {
      if (d >= indices.size()) {
        r.dims.push_back(ViewDim{ViewDim::Kind::Span, 0, shape[d], {}});
        continue;
      }
      NodeId i = indices[d];
      if (ast_.kind(i) == NodeKind::Slice) {
        NodeId lo = ast_.child(i, 0), hi = ast_.child(i, 1);
        int64_t l = lo == dsl::kNoNode ? 0 : asInt(lo, eval(lo));
        int64_t h = hi == dsl::kNoNode ? shape[d] : asInt(hi, eval(hi));
        if (l < 0 || h < l) {
          fail(i, fmt::format("slice {}:{} of dimension {} of '{}' is empty or negative", l, h, d,
                              kernel_.params[view->param].name));
        }
        r.dims.push_back(ViewDim{ViewDim::Kind::Span, l, h - l, {}});
        continue;
      }
      Value iv = eval(i);
      if (auto* t = std::get_if<TileVar>(&iv)) {
        r.dims.push_back(ViewDim{ViewDim::Kind::Span, t->start, t->len, {}});
      } else if (auto* rg = std::get_if<RangeVal>(&iv)) {
        r.dims.push_back(ViewDim{ViewDim::Kind::Span, rg->start, rg->len, {}});
      } else if (auto* idx = std::get_if<Tile>(&iv)) {
        ViewDim g{ViewDim::Kind::Gather, 0, static_cast<int64_t>(idx->data.size()), {}};
        for (size_t k = 0; k < idx->data.size(); ++k) {
          auto row = static_cast<int64_t>(idx->data[k]);
          if (row < 0 || row >= shape[d]) {
            fail(
                i,
                fmt::format("gather index {} (element {} of '{}') is out of range for dimension {} of '{}' (extent {})",
                            row, k, nameOf(i), d, kernel_.params[view->param].name, shape[d]),
                fmt::format("index values must be in [0, {})", shape[d]));
          }
          g.rows.push_back(row);
        }
        r.dims.push_back(std::move(g));
      } else {
        r.dims.push_back(ViewDim{ViewDim::Kind::Index, asInt(i, iv), 0, {}});
      }
    }
    return r;
  }
  const Tile& t = tileOf(baseNode, base);
  // Constant slices and integer indices of an on-chip tile.
  std::vector<int64_t> lo(t.shape.size(), 0), hi = t.shape;
  std::vector<bool> keep(t.shape.size(), true);
  for (size_t d = 0; d < indices.size(); ++d) {
    NodeId i = indices[d];
    bool slice = ast_.kind(i) == NodeKind::Slice;
    if (slice) {
      NodeId l = ast_.child(i, 0), h = ast_.child(i, 1);
      if (l != dsl::kNoNode) lo[d] = asInt(l, eval(l));
      if (h != dsl::kNoNode) hi[d] = asInt(h, eval(h));
    } else {
      lo[d] = asInt(i, eval(i));
      hi[d] = lo[d] + 1;
      keep[d] = false;
    }
    // The checker bounds constant slices by constant extents; a tile's extent is known only now (a tail tile).
    if (lo[d] < 0 || lo[d] >= hi[d] || hi[d] > t.shape[d]) {
      std::string what = slice ? fmt::format("slice {}:{}", lo[d], hi[d]) : fmt::format("index {}", lo[d]);
      fail(i,
           fmt::format("{} is out of range for dimension {} of '{}' (extent {} at run time)", what, d, nameOf(baseNode),
                       t.shape[d]),
           "a tail tile is shorter than the tile size: slice only what every tile has");
    }
  }
  Tile r{t.dtype, {}, {}};
  std::vector<int64_t> full;
  for (size_t d = 0; d < t.shape.size(); ++d) {
    full.push_back(hi[d] - lo[d]);
    if (keep[d]) r.shape.push_back(hi[d] - lo[d]);
  }
  if (r.shape.empty()) r.shape.push_back(1);
  std::vector<int64_t> idx(t.shape.size(), 0);
  int64_t count = 1;
  for (int64_t f : full) count *= f;
  for (int64_t e = 0; e < count; ++e) {
    int64_t flat = 0;
    for (size_t d = 0; d < t.shape.size(); ++d) flat = flat * t.shape[d] + lo[d] + idx[d];
    r.data.push_back(t.data[static_cast<size_t>(flat)]);
    for (size_t d = full.size(); d-- > 0;) {
      if (++idx[d] < full[d]) break;
      idx[d] = 0;
    }
  }
  return r;
}

}  // namespace tilecraft::interp::detail
