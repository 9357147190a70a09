#include "codegen/emit_context.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <set>

#include "codegen/source_text.h"
#include "dsl/cpp_names.h"
#include "ir/check.h"
#include "ir/scalar_walk.h"

namespace tilecraft::codegen::detail {

using ir::Extent;
using ir::NodeKind;
using ir::Op;

namespace {

// "gelu_f16" -> "GeluF16"
std::string camel(const std::string& name) {
  std::string out;
  bool upper = true;
  for (char ch : name) {
    if (ch == '_' || ch == '.') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return out;
}

// A buffer's IR name as a C++ identifier: "%0" -> "tmp0", "0.work" -> "tmp0Work", "acc.out" -> "accOut".
std::string identifier(const std::string& name) {
  std::string base = name;
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "tmp" + base;
  std::string out;
  bool upper = false;
  for (char ch : base) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    upper = false;
  }
  return out;
}

const char* binaryOp(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::FloorDiv: return "/";  // host and device integers here are never negative
    case Op::Mod: return "%";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::And: return "&&";
    case Op::Or: return "||";
    default: return nullptr;
  }
}

}  // namespace

EmitContext::EmitContext(const ir::Kernel& kernel, const EmitOptions& opts, support::DiagnosticEngine& diagnostics)
    : k(kernel), options(opts), diagnostics_(diagnostics) {
  className = "Kernel" + camel(k.name);
  tilingName = camel(k.name) + "TilingData";
  entryName = k.name;
  opType = camel(k.name) + "Custom";
  std::set<std::string> used;
  for (size_t i = 0; i < k.buffers.size(); ++i) {
    std::string name = identifier(k.buffers[i].name);
    if (!used.insert(name).second) name += std::to_string(i);  // two DSL scopes may reuse a name
    used.insert(name);
    bufNames_.push_back(name);
  }
  memberBuf_.assign(k.buffers.size(), false);
  checkNames();
  checkDevicePowers();
  std::set<std::string> loops;
  for (size_t i = 0; i < k.loops.size(); ++i) {
    std::string name = identifier(k.loops[i].name);
    if (!loops.insert(name).second) name += std::to_string(i);
    loops.insert(name);
    loopNames_.push_back(name);
  }
}

std::string EmitContext::tensor(ir::BufferId id) const { return bufNames_[id] + (memberBuf_[id] ? "Local_" : "Local"); }

std::string EmitContext::loopMember(uint32_t loop, const char* field) const { return loopNames_[loop] + field + "_"; }

std::string EmitContext::splitMember(uint32_t split, const char* field) const {
  return identifier(k.splits[split].name) + field + "_";
}

std::string EmitContext::localPrefix(const std::string& base) {
  std::string prefix = base;
  for (int n = 2; !localPrefixes_.insert(prefix).second; ++n) prefix = fmt::format("{}_{}", base, n);
  return prefix;
}

std::string EmitContext::deviceVar(uint32_t var) const { return identifier(k.vars[var].name) + "_"; }

std::string EmitContext::cppType(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::F16: return "half";
    case ir::DType::BF16: return "bfloat16_t";
    case ir::DType::F32: return "float";
    case ir::DType::I8: return "int8_t";
    case ir::DType::U8: return "uint8_t";
    case ir::DType::I16: return "int16_t";
    case ir::DType::I32: return "int32_t";
    case ir::DType::I64: return "int64_t";
    case ir::DType::Bool: return "uint8_t";
  }
  return "float";
}

std::string EmitContext::floatLiteral(double value) {
  // The checker has warned about a constant that overflows f32; the kernel gets that inf, not FLT_MAX. The GCC
  // builtins are constant expressions in GCC and Clang (CANN's compiler) and need no header.
  float f = static_cast<float>(value);
  if (std::isinf(f)) return f > 0 ? "__builtin_huge_valf()" : "(-__builtin_huge_valf())";
  if (std::isnan(f)) return "__builtin_nanf(\"\")";
  std::string s = fmt::format("{}", f);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s + "f";
}

// The tree is walked with a stack (ir/scalar_walk.h): it is as deep as the longest operator chain of the source.
std::string EmitContext::scalar(ir::NodeId id, Where where) const {
  return ir::foldScalar<std::string>(
      k, id, [&](const ir::Node& n, std::vector<std::string>& args) { return scalarNode(n, args, where); });
}

std::string EmitContext::scalarNode(const ir::Node& n, std::vector<std::string>& args, Where where) const {
  switch (n.kind) {
    case NodeKind::IntConst: return std::to_string(n.intValue);
    case NodeKind::FloatConst: return floatLiteral(n.floatValue);
    case NodeKind::VarRef: {
      const ir::Var& v = k.vars[n.ref];
      if (!v.inTiling()) return deviceVar(n.ref);
      return (where == Where::Host ? "t." : "tiling_.") + v.name;
    }
    case NodeKind::LoopField:
      TILECRAFT_CHECK(where == Where::Device, "a loop field in host code");
      switch (n.op) {
        case Op::Start: return loopMember(n.ref, "Start");
        case Op::Len: return loopMember(n.ref, "Len");
        case Op::Index: return loopMember(n.ref, "Idx");
        default: return std::to_string(n.size);
      }
    case NodeKind::SplitField:
      TILECRAFT_CHECK(where == Where::Device, "a split field in host code");
      return splitMember(n.ref, n.op == Op::Start ? "Start" : "Len");
    // A mixed kernel's vector cores walk their cube core's blocks (emit_kernel.cpp sets cubeBlock_).
    case NodeKind::BlockIdx:
      return k.coreKind == ir::CoreKind::Mixed ? "cubeBlock_" : "static_cast<int64_t>(GetBlockIdx())";
    case NodeKind::ScalarUnary: {
      std::string x = args.at(0);
      return n.op == Op::Neg ? "(-" + x + ")" : "(!" + x + ")";
    }
    case NodeKind::ScalarBinary: {
      std::string a = args.at(0), b = args.at(1);
      switch (n.op) {
        case Op::Cdiv: return fmt::format("TcCdiv({}, {})", a, b);
        case Op::Min: return fmt::format("TcMin({}, {})", a, b);
        case Op::Max: return fmt::format("TcMax({}, {})", a, b);
        case Op::Pow:
          // Float powers are host tiling arithmetic (bias corrections); the launcher's host code has <cmath>.
          if (n.dtype == ir::DType::F32 && where == Where::Host) {
            return fmt::format("static_cast<float>(std::pow(static_cast<double>({}), static_cast<double>({})))", a, b);
          }
          return fmt::format("TcPow({}, {})", a, b);
        case Op::Div:
          if (n.dtype == ir::DType::F32) return fmt::format("(static_cast<float>({}) / {})", a, b);
          break;
        default: break;
      }
      const char* op = binaryOp(n.op);
      TILECRAFT_CHECK(op != nullptr, fmt::format("scalar operator {} has no C++ spelling", ir::opName(n.op)));
      return fmt::format("({} {} {})", a, op, b);
    }
    default: TILECRAFT_CHECK(false, fmt::format("node {} is not a scalar", ir::nodeKindName(n.kind)));
  }
}

std::string EmitContext::scalarAs(ir::NodeId id, ir::DType dtype) const {
  const ir::Node& n = k.node(id);
  if (n.kind == NodeKind::FloatConst && dtype == ir::DType::F32) return floatLiteral(n.floatValue);
  if (n.kind == NodeKind::FloatConst)
    return fmt::format("static_cast<{}>({})", cppType(dtype), floatLiteral(n.floatValue));
  return fmt::format("static_cast<{}>({})", cppType(dtype), scalar(id, Where::Device));
}

std::string EmitContext::extent(const Extent& e, Where where) const {
  switch (e.kind) {
    case Extent::Kind::Const: return std::to_string(e.value);
    case Extent::Kind::Dim: return (where == Where::Host ? "t." : "tiling_.") + k.vars[e.ref].name;
    case Extent::Kind::Tile: return loopMember(e.ref, "Len");
  }
  return "0";
}

int64_t EmitContext::blockElems(ir::DType dtype) {
  int bits = dsl::dtypeBits(dtype);
  return bits >= 8 ? 256 / bits : 32;
}

std::string EmitContext::pitch(ir::BufferId id) const {
  const ir::Buffer& b = k.buffer(id);
  const Extent& e = b.shape.back();
  if (b.dtype == ir::DType::Bool) {
    // A mask holds one bit per element (a uint8_t tensor): its rows are ceil(n / 8) bytes padded to 32.
    if (e.kind == Extent::Kind::Dim) return fmt::format("TcAlignUp(TcCdiv({}, 8), 32)", extent(e));
    return std::to_string(ir::alignUp((e.value + 7) / 8, 32));
  }
  int64_t be = blockElems(b.dtype);
  if (e.kind == Extent::Kind::Dim) return fmt::format("TcAlignUp({}, {})", extent(e), be);
  return std::to_string(ir::alignUp(e.value, be));
}

std::string EmitContext::rows(ir::BufferId id) const {
  const ir::Buffer& b = k.buffer(id);
  std::string out;
  for (size_t i = 0; i + 1 < b.shape.size(); ++i) {
    if (b.shape[i].kind == Extent::Kind::Const && b.shape[i].value == 1) continue;
    out += (out.empty() ? "" : " * ") + extent(b.shape[i]);
  }
  return out.empty() ? "1" : out;
}

std::string EmitContext::inner(ir::BufferId id) const { return extent(k.buffer(id).shape.back()); }

bool EmitContext::oneRow(ir::BufferId id) const { return rows(id) == "1"; }

bool EmitContext::dense(ir::BufferId id) const {
  const ir::Buffer& b = k.buffer(id);
  if (oneRow(id)) return true;
  const Extent& e = b.shape.back();
  int64_t whole = b.dtype == ir::DType::Bool ? 256 : blockElems(b.dtype);  // a mask's 32 bytes are 256 elements
  return e.kind == Extent::Kind::Const && e.value % whole == 0;
}

std::string EmitContext::lineComment(uint32_t line) const {
  if (line == 0) return "";
  std::string text;
  if (line <= options.sourceLines.size()) {
    text = options.sourceLines[line - 1];
    size_t first = text.find_first_not_of(' ');
    text = first == std::string::npos ? "" : text.substr(first);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
  }
  return fmt::format("// {}:{}: {}", escapeSourceText(options.sourceName), line, escapeSourceText(text));
}

void EmitContext::comment(CodePrinter& p, uint32_t line) {
  p.setTileLine(line);
  if (line == 0 || line == lastLine_) return;
  lastLine_ = line;
  p.line(lineComment(line));
}

// The DSL's names that the generated code spells as they are (the entry, the tensors, the tiling fields and the
// launcher's locals); the others get a prefix or a suffix (buffers, loops, device scalars). The checker refused
// the kernel's, the parameters' and the dims' bad names already; only lowering knows which of the kernel's
// scalars are computed on the host and so become tiling fields, so those are checked here, from the same table.
void EmitContext::checkNames() {
  TC_ASSERT(dsl::cppNameError("kernel", k.name, dsl::CppNameUse::Kernel).empty(), "the checker let kernel '{}' through",
            k.name);
  for (uint32_t v : tilingVars(k)) {
    const ir::Var& var = k.vars[v];
    if (var.kind == ir::Var::Kind::Attr || var.kind == ir::Var::Kind::Dim) continue;  // the checker's
    std::string message = dsl::cppNameError("scalar", var.name, dsl::CppNameUse::HostScalar);
    if (message.empty()) continue;
    failed_ = true;
    diagnostics_.error(k.span, message).hint(fmt::format("rename '{}' in the .tile file", var.name));
  }
}

// The lowering turns a float power by a small constant integer into multiplications; any other float power is
// computed with std::pow, which only the host has. One left in kernel code would otherwise be printed with the
// integer TcPow and truncate (0.5 ** 2 gave 0).
void EmitContext::checkDevicePowers() {
  std::vector<bool> host(k.nodes.size(), false);
  std::vector<ir::NodeId> work;
  for (const ir::Var& v : k.vars) {
    bool hostValue = v.kind == ir::Var::Kind::Host || v.kind == ir::Var::Kind::Field;
    if (hostValue && v.value != ir::kNone) work.push_back(v.value);
  }
  while (!work.empty()) {
    ir::NodeId id = work.back();
    work.pop_back();
    if (host[id]) continue;
    host[id] = true;
    for (ir::NodeId a : k.node(id).args) work.push_back(a);
  }
  for (size_t id = 0; id < k.nodes.size(); ++id) {
    const ir::Node& n = k.nodes[id];
    if (n.kind == NodeKind::ScalarBinary && n.op == Op::Pow && dsl::isFloat(n.dtype) && !host[id]) {
      unsupported(n, "float powers computed in the kernel other than by a constant integer from -64 to 64");
    }
  }
}

void EmitContext::unsupported(const ir::Node& node, const std::string& what) {
  failed_ = true;
  support::Span span = node.span.valid() ? node.span : k.span;
  diagnostics_.error(span, fmt::format("the AscendC emitter does not support {} yet", what))
      .hint(
          "compile with --emit=ir to inspect the kernel; see docs/compiler.md \"AscendC emitter\" for what is "
          "supported");
}

int64_t blockDim(const ir::Kernel& k) {
  for (const ir::SplitInfo& s : k.splits) {
    if (s.cores > 0) return s.cores;
  }
  // A grid is a range loop from the block index stepping by its core count.
  for (const ir::Node& n : k.nodes) {
    if (n.kind == NodeKind::RangeLoop && n.args.size() == 3 && k.node(n.args[0]).kind == NodeKind::BlockIdx &&
        k.node(n.args[2]).kind == NodeKind::IntConst) {
      return k.node(n.args[2]).intValue;
    }
  }
  return 1;
}

const char* kernelMode(const ir::Kernel& k) {
  switch (k.coreKind) {
    case ir::CoreKind::Vector: return "AIV_MODE";
    case ir::CoreKind::Cube: return "AIC_MODE";
    case ir::CoreKind::Mixed: return "MIX_MODE";
  }
  return "AIV_MODE";
}

}  // namespace tilecraft::codegen::detail
