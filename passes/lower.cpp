#include "passes/lower.h"

#include <fmt/format.h>

#include <algorithm>

#include "dsl/builtins.h"
#include "ir/check.h"
#include "passes/lower_internal.h"

namespace tilecraft::passes {

namespace detail {

using dsl::Builtin;
using dsl::NodeKind;
using dsl::TypeKind;

KernelLowering::KernelLowering(const dsl::Ast& ast, const dsl::SemaResult& sema, const support::SourceManager& sources,
                               support::DiagnosticEngine& diag, const dsl::KernelInfo& info, ir::Kernel& kernel)
    : ast_(ast), sema_(sema), sources_(sources), diag_(diag), info_(info), k_(kernel), b_(kernel) {}

void KernelLowering::unsupported(dsl::NodeId at, const std::string& message, const std::string& hint) {
  auto d = diag_.error(ast_.span(at), message);
  if (!hint.empty()) d.hint(hint);
  throw Unsupported{};
}

void KernelLowering::setLine(dsl::NodeId id) { b_.setSource(ast_.span(id), sources_.lineCol(ast_.span(id)).line); }

const Binding* KernelLowering::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (auto found = it->find(name); found != it->end()) return &found->second;
  }
  return nullptr;
}

void KernelLowering::bindName(const std::string& name, Binding binding) { scopes_.back()[name] = binding; }

void KernelLowering::emit(ir::NodeId statement) {
  ir::NodeId parent = parents_.back();
  b_.append(parent, statement);
  if (k_.node(parent).kind == ir::NodeKind::Stage) stageOfOp_[statement] = parent;
}

void KernelLowering::run() {
  k_.name = info_.name;
  k_.coreKind = info_.coreKind == dsl::CoreKind::Vector ? ir::CoreKind::Vector
                : info_.coreKind == dsl::CoreKind::Cube ? ir::CoreKind::Cube
                                                        : ir::CoreKind::Mixed;
  setLine(info_.node);
  k_.span = ast_.span(info_.node);
  k_.body = b_.block();
  parents_.push_back(k_.body);
  scopes_.emplace_back();
  params();
  statements(ast_.kernelBody(info_.node));
  hoistHostPowers();
}

namespace {

// True when the scalar tree reads only constants, dims, attributes and host values: the host tiling function can
// compute it.
bool hostComputable(const ir::Kernel& k, ir::NodeId root) {
  std::vector<ir::NodeId> work{root};
  while (!work.empty()) {
    const ir::Node& n = k.node(work.back());
    work.pop_back();
    switch (n.kind) {
      case ir::NodeKind::IntConst:
      case ir::NodeKind::FloatConst: break;
      case ir::NodeKind::VarRef:
        if (k.vars[n.ref].kind == ir::Var::Kind::Device) return false;
        break;
      case ir::NodeKind::ScalarUnary:
      case ir::NodeKind::ScalarBinary: work.insert(work.end(), n.args.begin(), n.args.end()); break;
      default: return false;  // loop and split fields, the block index
    }
  }
  return true;
}

}  // namespace

// The scalar unit has no pow: a float power left in kernel code (a device definition such as `s = alpha ** 1.5`
// when `s` is assigned twice, or a scalar operand) whose operands the host knows becomes a host tiling value
// `pow_N`, computed with std::pow as the host tiling function computes the others. The node turns into a reference
// to it in place, so whatever points at it needs no rewriting.
void KernelLowering::hoistHostPowers() {
  std::vector<bool> host(k_.nodes.size(), false);
  std::vector<ir::NodeId> work;
  for (const ir::Var& v : k_.vars) {
    if (v.kind == ir::Var::Kind::Host && v.value != ir::kNone) work.push_back(v.value);
  }
  while (!work.empty()) {
    ir::NodeId id = work.back();
    work.pop_back();
    if (host[id]) continue;
    host[id] = true;
    for (ir::NodeId a : k_.node(id).args) work.push_back(a);
  }
  size_t count = k_.nodes.size();
  int hoisted = 0;
  for (ir::NodeId id = 0; id < count; ++id) {
    const ir::Node& n = k_.node(id);
    if (host[id] || n.kind != ir::NodeKind::ScalarBinary || n.op != ir::Op::Pow || !dsl::isFloat(n.dtype)) continue;
    if (!hostComputable(k_, n.args[0]) || !hostComputable(k_, n.args[1])) continue;
    ir::Node pow = n;
    std::string name;
    for (bool taken = true; taken;) {
      name = fmt::format("pow_{}", ++hoisted);
      taken = false;
      for (const ir::Var& v : k_.vars) taken = taken || v.name == name;
    }
    ir::Var v;
    v.name = name;
    v.kind = ir::Var::Kind::Host;
    v.dtype = pow.dtype;
    v.value = static_cast<ir::NodeId>(k_.nodes.size());
    k_.nodes.push_back(pow);
    uint32_t var = b_.addVar(std::move(v));
    ir::Node& ref = k_.nodes[id];
    ref.kind = ir::NodeKind::VarRef;
    ref.op = ir::Op::None;
    ref.args.clear();
    ref.ref = var;
  }
}

uint32_t KernelLowering::dimVar(dsl::NodeId constDef, const std::string& name, int64_t max) {
  if (auto it = dimVars_.find(constDef); it != dimVars_.end()) return it->second;
  ir::Var v;
  v.name = name;
  v.kind = ir::Var::Kind::Dim;
  v.dtype = ir::DType::I64;
  v.max = max;
  uint32_t id = b_.addVar(std::move(v));
  dimVars_[constDef] = id;
  return id;
}

void KernelLowering::params() {
  for (size_t i = 0; i < info_.params.size(); ++i) {
    const dsl::ParamInfo& p = info_.params[i];
    ir::Param param;
    param.name = p.name;
    if (p.isTensor) {
      param.role = p.loaded && p.stored ? ir::TensorRole::InOut
                   : p.stored           ? ir::TensorRole::Out
                   : p.loaded           ? ir::TensorRole::In
                                        : ir::TensorRole::Unused;
      param.dtype = p.type.dtype;
      param.shape = extents(p.type.shape, p.node);
      k_.params.push_back(std::move(param));
      bindName(p.name, {Binding::Kind::Param, static_cast<uint32_t>(k_.params.size() - 1)});
      continue;
    }
    // A scalar attribute: its annotation names its dtype (`alpha: f32`), and it travels in the tiling struct.
    dsl::NodeId annotation = ast_.child(p.node, 0);
    auto dtype = dsl::dtypeFromName(ast_.node(annotation).name);
    TILECRAFT_CHECK(dtype.has_value(), "a checked scalar parameter has a dtype annotation");
    ir::Var v;
    v.name = p.name;
    v.kind = ir::Var::Kind::Attr;
    v.dtype = *dtype;
    uint32_t var = b_.addVar(std::move(v));
    param.role = ir::TensorRole::Attr;
    param.dtype = *dtype;
    param.var = var;
    k_.params.push_back(std::move(param));
    bindName(p.name, {Binding::Kind::Var, var});
  }
}

void KernelLowering::statements(std::span<const dsl::NodeId> stmts) {
  for (dsl::NodeId s : stmts) statement(s);
}

void KernelLowering::statement(dsl::NodeId id) {
  setLine(id);
  const dsl::Node& n = ast_.node(id);
  switch (n.kind) {
    case NodeKind::Assign: assign(id, n.kids[0], n.kids[1], dsl::OpKind::None); return;
    case NodeKind::AugAssign: assign(id, n.kids[0], n.kids[1], n.op); return;
    case NodeKind::For: forLoop(id); return;
    case NodeKind::With: withStage(id); return;
    case NodeKind::If: ifStmt(id); return;
    case NodeKind::Pass: return;
    case NodeKind::ExprStmt: {
      dsl::NodeId e = n.kids[0];
      if (ast_.kind(e) == NodeKind::StringLit) return;  // a docstring
      if (ast_.kind(e) == NodeKind::Call && sema_.calls[e] == Builtin::Store) {
        store(e);
        return;
      }
      // The checker rejects expression statements other than store() and docstrings.
      TILECRAFT_CHECK(false, "a checked expression statement is a store or a docstring");
      return;
    }
    default: TILECRAFT_CHECK(false, fmt::format("cannot lower a {} statement", dsl::nodeKindName(n.kind)));
  }
}

void KernelLowering::assign(dsl::NodeId id, dsl::NodeId target, dsl::NodeId value, dsl::OpKind augmented) {
  TILECRAFT_CHECK(ast_.kind(target) == NodeKind::Name, "the checker allows assignment to names only");
  const std::string& name = ast_.node(target).name;
  const dsl::Type& t = type(augmented == dsl::OpKind::None ? value : id);
  if (t.kind == TypeKind::Range) {
    // rows = split(E, cores=...): this core's share, computed from tiling fields by core-split.
    dsl::NodeId call = value;
    auto args = positional(call);
    auto kw = keywords(call);
    bool cube = false;
    int64_t cores = 0;
    if (auto it = kw.find("cores"); it != kw.end()) {
      cube = type(it->second).cube;
      cores = type(it->second).cores;
    }
    if (cores == 0) cores = cube ? dsl::kCubeCores : dsl::kVectorCores;
    uint32_t split = b_.addSplit({name, cube, cores});
    emit(b_.coreSplit(split, scalar(args.at(0)), cores));
    bindName(name, {Binding::Kind::Split, split});
    return;
  }
  const Binding* existing = lookup(name);
  if (t.kind == TypeKind::Buffer || (existing && existing->kind == Binding::Kind::Buffer)) {
    ir::BufferId dst = existing && existing->kind == Binding::Kind::Buffer ? existing->id : ir::kNone;
    ir::BufferId result = ir::kNone;
    if (augmented != dsl::OpKind::None) {
      Value v = arith(id, augmented, target, value, dst, name);
      result = v.buffer;
    } else {
      result = tile(value, dst, name);
    }
    if (dst == ir::kNone) bindName(name, {Binding::Kind::Buffer, result});
    return;
  }
  // A scalar. Constants fold where they are used (sema knows their values); host values join the tiling
  // struct; device values are computed in the kernel.
  if (t.constInt || t.constFloat) return;
  ir::NodeId rhs = augmented != dsl::OpKind::None ? ir::kNone : scalar(value);
  if (augmented != dsl::OpKind::None) {
    ir::Op op = augmented == dsl::OpKind::Add   ? ir::Op::Add
                : augmented == dsl::OpKind::Sub ? ir::Op::Sub
                : augmented == dsl::OpKind::Mul ? ir::Op::Mul
                                                : ir::Op::Div;
    rhs = b_.scalarBinary(op, scalar(target), scalar(value));
  }
  if (!t.device && !existing) {
    ir::Var v;
    v.name = name;
    v.kind = ir::Var::Kind::Host;
    v.dtype = t.kind == TypeKind::Float ? ir::DType::F32 : t.kind == TypeKind::Bool ? ir::DType::Bool : ir::DType::I64;
    v.value = rhs;
    bindName(name, {Binding::Kind::Var, b_.addVar(std::move(v))});
    return;
  }
  uint32_t var = ir::kNone;
  if (existing && existing->kind == Binding::Kind::Var && k_.vars[existing->id].kind == ir::Var::Kind::Device) {
    var = existing->id;
  } else {
    ir::Var v;
    v.name = name;
    v.kind = ir::Var::Kind::Device;
    v.dtype = t.kind == TypeKind::Float ? ir::DType::F32 : t.kind == TypeKind::Bool ? ir::DType::Bool : ir::DType::I64;
    var = b_.addVar(std::move(v));
    bindName(name, {Binding::Kind::Var, var});
  }
  emit(b_.scalarDef(var, rhs));
}

void KernelLowering::forLoop(dsl::NodeId id) {
  dsl::NodeId iter = ast_.forIter(id);
  auto targets = ast_.forTargets(id);
  std::optional<Builtin> builtin = ast_.kind(iter) == NodeKind::Call ? sema_.calls[iter] : std::nullopt;
  TILECRAFT_CHECK(builtin.has_value(), "a checked for loop iterates a builtin");
  auto args = positional(iter);
  auto kw = keywords(iter);
  ir::NodeId loopNode = ir::kNone;
  if (*builtin == Builtin::Tiles) {
    const std::string& name = ast_.node(targets[0]).name;
    uint32_t loop = b_.addLoop({name, true});
    loopOf_[targets[0]] = loop;
    ir::NodeId start = ir::kNone;
    ir::NodeId len = ir::kNone;
    dsl::NodeId extentNode = args.at(0);
    if (type(extentNode).kind == TypeKind::Range) {
      const Binding* split = lookup(ast_.node(extentNode).name);
      TILECRAFT_CHECK(split && split->kind == Binding::Kind::Split, "a range is a split name");
      start = b_.splitField(split->id, ir::Op::Start);
      len = b_.splitField(split->id, ir::Op::Len);
    } else {
      start = b_.intConst(0);
      len = scalar(extentNode);
    }
    int64_t size = *type(kw.at("size")).constInt;
    int buffers = 2;
    if (auto it = kw.find("buffers"); it != kw.end()) buffers = static_cast<int>(*type(it->second).constInt);
    loopNode = b_.tileLoop(loop, start, len, size, buffers);
    emit(loopNode);
    scopes_.emplace_back();
    bindName(name, {Binding::Kind::Loop, loop});
  } else if (*builtin == Builtin::Range) {
    const std::string& name = ast_.node(targets[0]).name;
    uint32_t loop = b_.addLoop({name, false});
    ir::NodeId start = args.size() >= 2 ? scalar(args[0]) : b_.intConst(0);
    ir::NodeId stop = scalar(args.size() >= 2 ? args[1] : args[0]);
    ir::NodeId step = args.size() == 3 ? scalar(args[2]) : b_.intConst(1);
    loopNode = b_.rangeLoop(loop, start, stop, step);
    emit(loopNode);
    scopes_.emplace_back();
    bindName(name, {Binding::Kind::Loop, loop});
  } else {
    TILECRAFT_CHECK(*builtin == Builtin::Grid, "a checked for loop is tiles, range or grid");
    gridLoop(id, iter);
    return;
  }
  parents_.push_back(loopNode);
  statements(ast_.forBody(id));
  parents_.pop_back();
  scopes_.pop_back();
}

// grid((E0, E1, ...), size=(S0, S1, ...), cores=C) deals blocks round-robin: a range loop over the block
// index from this core's index in steps of C, and inside it one single-tile loop per grid variable, whose
// start and length come from the block's coordinates. The block counts are host tiling fields.
void KernelLowering::gridLoop(dsl::NodeId id, dsl::NodeId iter) {
  auto targets = ast_.forTargets(id);
  auto args = positional(iter);
  auto kw = keywords(iter);
  auto elements = [&](dsl::NodeId n) {
    std::vector<dsl::NodeId> out;
    if (ast_.kind(n) == NodeKind::Tuple) {
      out.assign(ast_.node(n).kids.begin(), ast_.node(n).kids.end());
    } else {
      out.push_back(n);
    }
    return out;
  };
  std::vector<dsl::NodeId> extents = elements(args.at(0));
  std::vector<dsl::NodeId> sizes = elements(kw.at("size"));
  TILECRAFT_CHECK(extents.size() == targets.size() && sizes.size() == targets.size(), "one extent per grid variable");
  bool cube = false;
  int64_t cores = 0;
  if (auto it = kw.find("cores"); it != kw.end()) {
    cube = type(it->second).cube;
    cores = type(it->second).cores;
  }
  if (cores == 0) cores = cube ? dsl::kCubeCores : dsl::kVectorCores;
  int buffers = 1;
  if (auto it = kw.find("buffers"); it != kw.end()) buffers = static_cast<int>(*type(it->second).constInt);
  auto hostVar = [&](std::string name, ir::NodeId value) {
    ir::Var v;
    v.name = std::move(name);
    v.kind = ir::Var::Kind::Host;
    v.dtype = ir::DType::I64;
    v.value = value;
    return b_.addVar(std::move(v));
  };
  std::vector<uint32_t> blocks;
  ir::NodeId total = ir::kNone;
  for (size_t i = 0; i < targets.size(); ++i) {
    int64_t size = *type(sizes[i]).constInt;
    uint32_t var = hostVar(ast_.node(targets[i]).name + "_blocks",
                           b_.scalarBinary(ir::Op::Cdiv, scalar(extents[i]), b_.intConst(size)));
    blocks.push_back(var);
    total = total == ir::kNone ? b_.varRef(var) : b_.scalarBinary(ir::Op::Mul, total, b_.varRef(var));
  }
  uint32_t totalVar = hostVar("grid_blocks", total);
  uint32_t blockLoop = b_.addLoop({"grid_block", false});
  ir::NodeId range = b_.rangeLoop(blockLoop, b_.blockIdx(), b_.varRef(totalVar), b_.intConst(cores));
  emit(range);
  parents_.push_back(range);
  scopes_.emplace_back();
  size_t pushed = 1;
  for (size_t i = 0; i < targets.size(); ++i) {
    // Coordinate i of the block: (block // (blocks of the later dims)) % blocks_i, row-major like the grid.
    ir::NodeId coord = b_.loopField(blockLoop, ir::Op::Index);
    ir::NodeId later = ir::kNone;
    for (size_t j = i + 1; j < targets.size(); ++j) {
      later = later == ir::kNone ? b_.varRef(blocks[j]) : b_.scalarBinary(ir::Op::Mul, later, b_.varRef(blocks[j]));
    }
    if (later != ir::kNone) coord = b_.scalarBinary(ir::Op::FloorDiv, coord, later);
    if (i > 0) coord = b_.scalarBinary(ir::Op::Mod, coord, b_.varRef(blocks[i]));
    int64_t size = *type(sizes[i]).constInt;
    ir::NodeId start = b_.scalarBinary(ir::Op::Mul, coord, b_.intConst(size));
    ir::NodeId len =
        b_.scalarBinary(ir::Op::Min, b_.intConst(size), b_.scalarBinary(ir::Op::Sub, scalar(extents[i]), start));
    const std::string& name = ast_.node(targets[i]).name;
    uint32_t loop = b_.addLoop({name, true});
    loopOf_[targets[i]] = loop;
    // One tile per block: one copy of each value unless buffers=2 asks to overlap consecutive blocks (the
    // checker counts the same copies).
    ir::NodeId tile = b_.tileLoop(loop, start, len, size, buffers);
    emit(tile);
    bindName(name, {Binding::Kind::Loop, loop});
    parents_.push_back(tile);
    ++pushed;
  }
  statements(ast_.forBody(id));
  for (size_t i = 0; i < pushed; ++i) parents_.pop_back();
  scopes_.pop_back();
}

void KernelLowering::withStage(dsl::NodeId id) {
  ir::Stage stage = ir::Stage::Compute;
  switch (*type(ast_.withContext(id)).stageValue) {
    case dsl::Stage::CopyIn: stage = ir::Stage::CopyIn; break;
    case dsl::Stage::CopyOut: stage = ir::Stage::CopyOut; break;
    default: break;
  }
  ir::NodeId parent = parents_.back();
  // The store values of a copyout are computed at the end of the compute stage just before it, when there is
  // one at the same level; otherwise storeComputeStage() makes one on demand.
  storeCompute_ = ir::kNone;
  if (stage == ir::Stage::CopyOut && !k_.node(parent).body.empty()) {
    ir::NodeId prev = k_.node(parent).body.back();
    if (k_.node(prev).kind == ir::NodeKind::Stage && k_.node(prev).stage == ir::Stage::Compute) storeCompute_ = prev;
  }
  ir::NodeId node = b_.stage(stage);
  emit(node);
  parentOfStage_[node] = parent;
  currentStage_ = node;
  parents_.push_back(node);
  statements(ast_.withBody(id));
  parents_.pop_back();
  currentStage_ = ir::kNone;
}

ir::NodeId KernelLowering::storeComputeStage() {
  if (storeCompute_ != ir::kNone) return storeCompute_;
  // Insert a compute stage right before the copyout stage being lowered.
  ir::NodeId copyout = currentStage_;
  ir::NodeId parent = parentOfStage_.at(copyout);
  ir::NodeId stage = b_.stage(ir::Stage::Compute);
  auto& body = k_.node(parent).body;
  auto it = std::find(body.begin(), body.end(), copyout);
  TILECRAFT_CHECK(it != body.end(), "the copyout stage is in its parent");
  body.insert(it, stage);
  parentOfStage_[stage] = parent;
  storeCompute_ = stage;
  return stage;
}

void KernelLowering::ifStmt(dsl::NodeId id) {
  ir::NodeId node = b_.ifStmt(scalar(ast_.ifCond(id)));
  emit(node);
  parents_.push_back(node);
  scopes_.emplace_back();
  statements(ast_.ifThen(id));
  scopes_.pop_back();
  parents_.pop_back();
  if (!ast_.ifElse(id).empty()) {
    // The else branch goes to `orelse`: lower it into a scratch block and move its statements.
    ir::NodeId scratch = b_.block();
    parents_.push_back(scratch);
    scopes_.emplace_back();
    statements(ast_.ifElse(id));
    scopes_.pop_back();
    parents_.pop_back();
    k_.node(node).orelse = k_.node(scratch).body;
    k_.node(scratch).body.clear();
  }
}

void KernelLowering::store(dsl::NodeId call) {
  auto args = positional(call);
  auto kw = keywords(call);
  bool accumulate = false;
  if (auto it = kw.find("accumulate"); it != kw.end()) accumulate = flag(it->second);
  uint32_t param = ir::kNone;
  ir::BufferId gatherIndex = ir::kNone;
  std::vector<ir::GmIndex> gm = access(args.at(0), &param, &gatherIndex);
  TILECRAFT_CHECK(gatherIndex == ir::kNone, "the checker allows index tiles in loads only");
  dsl::NodeId valueNode = args.at(1);
  ir::BufferId value = ir::kNone;
  const Binding* named = ast_.kind(valueNode) == NodeKind::Name ? lookup(ast_.node(valueNode).name) : nullptr;
  if (named && named->kind == Binding::Kind::Buffer) {
    value = named->id;
    const ir::Buffer& buf = k_.buffer(value);
    // A queue hands one value from one stage to the next. A value written by several ops (an accumulator) or
    // in a stage elsewhere is copied into a fresh buffer at the end of the compute stage before this copyout.
    int writes = 0;
    ir::NodeId firstWriter = ir::kNone;
    for (ir::NodeId n = 0; n < k_.nodes.size(); ++n) {
      if (k_.nodes[n].dst == value && ir::isTileOpKind(k_.nodes[n].kind)) {
        ++writes;
        if (firstWriter == ir::kNone) firstWriter = n;
      }
    }
    bool sameLevel = firstWriter != ir::kNone && stageOfOp_.count(firstWriter) &&
                     parentOfStage_.at(stageOfOp_.at(firstWriter)) == parentOfStage_.at(currentStage_);
    if (buf.mem == ir::Mem::UB && (writes != 1 || !sameLevel)) {
      ir::BufferId fresh = temp(ir::Mem::UB, buf.dtype, buf.shape, buf.name + ".out");
      ir::NodeId saved = parents_.back();
      parents_.back() = storeComputeStage();
      emit(b_.copy(fresh, value, false));
      parents_.back() = saved;
      value = fresh;
    }
  } else {
    ir::NodeId saved = parents_.back();
    parents_.back() = storeComputeStage();
    value = tile(valueNode);
    parents_.back() = saved;
  }
  setLine(call);
  emit(b_.store(param, std::move(gm), value, accumulate));
}

}  // namespace detail

ir::Module lower(const dsl::Ast& ast, const dsl::SemaResult& sema, const support::SourceManager& sources,
                 support::DiagnosticEngine& diagnostics) {
  ir::Module module;
  for (const dsl::KernelInfo& info : sema.kernels) {
    ir::Kernel kernel;
    try {
      detail::KernelLowering(ast, sema, sources, diagnostics, info, kernel).run();
    } catch (const detail::Unsupported&) {
      continue;
    }
    module.kernels.push_back(std::move(kernel));
  }
  return module;
}

}  // namespace tilecraft::passes
