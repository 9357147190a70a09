#include "dsl/ast.h"

#include <fmt/format.h>

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
  }
  return "?";
}

namespace {

void printNode(const support::SourceManager& sources, const Ast& ast, const std::function<std::string(NodeId)>& suffix,
               NodeId id, int depth, std::string& out) {
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
  out += fmt::format("{}{}{} <{}:{}>{}\n", indent, nodeKindName(n.kind), detail, lc.line, lc.col,
                     suffix ? suffix(id) : std::string());
  for (size_t i = 0; i < n.kids.size(); ++i) {
    // The then/else boundary of an If is not visible from the children alone.
    if (n.kind == NodeKind::If && i == n.split) out += indent + "  else\n";
    printNode(sources, ast, suffix, n.kids[i], depth + 1, out);
  }
}

}  // namespace

std::string printAst(const support::SourceManager& sources, const Ast& ast,
                     const std::function<std::string(NodeId)>& suffix) {
  std::string out;
  if (ast.root() != kNoNode) printNode(sources, ast, suffix, ast.root(), 0, out);
  return out;
}

}  // namespace tilecraft::dsl
