// The typed AST dump: the syntax tree with each expression's type, then a summary per kernel.
#include <fmt/format.h>

#include "dsl/sema.h"

namespace tilecraft::dsl {

std::string printTypedAst(const support::SourceManager& sources, const Ast& ast, const SemaResult& sema) {
  std::string out = printAst(sources, ast, [&](NodeId id) {
    const Node& n = ast.node(id);
    const Type& t = sema.types[id];
    std::string suffix;
    if ((n.kind == NodeKind::With || n.kind == NodeKind::Assign || n.kind == NodeKind::ExprStmt ||
         n.kind == NodeKind::AugAssign) &&
        sema.stages[id] != Stage::None) {
      suffix = fmt::format(" [{}]", stageName(sema.stages[id]));
    }
    if (t.kind != TypeKind::Error && t.kind != TypeKind::None && t.kind != TypeKind::Function) {
      suffix += " : " + typeStr(t);
    }
    return suffix;
  });
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
