// Lowering of DSL snippets: what each construct becomes in the IR (printed after lowering only).
#include "passes/lower.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/tests/compile_fixture.h"

namespace tilecraft::passes {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

/// A vector kernel over (M, 64) f32 rows with COMPUTE as its compute stage and `out` stored.
std::string lowerCompute(const std::string& compute, const std::string& extraParams = "") {
  testing::Compiled c;
  testing::compileInto(c, "k.tile",
                       "M = dim()\n"
                       "@kernel\n"
                       "def k(x: Tensor[f32, (M, 64)], y: Tensor[f32, (M, 64)]" +
                           extraParams +
                           "):\n"
                           "    rows = split(M, cores=vector_cores())\n"
                           "    for r in tiles(rows, size=8):\n"
                           "        with copyin:\n"
                           "            v = load(x[r, :])\n"
                           "        with compute:\n" +
                           compute +
                           "        with copyout:\n"
                           "            store(y[r, :], out)\n");
  EXPECT_EQ(c.errors(), "");
  if (c.module.kernels.size() != 1) return "";
  EXPECT_THAT(ir::verify(c.module.kernels[0]), ElementsAre());
  return ir::printKernel(c.module.kernels[0]);
}

TEST(Lower, ScalarSubtractAndDivideBecomeAddsAndMuls) {
  std::string ir = lowerCompute("            out = (v - s) / 4.0\n", ", s: f32");
  EXPECT_THAT(ir, HasSubstr("      %0 = adds %v, -s "));
  EXPECT_THAT(ir, HasSubstr("      %out = muls %0, 0.25 "));
}

TEST(Lower, NumberMinusOrOverATile) {
  std::string ir = lowerCompute("            out = 2.0 - 1.0 / v\n");
  // 1.0 / v is a plain Reciprocal; 2.0 - t negates t, then adds.
  EXPECT_THAT(ir, HasSubstr("      %0 = reciprocal %v "));
  EXPECT_THAT(ir, HasSubstr("      %1 = muls %0, -1.0 "));
  EXPECT_THAT(ir, HasSubstr("      %out = adds %1, 2.0 "));
}

TEST(Lower, RowStatisticsBroadcastWithoutACopy) {
  std::string ir = lowerCompute("            out = v - reduce_max(v, axis=-1)\n");
  EXPECT_THAT(ir, HasSubstr("  buffer %0: f32[r, 1] in UB, 256 B\n"));
  EXPECT_THAT(ir, HasSubstr("      %0 = reduce.max %v, axis=1 work=%0.work "));
  EXPECT_THAT(ir, HasSubstr("      %out = sub %v, %0 "));
  EXPECT_THAT(ir, ::testing::Not(HasSubstr("broadcast")));
}

TEST(Lower, WhereWithANumberFillsATile) {
  std::string ir = lowerCompute("            out = where(v > 0.0, v, 0.5)\n");
  EXPECT_THAT(ir, HasSubstr("      %0 = gt %v, 0.0 "));
  EXPECT_THAT(ir, HasSubstr("      %1 = fill 0.5 "));
  EXPECT_THAT(ir, HasSubstr("      %out = select %0, %v, %1 "));
}

TEST(Lower, NumberBaseOfPowIsFilledIntoATile) {
  std::string ir = lowerCompute("            out = pow(2.0, v)\n");
  EXPECT_THAT(ir, HasSubstr("      %0 = fill 2.0 "));
  EXPECT_THAT(ir, HasSubstr("      %out = pow %0, %v work=%out.work "));
}

TEST(Lower, MathWorkBuffersHaveTheApiMinimum) {
  // sin of an (r, 1) f16 column: 8 rows of 32 bytes, below the 512 bytes the half Sin needs as sharedTmpBuffer.
  std::string ir = lowerCompute("            out = v + cast(sin(cast(reduce_max(v, axis=-1), f16)), f32)\n");
  EXPECT_THAT(ir, HasSubstr(".work: f16[r, 1] in UB, 512 B work\n"));
}

TEST(Lower, ClampIsMaxsThenMins) {
  std::string ir = lowerCompute("            out = clamp(v, -1.0, 1.0)\n");
  EXPECT_THAT(ir, HasSubstr("      %0 = maxs %v, -1.0 "));
  EXPECT_THAT(ir, HasSubstr("      %out = mins %0, 1.0 "));
}

TEST(Lower, AccumulatorIsCopiedOutBeforeItsStore) {
  testing::Compiled c;
  testing::compileInto(c, "acc.tile",
                       "N = dim()\n"
                       "@kernel\n"
                       "def total(x: Tensor[f32, (N,)], out: Tensor[f32, (1,)]):\n"
                       "    part = split(N, cores=vector_cores())\n"
                       "    with compute:\n"
                       "        acc = zeros((1,), f32)\n"
                       "    for t in tiles(part, size=1024):\n"
                       "        with copyin:\n"
                       "            v = load(x[t])\n"
                       "        with compute:\n"
                       "            acc = acc + reduce_sum(v, axis=0)\n"
                       "    with copyout:\n"
                       "        store(out[0:1], acc, accumulate=True)\n");
  ASSERT_EQ(c.errors(), "");
  std::string ir = ir::printKernel(c.module.kernels.at(0));
  // The accumulator is written by three ops, so a fresh buffer carries it to the copyout, computed in a
  // compute stage made for the store.
  EXPECT_THAT(ir, HasSubstr("  compute:                                                        # line 13\n"
                            "    %acc.out = copy %acc                                          # line 13\n"
                            "  copyout:                                                        # line 12\n"
                            "    store out[0 : +1], %acc.out accumulate                        # line 13\n"));
  EXPECT_THAT(ir, HasSubstr("      %acc = add %acc, %0 "));
}

TEST(Lower, HostAndDeviceScalars) {
  testing::Compiled c;
  testing::compileInto(c, "s.tile",
                       "N = dim()\n"
                       "W = dim()\n"
                       "@kernel\n"
                       "def k(x: Tensor[f32, (N, W, 64)], y: Tensor[f32, (N, W, 64)], a: f32):\n"
                       "    rows = split(N * W, cores=vector_cores())\n"
                       "    half = a / 2.0\n"
                       "    for i in range(rows.start, rows.start + rows.len):\n"
                       "        n = i // W\n"
                       "        w = i % W\n"
                       "        with copyin:\n"
                       "            v = load(x[n, w : w + 1, :])\n"
                       "        with compute:\n"
                       "            o = v * half\n"
                       "        with copyout:\n"
                       "            store(y[n, w : w + 1, :], o)\n");
  ASSERT_EQ(c.errors(), "");
  std::string ir = ir::printKernel(c.module.kernels.at(0));
  EXPECT_THAT(ir, HasSubstr("  tiling half: f32 = (a / 2.0)\n"));
  EXPECT_THAT(ir, HasSubstr("    n = (i // W)  "));
  EXPECT_THAT(ir, HasSubstr("    w = (i % W)  "));
  EXPECT_THAT(ir, HasSubstr("      %v = load x[n, w : +1, :] "));
  EXPECT_THAT(ir, HasSubstr("  buffer %v: f32[1, 64] in UB, 256 B\n"));
}

}  // namespace
}  // namespace tilecraft::passes
