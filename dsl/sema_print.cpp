// The typed AST dump: the syntax tree with each expression's type, then a summary per kernel.
#include <fmt/format.h>

#include "dsl/sema.h"

namespace tilecraft::dsl {

namespace {

void printTyped(const support::SourceManager& sources, const Ast& ast, const SemaResult& sema, NodeId id, int depth,
                std::string& out) {
  std::string indent(static_cast<size_t>(depth) * 2, ' ');
  if (id == kNoNode) {
    out += indent + "-\n";
    return;
  }
  const Node& n = ast.node(id);
  support::LineCol lc = sources.lineCol(n.span);
  std::string detail;
  switch (n.kind) {
    case NodeKind::IntLit: detail = fmt::format(" {}", n.intValue); break;
    case NodeKind::FloatLit: detail = " " + n.name; break;
    case NodeKind::BoolLit: detail = n.intValue ? " True" : " False"; break;
    case NodeKind::StringLit: detail = " \"...\""; break;
    case NodeKind::Unary:
    case NodeKind::Binary:
    case NodeKind::Compare:
    case NodeKind::Logical:
    case NodeKind::AugAssign: detail = fmt::format(" '{}'", opSpelling(n.op)); break;
    default:
      if (!n.name.empty()) detail = " " + n.name;
  }
  const Type& t = sema.types[id];
  std::string type;
  if (t.kind != TypeKind::Error && t.kind != TypeKind::None && t.kind != TypeKind::Function) {
    type = " : " + typeStr(t);
  }
  std::string stage;
  if ((n.kind == NodeKind::With || n.kind == NodeKind::Assign || n.kind == NodeKind::ExprStmt ||
       n.kind == NodeKind::AugAssign) &&
      sema.stages[id] != Stage::None) {
    stage = fmt::format(" [{}]", stageName(sema.stages[id]));
  }
  out += fmt::format("{}{}{} <{}:{}>{}{}\n", indent, nodeKindName(n.kind), detail, lc.line, lc.col, stage, type);
  for (size_t i = 0; i < n.kids.size(); ++i) {
    if (n.kind == NodeKind::If && i == n.split) out += indent + "  else\n";
    printTyped(sources, ast, sema, n.kids[i], depth + 1, out);
  }
}

}  // namespace

std::string printTypedAst(const support::SourceManager& sources, const Ast& ast, const SemaResult& sema) {
  std::string out;
  if (ast.root() != kNoNode) printTyped(sources, ast, sema, ast.root(), 0, out);
  for (const KernelInfo& k : sema.kernels) {
    out += fmt::format("kernel {}: {} cores{}\n", k.name, coreKindName(k.coreKind),
                       k.cores ? fmt::format(" (at most {})", k.cores) : "");
    for (const ParamInfo& p : k.params) {
      if (!p.isTensor) {
        out += fmt::format("  attribute {}: {}\n", p.name, dtypeName(p.type.dtype));
        continue;
      }
      const char* role = p.loaded && p.stored ? "in/out" : p.stored ? "out" : p.loaded ? "in" : "unused";
      out += fmt::format("  tensor {}: {} ({})\n", p.name, typeStr(p.type), role);
    }
    std::string peaks;
    for (Mem m : {Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C}) {
      int64_t b = k.peakBytes[static_cast<size_t>(m)];
      if (b == 0) continue;
      peaks += fmt::format(" {} {}/{}", memName(m), b, memCapacityBytes(m));
    }
    out += fmt::format("  peak bytes:{}\n", peaks.empty() ? " none" : peaks);
  }
  return out;
}

}  // namespace tilecraft::dsl
