// The printer's text for a small hand-built kernel, in full: it is what golden tests and people read.
#include "ir/printer.h"

#include <gtest/gtest.h>

#include "ir/builder.h"
#include "ir/tests/ir_fixture.h"

namespace tilecraft::ir {
namespace {

TEST(Printer, AddKernel) {
  testing::AddKernel f(256, DType::F32);
  EXPECT_EQ(printKernel(f.k),
            "kernel add: vector, 48 vector cores\n"
            "  tiling N: i64 dim\n"
            "  tensor x: f32[N] in GM (in)\n"
            "  tensor y: f32[N] in GM (in)\n"
            "  tensor z: f32[N] in GM (out)\n"
            "  buffer %a: f32[t] in UB, 1024 B\n"
            "  buffer %b: f32[t] in UB, 1024 B\n"
            "  buffer %c: f32[t] in UB, 1024 B\n"
            "  split part = N over 48 cores\n"
            "  for t in tiles(start=part.start, len=part.len, size=256, buffers=2):\n"
            "    copyin:\n"
            "      %a = load x[t]\n"
            "      %b = load y[t]\n"
            "    compute:\n"
            "      %c = add %a, %b\n"
            "    copyout:\n"
            "      store z[t], %c\n");
}

TEST(Printer, ScalarsAndLines) {
  Kernel k;
  Builder b(k);
  uint32_t m = b.addVar({"M", Var::Kind::Dim, DType::I64, 0, kNone});
  NodeId e = b.scalarBinary(Op::Cdiv, b.varRef(m), b.intConst(48));
  EXPECT_EQ(printScalar(k, e), "cdiv(M, 48)");
  EXPECT_EQ(printScalar(k, b.scalarBinary(Op::Mul, b.floatConst(2), b.scalarUnary(Op::Neg, b.varRef(m)))),
            "(2.0 * -M)");
  k.body = b.block();
  uint32_t v = b.addVar({"n", Var::Kind::Device, DType::I64, 0, kNone});
  b.setSource({}, 12);
  b.append(k.body, b.scalarDef(v, e));
  EXPECT_EQ(printKernel(k),
            "kernel : vector\n"
            "  tiling M: i64 dim\n"
            "  n = cdiv(M, 48)                                                 # line 12\n");
}

}  // namespace
}  // namespace tilecraft::ir
