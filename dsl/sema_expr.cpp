// Sema, part 2: expressions, operators, broadcasting, attributes and indexing.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "dsl/fold.h"
#include "dsl/sema_internal.h"
#include "support/assert.h"

namespace tilecraft::dsl::detail {

namespace {

Type intType(std::optional<int64_t> value, bool device = false) {
  Type t;
  t.kind = TypeKind::Int;
  t.constInt = value;
  t.device = device;
  if (value) t.affine = Affine{{}, *value};
  return t;
}

// True when the value rounds to a finite f32 (the type of every float scalar in a kernel).
bool fitsF32(double value) { return std::isfinite(static_cast<float>(value)); }

Type atomType(const std::string& atom, bool device) {
  Type t = intType(std::nullopt, device);
  t.affine = Affine{{{atom, 1}}, 0};
  return t;
}

const char* memHint(Mem mem) {
  switch (mem) {
    case Mem::L1: return "vector operations read UB only; load the data with load(..., to=UB)";
    case Mem::L0C: return "copy the accumulator to UB first: copy(acc, to=UB) (this makes a mixed cube+vector kernel)";
    case Mem::L0A:
    case Mem::L0B: return "L0A/L0B hold matmul operands only";
    default: return "load the data into UB first";
  }
}

}  // namespace

Type Checker::expr(NodeId id) {
  if (auto typed = chainTypes_.find(id); typed != chainTypes_.end()) {
    Type t = std::move(typed->second);
    chainTypes_.erase(typed);
    return t;
  }
  typeChainLinks(id);
  Type t = exprImpl(id);
  result_.types[id] = t;
  return t;
}

bool Checker::isChainLink(NodeId id) const {
  NodeKind kind = ast_.kind(id);
  return kind == NodeKind::Logical || (kind == NodeKind::Binary && ast_.node(id).op != OpKind::Pow);
}

// A left-associative chain (a + b + c ..., p and q and ...) is as deep as it is long, and nothing else in the
// tree is deeper than the parser's nesting limit. Its links below `id` are typed here bottom-up, in the order
// the recursion would type them, and handed to their parent through chainTypes_, so exprImpl descends one link.
void Checker::typeChainLinks(NodeId id) {
  if (!isChainLink(id) || !isChainLink(ast_.child(id, 0))) return;
  std::vector<NodeId> links;
  for (NodeId link = ast_.child(id, 0); isChainLink(link); link = ast_.child(link, 0)) links.push_back(link);
  for (auto link = links.rbegin(); link != links.rend(); ++link) {
    Type t = exprImpl(*link);
    result_.types[*link] = t;
    chainTypes_.emplace(*link, std::move(t));
  }
}

Type Checker::exprImpl(NodeId id) {
  const Node& n = ast_.node(id);
  switch (n.kind) {
    case NodeKind::Name: return lookup(id);
    case NodeKind::IntLit: return intType(n.intValue);
    case NodeKind::FloatLit: {
      Type t;
      t.kind = TypeKind::Float;
      t.constFloat = f32Constant(id, n.floatValue, true);
      return t;
    }
    case NodeKind::BoolLit: {
      Type t;
      t.kind = TypeKind::Bool;
      t.constInt = n.intValue;
      return t;
    }
    case NodeKind::StringLit: {
      error(id, "strings are only allowed as docstrings");
      return Type::error();
    }
    case NodeKind::NoneLit: {
      Type t;
      t.kind = TypeKind::None;
      return t;
    }
    case NodeKind::Unary: return checkUnary(id);
    case NodeKind::Binary: return checkBinary(id);
    case NodeKind::Compare: return checkCompare(id);
    case NodeKind::Ellipsis:
      error(id, "'...' stands only for the leading dimensions of a tensor parameter, before at least one more")
          .hint("write x: Tensor[T, (..., M, N)]: M is the product of the leading dimensions");
      return Type::error();
    case NodeKind::IfExp:
      // Instantiation (dsl/generic.h) resolves the module-level ones: a kernel branches with if statements.
      error(id, "a conditional expression is only allowed as the value of a module-level definition")
          .hint("write C = f32 if T == bf16 else T at module level, or use an if statement in the kernel");
      return Type::error();
    case NodeKind::Logical: {
      Type a = expr(n.kids[0]);
      Type b = expr(n.kids[1]);
      if (a.isError() || b.isError()) return Type::error();
      if (a.kind != TypeKind::Bool || b.kind != TypeKind::Bool) {
        error(id,
              fmt::format("'{}' needs two scalar conditions (got {} and {})", opSpelling(n.op), typeStr(a), typeStr(b)))
            .hint("to combine tile masks elementwise, use where(...) with nested conditions");
        return Type::error();
      }
      Type t;
      t.kind = TypeKind::Bool;
      t.device = a.device || b.device;
      return t;
    }
    case NodeKind::Call: return checkCall(id);
    case NodeKind::Subscript: return checkSubscript(id);
    case NodeKind::Attribute: return checkAttribute(id);
    case NodeKind::Tuple:
      error(id, "a tuple is not a value here").hint("tuples are written only as shapes and grid extents");
      return Type::error();
    case NodeKind::Slice:
      // A subscript's item `a: b` outside a view, e.g. `Tensor[f32, n: (M, N)]` where the shape was meant.
      error(id, "a slice is not a value here")
          .hint("a:b indexes a tensor or a tile, as in x[r, a:b]; a tensor's shape is a tuple: Tensor[f16, (M, N)]");
      return Type::error();
    default:
      // Keywords are read by calls; no other node reaches here.
      TC_ASSERT(false, "not an expression node");
      return Type::error();
  }
}

void Checker::intOverflow(NodeId id, const std::string& expression) {
  error(id, "integer constant overflows int64")
      .hint(
          fmt::format("{} is outside [-2**63, 2**63 - 1], the range of the compiler's integer constants", expression));
}

// A float constant as the kernel holds it (f32): one that overflows f32 from finite operands is inf, with a
// warning (an inf among the operands was warned about where it was made).
double Checker::f32Constant(NodeId id, double value, bool finiteOperands) {
  if (fitsF32(value) || std::isnan(value)) return value;
  double inf = value > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  if (finiteOperands) {
    diag_.warning(ast_.span(id), fmt::format("float constant overflows f32 and becomes {}", value > 0 ? "inf" : "-inf"))
        .hint("f32 holds magnitudes up to 3.4028235e+38");
  }
  return inf;
}

bool Checker::requireCompute(NodeId at, const char* what) {
  if (stage_ == Stage::Compute || (stage_ == Stage::CopyOut && inStoreValue_)) return true;
  if (stage_ == Stage::None) {
    error(at, fmt::format("{} computes on tiles and must be inside 'with compute'", what))
        .hint("wrap the computation in a 'with compute:' block");
  } else {
    error(at, fmt::format("{} computes on tiles and cannot be inside 'with {}'", what, stageName(stage_)))
        .hint("move the computation into a 'with compute:' block between copyin and copyout");
  }
  return false;
}

bool Checker::requireUbTile(NodeId operand, const Type& type, const char* what) {
  if (type.kind == TypeKind::Tensor) {
    error(operand, fmt::format("{} operates on on-chip tiles, but this operand is a tensor in GM", what))
        .hint("load it first, inside 'with copyin': t = load(x[...])");
    return false;
  }
  if (type.kind != TypeKind::Buffer) return true;
  if (type.mem == Mem::UB) return true;
  error(operand, fmt::format("{} operates on UB tiles, but this operand is in {}", what, memName(type.mem)))
      .hint(memHint(type.mem));
  return false;
}

bool Checker::requireDType(NodeId at, const char* op, DType dtype, DTypeSet allowed) {
  if (allowed.contains(dtype)) return true;
  auto d =
      error(at, fmt::format("{} does not support {} on 910B (supported: {})", op, dtypeName(dtype), allowed.str()));
  for (DType to : {DType::F32, DType::F16, DType::I32}) {
    if (allowed.contains(to) && castSupported(dtype, to)) {
      d.hint(fmt::format("cast to {} first: cast(x, {}), and back afterwards if needed", dtypeName(to), dtypeName(to)));
      return false;
    }
  }
  return false;
}

std::optional<int64_t> Checker::constIntOf(NodeId id, const Type& type, const char* what) {
  if (type.isError()) return std::nullopt;
  if (type.kind == TypeKind::Int && type.constInt) return type.constInt;
  auto d = error(id, fmt::format("{} must be a compile-time integer constant (got {})", what, typeStr(type)));
  if (type.kind == TypeKind::Int) {
    d.hint("use an integer literal or a module-level constant such as 'TILE = 256'");
  }
  return std::nullopt;
}

// shape := '(' dim (',' dim)* ')' | dim        dim := integer constant | dim() name | tile variable
std::optional<std::vector<Dim>> Checker::shapeFromTuple(NodeId id, const char* what, bool* foldsLeading) {
  std::vector<NodeId> elems;
  if (ast_.kind(id) == NodeKind::Tuple) {
    elems.assign(ast_.node(id).kids.begin(), ast_.node(id).kids.end());
    result_.types[id].kind = TypeKind::None;
  } else {
    elems.push_back(id);
  }
  std::vector<Dim> shape;
  bool ok = true;
  for (NodeId e : elems) {
    if (ast_.kind(e) == NodeKind::Ellipsis && foldsLeading && e == elems[0] && elems.size() > 1) {
      result_.types[e].kind = TypeKind::None;
      *foldsLeading = true;
      continue;
    }
    if (ast_.kind(e) == NodeKind::Name) {
      const std::string& name = ast_.node(e).name;
      auto m = module_.find(name);
      if (m != module_.end() && m->second.isDim) {
        result_.types[e] = m->second.type;
        shape.push_back(Dim{Dim::Kind::Sym, m->second.dimMax, m->second.node, name});
        continue;
      }
      if (kernel_) {
        auto local = locals_.find(name);
        if (local != locals_.end() && local->second.type.kind == TypeKind::Tile) {
          Type t = expr(e);
          if (t.isError()) {
            ok = false;
            continue;
          }
          shape.push_back(t.shape[0]);
          continue;
        }
      }
    }
    Type t = expr(e);
    if (t.isError()) {
      ok = false;
      continue;
    }
    if (t.kind == TypeKind::Int && t.constInt) {
      if (*t.constInt <= 0) {
        error(e, fmt::format("{} must be positive (got {})", what, *t.constInt));
        ok = false;
        continue;
      }
      shape.push_back(Dim{Dim::Kind::Const, *t.constInt, kNoNode, {}});
      continue;
    }
    error(e, fmt::format("{} must be an integer constant, a dim() name or a tile variable (got {})", what, typeStr(t)))
        .hint("declare sizes known only at run time at module level: 'N = dim()'");
    ok = false;
  }
  if (!ok) return std::nullopt;
  return shape;
}

Type Checker::checkUnary(NodeId id) {
  const Node& n = ast_.node(id);
  NodeId operand = n.kids[0];
  Type a = expr(operand);
  if (a.isError()) return a;
  if (a.kind == TypeKind::Buffer || a.kind == TypeKind::Tensor) {
    if (n.op == OpKind::Not) {
      error(id, "'not' cannot be applied to a tile").hint("use where(mask, b, a) to swap the branches");
      return Type::error();
    }
    if (n.op == OpKind::Pos) return a;
    return elementwise(id, "negation", DTypeSet{DType::I16, DType::F16, DType::I32, DType::F32}, {operand});
  }
  if (n.op == OpKind::Not) {
    if (a.kind != TypeKind::Bool) {
      error(id, fmt::format("'not' needs a condition (got {})", typeStr(a)));
      return Type::error();
    }
    return a;
  }
  if (a.kind != TypeKind::Int && a.kind != TypeKind::Float) {
    error(id, fmt::format("unary '{}' cannot be applied to {}", opSpelling(n.op), typeStr(a)));
    return Type::error();
  }
  if (n.op == OpKind::Pos) return a;
  Type r = a;
  if (r.constInt) {
    auto negated = checkedSub(0, *r.constInt);
    if (!negated) {
      intOverflow(id, fmt::format("-({})", *r.constInt));
      return Type::error();
    }
    r.constInt = negated;
  }
  if (r.constFloat) r.constFloat = -*r.constFloat;
  r.affine = affineScale(a.affine, -1);
  return r;
}

Type Checker::checkBinary(NodeId id) {
  const Node& n = ast_.node(id);
  Type a = expr(n.kids[0]);
  Type b = expr(n.kids[1]);
  if (a.isError() || b.isError()) return Type::error();
  bool tile = a.kind == TypeKind::Buffer || b.kind == TypeKind::Buffer || a.kind == TypeKind::Tensor ||
              b.kind == TypeKind::Tensor;
  if (tile) return tileArith(id, n.op, n.kids[0], a, n.kids[1], b);
  return scalarArith(id, n.op, a, b);
}

Type Checker::scalarArith(NodeId id, OpKind op, const Type& a, const Type& b) {
  bool numeric =
      (a.kind == TypeKind::Int || a.kind == TypeKind::Float) && (b.kind == TypeKind::Int || b.kind == TypeKind::Float);
  if (!numeric || op == OpKind::MatMul) {
    error(id, fmt::format("operator '{}' cannot be applied to {} and {}", opSpelling(op), typeStr(a), typeStr(b)));
    return Type::error();
  }
  bool device = a.device || b.device;
  if (a.kind == TypeKind::Int && b.kind == TypeKind::Int && op != OpKind::Div) {
    Type r = intType(std::nullopt, device);
    auto x = a.constInt;
    auto y = b.constInt;
    if ((op == OpKind::FloorDiv || op == OpKind::Mod) && y && *y == 0) {
      error(id, "division by zero");
      return Type::error();
    }
    std::optional<int64_t> folded;
    switch (op) {
      case OpKind::Add:
        r.affine = affineCombine(a.affine, b.affine, 1);
        if (x && y) folded = checkedAdd(*x, *y);
        break;
      case OpKind::Sub:
        r.affine = affineCombine(a.affine, b.affine, -1);
        if (x && y) folded = checkedSub(*x, *y);
        break;
      case OpKind::Mul:
        if (x) r.affine = affineScale(b.affine, *x);
        else if (y) r.affine = affineScale(a.affine, *y);
        if (x && y) folded = checkedMul(*x, *y);
        break;
      case OpKind::FloorDiv:
        if (x && y) folded = checkedFloorDiv(*x, *y);
        break;
      case OpKind::Mod:
        if (x && y) folded = floorMod(*x, *y);
        break;
      case OpKind::Pow:
        if (x && y) {
          if (*y < 0) {
            error(id, "an integer power needs a non-negative exponent");
            return Type::error();
          }
          folded = checkedPow(*x, *y);
        } else if (device) {
          error(id, "'**' on integers that depend on the core or a loop is not supported")
              .hint("compute powers on the host from dims and constants");
          return Type::error();
        }
        break;
      default: break;
    }
    if (x && y) {
      if (!folded) {
        intOverflow(id, fmt::format("{} {} {}", *x, opSpelling(op), *y));
        return Type::error();
      }
      r.constInt = folded;
      r.affine = Affine{{}, *folded};
    }
    return r;
  }
  Type r;
  r.kind = TypeKind::Float;
  r.device = device;
  auto fx = a.constFloat ? a.constFloat
            : a.constInt ? std::optional<double>(static_cast<double>(*a.constInt))
                         : std::nullopt;
  auto fy = b.constFloat ? b.constFloat
            : b.constInt ? std::optional<double>(static_cast<double>(*b.constInt))
                         : std::nullopt;
  if (fx && fy) {
    switch (op) {
      case OpKind::Add: r.constFloat = *fx + *fy; break;
      case OpKind::Sub: r.constFloat = *fx - *fy; break;
      case OpKind::Mul: r.constFloat = *fx * *fy; break;
      case OpKind::Div:
        if (*fy == 0) {
          error(id, "division by zero");
          return Type::error();
        }
        r.constFloat = *fx / *fy;
        break;
      case OpKind::Pow: r.constFloat = std::pow(*fx, *fy); break;
      default: break;
    }
    if (r.constFloat) r.constFloat = f32Constant(id, *r.constFloat, fitsF32(*fx) && fitsF32(*fy));
  }
  if (op == OpKind::FloorDiv || op == OpKind::Mod) {
    error(id,
          fmt::format("operator '{}' needs integer operands (got {} and {})", opSpelling(op), typeStr(a), typeStr(b)));
    return Type::error();
  }
  // The scalar unit has no pow: a float power of values known only on the core is multiplied out, which takes a
  // constant integer exponent (the lowering's limit); host values are powered on the host.
  bool smallInteger = false;
  if (b.constInt) smallInteger = *b.constInt >= -64 && *b.constInt <= 64;
  if (b.constFloat) smallInteger = std::trunc(*b.constFloat) == *b.constFloat && std::fabs(*b.constFloat) <= 64;
  if (op == OpKind::Pow && device && !smallInteger) {
    error(id, "'**' on floats that depend on the core or a loop needs a constant integer exponent from -64 to 64")
        .hint("compute the power on the host from attributes and constants, or on a tile with pow(x, e)");
    return Type::error();
  }
  return r;
}

Type Checker::tileArith(NodeId id, OpKind op, NodeId lhs, const Type& a, NodeId rhs, const Type& b) {
  if (op == OpKind::MatMul) return checkMatmul(id, lhs, rhs);
  // acc + a @ b on L0C: the cube unit accumulates in place (Mmad without initialisation).
  bool l0c = (a.kind == TypeKind::Buffer && a.mem == Mem::L0C) || (b.kind == TypeKind::Buffer && b.mem == Mem::L0C);
  if (l0c) {
    auto isMatmul = [&](NodeId node) {
      const Node& x = ast_.node(node);
      return (x.kind == NodeKind::Binary && x.op == OpKind::MatMul) ||
             (x.kind == NodeKind::Call && result_.calls[node] == Builtin::Matmul);
    };
    NodeId mm = isMatmul(rhs) ? rhs : isMatmul(lhs) ? lhs : kNoNode;
    NodeId acc = mm == rhs ? lhs : rhs;
    const Type& accType = mm == rhs ? a : b;
    const Type& mmType = mm == rhs ? b : a;
    if (op != OpKind::Add || mm == kNoNode || accType.kind != TypeKind::Buffer || accType.mem != Mem::L0C) {
      error(id, fmt::format("'{}' on an L0C accumulator: only 'acc = acc + a @ b' is allowed there", opSpelling(op)))
          .hint(memHint(Mem::L0C));
      return Type::error();
    }
    if (!requireCompute(id, "accumulation")) return Type::error();
    bool same = accType.dtype == mmType.dtype && accType.shape.size() == mmType.shape.size();
    for (size_t i = 0; same && i < accType.shape.size(); ++i) same = sameDim(accType.shape[i], mmType.shape[i]);
    if (!same) {
      error(id, fmt::format("the accumulator is {} but the matmul gives {}", typeStr(accType), typeStr(mmType)))
          .hint("make the accumulator with zeros((BM, BN), f32, mem=L0C) matching the operand tiles");
      return Type::error();
    }
    if (recordOf_[mm] >= 0) records_[recordOf_[mm]].dead = true;
    use(acc);
    recordOf_[id] = recordOf_[acc];
    return accType;
  }
  switch (op) {
    case OpKind::Add:
      return elementwise(id, "'+'", DTypeSet{DType::I16, DType::F16, DType::I32, DType::F32}, {lhs, rhs});
    case OpKind::Sub:
      return elementwise(id, "'-'", DTypeSet{DType::I16, DType::F16, DType::I32, DType::F32}, {lhs, rhs});
    case OpKind::Mul:
      return elementwise(id, "'*'", DTypeSet{DType::I16, DType::F16, DType::I32, DType::F32}, {lhs, rhs});
    case OpKind::Div: return elementwise(id, "'/'", DTypeSet{DType::F16, DType::F32}, {lhs, rhs});
    case OpKind::Pow: {
      if (b.kind == TypeKind::Buffer && a.kind != TypeKind::Buffer) {
        error(id, "a scalar raised to a tile power is not supported").hint("write exp(log(s) * x)");
        return Type::error();
      }
      return elementwise(id, "'**'", DTypeSet{DType::F16, DType::F32}, {lhs, rhs}, 1);
    }
    default: error(id, fmt::format("operator '{}' is not supported on tiles", opSpelling(op))); return Type::error();
  }
}

std::optional<std::vector<Dim>> Checker::broadcast(NodeId at, const std::vector<Dim>& a, const std::vector<Dim>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<Dim> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the trailing dimension, as numpy does.
    const Dim* x = i + a.size() >= rank ? &a[i + a.size() - rank] : nullptr;
    const Dim* y = i + b.size() >= rank ? &b[i + b.size() - rank] : nullptr;
    auto isOne = [](const Dim* d) { return d && d->kind == Dim::Kind::Const && d->value == 1; };
    if (!x || isOne(x)) {
      out[i] = y ? *y : *x;
    } else if (!y || isOne(y) || sameDim(*x, *y)) {
      out[i] = *x;
    } else {
      error(at, fmt::format("shapes {} and {} do not broadcast: dimension {} is {} vs {}", shapeStr(a), shapeStr(b), i,
                            x->kind == Dim::Kind::Const ? std::to_string(x->value) : x->name,
                            y->kind == Dim::Kind::Const ? std::to_string(y->value) : y->name))
          .hint(
              "an operand broadcasts only along dimensions where its extent is 1 (reductions keep the reduced "
              "dimension with extent 1)");
      return std::nullopt;
    }
  }
  return out;
}

Type Checker::elementwise(NodeId id, const char* what, DTypeSet allowed, const std::vector<NodeId>& operands,
                          int workFactor) {
  std::optional<DType> dtype;
  std::vector<Dim> shape;
  bool anyTile = false;
  bool anyFloatScalar = false;
  NodeId firstTile = kNoNode;
  for (NodeId o : operands) {
    const Type& t = result_.types[o];
    if (t.isError()) return Type::error();
    if (t.kind == TypeKind::Buffer || t.kind == TypeKind::Tensor) {
      if (!requireUbTile(o, t, what)) return Type::error();
      if (dtype && *dtype != t.dtype) {
        DType wide = dtypeBits(*dtype) >= dtypeBits(t.dtype) ? *dtype : t.dtype;
        error(id, fmt::format("operands of {} have different dtypes: {} and {}", what, dtypeName(*dtype),
                              dtypeName(t.dtype)))
            .hint(
                fmt::format("dtypes never change implicitly on tiles; cast one operand: cast(x, {})", dtypeName(wide)));
        return Type::error();
      }
      if (!anyTile) {
        shape = t.shape;
        firstTile = o;
      } else {
        auto b = broadcast(id, shape, t.shape);
        if (!b) return Type::error();
        shape = *b;
      }
      dtype = t.dtype;
      anyTile = true;
    } else if (t.kind == TypeKind::Int || t.kind == TypeKind::Float) {
      anyFloatScalar = anyFloatScalar || (t.kind == TypeKind::Float);
    } else {
      error(o, fmt::format("{} needs tiles or numbers (got {})", what, typeStr(t)));
      return Type::error();
    }
  }
  if (!anyTile) {
    error(id, fmt::format("{} needs at least one tile operand", what));
    return Type::error();
  }
  if (!requireCompute(id, what)) return Type::error();
  if (!requireDType(id, what, *dtype, allowed)) return Type::error();
  if (anyFloatScalar && !isFloat(*dtype)) {
    error(id, fmt::format("{} mixes a float scalar with an {} tile", what, dtypeName(*dtype)))
        .hint("cast the tile to f32 first, or use an integer scalar");
    return Type::error();
  }
  for (NodeId o : operands) use(o);
  Type r;
  r.kind = TypeKind::Buffer;
  r.mem = Mem::UB;
  r.dtype = *dtype;
  r.shape = shape;
  vectorUse_ = id;
  if (workFactor > 0) {
    int work = newRecord(firstTile, result_.types[firstTile], fmt::format("work buffer of {}", what), workFactor);
    records_[work].mathWork = true;  // a reduction's caller turns it into reduceWork, which takes precedence
  }
  int result = newRecord(id, r, what);
  // Lowering may write the result over an operand that dies here (dst == src); capacity decides per layout.
  if (workFactor == 0) {
    for (NodeId o : operands) {
      if (recordOf_[o] >= 0) records_[result].inPlaceFrom.push_back(recordOf_[o]);
    }
  }
  return r;
}

Type Checker::checkCompare(NodeId id) {
  const Node& n = ast_.node(id);
  if (n.op == OpKind::In) {
    // Instantiation (dsl/generic.h) evaluates every module-level condition; one left here is in a kernel.
    error(id, "'in' is only allowed in the condition of a module-level definition over dtype parameters")
        .hint("write C = f32 if T in (f16, bf16) else T at module level");
    return Type::error();
  }
  Type a = expr(n.kids[0]);
  Type b = expr(n.kids[1]);
  if (a.isError() || b.isError()) return Type::error();
  bool tile = a.kind == TypeKind::Buffer || b.kind == TypeKind::Buffer || a.kind == TypeKind::Tensor ||
              b.kind == TypeKind::Tensor;
  if (!tile) {
    bool numeric = (a.kind == TypeKind::Int || a.kind == TypeKind::Float) &&
                   (b.kind == TypeKind::Int || b.kind == TypeKind::Float);
    if (!numeric) {
      error(id, fmt::format("cannot compare {} with {}", typeStr(a), typeStr(b)));
      return Type::error();
    }
    Type r;
    r.kind = TypeKind::Bool;
    r.device = a.device || b.device;
    return r;
  }
  const Type& tileType = a.kind == TypeKind::Buffer ? a : b;
  DTypeSet allowed =
      n.op == OpKind::Eq ? DTypeSet{DType::F16, DType::F32, DType::I32} : DTypeSet{DType::F16, DType::F32};
  std::string what = fmt::format("comparison '{}'", opSpelling(n.op));
  if (tileType.kind == TypeKind::Buffer && tileType.dtype == DType::I32 && n.op != OpKind::Eq) {
    error(id, fmt::format("{} on i32 tiles is not supported on 910B (i32 supports only '==')", what))
        .hint("cast to f32 first: cast(x, f32)");
    return Type::error();
  }
  Type r = elementwise(id, what.c_str(), allowed, {n.kids[0], n.kids[1]});
  if (r.isError()) return r;
  if (a.kind == TypeKind::Buffer && b.kind == TypeKind::Buffer) stagingRecords(id, {n.kids[0], n.kids[1]}, r, false);
  r.dtype = DType::Bool;
  if (recordOf_[id] >= 0) {
    records_[recordOf_[id]].dtype = DType::Bool;
    records_[recordOf_[id]].inPlaceFrom.clear();  // a Compare, which never runs in place
  }
  return r;
}

Type Checker::checkAttribute(NodeId id) {
  const Node& n = ast_.node(id);
  Type base = expr(n.kids[0]);
  if (base.isError()) return base;
  std::string baseName = ast_.kind(n.kids[0]) == NodeKind::Name ? ast_.node(n.kids[0]).name : "value";
  std::vector<std::string> fields;
  if (base.kind == TypeKind::Tile) {
    if (n.name == "start" || n.name == "len") return atomType(baseName + "." + n.name, true);
    if (n.name == "size") return intType(base.shape[0].value);
    fields = {"start", "len", "size"};
  } else if (base.kind == TypeKind::Range) {
    if (n.name == "start" || n.name == "len") return atomType(baseName + "." + n.name, true);
    fields = {"start", "len"};
  } else {
    error(id, fmt::format("{} has no attribute '{}'", typeStr(base), n.name));
    return Type::error();
  }
  auto d =
      error(id, fmt::format("{} has no attribute '{}' (it has: {})", base.kind == TypeKind::Tile ? "a tile" : "a range",
                            n.name, fmt::format("{}", fmt::join(fields, ", "))));
  if (auto close = closestName(n.name, fields)) d.hint(fmt::format("did you mean '{}.{}'?", baseName, *close));
  return Type::error();
}

// subscript of a GM tensor gives a view; of a UB tile, a constant sub-tile.
//   index := tile variable | integer | lo:hi | ':' | an i32 index tile (GM rows gathered by index)
Type Checker::checkSubscript(NodeId id) {
  NodeId baseNode = ast_.subscriptBase(id);
  Type base = expr(baseNode);
  auto indices = ast_.subscriptIndices(id);
  std::vector<Type> idxTypes;
  for (NodeId i : indices) {
    if (ast_.kind(i) == NodeKind::Slice) {
      for (NodeId part : ast_.node(i).kids) {
        if (part != kNoNode) expr(part);
      }
      idxTypes.push_back(Type{});
      idxTypes.back().kind = TypeKind::None;
    } else {
      idxTypes.push_back(expr(i));
    }
  }
  if (base.isError()) return base;
  bool gm = base.kind == TypeKind::Tensor;
  if (!gm && base.kind != TypeKind::Buffer) {
    error(baseNode, fmt::format("{} cannot be indexed", typeStr(base)));
    return Type::error();
  }
  std::string name = ast_.kind(baseNode) == NodeKind::Name ? ast_.node(baseNode).name : "tensor";
  if (indices.size() > base.shape.size()) {
    error(id, fmt::format("too many indices for '{}' of rank {} ({} given)", name, base.shape.size(), indices.size()));
    return Type::error();
  }
  Type r = base;
  r.shape.clear();
  bool ok = true;
  for (size_t d = 0; d < indices.size(); ++d) {
    NodeId i = indices[d];
    const Dim& dim = base.shape[d];
    // -1 when the extent is not a compile-time constant (avoids optional, which trips g++'s uninit warning).
    const int64_t extentValue = dim.kind == Dim::Kind::Const ? dim.value : -1;
    if (ast_.kind(i) == NodeKind::Slice) {
      NodeId lo = ast_.child(i, 0);
      NodeId hi = ast_.child(i, 1);
      NodeId step = ast_.child(i, 2);
      if (step != kNoNode) {
        error(step, "slices with a step are not supported").hint("use a tile of consecutive elements");
        ok = false;
        continue;
      }
      if (lo == kNoNode && hi == kNoNode) {
        r.shape.push_back(dim);
        continue;
      }
      Type loT = lo == kNoNode ? intType(0) : result_.types[lo];
      Type hiT = hi == kNoNode ? Type{} : result_.types[hi];
      if (hi == kNoNode) {
        hiT = dim.kind == Dim::Kind::Const ? intType(dim.value) : atomType(dim.name, false);
      }
      if (loT.isError() || hiT.isError()) {
        ok = false;
        continue;
      }
      if (loT.kind != TypeKind::Int || hiT.kind != TypeKind::Int) {
        error(i, "slice bounds must be integers");
        ok = false;
        continue;
      }
      auto width = affineCombine(hiT.affine, loT.affine, -1);
      if (loT.constInt && *loT.constInt < 0) {
        error(lo, fmt::format("negative slice start {}", *loT.constInt));
        ok = false;
        continue;
      }
      if (!gm && (!loT.constInt || !hiT.constInt)) {
        error(i, "a slice of an on-chip tile needs constant bounds").hint("write v[0:1, :] style constant slices");
        ok = false;
        continue;
      }
      if (width && width->terms.empty()) {
        if (width->constant <= 0) {
          error(i, fmt::format("empty slice (width {})", width->constant));
          ok = false;
          continue;
        }
        if (extentValue >= 0 && ((hiT.constInt && *hiT.constInt > extentValue) || width->constant > extentValue)) {
          error(i, fmt::format("slice {}:{} is out of range for dimension {} of '{}' (extent {})",
                               loT.constInt ? std::to_string(*loT.constInt) : affineStr(*loT.affine),
                               hiT.constInt ? std::to_string(*hiT.constInt) : affineStr(*hiT.affine), d, name,
                               extentValue))
              .hint(fmt::format("valid indices are 0 to {}", extentValue - 1));
          ok = false;
          continue;
        }
        r.shape.push_back(Dim{Dim::Kind::Const, width->constant, kNoNode, {}});
        continue;
      }
      if (width && width->constant == 0 && width->terms.size() == 1 && width->terms.begin()->second == 1 &&
          module_.count(width->terms.begin()->first) && module_.at(width->terms.begin()->first).isDim) {
        const ModuleSymbol& sym = module_.at(width->terms.begin()->first);
        r.shape.push_back(Dim{Dim::Kind::Sym, sym.dimMax, sym.node, width->terms.begin()->first});
        continue;
      }
      error(i, fmt::format("the width of this slice must be a compile-time constant (it is {})",
                           width ? affineStr(*width) : "not an affine expression"))
          .hint("write x[i : i + 64] with a constant width, or index with a tile variable from tiles(...)");
      ok = false;
      continue;
    }
    const Type& it = idxTypes[d];
    if (it.isError()) {
      ok = false;
      continue;
    }
    if (it.kind == TypeKind::Tile) {
      if (!gm) {
        error(i, "an on-chip tile cannot be indexed with a tile variable").hint("on-chip tiles take constant slices");
        ok = false;
        continue;
      }
      Dim td = it.shape[0];
      auto info = tiles_.find(td.ref);
      if (info != tiles_.end() && info->second.extent && dim.kind != Dim::Kind::Tile &&
          info->second.extent->kind != Dim::Kind::Tile && !sameDim(*info->second.extent, dim)) {
        const Dim& e = *info->second.extent;
        std::string walks = e.kind == Dim::Kind::Const ? std::to_string(e.value) : e.name;
        std::string has = dim.kind == Dim::Kind::Const ? std::to_string(dim.value) : dim.name;
        error(i, fmt::format("tile '{}' walks an extent of {} but indexes dimension {} of '{}', which is {}", td.name,
                             walks, d, name, has))
            .hint(fmt::format("index dimension {} with a tile from tiles({}, ...), or check the index order", d, has));
        ok = false;
        continue;
      }
      r.shape.push_back(td);
      continue;
    }
    if (it.kind == TypeKind::Range) {
      std::string rangeName = ast_.kind(i) == NodeKind::Name ? ast_.node(i).name : "range";
      r.shape.push_back(Dim{Dim::Kind::Sym, 0, kNoNode, rangeName});
      continue;
    }
    if (it.kind == TypeKind::Int) {
      if (it.constInt && *it.constInt < 0) {
        error(i, fmt::format("negative index {}", *it.constInt))
            .hint("indices count from 0; write the position explicitly");
        ok = false;
        continue;
      }
      if (it.constInt && extentValue >= 0 && *it.constInt >= extentValue) {
        error(i, fmt::format("index {} is out of range for dimension {} of '{}' (extent {})", *it.constInt, d, name,
                             extentValue));
        ok = false;
      }
      continue;  // an integer index drops the dimension
    }
    if (it.kind == TypeKind::Buffer && gm) {
      if (it.mem != Mem::UB || it.dtype != DType::I32 || it.shape.size() != 1) {
        error(i, fmt::format("an index tile must be a 1-D i32 tile in UB (got {})", typeStr(it)));
        ok = false;
        continue;
      }
      use(i);
      r.shape.push_back(it.shape[0]);
      continue;
    }
    error(i, fmt::format("invalid index ({})", typeStr(it)))
        .hint("index with a tile variable, an integer, a slice lo:hi, ':' or a 1-D i32 index tile");
    ok = false;
  }
  if (!ok) return Type::error();
  for (size_t d = indices.size(); d < base.shape.size(); ++d) r.shape.push_back(base.shape[d]);
  if (r.shape.empty()) r.shape.push_back(Dim{Dim::Kind::Const, 1, kNoNode, {}});
  if (!gm) {
    use(baseNode);
    recordOf_[id] = recordOf_[baseNode];
  }
  return r;
}

}  // namespace tilecraft::dsl::detail
