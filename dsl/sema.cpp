// Sema, part 1: module-level definitions, kernels, parameters, statements and names.
#include <fmt/format.h>

#include <algorithm>

#include "dsl/cpp_names.h"
#include "dsl/sema_internal.h"
#include "support/assert.h"

namespace tilecraft::dsl {

bool sameDim(const Dim& a, const Dim& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Dim::Kind::Const: return a.value == b.value;
    case Dim::Kind::Sym: return a.name == b.name;
    case Dim::Kind::Tile: return a.ref == b.ref;
  }
  return false;
}

std::string shapeStr(const std::vector<Dim>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += shape[i].kind == Dim::Kind::Const ? std::to_string(shape[i].value) : shape[i].name;
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

namespace {
std::string dimsStr(const std::vector<Dim>& shape) {
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += shape[i].kind == Dim::Kind::Const ? std::to_string(shape[i].value) : shape[i].name;
  }
  return out;
}
}  // namespace

const char* stageName(Stage stage) {
  switch (stage) {
    case Stage::None: return "none";
    case Stage::CopyIn: return "copyin";
    case Stage::Compute: return "compute";
    case Stage::CopyOut: return "copyout";
  }
  return "?";
}

const char* coreKindName(CoreKind kind) {
  switch (kind) {
    case CoreKind::Vector: return "vector";
    case CoreKind::Cube: return "cube";
    case CoreKind::Mixed: return "mixed";
  }
  return "?";
}

std::string typeStr(const Type& t) {
  switch (t.kind) {
    case TypeKind::Error: return "<error>";
    case TypeKind::None: return "none";
    case TypeKind::Int: return t.constInt ? fmt::format("int = {}", *t.constInt) : (t.device ? "int (device)" : "int");
    case TypeKind::Float: return t.constFloat ? fmt::format("float = {}", *t.constFloat) : "float";
    case TypeKind::Bool: return t.device ? "bool (device)" : "bool";
    case TypeKind::String: return "string";
    case TypeKind::DTypeName: return fmt::format("dtype {}", dtypeName(*t.dtypeValue));
    case TypeKind::MemName: return fmt::format("memory {}", memName(*t.memValue));
    case TypeKind::StageName: return fmt::format("stage {}", stageName(*t.stageValue));
    case TypeKind::Cores:
      return fmt::format("{}_cores({})", t.cube ? "cube" : "vector", t.cores ? std::to_string(t.cores) : "");
    case TypeKind::Range: return "range";
    case TypeKind::Tile: return fmt::format("tile of {}", t.shape.empty() ? 0 : t.shape[0].value);
    case TypeKind::Tensor: return fmt::format("{}[{}] in GM", dtypeName(t.dtype), dimsStr(t.shape));
    case TypeKind::Buffer: return fmt::format("{}[{}] in {}", dtypeName(t.dtype), dimsStr(t.shape), memName(t.mem));
    case TypeKind::Function: return "builtin";
  }
  return "?";
}

namespace detail {

std::string kib(int64_t bytes) {
  if (bytes % 1024 == 0) return fmt::format("{} KiB", bytes / 1024);
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  std::string text = fmt::format("{:.1f}", static_cast<double>(bytes) / 1024.0);
  if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
  return text + " KiB";
}

Checker::Checker(const support::SourceManager& sources, const Ast& ast, support::DiagnosticEngine& diagnostics)
    : sources_(sources), ast_(ast), diag_(diagnostics) {
  result_.types.assign(ast.size(), Type::error());
  result_.calls.assign(ast.size(), std::nullopt);
  result_.stages.assign(ast.size(), Stage::None);
  recordOf_.assign(ast.size(), -1);
}

SemaResult Checker::run() {
  if (ast_.root() != kNoNode) checkModule();
  return std::move(result_);
}

support::DiagnosticEngine::Builder Checker::error(NodeId id, std::string message) {
  return diag_.error(ast_.span(id), std::move(message));
}

std::string Checker::lineOf(NodeId id) const { return std::to_string(sources_.lineCol(ast_.span(id)).line); }

void Checker::checkModule() {
  std::map<std::string, NodeId> kernels;
  for (NodeId item : ast_.items(ast_.root())) {
    if (ast_.kind(item) == NodeKind::ConstDef) {
      checkConstDef(item);
      continue;
    }
    const std::string& name = ast_.node(item).name;
    if (auto it = kernels.find(name); it != kernels.end()) {
      error(item, fmt::format("kernel '{}' is already defined at line {}", name, lineOf(it->second)))
          .hint("give each kernel its own name");
    } else {
      kernels.emplace(name, item);
    }
    checkKernel(item);
  }
}

namespace {

// Names an LLM carries over from Triton, TileLang, AscendC or the AscendCraft DSL, with the Tile DSL spelling.
const char* foreignIdiomHint(const std::string& name) {
  static const std::pair<const char*, const char*> kIdioms[] = {
      {"program_id", "the core index is implicit: 'rows = split(M, cores=vector_cores())' gives this core's share"},
      {"get_block_idx", "the core index is implicit: 'rows = split(M, cores=vector_cores())' gives this core's share"},
      {"GetBlockIdx", "the core index is implicit: 'rows = split(M, cores=vector_cores())' gives this core's share"},
      {"num_programs", "the core count is a split() argument: cores=vector_cores() or cube_cores()"},
      {"arange", "address tiles by slicing tensors: x[t, :] with a tile variable from tiles(...)"},
      {"alloc_ub", "buffers are implicit: load(...) and every tile operation make their own UB buffer"},
      {"alloc_l1", "buffers are implicit: load(..., to=L1) makes an L1 tile"},
      {"vadd", "write a + b"},
      {"vsub", "write a - b"},
      {"vmul", "write a * b"},
      {"vdiv", "write a / b"},
      {"vmax", "use maximum(a, b)"},
      {"vmin", "use minimum(a, b)"},
      {"vexp", "use exp(x)"},
      {"vln", "use log(x)"},
      {"vabs", "use abs(x)"},
      {"vsqrt", "use sqrt(x)"},
      {"vrsqrt", "use rsqrt(x)"},
      {"vrelu", "use relu(x)"},
      {"duplicate", "use full(shape, value, dtype)"},
      {"softmax", "there is no softmax builtin: e = exp(v - reduce_max(v, axis=-1)); e / reduce_sum(e, axis=-1)"},
      {"barrier", "synchronisation is implicit: stages (with copyin/compute/copyout) are the unit of sync"},
      {"sync_all", "synchronisation is implicit: stages (with copyin/compute/copyout) are the unit of sync"},
  };
  for (const auto& [foreign, hint] : kIdioms) {
    if (name == foreign) return hint;
  }
  return nullptr;
}

bool isReservedName(const std::string& name) {
  return findBuiltin(name) || dtypeFromName(name) || memFromName(name) || name == "copyin" || name == "compute" ||
         name == "copyout" || name == "Tensor" || name == "kernel";
}

}  // namespace

// Dims, parameters and the kernel keep their DSL names in the generated code (dsl/cpp_names.h): a name that C++
// or the generated code already gives a meaning would not build, or would mean something else.
void Checker::checkGeneratedName(NodeId id, const std::string& name, const char* what, CppNameUse use) {
  std::string message = cppNameError(what, name, use);
  if (!message.empty()) error(id, message).hint(fmt::format("rename '{}' in the .tile file", name));
}

// NAME = dim(max=...) | NAME = <constant expression>
void Checker::checkConstDef(NodeId id) {
  const Node& n = ast_.node(id);
  NodeId value = n.kids[0];
  if (isReservedName(n.name)) {
    error(id, fmt::format("'{}' is a builtin name and cannot be redefined", n.name)).hint("choose another name");
    return;
  }
  if (auto it = module_.find(n.name); it != module_.end()) {
    error(id, fmt::format("'{}' is already defined at line {}", n.name, lineOf(it->second.node)));
    return;
  }
  ModuleSymbol sym;
  sym.node = id;
  checkGeneratedName(id, n.name, "module-level name", CppNameUse::HostScalar);
  bool isDimCall = ast_.kind(value) == NodeKind::Call && ast_.kind(ast_.callee(value)) == NodeKind::Name &&
                   ast_.node(ast_.callee(value)).name == "dim";
  if (isDimCall) {
    result_.calls[value] = Builtin::Dim;
    sym.isDim = true;
    sym.type.kind = TypeKind::Int;
    for (NodeId arg : ast_.callArgs(value)) {
      if (ast_.kind(arg) != NodeKind::Keyword || ast_.node(arg).name != "max") {
        error(arg, "dim() takes only the keyword argument 'max'").hint(fmt::format("{} = dim(max=4096)", n.name));
        continue;
      }
      NodeId v = ast_.child(arg, 0);
      Type t = expr(v);
      if (auto m = constIntOf(v, t, "the max of a dim")) {
        if (*m <= 0) {
          error(v, fmt::format("the max of a dim must be positive (got {})", *m));
        } else {
          sym.dimMax = *m;
        }
      }
    }
    result_.types[value] = sym.type;
  } else {
    Type t = expr(value);
    if (t.isError()) {
      sym.type = t;
    } else if ((t.kind == TypeKind::Int && t.constInt) || (t.kind == TypeKind::Float && t.constFloat)) {
      sym.type = t;
    } else {
      error(value,
            fmt::format("module-level '{}' must be a compile-time constant or dim() (got {})", n.name, typeStr(t)))
          .hint(fmt::format("write '{} = dim()' for a size known only at run time", n.name));
      sym.type = Type::error();
    }
  }
  result_.types[id] = sym.type;
  module_.emplace(n.name, sym);
}

void Checker::checkKernel(NodeId id) {
  const Node& n = ast_.node(id);
  KernelInfo kernel;
  kernel.node = id;
  kernel.name = n.name;
  size_t errorsBefore = diag_.errorCount();
  checkGeneratedName(id, n.name, "kernel", CppNameUse::Kernel);
  auto decos = ast_.decorators(id);
  if (decos.empty()) {
    error(id, fmt::format("function '{}' is not marked as a kernel", n.name)).hint("add '@kernel' above 'def'");
  }
  for (NodeId d : decos) {
    const Node& deco = ast_.node(d);
    if (deco.name != "kernel") {
      auto hint = error(d, fmt::format("unknown decorator '@{}'", deco.name));
      hint.hint("kernels are marked '@kernel'");
    } else if (deco.count) {
      error(d, "@kernel takes no arguments").hint("write '@kernel'; the core split is written in the body");
    }
  }
  // Fresh per-kernel state.
  kernel_ = &kernel;
  locals_.clear();
  loops_.clear();
  scopes_.clear();
  tiles_.clear();
  records_.clear();
  unknownReported_.clear();
  stage_ = Stage::None;
  stageNode_ = splitNode_ = cubeUse_ = vectorUse_ = kNoNode;
  splitCube_ = false;
  pos_ = 0;
  lastComputeDepth_ = SIZE_MAX;

  for (NodeId p : ast_.params(id)) checkParam(p, kernel);
  for (const ParamInfo& p : kernel.params) {
    // The launcher sizes each tensor in `<tensor>Count`.
    std::string count = p.name + "Count";
    if (!p.isTensor) continue;
    if (auto m = module_.find(count); m != module_.end() && m->second.isDim) {
      error(m->second.node, fmt::format("'{}' has the name the generated host code gives the element count of "
                                        "tensor '{}'",
                                        count, p.name))
          .hint("choose another name");
    } else if (auto l = locals_.find(count); l != locals_.end() && ast_.kind(l->second.def) == NodeKind::Param) {
      error(l->second.def, fmt::format("'{}' has the name the generated host code gives the element count of "
                                       "tensor '{}'",
                                       count, p.name))
          .hint("choose another name");
    }
  }
  checkBlock(ast_.kernelBody(id));

  bool anyStore = false;
  for (const ParamInfo& p : kernel.params) {
    if (!p.isTensor) continue;
    anyStore = anyStore || p.stored;
    // After an error the roles are incomplete (a failed load marks nothing), so these checks would mislead.
    if (!p.loaded && !p.stored && diag_.errorCount() == errorsBefore) {
      diag_.warning(ast_.span(p.node), fmt::format("tensor parameter '{}' is never loaded or stored", p.name));
    }
  }
  if (!anyStore && diag_.errorCount() == errorsBefore) {
    error(id, fmt::format("kernel '{}' stores to no tensor", n.name))
        .hint("an output is a Tensor parameter written with store(y[...], value) inside 'with copyout'");
  }
  if (cubeUse_ != kNoNode) {
    kernel.coreKind = vectorUse_ != kNoNode ? CoreKind::Mixed : CoreKind::Cube;
    if (splitNode_ != kNoNode && !splitCube_) {
      error(cubeUse_, fmt::format("matmul runs on cube cores but the kernel splits its work over vector cores "
                                  "(line {})",
                                  lineOf(splitNode_)))
          .hint(
              "split a kernel that uses the cube unit with cores=cube_cores(); vector work then runs on the "
              "two vector cores paired with each cube core");
    }
  } else {
    kernel.coreKind = CoreKind::Vector;
  }
  if (splitNode_ == kNoNode) kernel.cores = 1;  // no split or grid: the whole kernel is one core's work
  checkCapacity(kernel);
  result_.types[id].kind = TypeKind::None;
  kernel_ = nullptr;
  result_.kernels.push_back(std::move(kernel));
}

// param := NAME ':' (Tensor[dtype, (d0, d1, ...)] | dtype) ['=' default]
void Checker::checkParam(NodeId id, KernelInfo& kernel) {
  const Node& n = ast_.node(id);
  NodeId typeNode = n.kids[0];
  ParamInfo info;
  info.node = id;
  info.name = n.name;
  Type t = Type::error();
  const Node& tn = ast_.node(typeNode);
  if (tn.kind == NodeKind::Subscript && ast_.kind(ast_.subscriptBase(typeNode)) == NodeKind::Name &&
      ast_.node(ast_.subscriptBase(typeNode)).name == "Tensor") {
    auto idx = ast_.subscriptIndices(typeNode);
    if (idx.size() != 2) {
      error(typeNode,
            fmt::format("Tensor takes a dtype and a shape (got {} argument{})", idx.size(), idx.size() == 1 ? "" : "s"))
          .hint("write Tensor[f16, (M, N)]");
    } else {
      DType elem = DType::F32;
      bool dtypeOk = false;
      if (ast_.kind(idx[0]) == NodeKind::Name) {
        if (auto d = dtypeFromName(ast_.node(idx[0]).name)) {
          elem = *d;
          dtypeOk = elem != DType::Bool;
        }
      }
      if (!dtypeOk) {
        error(idx[0], "expected an element dtype (f16, bf16, f32, i8, u8, i16, i32, i64)");
      }
      auto shape = shapeFromTuple(idx[1], "a tensor dimension", &info.foldsLeading);
      if (shape && shape->empty()) {
        error(idx[1], "a tensor needs at least one dimension").hint("write (1,) for a single element");
        shape.reset();
      }
      if (dtypeOk && shape) {
        t.kind = TypeKind::Tensor;
        t.dtype = elem;
        t.mem = Mem::GM;
        t.shape = *shape;
        t.ref = id;
        info.isTensor = true;
      }
    }
  } else if (tn.kind == NodeKind::Name && dtypeFromName(tn.name)) {
    DType d = *dtypeFromName(tn.name);
    t.kind = d == DType::Bool ? TypeKind::Bool : isFloat(d) ? TypeKind::Float : TypeKind::Int;
    t.dtype = d;
  } else {
    error(typeNode, fmt::format("unknown parameter type for '{}'", n.name))
        .hint("write Tensor[f16, (M, N)] for a tensor, or a dtype such as f32 for a scalar attribute");
  }
  if (n.kids.size() > 1) {
    NodeId def = n.kids[1];
    Type dt = expr(def);
    if (info.isTensor) {
      error(def, "a tensor parameter cannot have a default value");
    } else if (!t.isError() && !dt.isError()) {
      bool ok = (t.kind == TypeKind::Float && (dt.constFloat || dt.constInt)) ||
                (t.kind == TypeKind::Int && dt.constInt) || (t.kind == TypeKind::Bool && dt.kind == TypeKind::Bool);
      if (!ok)
        error(def, fmt::format("default value of '{}' must be a constant of type {}", n.name, dtypeName(t.dtype)));
    }
  }
  if (locals_.count(n.name)) {
    error(id, fmt::format("duplicate parameter '{}'", n.name));
  } else if (isReservedName(n.name)) {
    error(id, fmt::format("'{}' is a builtin name and cannot be a parameter", n.name));
  } else if (auto m = module_.find(n.name); m != module_.end()) {
    // Shapes in the signature and the body would read one name two ways (and the host code declares it twice).
    error(id, fmt::format("parameter '{}' has the name of the {} defined at line {}", n.name,
                          m->second.isDim ? "dim()" : "module-level constant", lineOf(m->second.node)))
        .hint("rename the parameter or the module-level name");
  } else {
    checkGeneratedName(id, n.name, "parameter",
                       t.kind == TypeKind::Tensor ? CppNameUse::Tensor : CppNameUse::HostScalar);
    Binding b;
    b.type = t;
    b.def = id;
    locals_.emplace(n.name, b);
  }
  info.type = t;
  result_.types[id] = t;
  kernel.params.push_back(info);
}

void Checker::checkBlock(std::span<const NodeId> stmts) {
  for (NodeId s : stmts) {
    if (diag_.limitReached()) return;
    checkStatement(s);
  }
}

void Checker::checkStatement(NodeId id) {
  result_.stages[id] = stage_;
  const Node& n = ast_.node(id);
  switch (n.kind) {
    case NodeKind::Pass: return;
    case NodeKind::Assign:
    case NodeKind::AugAssign: return checkAssign(id);
    case NodeKind::For: return checkFor(id);
    case NodeKind::With: return checkWith(id);
    case NodeKind::If: return checkIf(id);
    case NodeKind::ExprStmt: {
      NodeId e = n.kids[0];
      if (ast_.kind(e) == NodeKind::StringLit) return;  // docstring or comment string
      Type t = expr(e);
      if (t.isError() || t.kind == TypeKind::None) return;
      error(e, fmt::format("the result of this expression ({}) is unused", typeStr(t)))
          .hint("assign it to a name, or store(...) it");
      return;
    }
    default: TC_ASSERT(false, "the parser makes no other statement kinds");
  }
}

void Checker::checkAssign(NodeId id) {
  const Node& n = ast_.node(id);
  NodeId target = n.kids[0];
  NodeId value = n.kids[1];
  switch (ast_.kind(target)) {
    case NodeKind::Name: break;
    case NodeKind::Subscript:
      expr(value);
      error(target, "cannot assign to a subscript")
          .hint("write a tile to global memory with store(y[...], value) inside 'with copyout'");
      return;
    case NodeKind::Tuple:
      error(target, "tuple assignment is not supported").hint("assign one name per statement");
      return;
    default:
      expr(value);
      error(target, "cannot assign to this expression");
      return;
  }
  if (n.kind == NodeKind::AugAssign) {
    Type a = lookup(target);
    result_.types[target] = a;  // tileArith() reads its operands' types from the table, as for an expression
    Type b = expr(value);
    Type r;
    if (a.isError() || b.isError()) {
      r = Type::error();
    } else if (a.kind == TypeKind::Buffer || b.kind == TypeKind::Buffer) {
      r = tileArith(id, n.op, target, a, value, b);
    } else {
      r = scalarArith(id, n.op, a, b);
    }
    result_.types[id] = r;
    bind(target, r, id);
    return;
  }
  Type t = expr(value);
  // A name binds a value: a dtype, a memory, a stage or an uncalled builtin names something the language has no
  // variable for, and lowering would find nothing to bind it to.
  static const std::pair<TypeKind, const char*> kNotValues[] = {{TypeKind::DTypeName, "a dtype"},
                                                                {TypeKind::MemName, "a memory"},
                                                                {TypeKind::StageName, "a stage"},
                                                                {TypeKind::Function, "a builtin"}};
  for (const auto& [kind, what] : kNotValues) {
    if (t.kind != kind) continue;
    std::string text = ast_.kind(value) == NodeKind::Name ? fmt::format("'{}'", ast_.node(value).name) : "this";
    error(value, fmt::format("{} is {}, not a value a name can hold", text, what))
        .hint(kind == TypeKind::Function ? "call it: name(...)"
                                         : "write it where it is used, e.g. cast(a, f32) or full((8, 16), 0.0, f32)");
    return;
  }
  if (t.kind == TypeKind::Buffer && ast_.kind(value) == NodeKind::Name && recordOf_[value] >= 0) {
    // `x = y` makes x its own value (a copy), so later in-place updates of x leave y alone. The copy is a
    // vector op: the copy stages move data between GM and on-chip memory only.
    if (stage_ == Stage::CopyIn || stage_ == Stage::CopyOut) {
      requireCompute(id,
                     fmt::format("copying a tile ('{} = {}')", ast_.node(target).name, ast_.node(value).name).c_str());
    }
    int source = recordOf_[value];
    use(value);
    records_[newRecord(value, t, "copy")].inPlaceFrom = {source};
  }
  result_.types[id] = t;
  bind(target, t, value);
}

// Binds `name` to a value. A name defined outside the innermost loop or if and reassigned inside it is an
// update in place: it keeps its type and its buffer, so the value after the loop or if is well defined.
void Checker::bind(NodeId nameNode, const Type& type, NodeId valueNode) {
  const std::string& name = ast_.node(nameNode).name;
  result_.types[nameNode] = type;
  if (isReservedName(name)) {
    error(nameNode, fmt::format("'{}' is a builtin name and cannot be assigned", name)).hint("choose another name");
    return;
  }
  if (module_.count(name)) {
    error(nameNode, fmt::format("'{}' is a module-level constant and cannot be assigned", name))
        .hint("choose another name");
    return;
  }
  auto it = locals_.find(name);
  int valueRecord = valueNode == kNoNode ? -1 : recordOf_[valueNode];
  if (it != locals_.end()) {
    Binding& old = it->second;
    if (ast_.kind(old.def) == NodeKind::Param) {
      error(nameNode, fmt::format("cannot assign to parameter '{}'", name))
          .hint(old.type.kind == TypeKind::Tensor ? "write to a tensor with store(...) inside 'with copyout'"
                                                  : "bind the new value to another name");
      return;
    }
    bool outer =
        old.scopes.size() < scopes_.size() && std::equal(old.scopes.begin(), old.scopes.end(), scopes_.begin());
    if (outer) {
      if (type.isError() || old.type.isError()) return;
      bool same = old.type.kind == type.kind;
      if (same && type.kind == TypeKind::Buffer) {
        same = old.type.mem == type.mem && old.type.dtype == type.dtype && old.type.shape.size() == type.shape.size();
        for (size_t i = 0; same && i < type.shape.size(); ++i) same = sameDim(old.type.shape[i], type.shape[i]);
      }
      if (!same) {
        NodeId scope = scopes_.back();
        const char* where = ast_.kind(scope) == NodeKind::For  ? "loop"
                            : ast_.kind(scope) == NodeKind::If ? "if"
                                                               : "else branch";
        error(nameNode, fmt::format("'{}' is updated inside the {} at line {} but changes type from {} to {}", name,
                                    where, lineOf(scope), typeStr(old.type), typeStr(type)))
            .note(ast_.span(old.def), fmt::format("'{}' is defined here", name))
            .hint(
                "a value carried across a loop or if keeps its dtype, shape and memory; use a new name for a "
                "different value");
        return;
      }
      if (type.kind == TypeKind::Buffer) {
        // In place: the new value reuses the old buffer, which stays live to the end of the enclosing loop.
        if (valueRecord >= 0 && valueRecord != old.record) {
          records_[valueRecord].end = records_[valueRecord].start;
          records_[valueRecord].folded = true;
        }
        if (old.record >= 0) ++records_[old.record].writes;
        recordOf_[nameNode] = old.record;
        use(nameNode);
      } else {
        old.type.constInt.reset();
        old.type.constFloat.reset();
        old.type.device = old.type.device || type.device;
      }
      return;
    }
  }
  // Lowering writes a rebound name into its existing buffer, so the buffer counts every write.
  if (it != locals_.end() && it->second.record >= 0 && valueRecord >= 0 && valueRecord != it->second.record) {
    records_[valueRecord].writes = records_[it->second.record].writes + 1;
  }
  Binding b;
  b.type = type;
  b.def = nameNode;
  b.record = valueRecord;
  b.loopDepth = loops_.size();
  b.scopes = scopes_;
  if (valueRecord >= 0 && !records_[valueRecord].named) {
    records_[valueRecord].label = fmt::format("'{}'", name);
    records_[valueRecord].named = true;
  }
  locals_[name] = b;
}

Type Checker::lookup(NodeId nameNode) {
  const std::string& name = ast_.node(nameNode).name;
  if (kernel_) {
    if (auto it = locals_.find(name); it != locals_.end()) {
      const Binding& b = it->second;
      bool visible = b.scopes.size() <= scopes_.size() && std::equal(b.scopes.begin(), b.scopes.end(), scopes_.begin());
      if (!visible) {
        NodeId scope = kNoNode;
        for (size_t i = 0; i < b.scopes.size(); ++i) {
          if (i >= scopes_.size() || scopes_[i] != b.scopes[i]) {
            scope = b.scopes[i];
            break;
          }
        }
        bool isLoop = ast_.kind(scope) == NodeKind::For;
        const char* where = isLoop ? "loop" : ast_.kind(scope) == NodeKind::If ? "if" : "else branch";
        error(nameNode, fmt::format("'{}' is defined inside the {} at line {} and is not visible here", name, where,
                                    lineOf(scope)))
            .note(ast_.span(b.def), fmt::format("'{}' is defined here", name))
            .hint(isLoop ? "define it before the loop (for a tile, with zeros(...) inside 'with compute') and update "
                           "it inside"
                         : "define it before the if and update it in the branches");
        return Type::error();
      }
      recordOf_[nameNode] = b.record;
      if (b.type.kind == TypeKind::Int && !b.type.affine) {
        // An integer that is not affine (i % OL) is an opaque atom, so slices like 4*o : 4*o + 4 still fold.
        Type t = b.type;
        t.affine = Affine{{{name, 1}}, 0};
        return t;
      }
      return b.type;
    }
  }
  if (auto it = module_.find(name); it != module_.end()) {
    Type t = it->second.type;
    if (!t.isError() && it->second.isDim) t.constInt.reset();
    return t;
  }
  Type t;
  if (const BuiltinInfo* info = findBuiltin(name)) {
    t.kind = TypeKind::Function;
    t.builtin = info->id;
    return t;
  }
  if (auto d = dtypeFromName(name)) {
    t.kind = TypeKind::DTypeName;
    t.dtypeValue = d;
    return t;
  }
  if (auto m = memFromName(name)) {
    t.kind = TypeKind::MemName;
    t.memValue = m;
    return t;
  }
  static const std::pair<const char*, Stage> kStages[] = {
      {"copyin", Stage::CopyIn}, {"compute", Stage::Compute}, {"copyout", Stage::CopyOut}};
  for (const auto& [stageText, stage] : kStages) {
    if (name == stageText) {
      t.kind = TypeKind::StageName;
      t.stageValue = stage;
      return t;
    }
  }
  // Unknown: suggest the closest name in scope.
  std::vector<std::string> candidates;
  for (const auto& [local, binding] : locals_) candidates.push_back(local);
  for (const auto& [sym, info] : module_) candidates.push_back(sym);
  for (const BuiltinInfo& info : allBuiltins()) candidates.push_back(info.name);
  for (DType d : kAllDTypes) candidates.push_back(dtypeName(d));
  for (const char* extra : {"UB", "L1", "L0A", "L0B", "L0C", "copyin", "compute", "copyout"}) {
    candidates.push_back(extra);
  }
  auto d = error(nameNode, fmt::format("name '{}' is not defined", name));
  if (const char* idiom = foreignIdiomHint(name)) {
    d.hint(idiom);
  } else if (auto close = closestName(name, candidates)) {
    d.hint(fmt::format("did you mean '{}'?", *close));
  } else if (!name.empty() && std::isupper(static_cast<unsigned char>(name[0]))) {
    d.hint(fmt::format("declare a size known at run time at module level: '{} = dim()'", name));
  }
  return Type::error();
}

}  // namespace detail

SemaResult check(const support::SourceManager& sources, const Ast& ast, support::DiagnosticEngine& diagnostics) {
  return detail::Checker(sources, ast, diagnostics).run();
}

}  // namespace tilecraft::dsl
