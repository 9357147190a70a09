// Sema, part 4: control structure: the core split, tile loops, stage blocks and conditions.
#include <fmt/format.h>

#include "dsl/sema_internal.h"

namespace tilecraft::dsl::detail {

namespace {

// The dimension an extent expression names, when it is a plain dim or a constant.
std::optional<Dim> extentDim(const Ast& ast, NodeId node, const Type& t,
                             const std::map<std::string, ModuleSymbol>& module) {
  if (t.kind == TypeKind::Range) return t.shape.empty() ? std::nullopt : std::optional<Dim>(t.shape[0]);
  if (t.kind != TypeKind::Int) return std::nullopt;
  if (t.constInt) return Dim{Dim::Kind::Const, *t.constInt, kNoNode, {}};
  if (ast.kind(node) == NodeKind::Name) {
    auto it = module.find(ast.node(node).name);
    if (it != module.end() && it->second.isDim) {
      return Dim{Dim::Kind::Sym, it->second.dimMax, it->second.node, ast.node(node).name};
    }
  }
  return std::nullopt;
}

}  // namespace

void Checker::checkFor(NodeId id) {
  if (stage_ != Stage::None) {
    error(id, fmt::format("a loop cannot be inside 'with {}'", stageName(stage_)))
        .hint("stage blocks hold straight-line code; put the copyin/compute/copyout blocks inside the loop");
    return;
  }
  LoopContext loop;
  loop.node = id;
  std::vector<Type> targets = iterator(id, loop);
  auto names = ast_.forTargets(id);
  if (!targets.empty() && targets.size() != names.size()) {
    error(id, fmt::format("this loop yields {} value{} but names {} loop variable{}", targets.size(),
                          targets.size() == 1 ? "" : "s", names.size(), names.size() == 1 ? "" : "s"));
    targets.clear();
  }
  scopes_.push_back(id);
  loop.startPos = pos_;
  loops_.push_back(loop);
  for (size_t i = 0; i < names.size(); ++i) {
    Type t = targets.empty() ? Type::error() : targets[i];
    if (t.kind == TypeKind::Tile) {
      // The tile's dim refers to its own loop variable, so shapes built from it can be told apart.
      t.shape[0].ref = names[i];
      t.shape[0].name = ast_.node(names[i]).name;
      t.ref = names[i];
    }
    bind(names[i], t, kNoNode);
  }
  checkBlock(ast_.forBody(id));
  loops_.pop_back();
  scopes_.pop_back();
  closeLoop(id);
  result_.types[id].kind = TypeKind::None;
}

// iter := range(...) | tiles(extent, size=S, buffers=B) | grid((E0, ...), size=(S0, ...), cores=..., buffers=B)
std::vector<Type> Checker::iterator(NodeId forNode, LoopContext& loop) {
  NodeId iter = ast_.forIter(forNode);
  auto fail = [&](std::string message, std::string hint) {
    error(iter, std::move(message)).hint(std::move(hint));
    return std::vector<Type>{};
  };
  if (ast_.kind(iter) != NodeKind::Call || ast_.kind(ast_.callee(iter)) != NodeKind::Name) {
    expr(iter);
    return fail("a for loop iterates over tiles(...), grid(...) or range(...)",
                "write 'for t in tiles(rows, size=64):' or 'for i in range(n):'");
  }
  const BuiltinInfo* info = findBuiltin(ast_.node(ast_.callee(iter)).name);
  if (!info || (info->id != Builtin::Tiles && info->id != Builtin::Grid && info->id != Builtin::Range)) {
    expr(iter);
    return fail("a for loop iterates over tiles(...), grid(...) or range(...)",
                "write 'for t in tiles(rows, size=64):' or 'for i in range(n):'");
  }
  result_.calls[iter] = info->id;
  result_.types[ast_.callee(iter)].kind = TypeKind::Function;
  result_.types[iter].kind = TypeKind::None;
  std::vector<NodeId> args;
  std::map<std::string, NodeId> kw;
  for (NodeId a : ast_.callArgs(iter)) {
    if (ast_.kind(a) == NodeKind::Keyword) {
      if (!acceptsKeyword(*info, ast_.node(a).name)) {
        error(a, fmt::format("{}() has no keyword argument '{}'", info->name, ast_.node(a).name))
            .hint(fmt::format("the signature is {}", info->signature));
        return {};
      }
      kw[ast_.node(a).name] = ast_.child(a, 0);
    } else {
      args.push_back(a);
    }
  }
  if (static_cast<int>(args.size()) < info->minArgs || static_cast<int>(args.size()) > info->maxArgs) {
    return fail(fmt::format("{}() takes {} positional argument{} ({} given)", info->name,
                            info->minArgs == info->maxArgs ? std::to_string(info->minArgs)
                                                           : fmt::format("{} to {}", info->minArgs, info->maxArgs),
                            info->maxArgs == 1 ? "" : "s", args.size()),
                fmt::format("the signature is {}", info->signature));
  }

  if (info->id == Builtin::Range) {
    bool ok = true;
    for (NodeId a : args) {
      Type t = expr(a);
      if (t.isError()) {
        ok = false;
      } else if (t.kind != TypeKind::Int) {
        error(a, fmt::format("range() takes integers (got {})", typeStr(t)));
        ok = false;
      }
    }
    if (args.size() == 3) {
      auto step = result_.types[args[2]].constInt;
      if (!step || *step <= 0) {
        error(args[2], "the step of range() must be a positive integer constant");
        ok = false;
      }
    }
    if (!ok) return {};
    Type v;
    v.kind = TypeKind::Int;
    v.device = true;
    v.affine = Affine{{{ast_.node(ast_.forTargets(forNode)[0]).name, 1}}, 0};
    return {v};
  }

  // tiles and grid: tile sizes and buffer depth are compile-time constants.
  loop.isTile = true;
  loop.buffers = 2;
  if (auto it = kw.find("buffers"); it != kw.end()) {
    auto b = constIntOf(it->second, expr(it->second), "buffers");
    if (!b) return {};
    if (*b != 1 && *b != 2) {
      error(it->second, fmt::format("buffers={} is not supported", *b))
          .hint("buffers=2 overlaps copies with compute (double buffering); buffers=1 saves on-chip memory");
      return {};
    }
    loop.buffers = *b;
  }
  // A grid block holds one tile: by default one copy of each value. An explicit buffers=2 gives the block's queues
  // two copies, so the next block's copy-in overlaps this block's compute; capacity counts what the planner
  // allocates (lowering passes the same number to the block's tile loops).
  if (info->id == Builtin::Grid && kw.find("buffers") == kw.end()) loop.buffers = 1;
  auto sizeIt = kw.find("size");
  if (sizeIt == kw.end()) {
    return fail(fmt::format("{}() needs size=", info->name),
                info->id == Builtin::Tiles ? "write tiles(rows, size=64)"
                                           : "write grid((M, N), size=(128, 256), cores=cube_cores())");
  }
  std::vector<NodeId> extents;
  std::vector<NodeId> sizes;
  if (info->id == Builtin::Tiles) {
    extents.push_back(args[0]);
    sizes.push_back(sizeIt->second);
  } else {
    auto elems = [&](NodeId n) {
      std::vector<NodeId> out;
      if (ast_.kind(n) == NodeKind::Tuple) {
        out.assign(ast_.node(n).kids.begin(), ast_.node(n).kids.end());
        result_.types[n].kind = TypeKind::None;
      } else {
        out.push_back(n);
      }
      return out;
    };
    extents = elems(args[0]);
    sizes = elems(sizeIt->second);
    if (extents.size() != sizes.size()) {
      return fail(fmt::format("grid() has {} extents but {} tile sizes", extents.size(), sizes.size()),
                  "give one tile size per extent: grid((M, N), size=(128, 256))");
    }
    // grid is the kernel's core split as well.
    if (!loops_.empty() || !scopes_.empty()) {
      return fail("grid(...) splits the kernel over cores and must be a loop at the top level of the kernel",
                  "tile inside it with tiles(...)");
    }
    if (splitNode_ != kNoNode) {
      return fail(fmt::format("the kernel already splits its work over cores at line {}", lineOf(splitNode_)),
                  "one split or grid per kernel; tile inside it with tiles(...)");
    }
    splitNode_ = iter;
    splitCube_ = false;
    if (auto it = kw.find("cores"); it != kw.end()) {
      Type c = expr(it->second);
      if (c.isError()) return {};
      if (c.kind != TypeKind::Cores) {
        return fail(fmt::format("cores= needs vector_cores() or cube_cores() (got {})", typeStr(c)),
                    "write cores=cube_cores() for matmul kernels");
      }
      splitCube_ = c.cube;
      kernel_->cores = c.cores;
    }
  }
  std::vector<Type> result;
  bool ok = true;
  for (size_t i = 0; i < extents.size(); ++i) {
    // size=auto: the largest tile the layout fits, found by the capacity check (resolveAutoSizes); until then the
    // tile holds a placeholder size.
    bool autoSize = ast_.kind(sizes[i]) == NodeKind::Name && ast_.node(sizes[i]).name == "auto";
    if (autoSize && info->id != Builtin::Tiles) {
      error(sizes[i], "size=auto is for tiles(); grid() blocks need explicit sizes")
          .hint("write grid((M, N), size=(128, 256), cores=cube_cores())");
      ok = false;
      continue;
    }
    Type e = expr(extents[i]);
    Type s;
    s.kind = TypeKind::Int;
    if (!autoSize) s = expr(sizes[i]);
    if (e.isError() || s.isError()) {
      ok = false;
      continue;
    }
    bool rangeOk = info->id == Builtin::Tiles && e.kind == TypeKind::Range;
    if (!rangeOk && e.kind != TypeKind::Int) {
      error(extents[i], fmt::format("{}() walks an integer extent{} (got {})", info->name,
                                    info->id == Builtin::Tiles ? " or a range from split()" : "", typeStr(e)));
      ok = false;
      continue;
    }
    if (e.kind == TypeKind::Int && e.device) {
      error(extents[i], "a tile loop's extent cannot depend on the core or an enclosing loop")
          .hint("tile the full extent, or this core's range from split()");
      ok = false;
      continue;
    }
    auto extent = extentDim(ast_, extents[i], e, module_);
    std::optional<int64_t> size;
    int64_t autoBound = 0;
    if (autoSize) {
      // A core's share of a split is at most its bound over the cores: a tile larger than that is never full.
      // An unbounded extent leaves the bound to the capacity search (0); the tile is 1 until it is resolved.
      int64_t bound = extent && extent->value > 0 ? extent->value : 0;
      if (bound > 0 && e.kind == TypeKind::Range && kernel_->cores > 0) {
        bound = (bound + kernel_->cores - 1) / kernel_->cores;
      }
      autoBound = bound;
      size = bound > 0 ? bound : 1;
    } else {
      size = constIntOf(sizes[i], s, "a tile size");
    }
    if (!size) {
      ok = false;
      continue;
    }
    if (*size <= 0) {
      error(sizes[i], fmt::format("a tile size must be positive (got {})", *size));
      ok = false;
      continue;
    }
    if (extent && extent->kind == Dim::Kind::Const && *size > extent->value) {
      error(sizes[i], fmt::format("tile size {} is larger than the extent {}", *size, extent->value))
          .hint(fmt::format("use size={}", extent->value));
      ok = false;
      continue;
    }
    TileInfo ti;
    ti.loop = forNode;
    ti.sizeNode = sizes[i];
    ti.size = *size;
    ti.autoSize = autoSize;
    ti.autoBound = autoBound;
    ti.extent = extent;
    Type t;
    t.kind = TypeKind::Tile;
    t.shape.push_back(Dim{Dim::Kind::Tile, *size, kNoNode, {}});
    result.push_back(t);
    auto names = ast_.forTargets(forNode);
    if (i < names.size()) tiles_[names[i]] = ti;
  }
  if (!ok) return {};
  return result;
}

// rows = split(extent, cores=vector_cores()): this core's share of [0, extent), once per kernel, at top level.
Type Checker::checkSplit(NodeId id, NodeId extent, const std::map<std::string, NodeId>& kw) {
  Type e = expr(extent);
  Type cores;
  cores.kind = TypeKind::Cores;
  if (auto it = kw.find("cores"); it != kw.end()) cores = expr(it->second);
  if (e.isError() || cores.isError()) return Type::error();
  if (!loops_.empty() || !scopes_.empty() || stage_ != Stage::None) {
    error(id, "split(...) must be at the top level of the kernel")
        .hint("split once, before any loop: rows = split(M, cores=vector_cores())");
    return Type::error();
  }
  if (splitNode_ != kNoNode) {
    error(id, fmt::format("the kernel already splits its work over cores at line {}", lineOf(splitNode_)))
        .hint("one split or grid per kernel; tile inside it with tiles(...)");
    return Type::error();
  }
  if (e.kind != TypeKind::Int || e.device) {
    error(extent, fmt::format("split() divides an integer extent known on the host (got {})", typeStr(e)))
        .hint("split a dim or an expression of dims and constants, e.g. split(B * H, cores=vector_cores())");
    return Type::error();
  }
  if (cores.kind != TypeKind::Cores) {
    error(kw.at("cores"), fmt::format("cores= needs vector_cores() or cube_cores() (got {})", typeStr(cores)))
        .hint("write cores=vector_cores(), or vector_cores(8) for 8 cores");
    return Type::error();
  }
  splitNode_ = id;
  splitCube_ = cores.cube;
  kernel_->cores = cores.cores;
  Type r;
  r.kind = TypeKind::Range;
  if (auto d = extentDim(ast_, extent, e, module_)) r.shape.push_back(*d);
  return r;
}

void Checker::checkWith(NodeId id) {
  NodeId context = ast_.withContext(id);
  Type t = expr(context);
  if (t.isError()) {
    checkBlock(ast_.withBody(id));
    return;
  }
  if (t.kind != TypeKind::StageName) {
    error(context, fmt::format("'with' takes a stage: copyin, compute or copyout (got {})", typeStr(t)));
    return;
  }
  if (stage_ != Stage::None) {
    error(id, fmt::format("stage blocks cannot be nested ('with {}' inside 'with {}' at line {})",
                          stageName(*t.stageValue), stageName(stage_), lineOf(stageNode_)))
        .hint("close the outer stage block first");
    return;
  }
  stage_ = *t.stageValue;
  stageNode_ = id;
  stageStart_ = pos_;
  NodeId scope = scopes_.empty() ? kNoNode : scopes_.back();
  bool afterCompute = lastComputeDepth_ == scopes_.size() && lastComputeScope_ == scope;
  storeStageStart_ = stage_ == Stage::CopyOut && afterCompute ? lastComputeStart_ : pos_;
  result_.stages[id] = stage_;
  checkBlock(ast_.withBody(id));
  closeStage(id);
  if (stage_ == Stage::Compute) {
    lastComputeStart_ = stageStart_;
    lastComputeScope_ = scope;
    lastComputeDepth_ = scopes_.size();
  } else {
    lastComputeDepth_ = SIZE_MAX;  // only a compute block directly before the copyout takes its stores' work
  }
  stage_ = Stage::None;
  stageNode_ = kNoNode;
  result_.types[id].kind = TypeKind::None;
}

void Checker::checkIf(NodeId id) {
  // A stage is one straight-line block of ops on the hardware (the IR verifier holds lowering to that), so
  // an if inside one has no lowering: the checker refuses it, as it refuses a loop there.
  NodeId cond = ast_.ifCond(id);
  Type c = expr(cond);
  if (!c.isError() && c.kind != TypeKind::Bool) {
    auto d = error(cond, fmt::format("an if condition must be a scalar comparison (got {})", typeStr(c)));
    if (c.kind == TypeKind::Buffer) d.hint("to choose per element, use where(mask, a, b)");
  } else if (stage_ != Stage::None) {
    error(id, fmt::format("an if cannot be inside 'with {}'", stageName(stage_)))
        .hint(
            "stage blocks hold straight-line code; put the stage blocks inside the if, or choose per element "
            "with where(mask, a, b)");
    return;
  }
  scopes_.push_back(id);
  checkBlock(ast_.ifThen(id));
  scopes_.pop_back();
  // The else branch is its own scope, marked by its first statement, so names from the then branch are not
  // visible in it (nor after the if).
  auto otherwise = ast_.ifElse(id);
  if (!otherwise.empty()) {
    scopes_.push_back(otherwise[0]);
    checkBlock(otherwise);
    scopes_.pop_back();
  }
  result_.types[id].kind = TypeKind::None;
}

}  // namespace tilecraft::dsl::detail
