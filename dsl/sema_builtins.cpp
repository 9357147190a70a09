// Sema, part 3: builtin calls: data movement between memories, creation, elementwise math, reductions, scans,
// gather and matmul.
#include <fmt/format.h>

#include <algorithm>

#include "dsl/sema_internal.h"

namespace tilecraft::dsl::detail {

namespace {

Type bufferType(Mem mem, DType dtype, std::vector<Dim> shape) {
  Type t;
  t.kind = TypeKind::Buffer;
  t.mem = mem;
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}

std::vector<Dim> squeezeOnes(const std::vector<Dim>& shape) {
  std::vector<Dim> out;
  for (const Dim& d : shape) {
    if (!(d.kind == Dim::Kind::Const && d.value == 1)) out.push_back(d);
  }
  return out;
}

bool sameShape(const std::vector<Dim>& a, const std::vector<Dim>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!sameDim(a[i], b[i])) return false;
  }
  return true;
}

// The data paths that exist on 910B (A2) between memories, as the DSL exposes them.
bool copyPathExists(Mem from, Mem to) {
  return (from == Mem::L1 && (to == Mem::L0A || to == Mem::L0B)) || (from == Mem::UB && to == Mem::UB) ||
         (from == Mem::L0C && to == Mem::UB);
}

constexpr const char* kPaths =
    "GM->UB, GM->L1 (load); UB->GM, L0C->GM (store); L1->L0A, L1->L0B, UB->UB, L0C->UB (copy)";

}  // namespace

Type Checker::checkCall(NodeId id) {
  NodeId callee = ast_.callee(id);
  if (ast_.kind(callee) == NodeKind::Attribute) {
    std::string attr = ast_.node(callee).name;
    for (NodeId a : ast_.callArgs(id)) expr(ast_.kind(a) == NodeKind::Keyword ? ast_.child(a, 0) : a);
    auto d = error(callee, fmt::format("methods and module functions are not part of the DSL ('.{}(...)')", attr));
    if (findBuiltin(attr)) d.hint(fmt::format("call the builtin directly: {}(...)", attr));
    return Type::error();
  }
  Type f = expr(callee);
  if (f.isError()) {
    for (NodeId a : ast_.callArgs(id)) expr(ast_.kind(a) == NodeKind::Keyword ? ast_.child(a, 0) : a);
    return f;
  }
  if (f.kind != TypeKind::Function) {
    error(callee, fmt::format("{} is not callable", typeStr(f)));
    return Type::error();
  }
  const BuiltinInfo& info = builtinInfo(*f.builtin);
  result_.calls[id] = info.id;
  std::vector<NodeId> args;
  std::map<std::string, NodeId> keywords;
  bool ok = true;
  for (NodeId a : ast_.callArgs(id)) {
    if (ast_.kind(a) != NodeKind::Keyword) {
      args.push_back(a);
      continue;
    }
    const std::string& kw = ast_.node(a).name;
    if (!acceptsKeyword(info, kw)) {
      std::vector<std::string> accepted;
      std::string_view rest = info.keywords;
      while (!rest.empty()) {
        size_t space = rest.find(' ');
        accepted.emplace_back(rest.substr(0, space));
        if (space == std::string_view::npos) break;
        rest.remove_prefix(space + 1);
      }
      auto d = error(a, fmt::format("{}() has no keyword argument '{}'", info.name, kw));
      if (auto close = closestName(kw, accepted)) {
        d.hint(fmt::format("did you mean '{}='?", *close));
      } else {
        d.hint(fmt::format("the signature is {}", info.signature));
      }
      ok = false;
      continue;
    }
    if (keywords.count(kw)) {
      error(a, fmt::format("keyword argument '{}' given twice", kw));
      ok = false;
      continue;
    }
    keywords[kw] = ast_.child(a, 0);
  }
  int given = static_cast<int>(args.size());
  if (given < info.minArgs || given > info.maxArgs) {
    std::string want = info.minArgs == info.maxArgs ? std::to_string(info.minArgs)
                                                    : fmt::format("{} to {}", info.minArgs, info.maxArgs);
    error(id, fmt::format("{}() takes {} positional argument{} ({} given)", info.name, want,
                          info.maxArgs == 1 ? "" : "s", given))
        .hint(fmt::format("the signature is {}", info.signature));
    ok = false;
  }
  if (!ok) return Type::error();
  return checkBuiltin(id, info, args, keywords);
}

Type Checker::checkBuiltin(NodeId id, const BuiltinInfo& info, const std::vector<NodeId>& args,
                           const std::map<std::string, NodeId>& kw) {
  // Arguments read as shapes, dtypes or stores are typed by their handlers; the rest are typed here.
  auto typed = [&](size_t i) { return expr(args[i]); };
  switch (info.id) {
    case Builtin::Dim:
      error(id, "dim() declares a size at module level only").hint("write 'N = dim()' at the top of the file");
      return Type::error();
    case Builtin::Split: return checkSplit(id, args[0], kw);
    case Builtin::Tiles:
    case Builtin::Grid:
    case Builtin::Range:
      error(id, fmt::format("{}(...) can only be the iterable of a for loop", info.name))
          .hint(fmt::format("write 'for t in {}(...):'", info.name));
      return Type::error();
    case Builtin::VectorCores:
    case Builtin::CubeCores: {
      Type t;
      t.kind = TypeKind::Cores;
      t.cube = info.id == Builtin::CubeCores;
      if (!args.empty()) {
        Type n = typed(0);
        auto count = constIntOf(args[0], n, "a core count");
        if (!count) return Type::error();
        int64_t limit = t.cube ? kCubeCores : kVectorCores;
        if (*count < 1 || *count > limit) {
          error(args[0], fmt::format("{}({}) exceeds the {} {} cores of 910B2", info.name, *count, limit,
                                     t.cube ? "cube" : "vector"))
              .hint(fmt::format("use 1 to {}, or {}() for all of them", limit, info.name));
          return Type::error();
        }
        t.cores = *count;
      }
      return t;
    }
    case Builtin::Cdiv:
    case Builtin::Min:
    case Builtin::Max: {
      Type a = typed(0);
      Type b = typed(1);
      if (a.isError() || b.isError()) return Type::error();
      if (a.kind != TypeKind::Int || b.kind != TypeKind::Int) {
        error(id, fmt::format("{}() takes two integers (got {} and {})", info.name, typeStr(a), typeStr(b)));
        return Type::error();
      }
      Type r;
      r.kind = TypeKind::Int;
      r.device = a.device || b.device;
      if (a.constInt && b.constInt) {
        if (info.id == Builtin::Cdiv) {
          if (*b.constInt <= 0) {
            error(args[1], "cdiv() needs a positive divisor");
            return Type::error();
          }
          // The ceiling without (a + b - 1), which overflows near 2**63 (C++ division truncates towards 0).
          int64_t x = *a.constInt, y = *b.constInt;
          r.constInt = x / y + (x % y > 0 ? 1 : 0);
        } else {
          r.constInt =
              info.id == Builtin::Min ? std::min(*a.constInt, *b.constInt) : std::max(*a.constInt, *b.constInt);
        }
        r.affine = Affine{{}, *r.constInt};
      }
      return r;
    }
    case Builtin::Load: return checkLoad(id, args[0], kw);
    case Builtin::Store: return checkStore(id, args[0], args[1], kw);
    case Builtin::Copy: return checkCopy(id, args[0], kw);
    case Builtin::Zeros:
    case Builtin::Full: {
      bool full = info.id == Builtin::Full;
      auto shape = shapeFromTuple(args[0], "a tile dimension");
      Type value;
      if (full) value = typed(1);
      Type dt = typed(full ? 2 : 1);
      Mem mem = Mem::UB;
      if (auto m = kw.find("mem"); m != kw.end()) {
        Type mt = expr(m->second);
        if (mt.isError()) return mt;
        if (mt.kind != TypeKind::MemName || (*mt.memValue != Mem::UB && (full || *mt.memValue != Mem::L0C))) {
          error(m->second,
                fmt::format("{}() makes tiles in {}", info.name, full ? "UB" : "UB or L0C (an accumulator)"));
          return Type::error();
        }
        mem = *mt.memValue;
      }
      if (!shape || dt.isError() || (full && value.isError())) return Type::error();
      if (dt.kind != TypeKind::DTypeName) {
        error(args[full ? 2 : 1], fmt::format("expected a dtype such as f32 (got {})", typeStr(dt)));
        return Type::error();
      }
      if (full && !value.isScalar()) {
        error(args[1], fmt::format("full() fills with a number (got {})", typeStr(value)));
        return Type::error();
      }
      if (!requireCompute(id, fmt::format("{}()", info.name).c_str())) return Type::error();
      DType d = *dt.dtypeValue;
      if (mem == Mem::L0C) {
        if (!requireDType(args[1], "an L0C accumulator", d, DTypeSet{DType::F32, DType::I32})) return Type::error();
        if (shape->size() != 2) {
          error(args[0], fmt::format("an L0C accumulator is a 2-D tile (got rank {})", shape->size()));
          return Type::error();
        }
      } else if (!requireDType(id, fmt::format("{}()", info.name).c_str(), d, info.dtypes)) {
        return Type::error();
      } else {
        vectorUse_ = id;
      }
      Type r = bufferType(mem, d, *shape);
      newRecord(id, r, fmt::format("{}()", info.name));
      return r;
    }
    case Builtin::Cast: {
      Type x = typed(0);
      Type dt = typed(1);
      if (x.isError() || dt.isError()) return Type::error();
      if (dt.kind != TypeKind::DTypeName) {
        error(args[1], fmt::format("cast() needs a dtype such as f32 (got {})", typeStr(dt)));
        return Type::error();
      }
      if (x.kind != TypeKind::Buffer && x.kind != TypeKind::Tensor) {
        error(args[0], fmt::format("cast() converts tiles (got {}); numbers take the tile's dtype", typeStr(x)));
        return Type::error();
      }
      if (!requireUbTile(args[0], x, "cast()") || !requireCompute(id, "cast()")) return Type::error();
      DType to = *dt.dtypeValue;
      if (!castSupported(x.dtype, to)) {
        auto d = error(id, fmt::format("no direct cast from {} to {} on 910B", dtypeName(x.dtype), dtypeName(to)));
        if (auto via = castVia(x.dtype, to)) {
          d.hint(
              fmt::format("cast through {}: cast(cast(x, {}), {})", dtypeName(*via), dtypeName(*via), dtypeName(to)));
        }
        return Type::error();
      }
      use(args[0]);
      vectorUse_ = id;
      Type r = bufferType(Mem::UB, to, x.shape);
      newRecord(id, r, "cast()");
      return r;
    }
    case Builtin::Exp:
    case Builtin::Log:
    case Builtin::Abs:
    case Builtin::Sqrt:
    case Builtin::Rsqrt:
    case Builtin::Reciprocal:
    case Builtin::Relu:
    case Builtin::Tanh:
    case Builtin::Sigmoid:
    case Builtin::Gelu:
    case Builtin::Silu:
    case Builtin::Sin:
    case Builtin::Cos:
    case Builtin::Erf: {
      Type x = typed(0);
      if (x.isError()) return x;
      if (x.kind != TypeKind::Buffer && x.kind != TypeKind::Tensor) {
        error(args[0], fmt::format("{}() applies to tiles (got {})", info.name, typeStr(x)))
            .hint("scalar math belongs on the host: compute it from dims and attributes");
        return Type::error();
      }
      return elementwise(id, fmt::format("{}()", info.name).c_str(), info.dtypes, {args[0]}, info.workFactor);
    }
    case Builtin::Maximum:
    case Builtin::Minimum:
    case Builtin::Pow: {
      Type base = typed(0);
      typed(1);
      Type r =
          elementwise(id, fmt::format("{}()", info.name).c_str(), info.dtypes, {args[0], args[1]}, info.workFactor);
      // pow(2.0, x): lowering fills the number base into a tile of the result's shape (the IR's Pows takes the
      // scalar as the exponent).
      bool numberBase = base.kind == TypeKind::Int || base.kind == TypeKind::Float;
      if (info.id == Builtin::Pow && numberBase && !r.isError()) stagingRecords(id, {args[0]}, r, true);
      return r;
    }
    case Builtin::LeakyRelu:
    case Builtin::Clamp: {
      Type x = typed(0);
      bool ok = !x.isError();
      for (size_t i = 1; i < args.size(); ++i) {
        Type s = typed(i);
        if (s.isError()) {
          ok = false;
        } else if (s.kind != TypeKind::Int && s.kind != TypeKind::Float) {
          error(args[i], fmt::format("{}() takes a number here (got {})", info.name, typeStr(s)));
          ok = false;
        }
      }
      if (!ok) return Type::error();
      if (x.kind != TypeKind::Buffer && x.kind != TypeKind::Tensor) {
        error(args[0], fmt::format("{}() applies to tiles (got {})", info.name, typeStr(x)));
        return Type::error();
      }
      return elementwise(id, fmt::format("{}()", info.name).c_str(), info.dtypes, {args[0]});
    }
    case Builtin::Where: {
      Type mask = typed(0);
      typed(1);
      typed(2);
      if (mask.isError()) return mask;
      if (mask.kind != TypeKind::Buffer || mask.dtype != DType::Bool) {
        error(args[0], fmt::format("where() needs a mask from a tile comparison first (got {})", typeStr(mask)))
            .hint("write where(x > 0, x, 0.0)");
        return Type::error();
      }
      // The mask takes part in broadcasting but not in the dtype rule.
      Type r = elementwise(id, "where()", info.dtypes, {args[1], args[2]});
      if (r.isError()) return r;
      auto shape = broadcast(id, r.shape, mask.shape);
      if (!shape) return Type::error();
      use(args[0]);
      r.shape = *shape;
      stagingRecords(id, {args[0], args[1], args[2]}, r, true);
      if (recordOf_[id] >= 0) {
        records_[recordOf_[id]].shape = r.shape;
        records_[recordOf_[id]].inPlaceFrom.clear();  // a Select, which never runs in place
      }
      return r;
    }
    case Builtin::ReduceSum:
    case Builtin::ReduceMax:
    case Builtin::ReduceMin:
    case Builtin::ReduceMean:
    case Builtin::Argmax:
    case Builtin::Argmin:
    case Builtin::Cumsum:
    case Builtin::Cumprod: return checkReduction(id, info, args[0], kw);
    case Builtin::Gather: {
      Type table = typed(0);
      Type index = typed(1);
      if (table.isError() || index.isError()) return Type::error();
      if (table.kind != TypeKind::Buffer || index.kind != TypeKind::Buffer) {
        error(id, "gather() takes two UB tiles: gather(table, index)")
            .hint("to gather rows of a GM tensor, index it with an i32 tile inside load: load(x[idx, :])");
        return Type::error();
      }
      if (!requireUbTile(args[0], table, "gather()") || !requireUbTile(args[1], index, "gather()"))
        return Type::error();
      if (!requireCompute(id, "gather()")) return Type::error();
      if (!requireDType(args[0], "gather()", table.dtype, info.dtypes)) return Type::error();
      if (index.dtype != DType::I32) {
        error(args[1], fmt::format("gather() indices must be i32 (got {})", dtypeName(index.dtype)))
            .hint("cast(index, i32)");
        return Type::error();
      }
      bool leading = table.shape.size() == index.shape.size();
      for (size_t i = 0; leading && i + 1 < table.shape.size(); ++i) leading = sameDim(table.shape[i], index.shape[i]);
      if (!leading) {
        error(id, fmt::format("gather() gathers along the last axis: table {} and index {} must agree in every other "
                              "dimension",
                              shapeStr(table.shape), shapeStr(index.shape)));
        return Type::error();
      }
      use(args[0]);
      use(args[1]);
      vectorUse_ = id;
      Type r = bufferType(Mem::UB, table.dtype, index.shape);
      newRecord(id, r, "gather()");
      return r;
    }
    case Builtin::Matmul:
      typed(0);
      typed(1);
      return checkMatmul(id, args[0], args[1]);
  }
  return Type::error();
}

bool Checker::requireStage(NodeId at, Stage want, const char* what) {
  if (stage_ == want) return true;
  auto d = error(at, fmt::format("{} must be inside 'with {}'{}", what, stageName(want),
                                 stage_ == Stage::None ? "" : fmt::format(" (it is in 'with {}')", stageName(stage_))));
  if (want == Stage::CopyIn) d.hint("global memory is read in the copyin stage: with copyin: t = load(x[...])");
  if (want == Stage::CopyOut) d.hint("global memory is written in the copyout stage: with copyout: store(y[...], v)");
  return false;
}

Type Checker::checkLoad(NodeId id, NodeId view, const std::map<std::string, NodeId>& kw) {
  Type v = expr(view);
  Mem to = Mem::UB;
  bool ok = !v.isError();
  if (auto it = kw.find("to"); it != kw.end()) {
    Type mt = expr(it->second);
    if (mt.isError()) {
      ok = false;
    } else if (mt.kind != TypeKind::MemName) {
      error(it->second, fmt::format("to= needs a memory: UB or L1 (got {})", typeStr(mt)));
      ok = false;
    } else if (*mt.memValue != Mem::UB && *mt.memValue != Mem::L1) {
      error(it->second, fmt::format("load cannot copy GM to {}; it loads into UB or L1", memName(*mt.memValue)))
          .hint(*mt.memValue == Mem::GM ? "load moves data on chip"
                                        : "load to L1 with to=L1, then copy(..., to=L0A) inside 'with compute'");
      ok = false;
    } else {
      to = *mt.memValue;
    }
  }
  if (auto it = kw.find("pad"); it != kw.end()) {
    Type pt = expr(it->second);
    if (!pt.isError() && !(pt.kind == TypeKind::Int || pt.kind == TypeKind::Float)) {
      error(it->second, fmt::format("pad= is the number that fills reads past the tensor's end (got {})", typeStr(pt)));
      ok = false;
    }
  }
  if (!ok) return Type::error();
  if (v.kind != TypeKind::Tensor) {
    error(view, fmt::format("load reads a view of a GM tensor such as x[t, :] (got {})", typeStr(v)))
        .hint(v.kind == TypeKind::Buffer ? "this value is already on chip" : "index a Tensor parameter");
    return Type::error();
  }
  if (!requireStage(id, Stage::CopyIn, "load(...)")) return Type::error();
  for (ParamInfo& p : kernel_->params) {
    if (p.node == v.ref) p.loaded = true;
  }
  if (to == Mem::L1 && v.shape.size() != 2) {
    error(view, fmt::format("an L1 tile feeds the cube unit and must be 2-D (got {})", shapeStr(v.shape)))
        .hint("index the batch dimension with an integer, e.g. a[b.start, m, k]");
    return Type::error();
  }
  Type r = bufferType(to, v.dtype, v.shape);
  newRecord(id, r, "load()");
  return r;
}

Type Checker::checkStore(NodeId id, NodeId view, NodeId value, const std::map<std::string, NodeId>& kw) {
  Type v = expr(view);
  bool saved = inStoreValue_;
  inStoreValue_ = stage_ == Stage::CopyOut;
  Type x = expr(value);
  inStoreValue_ = saved;
  bool accumulate = false;
  if (auto it = kw.find("accumulate"); it != kw.end()) {
    Type a = expr(it->second);
    if (!a.isError() && (a.kind != TypeKind::Bool || !a.constInt)) {
      error(it->second, "accumulate= must be True or False");
      return Type::error();
    }
    accumulate = a.constInt && *a.constInt;
  }
  if (v.isError() || x.isError()) return Type::error();
  if (v.kind != TypeKind::Tensor) {
    error(view, fmt::format("store writes to a view of a GM tensor such as y[t, :] (got {})", typeStr(v)));
    return Type::error();
  }
  if (!requireStage(id, Stage::CopyOut, "store(...)")) return Type::error();
  // An index tile in a view gathers GM rows; the lowering has no scatter (DataCopy per index) to match it.
  if (ast_.kind(view) == NodeKind::Subscript) {
    for (NodeId i : ast_.subscriptIndices(view)) {
      if (ast_.kind(i) == NodeKind::Slice || result_.types[i].kind != TypeKind::Buffer) continue;
      error(i, "store cannot scatter through an index tile; an i32 tile indexes GM rows in load only")
          .hint(
              "index the output with tile variables, integers and slices, and gather the inputs instead: "
              "load(x[idx, :])");
      return Type::error();
    }
  }
  for (ParamInfo& p : kernel_->params) {
    if (p.node == v.ref) p.stored = true;
  }
  if (x.kind != TypeKind::Buffer) {
    error(value, fmt::format("store writes a tile (got {})", typeStr(x)))
        .hint(x.isScalar() ? "make a tile first: full((1,), value, f32) inside 'with compute'" : "");
    return Type::error();
  }
  if (x.mem != Mem::UB && x.mem != Mem::L0C) {
    error(value, fmt::format("store cannot copy {} to GM; it stores from UB or L0C", memName(x.mem)))
        .hint(std::string("the data paths are ") + kPaths);
    return Type::error();
  }
  bool fixpipeCast = x.mem == Mem::L0C && x.dtype == DType::F32 && (v.dtype == DType::F16 || v.dtype == DType::BF16);
  if (x.dtype != v.dtype && !fixpipeCast) {
    std::string tensor =
        ast_.kind(ast_.subscriptBase(view)) == NodeKind::Name ? ast_.node(ast_.subscriptBase(view)).name : "tensor";
    error(id, fmt::format("store of a {} tile into {} tensor '{}'", dtypeName(x.dtype), dtypeName(v.dtype), tensor))
        .hint(fmt::format("cast inside 'with compute': cast(v, {})", dtypeName(v.dtype)));
    return Type::error();
  }
  if (!sameShape(squeezeOnes(v.shape), squeezeOnes(x.shape))) {
    error(id,
          fmt::format("store shape mismatch: the view is {} but the value is {}", shapeStr(v.shape), shapeStr(x.shape)))
        .hint("index the output with the same tile variables and extents the value was computed with");
    return Type::error();
  }
  if (accumulate && !DTypeSet{DType::F16, DType::F32, DType::I32}.contains(v.dtype)) {
    error(id,
          fmt::format("atomic accumulation into {} is not supported (supported: f16, f32, i32)", dtypeName(v.dtype)));
    return Type::error();
  }
  if (storeCopyRecord(value)) {
    // The copy is the output queue; the stored name is only read by it.
    bool savedValue = inStoreValue_;
    inStoreValue_ = true;
    use(value);
    inStoreValue_ = savedValue;
  } else {
    use(value);
  }
  Type r;
  r.kind = TypeKind::None;
  return r;
}

Type Checker::checkCopy(NodeId id, NodeId value, const std::map<std::string, NodeId>& kw) {
  Type x = expr(value);
  auto toIt = kw.find("to");
  if (toIt == kw.end()) {
    error(id, "copy() needs a destination: copy(value, to=L0A)").hint(std::string("the data paths are ") + kPaths);
    return Type::error();
  }
  Type mt = expr(toIt->second);
  bool transpose = false;
  if (auto it = kw.find("transpose"); it != kw.end()) {
    Type t = expr(it->second);
    if (!t.isError() && (t.kind != TypeKind::Bool || !t.constInt)) {
      error(it->second, "transpose= must be True or False");
      return Type::error();
    }
    transpose = t.constInt && *t.constInt;
  }
  if (x.isError() || mt.isError()) return Type::error();
  if (mt.kind != TypeKind::MemName) {
    error(toIt->second, fmt::format("to= needs a memory (got {})", typeStr(mt)));
    return Type::error();
  }
  Mem to = *mt.memValue;
  if (x.kind == TypeKind::Tensor) {
    error(value, "copy() moves on-chip tiles; this is a GM tensor").hint("read GM with load(...) inside 'with copyin'");
    return Type::error();
  }
  if (x.kind != TypeKind::Buffer) {
    error(value, fmt::format("copy() moves a tile (got {})", typeStr(x)));
    return Type::error();
  }
  if (!copyPathExists(x.mem, to)) {
    auto d = error(id, fmt::format("no data path from {} to {} on 910B", memName(x.mem), memName(to)));
    if (to == Mem::L0A || to == Mem::L0B) {
      d.hint("matmul operands reach L0A/L0B from L1: load(..., to=L1) in copyin, then copy(..., to=L0A)");
    } else {
      d.hint(std::string("the data paths are ") + kPaths);
    }
    return Type::error();
  }
  if (!requireCompute(id, "copy()")) return Type::error();
  std::vector<Dim> shape = x.shape;
  if (transpose) {
    if (x.mem != Mem::L1 || shape.size() != 2) {
      error(id, "transpose= applies to 2-D L1 tiles copied to L0A or L0B");
      return Type::error();
    }
    std::swap(shape[0], shape[1]);
  }
  if (to == Mem::L0A || to == Mem::L0B) {
    noteCubeUse(id);
    if (!requireDType(value, "the cube unit", x.dtype, DTypeSet{DType::F16, DType::BF16, DType::F32, DType::I8})) {
      return Type::error();
    }
  } else {
    vectorUse_ = id;
  }
  use(value);
  Type r = bufferType(to, x.dtype, shape);
  newRecord(id, r, "copy()");
  return r;
}

void Checker::noteCubeUse(NodeId at) {
  if (cubeUse_ == kNoNode) cubeUse_ = at;
}

Type Checker::checkMatmul(NodeId id, NodeId lhs, NodeId rhs) {
  Type a = result_.types[lhs];
  Type b = result_.types[rhs];
  if (a.isError() || b.isError()) return Type::error();
  const char* wantMem[] = {"L0A", "L0B"};
  const Type* ops[] = {&a, &b};
  NodeId nodes[] = {lhs, rhs};
  for (int i = 0; i < 2; ++i) {
    Mem want = i == 0 ? Mem::L0A : Mem::L0B;
    const Type& t = *ops[i];
    if (t.kind != TypeKind::Buffer || t.mem != want) {
      std::string where = t.kind == TypeKind::Buffer ? memName(t.mem) : t.kind == TypeKind::Tensor ? "GM" : typeStr(t);
      error(nodes[i], fmt::format("the {} operand of a matmul must be in {} (it is in {})", i == 0 ? "left" : "right",
                                  wantMem[i], where))
          .hint(fmt::format("load it with to=L1 in copyin, then copy(..., to={}) in compute", wantMem[i]));
      return Type::error();
    }
    if (t.shape.size() != 2) {
      error(nodes[i], fmt::format("matmul operands are 2-D (got {})", shapeStr(t.shape)));
      return Type::error();
    }
  }
  if (!requireCompute(id, "matmul")) return Type::error();
  if (a.dtype != b.dtype) {
    error(id, fmt::format("matmul operands have different dtypes: {} and {}", dtypeName(a.dtype), dtypeName(b.dtype)));
    return Type::error();
  }
  if (!requireDType(id, "matmul", a.dtype, DTypeSet{DType::F16, DType::BF16, DType::F32, DType::I8})) {
    return Type::error();
  }
  if (!sameDim(a.shape[1], b.shape[0])) {
    error(id, fmt::format("matmul inner dimensions differ: {} @ {}", shapeStr(a.shape), shapeStr(b.shape)))
        .hint(
            "the left tile is (M, K) and the right tile (K, N) with the same K tile; use copy(..., transpose=True) "
            "for a transposed operand");
    return Type::error();
  }
  noteCubeUse(id);
  use(lhs);
  use(rhs);
  Type r = bufferType(Mem::L0C, *mmadAccumulator(a.dtype), {a.shape[0], b.shape[1]});
  newRecord(id, r, "matmul");
  return r;
}

std::optional<int64_t> Checker::axisArg(NodeId call, const std::map<std::string, NodeId>& kw, size_t rank) {
  int64_t axis = -1;
  NodeId at = call;
  if (auto it = kw.find("axis"); it != kw.end()) {
    at = it->second;
    auto v = constIntOf(at, expr(at), "axis");
    if (!v) return std::nullopt;
    axis = *v;
  }
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r) {
    error(at, fmt::format("axis {} is out of range for a tile of rank {}", axis, rank))
        .hint(fmt::format("use an axis from {} to {}", -r, r - 1));
    return std::nullopt;
  }
  return axis < 0 ? axis + r : axis;
}

Type Checker::checkReduction(NodeId id, const BuiltinInfo& info, NodeId x, const std::map<std::string, NodeId>& kw) {
  Type t = expr(x);
  if (t.isError()) return t;
  if (t.kind != TypeKind::Buffer && t.kind != TypeKind::Tensor) {
    error(x, fmt::format("{}() applies to tiles (got {})", info.name, typeStr(t)));
    return Type::error();
  }
  auto axis = axisArg(id, kw, t.shape.size());
  if (!axis) return Type::error();
  Type r = elementwise(id, fmt::format("{}()", info.name).c_str(), info.dtypes, {x}, info.workFactor);
  if (r.isError()) return r;
  bool scan = info.id == Builtin::Cumsum || info.id == Builtin::Cumprod;
  if (!scan) r.shape[static_cast<size_t>(*axis)] = Dim{Dim::Kind::Const, 1, kNoNode, {}};
  if (info.id == Builtin::Argmax || info.id == Builtin::Argmin) r.dtype = DType::I32;
  if (recordOf_[id] >= 0) {
    records_[recordOf_[id]].shape = r.shape;
    records_[recordOf_[id]].dtype = r.dtype;
    records_[recordOf_[id]].inPlaceFrom.clear();  // a Reduce or Scan, which never runs in place
    // The work record is made just before the result (elementwise()); a reduction's is small (per row).
    if (!scan && info.workFactor > 0 && recordOf_[id] > 0) records_[recordOf_[id] - 1].reduceWork = true;
  }
  return r;
}

}  // namespace tilecraft::dsl::detail
