#include <gtest/gtest.h>

#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

// The tree of one expression statement, without positions, as a compact S-expression.
std::string sexpr(const Ast& ast, NodeId id) {
  if (id == kNoNode) return "_";
  const Node& n = ast.node(id);
  std::string head = nodeKindName(n.kind);
  switch (n.kind) {
    case NodeKind::Name: return n.name;
    case NodeKind::IntLit: return std::to_string(n.intValue);
    case NodeKind::FloatLit: return n.name;
    case NodeKind::Binary:
    case NodeKind::Unary:
    case NodeKind::Compare:
    case NodeKind::Logical: head = opSpelling(n.op); break;
    case NodeKind::Keyword:
    case NodeKind::Attribute: head += "." + n.name; break;
    default: break;
  }
  std::string out = "(" + head;
  for (NodeId k : n.kids) out += " " + sexpr(ast, k);
  return out + ")";
}

std::string parseExpr(const std::string& text) {
  testing::Frontend f("x = " + text + "\n", false);
  EXPECT_FALSE(f.diagnostics.hasErrors()) << f.text();
  NodeId def = f.find(NodeKind::ConstDef, "x");
  return def == kNoNode ? "" : sexpr(f.ast, f.ast.child(def, 0));
}

TEST(Parser, PrecedenceAndAssociativity) {
  EXPECT_EQ(parseExpr("a + b * c - d"), "(- (+ a (* b c)) d)");
  EXPECT_EQ(parseExpr("-a ** 2"), "(- (** a 2))");
  EXPECT_EQ(parseExpr("a ** -b"), "(** a (- b))");
  EXPECT_EQ(parseExpr("a @ b + c"), "(+ (@ a b) c)");
  EXPECT_EQ(parseExpr("not a < b and c or d"), "(or (and (not (< a b)) c) d)");
  EXPECT_EQ(parseExpr("(a + b) // c % d"), "(% (// (+ a b) c) d)");
}

TEST(Parser, PostfixCallsSubscriptsSlicesAndAttributes) {
  EXPECT_EQ(parseExpr("f(a, k=1)"), "(Call f a (Keyword.k 1))");
  EXPECT_EQ(parseExpr("x[t, :, 0:4, i:]"), "(Subscript x t (Slice _ _ _) (Slice 0 4 _) (Slice i _ _))");
  EXPECT_EQ(parseExpr("t.start + 1"), "(+ (Attribute.start t) 1)");
  EXPECT_EQ(parseExpr("(1,)"), "(Tuple 1)");
  EXPECT_EQ(parseExpr("(a)"), "a");
}

TEST(Parser, KernelLayout) {
  testing::Frontend f(
      "@kernel\ndef k(x: f32, y: f32 = 1.0):\n    for a, b in g():\n        pass\n    if c:\n        pass\n"
      "    elif d:\n        pass\n    else:\n        pass\n    with compute:\n        z = 1\n",
      false);
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  NodeId k = f.find(NodeKind::Kernel, "k");
  ASSERT_NE(k, kNoNode);
  EXPECT_EQ(f.ast.decorators(k).size(), 1u);
  ASSERT_EQ(f.ast.params(k).size(), 2u);
  EXPECT_EQ(f.ast.node(f.ast.params(k)[1]).kids.size(), 2u);  // type and default
  auto body = f.ast.kernelBody(k);
  ASSERT_EQ(body.size(), 3u);
  EXPECT_EQ(f.ast.forTargets(body[0]).size(), 2u);
  EXPECT_EQ(f.ast.kind(f.ast.forIter(body[0])), NodeKind::Call);
  // elif is an If nested in the else branch.
  ASSERT_EQ(f.ast.ifElse(body[1]).size(), 1u);
  NodeId elif = f.ast.ifElse(body[1])[0];
  EXPECT_EQ(f.ast.kind(elif), NodeKind::If);
  EXPECT_EQ(f.ast.ifThen(elif).size(), 1u);
  EXPECT_EQ(f.ast.ifElse(elif).size(), 1u);
  EXPECT_EQ(f.ast.kind(body[2]), NodeKind::With);
  EXPECT_EQ(f.ast.withBody(body[2]).size(), 1u);
}

TEST(Parser, SpansCoverTheWholeExpression) {
  testing::Frontend f("x = load(a[t, :])\n", false);
  NodeId call = f.find(NodeKind::Call);
  ASSERT_NE(call, kNoNode);
  EXPECT_EQ(f.sources.text(f.ast.span(call)), "load(a[t, :])");
  EXPECT_EQ(f.sources.text(f.ast.span(f.find(NodeKind::Subscript))), "a[t, :]");
}

TEST(Parser, RecoversAtTheNextStatement) {
  testing::Frontend f("@kernel\ndef k(x: f32):\n    a = 1 +\n    b = 2\n    c = 3 3\n    d = 4\n", false);
  EXPECT_EQ(f.messages(), "expected an expression, found newline\nexpected end of line, found number 3\n");
  // The statements after the broken ones still parsed.
  EXPECT_NE(f.find(NodeKind::Name, "d"), kNoNode);
}

TEST(Parser, MissingColonIsReportedAtTheEndOfTheHeader) {
  testing::Frontend f("@kernel\ndef k(x: f32):\n    for t in g()  # comment\n        pass\n", false);
  ASSERT_EQ(f.diagnostics.errorCount(), 1u);
  EXPECT_EQ(f.text(),
            "t.tile:3:17: error: expected ':' after the for header, found newline\n"
            "    for t in g()  # comment\n"
            "                ^\n");
}

TEST(Parser, AstDumpIsIndentedWithPositions) {
  testing::Frontend f("N = dim()\n", false);
  EXPECT_EQ(printAst(f.sources, f.ast), "Module <1:1>\n  ConstDef N <1:1>\n    Call <1:5>\n      Name dim <1:5>\n");
}

}  // namespace
}  // namespace tilecraft::dsl
