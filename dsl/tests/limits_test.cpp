// The parser's limits (docs/language.md, "Limits"): each construct at the limit is accepted, one past it is an
// error with the count, and operator chains far longer than the nesting limit go through the checker and the AST
// printer without recursing once per operator. The nesting of parentheses, prefix operators, '**' and calls is
// also covered by the inline tests in diagnostics/nesting_*.tile; these are the cases too large or not valid
// enough for a checked program.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "dsl/parser.h"
#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string kernelWith(const std::string& computeLine) {
  return "N = dim()\n\n@kernel\ndef k(x: Tensor[f32, (N,)], z: Tensor[f32, (N,)], flag: bool):\n"
         "    part = split(N, cores=vector_cores())\n    for t in tiles(part, size=1024):\n"
         "        with copyin:\n            a = load(x[t])\n        with compute:\n            " +
         computeLine + "\n        with copyout:\n            store(z[t], c)\n";
}

// Attributes and subscripts cannot nest validly in a checked program, so they are parsed only.
TEST(Limits, PostfixChainsParseAtTheNestingLimitAndFailOnePast) {
  for (const std::string& link : {std::string(".x"), std::string("[0]"), std::string("(a)")}) {
    SCOPED_TRACE(link);
    testing::Frontend at(kernelWith("c = a" + repeat(link, kMaxExprNesting)), /*runSema=*/false);
    EXPECT_EQ(at.messages(), "");
    testing::Frontend past(kernelWith("c = a" + repeat(link, kMaxExprNesting + 1)), /*runSema=*/false);
    EXPECT_EQ(past.messages(), "expression nested too deeply: 201 levels (the limit is 200)\n");
  }
}

TEST(Limits, AnExpressionOfTwentyThousandOperationsIsCheckedAndOneMoreIsAnError) {
  testing::Frontend at(kernelWith("c = a" + repeat(" + a", kMaxExprOperations)));
  EXPECT_EQ(at.messages(), "");
  EXPECT_TRUE(at.sema.types[at.find(NodeKind::Assign)].kind != TypeKind::Error);

  // The count includes nested parts; the error points at the first operator past the limit.
  std::string line = "c = a" + repeat(" * a", kMaxExprOperations - 1) + " + (a - a) + a";
  testing::Frontend past(kernelWith(line));
  EXPECT_EQ(past.messages(), "expression too long: 20002 operations (the limit is 20000)\n");
  ASSERT_EQ(past.diagnostics.diagnostics().size(), 1u);
  EXPECT_EQ(past.sources.lineCol(past.diagnostics.diagnostics()[0].span).col, 12 + line.find(" - ") + 2);
  EXPECT_NE(past.text().find("hint: split it into several statements"), std::string::npos);
}

TEST(Limits, AKernelOfTwentyThousandStatementsParsesAndOneMoreIsAnError) {
  std::string head = "N = dim()\n\n@kernel\ndef k(x: Tensor[f32, (N,)]):\n";
  testing::Frontend at(head + repeat("    pass\n", kMaxKernelStatements), /*runSema=*/false);
  EXPECT_EQ(at.messages(), "");
  testing::Frontend past(head + repeat("    pass\n", kMaxKernelStatements + 2), /*runSema=*/false);
  EXPECT_EQ(past.messages(), "kernel 'k' has 20002 statements (the limit is 20000)\n");
  ASSERT_EQ(past.diagnostics.diagnostics().size(), 1u);
  EXPECT_EQ(past.sources.lineCol(past.diagnostics.diagnostics()[0].span).line, 4u + kMaxKernelStatements + 1);
}

// Far past the nesting limit, left-associative chains are typed and printed with loops.
TEST(Limits, LongOperatorChainsAreCheckedAndPrinted) {
  testing::Frontend tiles(kernelWith("c = a" + repeat(" + a * 2.0", 10000)));
  EXPECT_EQ(tiles.messages(), "");
  std::string dump = printAst(tiles.sources, tiles.ast);
  EXPECT_EQ(std::count(dump.begin(), dump.end(), '\n'), static_cast<long>(tiles.ast.size()));

  testing::Frontend conditions(kernelWith("c = a\n        if flag" + repeat(" and not flag or flag", 5000) +
                                          ":\n            with compute:\n                c = a + 1.0"));
  EXPECT_EQ(conditions.messages(), "");

  testing::Frontend constants("K = 1" + repeat(" + 1", 19999) + "\n");
  EXPECT_EQ(constants.messages(), "");
  EXPECT_EQ(constants.sema.types[constants.find(NodeKind::ConstDef)].constInt, 20000);
}

}  // namespace
}  // namespace tilecraft::dsl
