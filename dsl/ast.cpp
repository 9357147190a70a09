#include "dsl/ast.h"

#include <fmt/format.h>

#include <vector>

namespace tilecraft::dsl {

const char* nodeKindName(NodeKind kind) {
  switch (kind) {
#define X(k) \
  case NodeKind::k: return #k;
    TILECRAFT_NODE_KINDS(X)
#undef X
  }
  return "?";
}

const char* opSpelling(OpKind op) {
  switch (op) {
    case OpKind::None: return "";
    case OpKind::Add: return "+";
    case OpKind::Sub: return "-";
    case OpKind::Mul: return "*";
    case OpKind::Div: return "/";
    case OpKind::FloorDiv: return "//";
    case OpKind::Mod: return "%";
    case OpKind::Pow: return "**";
    case OpKind::MatMul: return "@";
    case OpKind::Neg: return "-";
    case OpKind::Pos: return "+";
    case OpKind::Not: return "not";
    case OpKind::And: return "and";
    case OpKind::Or: return "or";
    case OpKind::Eq: return "==";
    case OpKind::Ne: return "!=";
    case OpKind::Lt: return "<";
    case OpKind::Le: return "<=";
    case OpKind::Gt: return ">";
    case OpKind::Ge: return ">=";
    case OpKind::In: return "in";
  }
  return "?";
}

namespace {

std::string nodeLine(const support::SourceManager& sources, const Ast& ast,
                     const std::function<std::string(NodeId)>& suffix, NodeId id) {
  const Node& n = ast.node(id);
  support::LineCol lc = sources.lineCol(n.span);
  std::string detail;
  switch (n.kind) {
    case NodeKind::IntLit: detail = fmt::format(" {}", n.intValue); break;
    case NodeKind::FloatLit: detail = " " + n.name; break;
    case NodeKind::BoolLit: detail = n.intValue ? " True" : " False"; break;
    case NodeKind::StringLit:
      detail = fmt::format(" \"{}\"", n.name.size() > 40 ? n.name.substr(0, 37) + "..." : n.name);
      break;
    case NodeKind::Unary:
    case NodeKind::Binary:
    case NodeKind::Compare:
    case NodeKind::Logical:
    case NodeKind::AugAssign: detail = fmt::format(" '{}'", opSpelling(n.op)); break;
    default:
      if (!n.name.empty()) detail = " " + n.name;
  }
  for (char& c : detail) {
    if (c == '\n') c = ' ';
  }
  return fmt::format("{} <{}:{}>{}\n", nodeKindName(n.kind) + detail, lc.line, lc.col,
                     suffix ? suffix(id) : std::string());
}

// Depth first with an explicit stack: an operator chain makes the tree as deep as the chain is long.
void printTree(const support::SourceManager& sources, const Ast& ast, const std::function<std::string(NodeId)>& suffix,
               std::string& out) {
  struct Entry {
    NodeId id;
    size_t depth;
    bool elseMarker;  // the then/else boundary of an If, which is not visible from the children alone
  };
  std::vector<Entry> stack{{ast.root(), 0, false}};
  while (!stack.empty()) {
    Entry e = stack.back();
    stack.pop_back();
    std::string indent(e.depth * 2, ' ');
    if (e.elseMarker) {
      out += indent + "else\n";
      continue;
    }
    if (e.id == kNoNode) {
      out += indent + "-\n";
      continue;
    }
    out += indent + nodeLine(sources, ast, suffix, e.id);
    const Node& n = ast.node(e.id);
    for (size_t i = n.kids.size(); i-- > 0;) {
      stack.push_back({n.kids[i], e.depth + 1, false});
      if (n.kind == NodeKind::If && i == n.split) stack.push_back({kNoNode, e.depth + 1, true});
    }
  }
}

}  // namespace

std::string printAst(const support::SourceManager& sources, const Ast& ast,
                     const std::function<std::string(NodeId)>& suffix) {
  std::string out;
  if (ast.root() != kNoNode) printTree(sources, ast, suffix, out);
  return out;
}

}  // namespace tilecraft::dsl
