#include <gtest/gtest.h>

#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

// A vector kernel over rows of N=1024 f32 with `body` as the compute stage.
std::string rowKernel(const std::string& compute, const std::string& store = "out", int size = 4,
                      const std::string& tileArgs = "") {
  return "M = dim()\nN = 1024\n\n@kernel\ndef k(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)], "
         "s: Tensor[f32, (M, 1)]):\n"
         "    rows = split(M, cores=vector_cores())\n"
         "    for r in tiles(rows, size=" +
         std::to_string(size) + tileArgs +
         "):\n"
         "        with copyin:\n            v = load(x[r, :])\n"
         "        with compute:\n" +
         compute + "        with copyout:\n            store(y[r, :], " + store + ")\n";
}

const Type& typeOfName(const testing::Frontend& f, const std::string& name) {
  NodeId id = f.find(NodeKind::Name, name);
  EXPECT_NE(id, kNoNode) << name;
  return f.sema.types[id];
}

TEST(Sema, LoadGivesAUbTileWithTheTileDimension) {
  testing::Frontend f(rowKernel("            out = v * 2.0\n"));
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  const Type& v = typeOfName(f, "v");
  EXPECT_EQ(v.kind, TypeKind::Buffer);
  EXPECT_EQ(v.mem, Mem::UB);
  EXPECT_EQ(typeStr(v), "f32[r, 1024] in UB");
  EXPECT_EQ(v.shape[0].kind, Dim::Kind::Tile);
  EXPECT_EQ(v.shape[0].value, 4);
}

TEST(Sema, ReductionsKeepTheReducedAxisAndBroadcastBack) {
  testing::Frontend f(
      rowKernel("            m = reduce_max(v, axis=-1)\n            c = reduce_sum(v, axis=0)\n"
                "            i = argmax(v, axis=1)\n            out = v - m + c\n"));
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  EXPECT_EQ(typeStr(typeOfName(f, "m")), "f32[r, 1] in UB");
  EXPECT_EQ(typeStr(typeOfName(f, "c")), "f32[1, 1024] in UB");
  EXPECT_EQ(typeStr(typeOfName(f, "i")), "i32[r, 1] in UB");
  EXPECT_EQ(typeStr(typeOfName(f, "out")), "f32[r, 1024] in UB");
}

TEST(Sema, ScalarsFoldAtCompileTimeAndTrackTheHostDeviceSplit) {
  testing::Frontend f("A = 3 * 4 + 10 // 3\nB = 2 ** 10\nC = 1.0 / 4\nD = cdiv(1000, 128)\n");
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  EXPECT_EQ(f.sema.types[f.find(NodeKind::ConstDef, "A")].constInt, 15);
  EXPECT_EQ(f.sema.types[f.find(NodeKind::ConstDef, "B")].constInt, 1024);
  EXPECT_EQ(f.sema.types[f.find(NodeKind::ConstDef, "C")].constFloat, 0.25);
  EXPECT_EQ(f.sema.types[f.find(NodeKind::ConstDef, "D")].constInt, 8);
}

TEST(Sema, KernelSummaryHasCoreKindAndParameterRoles) {
  testing::Frontend f(rowKernel("            out = v * 2.0\n"));
  ASSERT_EQ(f.sema.kernels.size(), 1u);
  const KernelInfo& k = f.sema.kernels[0];
  EXPECT_EQ(k.coreKind, CoreKind::Vector);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_TRUE(k.params[0].loaded);
  EXPECT_FALSE(k.params[0].stored);
  EXPECT_TRUE(k.params[1].stored);
  EXPECT_FALSE(k.params[2].loaded || k.params[2].stored);
  // The unused tensor is a warning, not an error.
  EXPECT_EQ(f.diagnostics.errorCount(), 0u);
  EXPECT_EQ(f.messages(), "tensor parameter 's' is never loaded or stored\n");
}

// 4 rows x 1024 f32 = 16 KiB per tile. v is a copyin queue (x2), out a copyout queue (x2), both live at the
// multiply: 64 KiB. With buffers=1 the queues are single: 32 KiB.
TEST(Sema, PeakCountsDoubleBuffersOfQueuesOnly) {
  testing::Frontend two(rowKernel("            out = v * 2.0\n"));
  EXPECT_EQ(two.sema.kernels[0].peakBytes[static_cast<size_t>(Mem::UB)], 64 * 1024);
  testing::Frontend one(rowKernel("            out = v * 2.0\n", "out", 4, ", buffers=1"));
  EXPECT_EQ(one.sema.kernels[0].peakBytes[static_cast<size_t>(Mem::UB)], 32 * 1024);
}

// A chain of temporaries: each dies at its last use, so the peak is not the sum of all of them.
TEST(Sema, DeadTemporariesDoNotCountAtThePeak) {
  testing::Frontend f(
      rowKernel("            a = v * 2.0\n            b = a + 1.0\n            c = b * b\n"
                "            out = c - 1.0\n"));
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  // v and out are double-buffered queues whose copies rotate over the loop (2 x 32 KiB, live throughout);
  // a, b and c each die at the next op, which writes over them in place: one 16 KiB slot. 80 KiB in all.
  EXPECT_EQ(f.sema.kernels[0].peakBytes[static_cast<size_t>(Mem::UB)], 80 * 1024);
}

TEST(Sema, WorkBuffersOfReductionsCount) {
  testing::Frontend f(rowKernel("            out = v - reduce_max(v, axis=-1)\n"));
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  // v and out (x2 each, 64 KiB) live across the loop; the work buffer holds two partials per 256-byte repeat
  // of a 1024-element row (32 f32 = 128 bytes), and the 4x1 maximum pads each row to 32 bytes (128 bytes).
  EXPECT_EQ(f.sema.kernels[0].peakBytes[static_cast<size_t>(Mem::UB)], 64 * 1024 + 128 + 128);
}

// 12 rows fit (12 x 16 KiB = 192 KiB); the hint names the largest power of two and the exact limit.
TEST(Sema, CapacityHintIsComputedFromTheBudget) {
  testing::Frontend f(rowKernel("            out = v * 2.0\n", "out", 16));
  ASSERT_EQ(f.diagnostics.errorCount(), 1u) << f.text();
  const auto& d = f.diagnostics.diagnostics().back();  // after the warning about the unused tensor
  EXPECT_EQ(d.message,
            "tiles in UB need 256 KiB at their peak (double-buffered) with tile size 16 for 'r'; 192 KiB "
            "available");
  EXPECT_EQ(d.hint, "use size=8 for 'r' (12 is the largest that fits)");
  EXPECT_EQ(f.sources.text(d.span), "16");
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_EQ(d.notes[0].message, "'v' f32 of 16x1024 = 64 KiB x2 buffers");
  EXPECT_EQ(d.notes[1].message, "'out' f32 of 16x1024 = 64 KiB x2 buffers");
}

TEST(Sema, LoopCarriedAccumulatorKeepsItsBufferAndIsVisibleAfterTheLoop) {
  testing::Frontend f(
      "N = dim()\n@kernel\ndef k(x: Tensor[f32, (N,)], y: Tensor[f32, (1,)]):\n"
      "    part = split(N, cores=vector_cores())\n    with compute:\n        acc = zeros((1,), f32)\n"
      "    for t in tiles(part, size=1024):\n        with copyin:\n            v = load(x[t])\n"
      "        with compute:\n            acc = acc + reduce_sum(v, axis=0)\n"
      "    with copyout:\n        store(y[0:1], acc, accumulate=True)\n");
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  EXPECT_EQ(typeStr(typeOfName(f, "acc")), "f32[1] in UB");
}

TEST(Sema, MatmulAccumulatesInL0CAndMakesACubeKernel) {
  testing::Frontend f(
      "M = dim()\nN = dim()\nK = dim()\n@kernel\n"
      "def mm(a: Tensor[f16, (M, K)], b: Tensor[f16, (K, N)], c: Tensor[f16, (M, N)]):\n"
      "    for m, n in grid((M, N), size=(128, 128), cores=cube_cores()):\n"
      "        with compute:\n            acc = zeros((m, n), f32, mem=L0C)\n"
      "        for k in tiles(K, size=64):\n            with copyin:\n"
      "                a1 = load(a[m, k], to=L1)\n                b1 = load(b[k, n], to=L1)\n"
      "            with compute:\n                acc = acc + copy(a1, to=L0A) @ copy(b1, to=L0B)\n"
      "        with copyout:\n            store(c[m, n], acc)\n");
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  const KernelInfo& k = f.sema.kernels[0];
  EXPECT_EQ(k.coreKind, CoreKind::Cube);
  EXPECT_EQ(typeStr(typeOfName(f, "acc")), "f32[m, n] in L0C");
  // The accumulation is in place: one 128x128 f32 accumulator, not two.
  EXPECT_EQ(k.peakBytes[static_cast<size_t>(Mem::L0C)], 64 * 1024);
  // L0A holds the 128x64 f16 operand twice (double-buffered with the k loop: both copies fit 64 KiB).
  EXPECT_EQ(k.peakBytes[static_cast<size_t>(Mem::L0A)], 2 * 16 * 1024);
  EXPECT_EQ(k.peakBytes[static_cast<size_t>(Mem::L1)], 2 * (16 + 16) * 1024);
}

TEST(Sema, ErrorsDoNotCascade) {
  // One unknown name; every later use of `a` and `b` is silent.
  testing::Frontend f(rowKernel("            a = nosuch(v)\n            b = a * 2.0\n            out = b + a\n"));
  EXPECT_EQ(f.messages(), "name 'nosuch' is not defined\n");
}

TEST(Sema, ForeignIdiomsGetTheDslSpelling) {
  testing::Frontend f(rowKernel("            a = vmax(v, 0.0)\n            out = tl.exp(v)\n"));
  ASSERT_EQ(f.diagnostics.errorCount(), 2u) << f.text();
  std::vector<std::string> hints;
  for (const auto& d : f.diagnostics.diagnostics()) {
    if (d.severity == support::Severity::Error) hints.push_back(d.hint);
  }
  EXPECT_EQ(hints, (std::vector<std::string>{"use maximum(a, b)", "call the builtin directly: exp(...)"}));
}

TEST(Sema, UnknownBuiltinGetsADidYouMeanHint) {
  testing::Frontend f(rowKernel("            out = reduce_summ(v, axis=-1)\n"));
  ASSERT_EQ(f.diagnostics.errorCount(), 1u);
  EXPECT_EQ(f.diagnostics.diagnostics()[0].hint, "did you mean 'reduce_sum'?");
}

std::string ifKernel(const std::string& body) {
  return "N = dim()\n@kernel\ndef k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], flag: bool):\n"
         "    part = split(N, cores=vector_cores())\n    for t in tiles(part, size=64):\n"
         "        with copyin:\n            v = load(x[t])\n" +
         body + "        with copyout:\n            store(y[t], w)\n";
}

TEST(SemaScopes, UpdatesInBothBranchesOfAnIfAreVisibleAfterIt) {
  testing::Frontend f(
      ifKernel("        with compute:\n            w = v * 1.0\n        if flag:\n"
               "            with compute:\n                w = v * 2.0\n        else:\n"
               "            with compute:\n                w = v * 3.0\n"));
  EXPECT_FALSE(f.diagnostics.hasErrors()) << f.text();
}

TEST(SemaScopes, ANameFromOneBranchIsNotVisibleInTheOther) {
  testing::Frontend f(
      ifKernel("        if flag:\n            with compute:\n                u = v * 2.0\n"
               "        else:\n            with compute:\n                w = u * 3.0\n"));
  EXPECT_EQ(f.messages(),
            "'u' is defined inside the if at line 8 and is not visible here\n"
            "'w' is defined inside the else branch at line 12 and is not visible here\n");
}

TEST(SemaCores, SplitRequestsAndSingleCoreKernels) {
  testing::Frontend all(
      "N = dim()\n@kernel\ndef k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
      "    part = split(N, cores=vector_cores(8))\n    for t in tiles(part, size=64):\n"
      "        with copyin:\n            v = load(x[t])\n        with copyout:\n"
      "            store(y[t], v)\n");
  ASSERT_FALSE(all.diagnostics.hasErrors()) << all.text();
  EXPECT_EQ(all.sema.kernels[0].cores, 8);
  testing::Frontend one(
      "@kernel\ndef k(x: Tensor[f32, (64,)], y: Tensor[f32, (64,)]):\n"
      "    with copyin:\n        v = load(x[0:64])\n    with copyout:\n        store(y[0:64], v)\n");
  ASSERT_FALSE(one.diagnostics.hasErrors()) << one.text();
  EXPECT_EQ(one.sema.kernels[0].cores, 1);
  EXPECT_EQ(one.sema.kernels[0].coreKind, CoreKind::Vector);
}

}  // namespace
}  // namespace tilecraft::dsl
