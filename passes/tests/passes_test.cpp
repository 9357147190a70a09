// Each pass on small IR: hand-built kernels (ir/tests/ir_fixture.h) and DSL snippets lowered by the real
// front end. The verifier runs after every pass here, as it does in the pipeline.
#include "passes/passes.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "ir/printer.h"
#include "ir/tests/ir_fixture.h"
#include "ir/verifier.h"
#include "passes/tests/compile_fixture.h"

namespace tilecraft::passes {
namespace {

using ir::testing::AddKernel;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

void runAndVerify(ir::Kernel& k, void (*pass)(ir::Kernel&, PassContext&), support::DiagnosticEngine& diags) {
  PassContext context{diags};
  pass(k, context);
  EXPECT_THAT(ir::verify(k), ElementsAre());
}

TEST(CoreSplit, SpreadsTheRemainderOverTheFirstCores) {
  AddKernel f;
  support::DiagnosticEngine diags;
  runAndVerify(f.k, &coreSplit, diags);
  std::string text = ir::printKernel(f.k);
  EXPECT_THAT(text, HasSubstr("  tiling part_base: i64 = (N // 48)\n  tiling part_rem: i64 = (N % 48)\n"));
  EXPECT_THAT(text, HasSubstr("split part = N over 48 cores: start=((block_idx * part_base) + min(block_idx, "
                              "part_rem)) len=(part_base + (block_idx < part_rem))\n"));
  // Running it again changes nothing: the split is already resolved.
  size_t nodes = f.k.nodes.size();
  runAndVerify(f.k, &coreSplit, diags);
  EXPECT_EQ(f.k.nodes.size(), nodes);
}

TEST(Tiling, CountAndTailOfEveryTileLoop) {
  AddKernel f;
  support::DiagnosticEngine diags;
  runAndVerify(f.k, &tiling, diags);
  const ir::Node& loop = f.k.node(f.tileLoop);
  ASSERT_EQ(loop.args.size(), 4u);
  EXPECT_EQ(ir::printScalar(f.k, loop.args[2]), "cdiv(part.len, 4096)");
  EXPECT_EQ(ir::printScalar(f.k, loop.args[3]), "(part.len - ((cdiv(part.len, 4096) - 1) * 4096))");
  // This core's length is not known at compile time: the last tile may be short, so every copy is padded.
  EXPECT_TRUE(f.k.node(f.loadA).tail);
  EXPECT_TRUE(f.k.node(f.store).tail);
}

TEST(Tiling, ExactCopiesWhenTheTileDividesAConstantLength) {
  AddKernel f(4096, ir::DType::F16);
  ir::Builder b(f.k);
  f.k.node(f.tileLoop).args[1] = b.intConst(8192);
  support::DiagnosticEngine diags;
  runAndVerify(f.k, &tiling, diags);
  EXPECT_FALSE(f.k.node(f.loadA).tail);
  EXPECT_FALSE(f.k.node(f.store).tail);
}

TEST(Tiling, UnalignedRowsNeedPadding) {
  AddKernel f(100, ir::DType::F32);  // 400-byte rows are not whole 32-byte blocks
  ir::Builder b(f.k);
  f.k.node(f.tileLoop).args[1] = b.intConst(1000);  // and 1000 = 10 x 100: no tail tile
  support::DiagnosticEngine diags;
  runAndVerify(f.k, &tiling, diags);
  EXPECT_TRUE(f.k.node(f.loadA).tail);
}

TEST(QueueInsertion, QueuesBetweenStagesWithTheLoopsBufferCount) {
  AddKernel f;
  support::DiagnosticEngine diags;
  runAndVerify(f.k, &queueInsertion, diags);
  EXPECT_EQ(f.k.buffer(f.a).queue, ir::QueueKind::VecIn);
  EXPECT_EQ(f.k.buffer(f.b).queue, ir::QueueKind::VecIn);
  EXPECT_EQ(f.k.buffer(f.c).queue, ir::QueueKind::VecOut);
  EXPECT_EQ(f.k.buffer(f.a).buffers, 2);
  EXPECT_THAT(ir::printKernel(f.k), HasSubstr("    copyin:\n"
                                              "      alloc %a\n"
                                              "      alloc %b\n"
                                              "      %a = load x[t]\n"
                                              "      %b = load y[t]\n"
                                              "      enque %a\n"
                                              "      enque %b\n"
                                              "    compute:\n"
                                              "      deque %a\n"
                                              "      deque %b\n"
                                              "      alloc %c\n"
                                              "      %c = add %a, %b\n"
                                              "      enque %c\n"
                                              "      free %a\n"
                                              "      free %b\n"
                                              "    copyout:\n"
                                              "      deque %c\n"
                                              "      store z[t], %c\n"
                                              "      free %c\n"));
}

TEST(QueueInsertion, ValueLoadedOnceIsHeldAcrossTheLoop) {
  testing::Compiled c;
  testing::compileInto(c, "scale.tile",
                       "M = dim()\n"
                       "@kernel\n"
                       "def scale(x: Tensor[f32, (M, 64)], w: Tensor[f32, (1, 64)], y: Tensor[f32, (M, 64)]):\n"
                       "    rows = split(M, cores=vector_cores(8))\n"
                       "    with copyin:\n"
                       "        g = load(w[0:1, :])\n"
                       "    for r in tiles(rows, size=16, buffers=1):\n"
                       "        with copyin:\n"
                       "            v = load(x[r, :])\n"
                       "        with compute:\n"
                       "            o = v * g\n"
                       "        with copyout:\n"
                       "            store(y[r, :], o)\n");
  ASSERT_EQ(c.errors(), "");
  ASSERT_EQ(c.module.kernels.size(), 1u);
  ir::Kernel& k = c.module.kernels[0];
  runAndVerify(k, &queueInsertion, c.diagnostics);
  std::string text = ir::printKernel(k);
  // DeQue before the loop and FreeTensor after it: the weights stay in UB for every tile.
  EXPECT_THAT(text, HasSubstr("    enque %g\n  deque %g\n  for r in tiles("));
  EXPECT_THAT(text, HasSubstr("      free %o\n  free %g\n"));
  // buffers=1 on the loop: single-buffered queues.
  EXPECT_THAT(text, HasSubstr("  buffer %v: f32[r, 64] in UB, 4096 B TQue<VECIN>\n"));
  EXPECT_THAT(text, HasSubstr("  buffer %o: f32[r, 64] in UB, 4096 B TQue<VECOUT>\n"));
}

TEST(QueueInsertion, ConsumerMayUpdateInPlaceAfterDeQue) {
  testing::Compiled c;
  testing::compileInto(c, "t.tile",
                       "N = dim()\n"
                       "@kernel\n"
                       "def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                       "    part = split(N, cores=vector_cores())\n"
                       "    for t in tiles(part, size=1024):\n"
                       "        with copyin:\n"
                       "            v = load(x[t])\n"
                       "        with compute:\n"
                       "            v = v * 2.0\n"
                       "            w = v + 1.0\n"
                       "        with copyout:\n"
                       "            store(y[t], w)\n");
  ASSERT_EQ(c.errors(), "");
  ir::Kernel& k = c.module.kernels.at(0);
  runAndVerify(k, &queueInsertion, c.diagnostics);
  EXPECT_EQ(c.diagnostics.errorCount(), 0u);
  EXPECT_THAT(ir::printKernel(k), HasSubstr("      deque %v\n"
                                            "      alloc %w\n"
                                            "      %v = muls %v, 2.0 "));
}

TEST(QueueInsertion, ComputeOnlyValuesAreTBufs) {
  testing::Compiled c;
  testing::compileInto(c, "t.tile",
                       "N = dim()\n"
                       "@kernel\n"
                       "def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                       "    part = split(N, cores=vector_cores())\n"
                       "    for t in tiles(part, size=1024):\n"
                       "        with copyin:\n"
                       "            v = load(x[t])\n"
                       "        with compute:\n"
                       "            e = exp(v)\n"
                       "            o = e * 2.0\n"
                       "        with copyout:\n"
                       "            store(y[t], o)\n");
  ASSERT_EQ(c.errors(), "");
  ir::Kernel& k = c.module.kernels.at(0);
  runAndVerify(k, &queueInsertion, c.diagnostics);
  std::string text = ir::printKernel(k);
  EXPECT_THAT(text, HasSubstr("  buffer %e: f32[t] in UB, 4096 B TBuf<VECCALC>\n"));
  EXPECT_THAT(text, HasSubstr("  buffer %o: f32[t] in UB, 4096 B x2 TQue<VECOUT>\n"));
}

TEST(BufferPlan, ReusesDeadBuffersAndAligns) {
  testing::Compiled c;
  testing::compileInto(c, "t.tile",
                       "N = dim()\n"
                       "@kernel\n"
                       "def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                       "    part = split(N, cores=vector_cores())\n"
                       "    for t in tiles(part, size=1000, buffers=1):\n"
                       "        with copyin:\n"
                       "            v = load(x[t])\n"
                       "        with compute:\n"
                       "            a = exp(v)\n"
                       "            s = reduce_sum(a, axis=0)\n"
                       "            b = sqrt(v)\n"
                       "            b2 = b * 3.0\n"
                       "            o = b2 * 2.0\n"
                       "        with copyout:\n"
                       "            store(y[t], o)\n");
  ASSERT_EQ(c.errors(), "");
  ir::Kernel& k = c.module.kernels.at(0);
  PassContext context{c.diagnostics};
  queueInsertion(k, context);
  runAndVerify(k, &bufferPlan, c.diagnostics);
  auto offset = [&](const std::string& name) {
    for (const ir::Buffer& b : k.buffers) {
      if (b.name == name) return b.offset;
    }
    return int64_t{-2};
  };
  for (const ir::Buffer& b : k.buffers) EXPECT_EQ(b.offset % 32, 0) << b.name;
  // a dies at the reduction, so b, born after it, takes its slot; b2 is computed in place over b, which dies
  // at that very op; the queue buffers v and o never share.
  EXPECT_EQ(offset("b"), offset("a"));
  EXPECT_EQ(offset("b2"), offset("b"));
  EXPECT_NE(offset("v"), offset("o"));
  EXPECT_NE(offset("o"), offset("b"));
  // v (4000 B) at 0, o at 4000, a/b/b2 at 8000, then the reduction's result and work buffer.
  EXPECT_EQ(offset("v"), 0);
  EXPECT_EQ(offset("o"), 4000);
  EXPECT_EQ(offset("a"), 8000);
  EXPECT_EQ(ir::verify(k), std::vector<std::string>{});
}

TEST(BufferPlan, CapacityIsCheckedOnTheRealLayout) {
  AddKernel f(32768, ir::DType::F16);  // 64 KiB per buffer, double-buffered: 3 x 128 KiB
  support::DiagnosticEngine diags;
  PassContext context{diags};
  queueInsertion(f.k, context);
  bufferPlan(f.k, context);
  ASSERT_EQ(diags.errorCount(), 1u);
  const support::Diagnostic& d = diags.diagnostics()[0];
  EXPECT_EQ(d.message,
            "kernel 'add' needs 393216 bytes of UB after buffer planning (aligned offsets); 196608 available");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].message, "largest buffer: 'a' of 65536 bytes x2 copies");
  EXPECT_EQ(d.hint, "use a smaller tile size, or buffers=1 on its loop");
}

}  // namespace
}  // namespace tilecraft::passes
