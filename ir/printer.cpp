#include "ir/printer.h"

#include <fmt/format.h>

#include "ir/check.h"
#include "ir/scalar_walk.h"

namespace tilecraft::ir {

namespace {

std::string extentStr(const Kernel& k, const Extent& e) {
  switch (e.kind) {
    case Extent::Kind::Const: return std::to_string(e.value);
    case Extent::Kind::Dim: return k.vars.at(e.ref).name;
    case Extent::Kind::Tile: return k.loops.at(e.ref).name;
  }
  return "?";
}

const char* binarySpelling(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::FloorDiv: return "//";
    case Op::Mod: return "%";
    case Op::Pow: return "**";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::And: return "and";
    case Op::Or: return "or";
    default: return nullptr;
  }
}

std::string floatStr(double v) {
  std::string s = fmt::format("{}", v);
  // Keep floats visibly floats, so `2` and `2.0` never print alike.
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

class Printer {
 public:
  explicit Printer(const Kernel& k) : k_(k) {}

  std::string kernel() {
    out_ += fmt::format("kernel {}: {}", k_.name, coreKindName(k_.coreKind));
    for (const SplitInfo& s : k_.splits) out_ += fmt::format(", {} {} cores", s.cores, s.cube ? "cube" : "vector");
    out_ += "\n";
    for (const Var& v : k_.vars) {
      if (!v.inTiling()) continue;
      out_ += fmt::format("  tiling {}: {}", v.name, dsl::dtypeName(v.dtype));
      switch (v.kind) {
        case Var::Kind::Dim: out_ += v.max > 0 ? fmt::format(" dim <= {}", v.max) : " dim"; break;
        case Var::Kind::Attr: out_ += " attribute"; break;
        case Var::Kind::Host:
        case Var::Kind::Field: out_ += " = " + printScalar(k_, v.value); break;
        case Var::Kind::Device: break;
      }
      out_ += "\n";
    }
    for (const Param& p : k_.params) {
      if (p.shape.empty()) continue;
      out_ += fmt::format("  tensor {}: {} in GM ({}{})\n", p.name, printShape(k_, p.dtype, p.shape), roleName(p.role),
                          p.streamed ? ", streamed" : "");
    }
    for (size_t i = 0; i < k_.buffers.size(); ++i) {
      const Buffer& b = k_.buffers[i];
      out_ += fmt::format("  buffer %{}: {} in {}, {} B", b.name, printShape(k_, b.dtype, b.shape), dsl::memName(b.mem),
                          b.bytes);
      if (b.buffers > 1) out_ += fmt::format(" x{}", b.buffers);
      if (b.kind == BufferKind::Work) out_ += " work";
      if (b.queue != QueueKind::None) out_ += fmt::format(" {}", queueKindName(b.queue));
      if (b.offset >= 0) out_ += fmt::format(" @{}", b.offset);
      out_ += "\n";
    }
    if (k_.planned) {
      out_ += "  planned:";
      for (Mem m : {Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C}) {
        int64_t used = k_.plannedBytes[static_cast<int>(m)];
        if (used > 0) out_ += fmt::format(" {} {}/{}", dsl::memName(m), used, dsl::memCapacityBytes(m));
      }
      out_ += "\n";
      // The InitBuffer calls of the emitted Init(), one line per memory.
      for (Mem m : {Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C}) {
        std::string calls;
        for (const PipeBuffer& p : k_.pipe) {
          if (p.mem != m) continue;
          calls += calls.empty() ? "" : ", ";
          calls += p.queue == kNone ? fmt::format("tbuf {} @{}", p.bytes, p.offset)
                                    : fmt::format("{} {}x{} @{}", b(p.queue), p.copies, p.bytes, p.offset);
        }
        if (!calls.empty()) out_ += fmt::format("  pipe {}: {}\n", dsl::memName(m), calls);
      }
    }
    TILECRAFT_CHECK(k_.body != kNone, "kernel without a body");
    for (NodeId s : k_.node(k_.body).body) stmt(s, 1);
    return std::move(out_);
  }

 private:
  std::string b(BufferId id) { return "%" + k_.buffers.at(id).name; }

  std::string gm(const Node& n) {
    const Param& p = k_.params.at(n.ref);
    std::string s = p.name + "[";
    for (size_t i = 0; i < n.access.size(); ++i) {
      const GmIndex& g = n.access[i];
      if (i) s += ", ";
      switch (g.kind) {
        case GmIndex::Kind::Full: s += ":"; break;
        case GmIndex::Kind::Tile: s += k_.loops.at(g.loop).name; break;
        case GmIndex::Kind::Point: s += printScalar(k_, g.lo); break;
        case GmIndex::Kind::Slice:
          s += fmt::format("{} : +{}", printScalar(k_, g.lo), extentStr(k_, g.width));
          if (g.valid != kNone) s += fmt::format(" valid {}", printScalar(k_, g.valid));
          break;
        case GmIndex::Kind::Gather: s += b(n.srcs.at(0)); break;
      }
    }
    return s + "]";
  }

  void line(int depth, const std::string& text, uint32_t srcLine) {
    std::string s(2 * depth, ' ');
    s += text;
    if (srcLine) {
      if (s.size() < 64) s.resize(64, ' ');
      s += fmt::format("  # line {}", srcLine);
    }
    out_ += s + "\n";
  }

  void body(const std::vector<NodeId>& stmts, int depth) {
    for (NodeId s : stmts) stmt(s, depth);
  }

  std::string srcList(const Node& n) {
    std::string s;
    for (size_t i = 0; i < n.srcs.size(); ++i) s += (i ? ", " : "") + b(n.srcs[i]);
    return s;
  }

  // The work buffer and, for a vector op the legalize pass gave another form than one instruction per row, that.
  std::string withWork(const Node& n, std::string text) {
    if (n.work != kNone) text += fmt::format(" work={}", b(n.work));
    if (n.form != VecForm::Rows) text += fmt::format(" {}", vecFormName(n.form));
    return text;
  }

  void stmt(NodeId id, int depth) {
    const Node& n = k_.node(id);
    auto sc = [&](size_t i) { return printScalar(k_, n.args.at(i)); };
    switch (n.kind) {
      case NodeKind::Block:
        line(depth, "block:", n.line);
        body(n.body, depth + 1);
        return;
      case NodeKind::CoreSplit: {
        std::string text = fmt::format("split {} = {} over {} cores", k_.splits.at(n.ref).name, sc(0), n.cores);
        if (n.args.size() == 3) text += fmt::format(": start={} len={}", sc(1), sc(2));
        line(depth, text, n.line);
        return;
      }
      case NodeKind::TileLoop: {
        std::string text = fmt::format("for {} in tiles(start={}, len={}, size={}, buffers={})",
                                       k_.loops.at(n.ref).name, sc(0), sc(1), n.size, n.buffers);
        if (n.args.size() == 4) text += fmt::format(" count={} tail={}", sc(2), sc(3));
        line(depth, text + ":", n.line);
        body(n.body, depth + 1);
        return;
      }
      case NodeKind::RangeLoop:
        line(depth, fmt::format("for {} in range({}, {}, {}):", k_.loops.at(n.ref).name, sc(0), sc(1), sc(2)), n.line);
        body(n.body, depth + 1);
        return;
      case NodeKind::If:
        line(depth, fmt::format("if {}:", sc(0)), n.line);
        body(n.body, depth + 1);
        if (!n.orelse.empty()) {
          line(depth, "else:", 0);
          body(n.orelse, depth + 1);
        }
        return;
      case NodeKind::Stage:
        line(depth, fmt::format("{}:", stageName(n.stage)), n.line);
        body(n.body, depth + 1);
        return;
      case NodeKind::ScalarDef: line(depth, fmt::format("{} = {}", k_.vars.at(n.ref).name, sc(0)), n.line); return;
      case NodeKind::Load: {
        std::string text = fmt::format("{} = load {}", b(n.dst), gm(n));
        if (n.padValue != 0) text += fmt::format(" pad={}", floatStr(n.padValue));
        if (n.tail) text += " tail";
        line(depth, text, n.line);
        return;
      }
      case NodeKind::Store:
        line(depth,
             fmt::format("store {}, {}{}{}{}", gm(n), b(n.srcs.at(0)),
                         k_.buffers.at(n.srcs.at(0)).mem == Mem::L0C ? " via fixpipe" : "",
                         n.accumulate ? " accumulate" : "", n.tail ? " tail" : ""),
             n.line);
        return;
      case NodeKind::Copy:
        line(depth,
             withWork(n, fmt::format("{} = copy {}{}", b(n.dst), b(n.srcs.at(0)), n.transpose ? " transpose" : "")),
             n.line);
        return;
      case NodeKind::Fill: line(depth, withWork(n, fmt::format("{} = fill {}", b(n.dst), sc(0))), n.line); return;
      case NodeKind::Cast:
        line(depth, withWork(n, fmt::format("{} = cast {} to {}", b(n.dst), b(n.srcs.at(0)), dsl::dtypeName(n.dtype))),
             n.line);
        return;
      case NodeKind::Unary:
      case NodeKind::Binary:
      case NodeKind::Select:
      case NodeKind::Broadcast:
      case NodeKind::Gather: {
        const char* name = n.kind == NodeKind::Select      ? "select"
                           : n.kind == NodeKind::Broadcast ? "broadcast"
                           : n.kind == NodeKind::Gather    ? "gather"
                                                           : opName(n.op);
        line(depth, withWork(n, fmt::format("{} = {} {}", b(n.dst), name, srcList(n))), n.line);
        return;
      }
      case NodeKind::BinaryScalar:
      case NodeKind::Compare: {
        std::string text = fmt::format("{} = {} {}", b(n.dst), opName(n.op), srcList(n));
        if (!n.args.empty()) text += ", " + sc(0);
        line(depth, withWork(n, text), n.line);
        return;
      }
      case NodeKind::Reduce:
      case NodeKind::Scan:
        line(depth,
             withWork(n, fmt::format("{} = {}.{} {}, axis={}", b(n.dst), n.kind == NodeKind::Reduce ? "reduce" : "scan",
                                     opName(n.op), b(n.srcs.at(0)), n.axis)),
             n.line);
        return;
      case NodeKind::Matmul:
        line(depth, fmt::format("{} {} matmul {}", b(n.dst), n.accumulate ? "+=" : "=", srcList(n)), n.line);
        return;
      case NodeKind::Alloc:
      case NodeKind::EnQue:
      case NodeKind::DeQue:
      case NodeKind::Free: {
        const char* name = n.kind == NodeKind::Alloc   ? "alloc"
                           : n.kind == NodeKind::EnQue ? "enque"
                           : n.kind == NodeKind::DeQue ? "deque"
                                                       : "free";
        line(depth, fmt::format("{} {}", name, b(n.srcs.at(0))), 0);
        return;
      }
      case NodeKind::Flag:
        line(depth, fmt::format("flag {}->{} {}", pipeName(n.fromPipe), pipeName(n.toPipe), b(n.srcs.at(0))), 0);
        return;
      default: TILECRAFT_CHECK(false, fmt::format("{} is not a statement", nodeKindName(n.kind)));
    }
  }

  const Kernel& k_;
  std::string out_;
};

}  // namespace

std::string printShape(const Kernel& kernel, DType dtype, const std::vector<Extent>& shape) {
  std::string s = fmt::format("{}[", dsl::dtypeName(dtype));
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + extentStr(kernel, shape[i]);
  return s + "]";
}

std::string printScalar(const Kernel& k, NodeId id) {
  TILECRAFT_CHECK(id < k.nodes.size(), "scalar id out of range");
  return foldScalar<std::string>(k, id, [&](const Node& n, std::vector<std::string>& args) -> std::string {
    auto arg = [&](size_t i) { return args.at(i); };
    switch (n.kind) {
      case NodeKind::IntConst: return std::to_string(n.intValue);
      case NodeKind::FloatConst: return floatStr(n.floatValue);
      case NodeKind::VarRef: return k.vars.at(n.ref).name;
      case NodeKind::LoopField:
        return n.op == Op::Index ? k.loops.at(n.ref).name : fmt::format("{}.{}", k.loops.at(n.ref).name, opName(n.op));
      case NodeKind::SplitField: return fmt::format("{}.{}", k.splits.at(n.ref).name, opName(n.op));
      case NodeKind::BlockIdx: return "block_idx";
      case NodeKind::ScalarUnary: return n.op == Op::Neg ? "-" + arg(0) : "not " + arg(0);
      case NodeKind::ScalarBinary:
        if (const char* sym = binarySpelling(n.op)) return fmt::format("({} {} {})", arg(0), sym, arg(1));
        return fmt::format("{}({}, {})", opName(n.op), arg(0), arg(1));
      default: TILECRAFT_CHECK(false, fmt::format("{} is not a scalar", nodeKindName(n.kind)));
    }
    return "";
  });
}

std::string printKernel(const Kernel& kernel) { return Printer(kernel).kernel(); }

std::string printModule(const Module& module) {
  std::string out;
  for (size_t i = 0; i < module.kernels.size(); ++i) {
    if (i) out += "\n";
    out += printKernel(module.kernels[i]);
  }
  return out;
}

}  // namespace tilecraft::ir
