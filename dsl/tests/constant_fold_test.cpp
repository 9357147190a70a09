// The constant folder's arithmetic is exact: results that fit int64 are right at the edges, the others are the
// error "integer constant overflows int64" with the operation in the hint; float constants past f32 are inf
// with a warning. The messages' lines and columns are in diagnostics/constants.tile.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

using testing::Frontend;

std::optional<int64_t> constInt(const Frontend& f, const std::string& name) {
  NodeId def = f.find(NodeKind::ConstDef, name);
  EXPECT_NE(def, kNoNode) << name;
  return f.sema.types[f.ast.child(def, 0)].constInt;
}

std::optional<double> constFloat(const Frontend& f, const std::string& name) {
  NodeId def = f.find(NodeKind::ConstDef, name);
  EXPECT_NE(def, kNoNode) << name;
  return f.sema.types[f.ast.child(def, 0)].constFloat;
}

TEST(ConstantFolding, ResultsAtTheEdgesOfInt64AreExact) {
  Frontend f(
      "LOW = -9223372036854775807 - 1\n"
      "REM = LOW % -1\n"
      "MOD = -7 % 3\n"
      "FLOOR = -7 // 2\n"
      "ONES = (-1) ** 9223372036854775807\n"
      "ZERO = 0 ** 9223372036854775807\n"
      "EDGE = 2**62 + (2**62 - 1)\n"
      "TOP = (-2) ** 63\n"
      "CEIL = cdiv(9223372036854775807, 2)\n");
  ASSERT_EQ(f.text(), "");
  EXPECT_EQ(constInt(f, "LOW"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(constInt(f, "REM"), 0);
  EXPECT_EQ(constInt(f, "MOD"), 2);
  EXPECT_EQ(constInt(f, "FLOOR"), -4);
  EXPECT_EQ(constInt(f, "ONES"), -1);
  EXPECT_EQ(constInt(f, "ZERO"), 0);
  EXPECT_EQ(constInt(f, "EDGE"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(constInt(f, "TOP"), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(constInt(f, "CEIL"), int64_t{1} << 62);
}

TEST(ConstantFolding, AnOverflowIsAnErrorWithTheOperationInTheHint) {
  Frontend f("A = 2**70\nB = 3 * 2**62\nC = -(-9223372036854775807 - 1)\nD = (-9223372036854775807 - 1) // -1\n");
  EXPECT_EQ(f.text(),
            "t.tile:1:5: error: integer constant overflows int64\n"
            "A = 2**70\n"
            "    ^~~~~\n"
            "hint: 2 ** 70 is outside [-2**63, 2**63 - 1], the range of the compiler's integer constants\n"
            "t.tile:2:5: error: integer constant overflows int64\n"
            "B = 3 * 2**62\n"
            "    ^~~~~~~~~\n"
            "hint: 3 * 4611686018427387904 is outside [-2**63, 2**63 - 1], the range of the compiler's integer "
            "constants\n"
            "t.tile:3:5: error: integer constant overflows int64\n"
            "C = -(-9223372036854775807 - 1)\n"
            "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
            "hint: -(-9223372036854775808) is outside [-2**63, 2**63 - 1], the range of the compiler's integer "
            "constants\n"
            "t.tile:4:5: error: integer constant overflows int64\n"
            "D = (-9223372036854775807 - 1) // -1\n"
            "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
            "hint: -9223372036854775808 // -1 is outside [-2**63, 2**63 - 1], the range of the compiler's integer "
            "constants\n");
}

TEST(ConstantFolding, AFloatPastF32IsInfinityWithOneWarning) {
  Frontend f("A = 1e999\nB = A * 2\nC = -3e38 * 10\nD = 3.4e38\n");
  EXPECT_EQ(f.messages(),
            "float constant overflows f32 and becomes inf\n"
            "float constant overflows f32 and becomes -inf\n");
  EXPECT_NE(f.text().find("hint: f32 holds magnitudes up to 3.4028235e+38\n"), std::string::npos);
  EXPECT_EQ(constFloat(f, "A"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(constFloat(f, "B"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(constFloat(f, "C"), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(constFloat(f, "D"), 3.4e38);
}

TEST(ConstantFolding, ByteCountsOfHugeTilesSaturateInsteadOfWrapping) {
  // 2**62 f32 elements are 2**64 bytes: wrapped, that was a 0-byte buffer that passed the check.
  Frontend f(
      "N = dim()\nM = dim(max=2**62)\n\n@kernel\n"
      "def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N, M)], z: Tensor[f32, (N, M)]):\n"
      "    part = split(N, cores=vector_cores())\n"
      "    for t in tiles(part, size=2**62):\n"
      "        with copyin:\n"
      "            a = load(x[t])\n"
      "            b = load(y[t, :])\n"
      "        with compute:\n"
      "            c = b * 2.0\n"
      "        with copyout:\n"
      "            store(z[t, :], c)\n");
  EXPECT_NE(f.messages().find("tiles in UB need more than 2**63 - 1 bytes at their peak (double-buffered) with tile "
                              "size 4611686018427387904 for 't'; 192 KiB available\n"),
            std::string::npos)
      << f.text();
  EXPECT_NE(f.text().find("note: 'a' f32 of 4611686018427387904 = more than 2**63 - 1 bytes x2 buffers\n"),
            std::string::npos)
      << f.text();
}

}  // namespace
}  // namespace tilecraft::dsl
