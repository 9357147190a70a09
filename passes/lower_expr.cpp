// Lowering of expressions: tile expressions become ops writing buffers, scalar expressions become scalar
// nodes.
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "dsl/builtins.h"
#include "ir/check.h"
#include "passes/lower_internal.h"

namespace tilecraft::passes::detail {

using dsl::Builtin;
using dsl::NodeKind;
using dsl::OpKind;
using dsl::TypeKind;

namespace {

ir::Op scalarOp(OpKind op) {
  switch (op) {
    case OpKind::Add: return ir::Op::Add;
    case OpKind::Sub: return ir::Op::Sub;
    case OpKind::Mul: return ir::Op::Mul;
    case OpKind::Div: return ir::Op::Div;
    case OpKind::FloorDiv: return ir::Op::FloorDiv;
    case OpKind::Mod: return ir::Op::Mod;
    case OpKind::Pow: return ir::Op::Pow;
    case OpKind::And: return ir::Op::And;
    case OpKind::Or: return ir::Op::Or;
    case OpKind::Eq: return ir::Op::Eq;
    case OpKind::Ne: return ir::Op::Ne;
    case OpKind::Lt: return ir::Op::Lt;
    case OpKind::Le: return ir::Op::Le;
    case OpKind::Gt: return ir::Op::Gt;
    case OpKind::Ge: return ir::Op::Ge;
    default: return ir::Op::None;
  }
}

/// `a < t` is `t > a`: comparisons with the scalar first are flipped so the tile comes first.
ir::Op flipped(ir::Op op) {
  switch (op) {
    case ir::Op::Lt: return ir::Op::Gt;
    case ir::Op::Le: return ir::Op::Ge;
    case ir::Op::Gt: return ir::Op::Lt;
    case ir::Op::Ge: return ir::Op::Le;
    default: return op;
  }
}

ir::Op unaryOp(Builtin b) {
  switch (b) {
    case Builtin::Exp: return ir::Op::Exp;
    case Builtin::Log: return ir::Op::Ln;
    case Builtin::Abs: return ir::Op::Abs;
    case Builtin::Sqrt: return ir::Op::Sqrt;
    case Builtin::Rsqrt: return ir::Op::Rsqrt;
    case Builtin::Reciprocal: return ir::Op::Reciprocal;
    case Builtin::Relu: return ir::Op::Relu;
    case Builtin::Tanh: return ir::Op::Tanh;
    case Builtin::Sigmoid: return ir::Op::Sigmoid;
    case Builtin::Gelu: return ir::Op::Gelu;
    case Builtin::Silu: return ir::Op::Silu;
    case Builtin::Sin: return ir::Op::Sin;
    case Builtin::Cos: return ir::Op::Cos;
    case Builtin::Erf: return ir::Op::Erf;
    default: return ir::Op::None;
  }
}

ir::Op reduceOp(Builtin b) {
  switch (b) {
    case Builtin::ReduceSum: return ir::Op::ReduceSum;
    case Builtin::ReduceMax: return ir::Op::ReduceMax;
    case Builtin::ReduceMin: return ir::Op::ReduceMin;
    case Builtin::ReduceMean: return ir::Op::ReduceMean;
    case Builtin::Argmax: return ir::Op::Argmax;
    case Builtin::Argmin: return ir::Op::Argmin;
    default: return ir::Op::None;
  }
}

}  // namespace

bool KernelLowering::flag(dsl::NodeId value) const {
  if (ast_.kind(value) == NodeKind::BoolLit) return ast_.node(value).intValue != 0;
  return type(value).constInt.value_or(0) != 0;
}

std::map<std::string, dsl::NodeId> KernelLowering::keywords(dsl::NodeId call) {
  std::map<std::string, dsl::NodeId> out;
  for (dsl::NodeId a : ast_.callArgs(call)) {
    if (ast_.kind(a) == NodeKind::Keyword) out[ast_.node(a).name] = ast_.child(a, 0);
  }
  return out;
}

std::vector<dsl::NodeId> KernelLowering::positional(dsl::NodeId call) {
  std::vector<dsl::NodeId> out;
  for (dsl::NodeId a : ast_.callArgs(call)) {
    if (ast_.kind(a) != NodeKind::Keyword) out.push_back(a);
  }
  return out;
}

int KernelLowering::axisOf(dsl::NodeId call, size_t rank) {
  auto kw = keywords(call);
  int64_t axis = -1;
  if (auto it = kw.find("axis"); it != kw.end()) axis = type(it->second).constInt.value_or(-1);
  if (axis < 0) axis += static_cast<int64_t>(rank);
  TILECRAFT_CHECK(axis >= 0 && axis < static_cast<int64_t>(rank), "a checked axis is in range");
  return static_cast<int>(axis);
}

ir::Extent KernelLowering::extent(const dsl::Dim& dim, dsl::NodeId at) {
  switch (dim.kind) {
    case dsl::Dim::Kind::Const: return ir::Extent::constant(dim.value);
    case dsl::Dim::Kind::Sym: return {ir::Extent::Kind::Dim, dim.value, dimVar(dim.ref, dim.name, dim.value)};
    case dsl::Dim::Kind::Tile: {
      uint32_t loop = ir::kNone;
      if (auto it = loopOf_.find(dim.ref); it != loopOf_.end()) {
        loop = it->second;
      } else if (const Binding* b = lookup(dim.name); b && b->kind == Binding::Kind::Loop) {
        loop = b->id;
      }
      TILECRAFT_CHECK(loop != ir::kNone, fmt::format("tile extent '{}' is a tile loop in scope", dim.name));
      (void)at;
      return {ir::Extent::Kind::Tile, dim.value, loop};
    }
  }
  return {};
}

std::vector<ir::Extent> KernelLowering::extents(const std::vector<dsl::Dim>& dims, dsl::NodeId at) {
  std::vector<ir::Extent> out;
  for (const dsl::Dim& d : dims) out.push_back(extent(d, at));
  return out;
}

ir::BufferId KernelLowering::temp(ir::Mem mem, ir::DType dtype, std::vector<ir::Extent> shape,
                                  const std::string& name) {
  std::string label = name.empty() ? std::to_string(temps_++) : name;
  return b_.addBuffer(std::move(label), mem, dtype, std::move(shape));
}

ir::BufferId KernelLowering::result(dsl::NodeId id, ir::BufferId dst, const std::string& name) {
  if (dst != ir::kNone) return dst;
  const dsl::Type& t = type(id);
  TILECRAFT_CHECK(t.kind == TypeKind::Buffer, "a tile expression has a buffer type");
  return temp(t.mem, t.dtype, extents(t.shape, id), name);
}

ir::NodeId KernelLowering::scalarFor(ir::NodeId s, ir::DType tileDtype) {
  // A number used with a tile takes the tile's dtype (language §3): an integer literal with a float tile is a
  // float.
  const ir::Node& n = k_.node(s);
  if (n.kind == ir::NodeKind::IntConst && dsl::isFloat(tileDtype))
    return b_.floatConst(static_cast<double>(n.intValue));
  return s;
}

ir::BufferId KernelLowering::toShape(ir::BufferId src, const std::vector<ir::Extent>& shape) {
  if (k_.buffer(src).shape == shape) return src;
  ir::BufferId out = temp(ir::Mem::UB, k_.buffer(src).dtype, shape);
  emit(b_.broadcast(out, src));
  return out;
}

Value KernelLowering::expr(dsl::NodeId id, ir::BufferId dst, const std::string& name) {
  if (type(id).kind == TypeKind::Buffer) return {tile(id, dst, name), ir::kNone};
  return {ir::kNone, scalar(id)};
}

bool KernelLowering::isTileLink(dsl::NodeId id) const {
  if (ast_.kind(id) != NodeKind::Binary || type(id).kind != TypeKind::Buffer) return false;
  OpKind op = ast_.node(id).op;
  return op == OpKind::Add || op == OpKind::Sub || op == OpKind::Mul || op == OpKind::Div;
}

bool KernelLowering::isScalarLink(dsl::NodeId id) const {
  NodeKind kind = ast_.kind(id);
  if (kind != NodeKind::Logical && (kind != NodeKind::Binary || ast_.node(id).op == OpKind::Pow)) return false;
  const dsl::Type& t = type(id);
  return t.kind != TypeKind::Buffer && !t.constInt && !t.constFloat;
}

// An operator chain (a + b + c ...) is as deep as it is long, and nothing else in the tree is deeper than the
// parser's nesting limit. The links below `id` are lowered here bottom-up, in the order the recursion would
// lower them (left operand first), and handed to their parent through the map, so lowering descends one link.
template <typename Result, typename IsLink, typename Lower>
void lowerChainLinks(const dsl::Ast& ast, dsl::NodeId id, std::map<dsl::NodeId, Result>& lowered, IsLink isLink,
                     Lower lower) {
  if (!isLink(id) || !isLink(ast.child(id, 0))) return;
  std::vector<dsl::NodeId> links;
  for (dsl::NodeId link = ast.child(id, 0); isLink(link); link = ast.child(link, 0)) links.push_back(link);
  for (auto link = links.rbegin(); link != links.rend(); ++link) {
    Result r = lower(*link);
    lowered.emplace(*link, r);
  }
}

ir::BufferId KernelLowering::tile(dsl::NodeId id, ir::BufferId dst, const std::string& name) {
  if (dst == ir::kNone && name.empty()) {
    if (auto done = loweredTiles_.find(id); done != loweredTiles_.end()) {
      ir::BufferId b = done->second;
      loweredTiles_.erase(done);
      return b;
    }
  }
  lowerChainLinks(
      ast_, id, loweredTiles_, [&](dsl::NodeId e) { return isTileLink(e); },
      [&](dsl::NodeId link) { return tileNode(link, ir::kNone, ""); });
  return tileNode(id, dst, name);
}

ir::BufferId KernelLowering::tileNode(dsl::NodeId id, ir::BufferId dst, const std::string& name) {
  const dsl::Node& n = ast_.node(id);
  switch (n.kind) {
    case NodeKind::Name: {
      const Binding* b = lookup(n.name);
      TILECRAFT_CHECK(b && b->kind == Binding::Kind::Buffer, "a tile name is bound to a buffer");
      if (dst == ir::kNone && name.empty()) return b->id;
      if (dst == b->id) return dst;
      // `x = y` makes x its own value: later in-place updates of x must not change y.
      ir::BufferId out = dst != ir::kNone ? dst : result(id, ir::kNone, name);
      emit(b_.copy(out, b->id, false));
      return out;
    }
    case NodeKind::Call: return call(id, dst, name).buffer;
    case NodeKind::Binary: return arith(id, n.op, n.kids[0], n.kids[1], dst, name).buffer;
    case NodeKind::Compare: return compare(id, n.op, n.kids[0], n.kids[1], dst, name).buffer;
    case NodeKind::Unary: {
      if (n.op == OpKind::Pos) return tile(n.kids[0], dst, name);
      ir::BufferId x = tile(n.kids[0]);
      ir::BufferId out = result(id, dst, name);
      emit(b_.binaryScalar(ir::Op::Muls, out, x, scalarFor(b_.intConst(-1), k_.buffer(x).dtype)));
      return out;
    }
    case NodeKind::Subscript:
      unsupported(id, "lowering a slice of an on-chip tile is not implemented yet",
                  "load the slice from GM directly: load(x[..., lo:hi])");
    default: TILECRAFT_CHECK(false, fmt::format("cannot lower a {} as a tile expression", dsl::nodeKindName(n.kind)));
  }
}

ir::BufferId KernelLowering::elementwise(dsl::NodeId id, ir::Op tileOp, ir::Op scalarOpKind, dsl::NodeId lhs,
                                         dsl::NodeId rhs, ir::BufferId dst, const std::string& name) {
  bool lTile = type(lhs).kind == TypeKind::Buffer;
  bool rTile = type(rhs).kind == TypeKind::Buffer;
  if (lTile && rTile) {
    ir::BufferId a = tile(lhs);
    ir::BufferId b = tile(rhs);
    ir::BufferId out = result(id, dst, name);
    // Binary ops read extent-1 operands repeatedly; no broadcast copy is made.
    emit(b_.binary(tileOp, out, a, b));
    return out;
  }
  // One scalar operand; both operators passed here are commutative (max, min).
  ir::BufferId x = tile(lTile ? lhs : rhs);
  ir::NodeId s = scalarFor(scalar(lTile ? rhs : lhs), k_.buffer(x).dtype);
  ir::BufferId out = result(id, dst, name);
  emit(b_.binaryScalar(scalarOpKind, out, x, s));
  return out;
}

Value KernelLowering::arith(dsl::NodeId id, OpKind op, dsl::NodeId lhs, dsl::NodeId rhs, ir::BufferId dst,
                            const std::string& name) {
  bool lTile = type(lhs).kind == TypeKind::Buffer;
  bool rTile = type(rhs).kind == TypeKind::Buffer;
  if (!lTile && !rTile) return {ir::kNone, b_.scalarBinary(scalarOp(op), scalar(lhs), scalar(rhs))};
  if (op == OpKind::MatMul) return {matmul(id, lhs, rhs, dst, name), ir::kNone};
  // acc = acc + a @ b: the cube unit accumulates into L0C in place (Mmad with the accumulate flag).
  auto isMatmul = [&](dsl::NodeId e) {
    return (ast_.kind(e) == NodeKind::Binary && ast_.node(e).op == OpKind::MatMul) ||
           (ast_.kind(e) == NodeKind::Call && sema_.calls[e] == Builtin::Matmul);
  };
  if (op == OpKind::Add && lTile && rTile && (isMatmul(lhs) || isMatmul(rhs))) {
    dsl::NodeId accNode = isMatmul(rhs) ? lhs : rhs;
    dsl::NodeId product = isMatmul(rhs) ? rhs : lhs;
    if (type(accNode).mem == dsl::Mem::L0C) {
      ir::BufferId acc = tile(accNode);
      if (dst != acc) {
        unsupported(id, "an L0C accumulator is only updated in place: acc = acc + a @ b",
                    "assign the sum back to the accumulator's own name");
      }
      auto operands = positionalOperands(product);
      ir::BufferId a = tile(operands.first);
      ir::BufferId b = tile(operands.second);
      emit(b_.matmul(acc, a, b, true));
      return {acc, ir::kNone};
    }
  }
  if (lTile && rTile) {
    ir::Op tileOp = op == OpKind::Add   ? ir::Op::Add
                    : op == OpKind::Sub ? ir::Op::Sub
                    : op == OpKind::Mul ? ir::Op::Mul
                    : op == OpKind::Div ? ir::Op::Div
                                        : ir::Op::Pow;
    return {elementwise(id, tileOp, ir::Op::None, lhs, rhs, dst, name), ir::kNone};
  }
  ir::BufferId x = tile(lTile ? lhs : rhs);
  ir::DType dtype = k_.buffer(x).dtype;
  ir::NodeId s = scalarFor(scalar(lTile ? rhs : lhs), dtype);
  const ir::Node& sn = k_.node(s);
  bool isConst = sn.kind == ir::NodeKind::FloatConst || sn.kind == ir::NodeKind::IntConst;
  double constValue = sn.kind == ir::NodeKind::FloatConst ? sn.floatValue : static_cast<double>(sn.intValue);
  auto negate = [&](ir::NodeId v) {
    return isConst
               ? scalarFor(sn.kind == ir::NodeKind::IntConst ? b_.intConst(-sn.intValue) : b_.floatConst(-constValue),
                           dtype)
               : b_.scalarUnary(ir::Op::Neg, v);
  };
  auto inverse = [&](ir::NodeId v) {
    return isConst ? b_.floatConst(1.0 / constValue) : b_.scalarBinary(ir::Op::Div, b_.floatConst(1.0), v);
  };
  // AscendC has Adds and Muls only: x - s is Adds(-s), x / s is Muls(1/s); s - x and s / x go through a
  // negation or reciprocal of the tile first.
  ir::BufferId out = ir::kNone;
  auto finish = [&](ir::Op o, ir::BufferId src, ir::NodeId scalarArg) {
    out = result(id, dst, name);
    emit(b_.binaryScalar(o, out, src, scalarArg));
  };
  switch (op) {
    case OpKind::Add: finish(ir::Op::Adds, x, s); break;
    case OpKind::Mul: finish(ir::Op::Muls, x, s); break;
    case OpKind::Sub:
      if (lTile) {
        finish(ir::Op::Adds, x, negate(s));
      } else {
        ir::BufferId neg = temp(ir::Mem::UB, dtype, k_.buffer(x).shape);
        emit(b_.binaryScalar(ir::Op::Muls, neg, x, scalarFor(b_.intConst(-1), dtype)));
        finish(ir::Op::Adds, neg, s);
      }
      break;
    case OpKind::Div:
      if (lTile) {
        finish(ir::Op::Muls, x, inverse(s));
      } else if (isConst && constValue == 1.0) {
        out = result(id, dst, name);
        emit(b_.unary(ir::Op::Reciprocal, out, x));
      } else {
        ir::BufferId rec = temp(ir::Mem::UB, dtype, k_.buffer(x).shape);
        emit(b_.unary(ir::Op::Reciprocal, rec, x));
        finish(ir::Op::Muls, rec, s);
      }
      break;
    case OpKind::Pow:
      if (lTile) {
        finish(ir::Op::Pows, x, s);
      } else {
        // pow(2.0, x): Pows takes the scalar as the exponent, so the base becomes a tile (the checker counts it).
        ir::BufferId base = temp(ir::Mem::UB, dtype, k_.buffer(x).shape);
        emit(b_.fill(base, s));
        out = result(id, dst, name);
        emit(b_.binary(ir::Op::Pow, out, base, x));
      }
      break;
    default: TILECRAFT_CHECK(false, fmt::format("operator '{}' on tiles passed the checker", dsl::opSpelling(op)));
  }
  return {out, ir::kNone};
}

Value KernelLowering::compare(dsl::NodeId id, OpKind op, dsl::NodeId lhs, dsl::NodeId rhs, ir::BufferId dst,
                              const std::string& name) {
  bool lTile = type(lhs).kind == TypeKind::Buffer;
  bool rTile = type(rhs).kind == TypeKind::Buffer;
  ir::Op cmp = scalarOp(op);
  if (!lTile && !rTile) return {ir::kNone, b_.scalarBinary(cmp, scalar(lhs), scalar(rhs))};
  if (lTile && rTile) {
    ir::BufferId a = tile(lhs);
    ir::BufferId b = tile(rhs);
    ir::BufferId out = result(id, dst, name);
    std::vector<ir::Extent> shape = k_.buffer(out).shape;
    emit(b_.compare(cmp, out, toShape(a, shape), toShape(b, shape)));
    return {out, ir::kNone};
  }
  ir::BufferId x = tile(lTile ? lhs : rhs);
  ir::NodeId s = scalarFor(scalar(lTile ? rhs : lhs), k_.buffer(x).dtype);
  ir::BufferId out = result(id, dst, name);
  emit(b_.compareScalar(lTile ? cmp : flipped(cmp), out, x, s));
  return {out, ir::kNone};
}

Value KernelLowering::call(dsl::NodeId id, ir::BufferId dst, const std::string& name) {
  std::optional<Builtin> builtin = sema_.calls[id];
  TILECRAFT_CHECK(builtin.has_value(), "a checked call resolves to a builtin");
  auto args = positional(id);
  auto kw = keywords(id);
  Builtin bi = *builtin;
  if (ir::Op u = unaryOp(bi); u != ir::Op::None) {
    ir::BufferId x = tile(args.at(0));
    ir::BufferId out = result(id, dst, name);
    emit(b_.unary(u, out, x));
    return {out, ir::kNone};
  }
  if (ir::Op r = reduceOp(bi); r != ir::Op::None) {
    ir::BufferId x = tile(args.at(0));
    int axis = axisOf(id, k_.buffer(x).shape.size());
    ir::BufferId out = result(id, dst, name);
    emit(b_.reduce(r, out, x, axis));
    return {out, ir::kNone};
  }
  switch (bi) {
    case Builtin::Load: {
      uint32_t param = ir::kNone;
      ir::BufferId index = ir::kNone;
      std::vector<ir::GmIndex> gm = access(args.at(0), &param, &index);
      double pad = 0;
      if (auto it = kw.find("pad"); it != kw.end()) {
        const dsl::Type& p = type(it->second);
        pad = p.constFloat ? *p.constFloat : static_cast<double>(p.constInt.value_or(0));
      }
      ir::BufferId out = result(id, dst, name);
      emit(b_.load(out, param, std::move(gm), pad, index));
      return {out, ir::kNone};
    }
    case Builtin::Cast: {
      ir::BufferId x = tile(args.at(0));
      ir::BufferId out = result(id, dst, name);
      emit(k_.buffer(x).dtype == k_.buffer(out).dtype ? b_.copy(out, x, false) : b_.cast(out, x));
      return {out, ir::kNone};
    }
    case Builtin::Maximum:
    case Builtin::Minimum: {
      bool mx = bi == Builtin::Maximum;
      return {elementwise(id, mx ? ir::Op::Max : ir::Op::Min, mx ? ir::Op::Maxs : ir::Op::Mins, args.at(0), args.at(1),
                          dst, name),
              ir::kNone};
    }
    case Builtin::Pow: return arith(id, OpKind::Pow, args.at(0), args.at(1), dst, name);
    case Builtin::LeakyRelu: {
      ir::BufferId x = tile(args.at(0));
      ir::NodeId slope = scalarFor(scalar(args.at(1)), k_.buffer(x).dtype);
      ir::BufferId out = result(id, dst, name);
      emit(b_.binaryScalar(ir::Op::LeakyRelu, out, x, slope));
      return {out, ir::kNone};
    }
    case Builtin::Clamp: {
      ir::BufferId x = tile(args.at(0));
      ir::DType dtype = k_.buffer(x).dtype;
      ir::BufferId low = temp(ir::Mem::UB, dtype, k_.buffer(x).shape);
      emit(b_.binaryScalar(ir::Op::Maxs, low, x, scalarFor(scalar(args.at(1)), dtype)));
      ir::BufferId out = result(id, dst, name);
      emit(b_.binaryScalar(ir::Op::Mins, out, low, scalarFor(scalar(args.at(2)), dtype)));
      return {out, ir::kNone};
    }
    case Builtin::Where: {
      ir::BufferId out = result(id, dst, name);
      const ir::Buffer& o = k_.buffer(out);
      std::vector<ir::Extent> shape = o.shape;
      ir::DType dtype = o.dtype;
      ir::BufferId mask = toShape(tile(args.at(0)), shape);
      auto operand = [&](dsl::NodeId a) {
        if (type(a).kind == TypeKind::Buffer) return toShape(tile(a), shape);
        // A number operand of where becomes a tile of that number (Duplicate), as Select takes two tensors.
        ir::BufferId filled = temp(ir::Mem::UB, dtype, shape);
        emit(b_.fill(filled, scalarFor(scalar(a), dtype)));
        return filled;
      };
      ir::BufferId a = operand(args.at(1));
      ir::BufferId b = operand(args.at(2));
      emit(b_.select(out, mask, a, b));
      return {out, ir::kNone};
    }
    case Builtin::Cumsum:
    case Builtin::Cumprod: {
      ir::BufferId x = tile(args.at(0));
      int axis = axisOf(id, k_.buffer(x).shape.size());
      ir::BufferId out = result(id, dst, name);
      emit(b_.scan(bi == Builtin::Cumsum ? ir::Op::Cumsum : ir::Op::Cumprod, out, x, axis));
      return {out, ir::kNone};
    }
    case Builtin::Gather: {
      ir::BufferId table = tile(args.at(0));
      ir::BufferId index = tile(args.at(1));
      ir::BufferId out = result(id, dst, name);
      emit(b_.gather(out, table, index));
      return {out, ir::kNone};
    }
    case Builtin::Zeros:
    case Builtin::Full: {
      ir::BufferId out = result(id, dst, name);
      ir::DType dtype = k_.buffer(out).dtype;
      ir::NodeId value = bi == Builtin::Zeros ? b_.intConst(0) : scalar(args.at(1));
      emit(b_.fill(out, scalarFor(value, dtype)));
      return {out, ir::kNone};
    }
    case Builtin::Copy: {
      ir::BufferId x = tile(args.at(0));
      bool transpose = false;
      if (auto it = kw.find("transpose"); it != kw.end()) transpose = flag(it->second);
      ir::BufferId out = result(id, dst, name);
      emit(b_.copy(out, x, transpose));
      return {out, ir::kNone};
    }
    case Builtin::Matmul: return {matmul(id, args.at(0), args.at(1), dst, name), ir::kNone};
    default: TILECRAFT_CHECK(false, fmt::format("a call to '{}' is not a tile expression", dsl::builtinInfo(bi).name));
  }
  return {};
}

std::pair<dsl::NodeId, dsl::NodeId> KernelLowering::positionalOperands(dsl::NodeId product) {
  if (ast_.kind(product) == NodeKind::Binary) return {ast_.child(product, 0), ast_.child(product, 1)};
  auto args = positional(product);
  return {args.at(0), args.at(1)};
}

ir::BufferId KernelLowering::matmul(dsl::NodeId id, dsl::NodeId lhs, dsl::NodeId rhs, ir::BufferId dst,
                                    const std::string& name) {
  ir::BufferId a = tile(lhs);
  ir::BufferId b = tile(rhs);
  ir::BufferId out = result(id, dst, name);
  emit(b_.matmul(out, a, b, false));
  return out;
}

std::vector<ir::GmIndex> KernelLowering::access(dsl::NodeId view, uint32_t* param, ir::BufferId* gatherIndex) {
  dsl::NodeId base = ast_.kind(view) == NodeKind::Subscript ? ast_.subscriptBase(view) : view;
  const Binding* b = ast_.kind(base) == NodeKind::Name ? lookup(ast_.node(base).name) : nullptr;
  TILECRAFT_CHECK(b && b->kind == Binding::Kind::Param, "a checked GM view indexes a tensor parameter");
  *param = b->id;
  size_t rank = k_.params[b->id].shape.size();
  std::span<const dsl::NodeId> indices;
  if (ast_.kind(view) == NodeKind::Subscript) indices = ast_.subscriptIndices(view);
  const std::vector<dsl::Dim>& viewShape = type(view).shape;
  size_t vi = 0;
  std::vector<ir::GmIndex> out;
  for (size_t i = 0; i < rank; ++i) {
    ir::GmIndex g;
    if (i >= indices.size()) {
      ++vi;
      out.push_back(g);
      continue;
    }
    dsl::NodeId idx = indices[i];
    const dsl::Type& t = type(idx);
    if (ast_.kind(idx) == NodeKind::Slice) {
      dsl::NodeId lo = ast_.child(idx, 0);
      dsl::NodeId hi = ast_.child(idx, 1);
      if (lo != dsl::kNoNode || hi != dsl::kNoNode) {
        g.kind = ir::GmIndex::Kind::Slice;
        g.lo = lo == dsl::kNoNode ? b_.intConst(0) : scalar(lo);
        g.width = extent(viewShape.at(vi), idx);
      }
      ++vi;
    } else if (t.kind == TypeKind::Tile) {
      const Binding* loop = lookup(ast_.node(idx).name);
      TILECRAFT_CHECK(loop && loop->kind == Binding::Kind::Loop, "a tile index is a tile loop");
      g.kind = ir::GmIndex::Kind::Tile;
      g.loop = loop->id;
      ++vi;
    } else if (t.kind == TypeKind::Buffer) {
      g.kind = ir::GmIndex::Kind::Gather;
      *gatherIndex = tile(idx);
      ++vi;
    } else if (t.kind == TypeKind::Int) {
      g.kind = ir::GmIndex::Kind::Point;
      g.lo = scalar(idx);
    } else {
      // A range from split() as an index has no compile-time bound, which the capacity check rejects.
      TILECRAFT_CHECK(false, "a checked GM index is a tile, an integer, a slice or an index tile");
    }
    out.push_back(g);
  }
  return out;
}

// A scalar power. The builder's type rule decides whether it is an integer power (both operands integers: the
// checker allows those only on host values, with a non-negative exponent) or a float one. A float power by a
// constant integer exponent, the common case (`alpha ** 2`, `beta ** -1`), is a chain of multiplications that
// the kernel and the host compute alike; the scalar unit has no pow, so only the host computes other float powers:
// one of host values left in kernel code becomes a host value of its own (hoistHostPowers); the emitter refuses
// one of device values (a loop index).
ir::NodeId KernelLowering::scalarPow(ir::NodeId base, ir::NodeId exponent) {
  ir::DType dtype = ir::Builder::scalarBinaryType(ir::Op::Pow, k_.node(base).dtype, k_.node(exponent).dtype);
  if (!dsl::isFloat(dtype)) return b_.scalarBinary(ir::Op::Pow, base, exponent);
  const ir::Node& e = k_.node(exponent);
  std::optional<int64_t> n;
  if (e.kind == ir::NodeKind::IntConst) n = e.intValue;
  if (e.kind == ir::NodeKind::FloatConst && std::trunc(e.floatValue) == e.floatValue && std::fabs(e.floatValue) <= 64) {
    n = static_cast<int64_t>(e.floatValue);
  }
  constexpr int64_t kMaxUnrolled = 64;  // at most 2 * 6 multiplications
  if (!n || *n < -kMaxUnrolled || *n > kMaxUnrolled) return b_.scalarBinary(ir::Op::Pow, base, exponent);
  // Square-and-multiply over the bits of |n| in f32 (an integer base is converted first, so its square cannot
  // overflow i64); x ** 0 is 1, as in Python, also for x = 0.
  ir::NodeId one = b_.floatConst(1.0);
  if (!dsl::isFloat(k_.node(base).dtype)) base = b_.scalarBinary(ir::Op::Mul, one, base);
  ir::NodeId result = ir::kNone;
  ir::NodeId square = base;
  for (int64_t bits = *n < 0 ? -*n : *n; bits > 0; bits >>= 1) {
    if (bits & 1) result = result == ir::kNone ? square : b_.scalarBinary(ir::Op::Mul, result, square);
    if (bits > 1) square = b_.scalarBinary(ir::Op::Mul, square, square);
  }
  if (result == ir::kNone) return one;
  return *n < 0 ? b_.scalarBinary(ir::Op::Div, one, result) : result;
}

ir::NodeId KernelLowering::scalar(dsl::NodeId id) {
  if (auto done = loweredScalars_.find(id); done != loweredScalars_.end()) {
    ir::NodeId s = done->second;
    loweredScalars_.erase(done);
    return s;
  }
  lowerChainLinks(
      ast_, id, loweredScalars_, [&](dsl::NodeId e) { return isScalarLink(e); },
      [&](dsl::NodeId link) { return scalarNode(link); });
  return scalarNode(id);
}

ir::NodeId KernelLowering::scalarNode(dsl::NodeId id) {
  const dsl::Type& t = type(id);
  const dsl::Node& n = ast_.node(id);
  if (t.constInt) return b_.intConst(*t.constInt);
  if (t.constFloat) return b_.floatConst(*t.constFloat);
  switch (n.kind) {
    case NodeKind::BoolLit: return b_.intConst(n.intValue);
    case NodeKind::Name: {
      if (const Binding* b = lookup(n.name)) {
        if (b->kind == Binding::Kind::Var) return b_.varRef(b->id);
        if (b->kind == Binding::Kind::Loop) return b_.loopField(b->id, ir::Op::Index);
      }
      // A module-level dim(): find its definition.
      for (dsl::NodeId item : ast_.items(ast_.root())) {
        if (ast_.kind(item) != NodeKind::ConstDef || ast_.node(item).name != n.name) continue;
        int64_t max = 0;
        dsl::NodeId value = ast_.child(item, 0);
        if (ast_.kind(value) == NodeKind::Call) {
          // keywords() returns a map by value: keep one copy, or the iterator dangles (found by ASan).
          std::map<std::string, dsl::NodeId> kw = keywords(value);
          if (auto it = kw.find("max"); it != kw.end()) max = type(it->second).constInt.value_or(0);
        }
        return b_.varRef(dimVar(item, n.name, max));
      }
      TILECRAFT_CHECK(false, fmt::format("the scalar name '{}' is bound", n.name));
      return ir::kNone;
    }
    case NodeKind::Attribute: {
      const dsl::Node& base = ast_.node(n.kids[0]);
      const Binding* b = base.kind == NodeKind::Name ? lookup(base.name) : nullptr;
      ir::Op field = n.name == "start" ? ir::Op::Start : n.name == "len" ? ir::Op::Len : ir::Op::Size;
      if (b && b->kind == Binding::Kind::Loop) return b_.loopField(b->id, field);
      if (b && b->kind == Binding::Kind::Split) return b_.splitField(b->id, field);
      TILECRAFT_CHECK(false, fmt::format("the field '{}' belongs to a loop or a split", n.name));
      return ir::kNone;
    }
    case NodeKind::Unary:
      if (n.op == OpKind::Pos) return scalar(n.kids[0]);
      return b_.scalarUnary(n.op == OpKind::Not ? ir::Op::Not : ir::Op::Neg, scalar(n.kids[0]));
    case NodeKind::Binary:
      if (n.op == OpKind::Pow) return scalarPow(scalar(n.kids[0]), scalar(n.kids[1]));
      return b_.scalarBinary(scalarOp(n.op), scalar(n.kids[0]), scalar(n.kids[1]));
    case NodeKind::Compare:
    case NodeKind::Logical: {
      ir::NodeId lhs = scalar(n.kids[0]);  // left first, as lowerChainLinks assumes
      return b_.scalarBinary(scalarOp(n.op), lhs, scalar(n.kids[1]));
    }
    case NodeKind::Call: {
      std::optional<Builtin> bi = sema_.calls[id];
      auto args = positional(id);
      if (bi == Builtin::Cdiv || bi == Builtin::Min || bi == Builtin::Max) {
        ir::Op op = bi == Builtin::Cdiv ? ir::Op::Cdiv : bi == Builtin::Min ? ir::Op::Min : ir::Op::Max;
        return b_.scalarBinary(op, scalar(args.at(0)), scalar(args.at(1)));
      }
      TILECRAFT_CHECK(false, "a scalar call is cdiv, min or max");
      return ir::kNone;
    }
    default: TILECRAFT_CHECK(false, fmt::format("cannot lower a {} as a scalar", dsl::nodeKindName(n.kind)));
  }
}

}  // namespace tilecraft::passes::detail
