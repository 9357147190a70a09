// The builder checks each node's local invariants as it is made: a broken one is a compiler bug and aborts
// with the invariant named.
#include "ir/builder.h"

#include <gtest/gtest.h>

#include "ir/tests/ir_fixture.h"

namespace tilecraft::ir {
namespace {

using testing::AddKernel;

TEST(Builder, BuffersGetUniqueNamesAndPaddedBytes) {
  Kernel k;
  Builder b(k);
  // 3 f32 per row pad to 32 bytes; 5 rows -> 160 bytes.
  BufferId x = b.addBuffer("v", Mem::UB, DType::F32, {Extent::constant(5), Extent::constant(3)});
  BufferId y = b.addBuffer("v", Mem::UB, DType::F32, {Extent::constant(8)});
  EXPECT_EQ(k.buffer(x).bytes, 160);
  EXPECT_EQ(k.buffer(y).bytes, 32);
  EXPECT_EQ(k.buffer(y).name, "v.1");
}

TEST(Builder, ReductionWorkBufferFollowsTheRepeatCount) {
  Kernel k;
  Builder b(k);
  BufferId x = b.addBuffer("x", Mem::UB, DType::F32, {Extent::constant(2), Extent::constant(4096)});
  BufferId s = b.addBuffer("s", Mem::UB, DType::F32, {Extent::constant(2), Extent::constant(1)});
  NodeId r = b.reduce(Op::ReduceMax, s, x, 1);
  // 4096 f32 = 64 repeats of 256 bytes; twice that, rounded to 8 elements = 128 elements.
  ASSERT_NE(k.node(r).work, kNone);
  EXPECT_EQ(k.buffer(k.node(r).work).shape, std::vector<Extent>{Extent::constant(128)});
  EXPECT_EQ(k.buffer(k.node(r).work).name, "s.work");
}

TEST(Builder, BinaryBroadcastsExtentOneOperands) {
  Kernel k;
  Builder b(k);
  BufferId x = b.addBuffer("x", Mem::UB, DType::F32, {Extent::constant(4), Extent::constant(64)});
  BufferId row = b.addBuffer("row", Mem::UB, DType::F32, {Extent::constant(1), Extent::constant(64)});
  BufferId col = b.addBuffer("col", Mem::UB, DType::F32, {Extent::constant(4), Extent::constant(1)});
  BufferId y = b.addBuffer("y", Mem::UB, DType::F32, {Extent::constant(4), Extent::constant(64)});
  b.binary(Op::Add, y, x, row);
  b.binary(Op::Mul, y, col, x);
  EXPECT_TRUE(Builder::broadcastsTo(k.buffer(row).shape, k.buffer(y).shape));
  EXPECT_FALSE(Builder::broadcastsTo(k.buffer(y).shape, k.buffer(row).shape));
}

TEST(Builder, CopyKeepsTheTranspose) {
  Kernel k;
  Builder b(k);
  BufferId l1 = b.addBuffer("b1", Mem::L1, DType::F16, {Extent::constant(64), Extent::constant(32)});
  BufferId l0 = b.addBuffer("b0", Mem::L0B, DType::F16, {Extent::constant(32), Extent::constant(64)});
  EXPECT_TRUE(k.node(b.copy(l0, l1, true)).transpose);
  EXPECT_FALSE(k.node(b.copy(l0, l1, false)).transpose);
}

using BuilderDeathTest = ::testing::Test;

TEST(BuilderDeathTest, BinaryOperandsMustShareTheDtype) {
  AddKernel f;
  Builder b(f.k);
  BufferId wide = b.addBuffer("w", Mem::UB, DType::F32, f.k.buffer(f.a).shape);
  EXPECT_DEATH(b.binary(Op::Add, f.c, f.a, wide), "binary operands have the result's dtype");
}

TEST(BuilderDeathTest, VectorOpsNeedUb) {
  AddKernel f;
  Builder b(f.k);
  BufferId l1 = b.addBuffer("l1", Mem::L1, DType::F16, f.k.buffer(f.a).shape);
  EXPECT_DEATH(b.unary(Op::Exp, f.c, l1), "unary operand 'l1' is in L1, not UB");
}

TEST(BuilderDeathTest, CastMustBeDirect) {
  AddKernel f;
  Builder b(f.k);
  BufferId bf = b.addBuffer("bf", Mem::UB, DType::BF16, f.k.buffer(f.a).shape);
  EXPECT_DEATH(b.cast(bf, f.a), "cast must be a direct hardware conversion");
}

TEST(BuilderDeathTest, NoCopyFromUbToL0A) {
  AddKernel f;
  Builder b(f.k);
  BufferId l0 = b.addBuffer("l0", Mem::L0A, DType::F16, f.k.buffer(f.a).shape);
  EXPECT_DEATH(b.copy(l0, f.a, false), "no copy path UB -> L0A");
}

TEST(BuilderDeathTest, ScalarOperandMustBeAScalar) {
  AddKernel f;
  Builder b(f.k);
  EXPECT_DEATH(b.binaryScalar(Op::Muls, f.c, f.a, f.add), "operand is not a scalar expression");
}

TEST(BuilderDeathTest, ReduceKeepsTheAxis) {
  AddKernel f;
  Builder b(f.k);
  EXPECT_DEATH(b.reduce(Op::ReduceSum, f.c, f.a, 0), "reduce keeps the axis with extent 1");
}

}  // namespace
}  // namespace tilecraft::ir
