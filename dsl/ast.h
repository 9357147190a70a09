// The Tile DSL syntax tree: one flat node list indexed by NodeId, a kind enum, and enum operators.
// Children live in `kids`; the layout per kind is fixed and read through the accessors below, so later stages
// (Sema, lowering) never depend on the raw layout.
//
//   Module      kids = items (ConstDef | Kernel)
//   ConstDef    name = NAME; kids = [value]                     NAME = expr at module level
//   Kernel      name; kids = [Decorator*, Param*, stmt*]; count = #decorators, split = first body stmt
//   Decorator   name; kids = [args...]; count = 1 when written with parentheses
//   Param       name; kids = [type expr, default?]
//   Assign      kids = [target, value]      AugAssign op; kids = [target, value]
//   ExprStmt    kids = [expr]               Pass (no kids)
//   For         kids = [target Name*, iter, stmt*]; count = #targets, split = first body stmt
//   With        kids = [context expr, stmt*]
//   If          kids = [cond, then stmt*, else stmt*]; split = first else stmt (an elif is an If in else)
//   Name        name                        IntLit intValue; FloatLit floatValue (name = spelling)
//   StringLit   name = contents             BoolLit intValue; NoneLit
//   Unary       op; kids = [operand]        Binary / Compare / Logical: op; kids = [lhs, rhs]
//   Call        kids = [callee, arg*] (Keyword args after positional ones)
//   Keyword     name; kids = [value]
//   Subscript   kids = [base, index*]       Slice kids = [lo, hi, step], kNoNode where omitted
//   Attribute   name; kids = [base]         Tuple kids = elements
//   IfExp       kids = [then, cond, else]   `a if c else b`: only module-level generic definitions (dsl/generic.h)
//   Ellipsis    `...`: only the first dimension of a tensor parameter's shape
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "support/source.h"

namespace tilecraft::dsl {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

// X-macro lists and packed enumerators are laid out by hand, several per line.
// clang-format off
#define TILECRAFT_NODE_KINDS(X)                                                                         \
  X(Module) X(ConstDef) X(Kernel) X(Decorator) X(Param) X(Assign) X(AugAssign) X(ExprStmt) X(Pass) X(For) \
  X(With) X(If) X(Name) X(IntLit) X(FloatLit) X(StringLit) X(BoolLit) X(NoneLit) X(Unary) X(Binary)     \
  X(Compare) X(Logical) X(Call) X(Keyword) X(Subscript) X(Slice) X(Attribute) X(Tuple) X(IfExp) X(Ellipsis)
// clang-format on

enum class NodeKind : unsigned char {
#define X(k) k,
  TILECRAFT_NODE_KINDS(X)
#undef X
};

// clang-format off
enum class OpKind : unsigned char {
  None,
  // arithmetic (Binary, AugAssign)
  Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul,
  // Unary
  Neg, Pos, Not,
  // Logical
  And, Or,
  // Compare
  Eq, Ne, Lt, Le, Gt, Ge, In,
};
// clang-format on

const char* nodeKindName(NodeKind kind);
/// Python spelling: "+", "@", "not", "<=".
const char* opSpelling(OpKind op);

struct Node {
  NodeKind kind = NodeKind::Pass;
  OpKind op = OpKind::None;
  support::Span span;
  std::string name;
  int64_t intValue = 0;
  double floatValue = 0;
  uint32_t count = 0;
  uint32_t split = 0;
  std::vector<NodeId> kids;
};

class Ast {
 public:
  NodeId add(Node node) {
    nodes_.push_back(std::move(node));
    return static_cast<NodeId>(nodes_.size() - 1);
  }
  const Node& node(NodeId id) const { return nodes_[id]; }
  Node& node(NodeId id) { return nodes_[id]; }
  NodeKind kind(NodeId id) const { return nodes_[id].kind; }
  const support::Span& span(NodeId id) const { return nodes_[id].span; }
  size_t size() const { return nodes_.size(); }
  NodeId root() const { return root_; }
  void setRoot(NodeId id) { root_ = id; }

  // Layout accessors (see the table above).
  std::span<const NodeId> items(NodeId module) const { return nodes_[module].kids; }
  std::span<const NodeId> decorators(NodeId kernel) const { return range(kernel, 0, nodes_[kernel].count); }
  std::span<const NodeId> params(NodeId kernel) const {
    return range(kernel, nodes_[kernel].count, nodes_[kernel].split);
  }
  std::span<const NodeId> kernelBody(NodeId kernel) const { return tail(kernel, nodes_[kernel].split); }
  std::span<const NodeId> forTargets(NodeId f) const { return range(f, 0, nodes_[f].count); }
  NodeId forIter(NodeId f) const { return nodes_[f].kids[nodes_[f].count]; }
  std::span<const NodeId> forBody(NodeId f) const { return tail(f, nodes_[f].split); }
  NodeId withContext(NodeId w) const { return nodes_[w].kids[0]; }
  std::span<const NodeId> withBody(NodeId w) const { return tail(w, 1); }
  NodeId ifCond(NodeId i) const { return nodes_[i].kids[0]; }
  std::span<const NodeId> ifThen(NodeId i) const { return range(i, 1, nodes_[i].split); }
  std::span<const NodeId> ifElse(NodeId i) const { return tail(i, nodes_[i].split); }
  NodeId callee(NodeId call) const { return nodes_[call].kids[0]; }
  std::span<const NodeId> callArgs(NodeId call) const { return tail(call, 1); }
  NodeId subscriptBase(NodeId s) const { return nodes_[s].kids[0]; }
  std::span<const NodeId> subscriptIndices(NodeId s) const { return tail(s, 1); }
  NodeId child(NodeId id, size_t i) const { return nodes_[id].kids[i]; }

 private:
  std::span<const NodeId> range(NodeId id, size_t begin, size_t end) const {
    return std::span<const NodeId>(nodes_[id].kids).subspan(begin, end - begin);
  }
  std::span<const NodeId> tail(NodeId id, size_t begin) const {
    return std::span<const NodeId>(nodes_[id].kids).subspan(begin);
  }

  std::vector<Node> nodes_;
  NodeId root_ = kNoNode;
};

/// Indented tree, one node per line with its line:col, for `--emit=ast` and golden tests. `suffix(id)`, when
/// given, is appended to each node's line (the typed dump adds the stage and the type).
std::string printAst(const support::SourceManager& sources, const Ast& ast,
                     const std::function<std::string(NodeId)>& suffix = nullptr);

}  // namespace tilecraft::dsl
