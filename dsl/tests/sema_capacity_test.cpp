// The checker's capacity model is the buffer planner's (dsl/sema_layout.h): these pin the rules that made
// the two disagree before (queue copies, in-place results, work-buffer sizes, padded rows) and the
// diagnostic a kernel that does not fit gets. passes/tests/pipeline_test.cpp compares both on every example.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "dsl/sema_layout.h"
#include "dsl/tests/frontend_fixture.h"

namespace tilecraft::dsl {
namespace {

int64_t ubPeak(const testing::Frontend& f) { return f.sema.kernels.at(0).peakBytes[static_cast<size_t>(Mem::UB)]; }

// RMSNorm over rows of up to 8192 f32 (32 KiB each), one row per tile.
std::string rmsNorm(const std::string& tileArgs) {
  return "M = dim()\nN = dim(max=8192)\n\n@kernel\n"
         "def rms(x: Tensor[f32, (M, N)], gamma: Tensor[f32, (1, N)], y: Tensor[f32, (M, N)], eps: f32 = 1e-6):\n"
         "    rows = split(M, cores=vector_cores())\n"
         "    with copyin:\n        g = load(gamma[0:1, :])\n"
         "    for r in tiles(rows, size=1" +
         tileArgs +
         "):\n"
         "        with copyin:\n            v = load(x[r, :])\n"
         "        with compute:\n            ms = reduce_mean(v * v, axis=-1)\n"
         "            out = v * rsqrt(ms + eps) * g\n"
         "        with copyout:\n            store(y[r, :], out)\n";
}

// x and y double-buffered rotate over the loop (4 x 32 KiB), gamma and the x*x temporary (2 x 32 KiB), the
// reduction's work buffer (1 KiB) and the row statistic (32 bytes): the 197664 bytes the planner needs.
TEST(SemaCapacity, QueueCopiesStayLiveForTheirWholeLoop) {
  testing::Frontend f(rmsNorm(""));
  ASSERT_EQ(f.diagnostics.errorCount(), 1u) << f.text();
  const auto& d = f.diagnostics.diagnostics().back();
  EXPECT_EQ(d.message,
            "tiles in UB need 193 KiB (197664 bytes) at their peak (double-buffered) with tile size 1 "
            "for 'r'; 192 KiB available");
  EXPECT_EQ(f.sources.text(d.span), "1");
  EXPECT_EQ(d.hint,
            "even size=1 for 'r' does not fit; shrink the other tile dimensions (lower the bound of N = "
            "dim(max=8192)) or use buffers=1");
  EXPECT_EQ(ubPeak(f), 197664);
  // With single buffers the same kernel fits: 4 x 32 KiB + 1 KiB + 32 bytes.
  testing::Frontend one(rmsNorm(", buffers=1"));
  ASSERT_FALSE(one.diagnostics.hasErrors()) << one.text();
  EXPECT_EQ(ubPeak(one), 4 * 32768 + 1024 + 32);
}

// log_softmax at two rows of 4096 f32 per tile: six 32 KiB buffers plus row statistics do not fit; the hint
// comes from the same layout at smaller sizes.
TEST(SemaCapacity, HintComesFromTheLayout) {
  testing::Frontend f(
      "M = dim()\nN = dim(max=4096)\n\n@kernel\ndef ls(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):\n"
      "    rows = split(M, cores=vector_cores())\n    for r in tiles(rows, size=2):\n"
      "        with copyin:\n            v = load(x[r, :])\n"
      "        with compute:\n            shifted = v - reduce_max(v, axis=-1)\n"
      "            out = shifted - log(reduce_sum(exp(shifted), axis=-1))\n"
      "        with copyout:\n            store(y[r, :], out)\n");
  ASSERT_EQ(f.diagnostics.errorCount(), 1u) << f.text();
  const auto& d = f.diagnostics.diagnostics().back();
  EXPECT_EQ(d.message,
            "tiles in UB need 192.6 KiB (197184 bytes) at their peak (double-buffered) with tile size 2 "
            "for 'r'; 192 KiB available");
  EXPECT_EQ(d.hint, "use size=1 for 'r' (the largest that fits)");
}

// A 4x1024 f32 row kernel (16 KiB tiles) with `compute` as its compute stage, storing `out`.
std::string rowKernel(const std::string& compute, const std::string& store = "out") {
  return "M = dim()\nN = 1024\n\n@kernel\ndef k(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):\n"
         "    rows = split(M, cores=vector_cores())\n    for r in tiles(rows, size=4):\n"
         "        with copyin:\n            v = load(x[r, :])\n"
         "        with compute:\n" +
         compute + "        with copyout:\n            store(y[r, :], " + store + ")\n";
}

// An elementwise result may overwrite an operand that dies at it, but not one that is read later.
TEST(SemaCapacity, InPlaceOnlyOverAnOperandThatDies) {
  testing::Frontend dies(rowKernel("            a = v * 2.0\n            b = a + 1.0\n            out = b * 3.0\n"));
  ASSERT_FALSE(dies.diagnostics.hasErrors()) << dies.text();
  EXPECT_EQ(ubPeak(dies), 4 * 16384 + 16384);  // v, out (x2 each); a and b share one slot
  testing::Frontend lives(rowKernel("            a = v * 2.0\n            b = a + 1.0\n            out = b * a\n"));
  ASSERT_FALSE(lives.diagnostics.hasErrors()) << lives.text();
  EXPECT_EQ(ubPeak(lives), 4 * 16384 + 2 * 16384);  // a is read after b is made: two slots
}

// A name written twice is copied into a fresh output queue before the copyout, as lowering does: o (16 KiB),
// the tanh result and its work buffer (2 x 16 KiB), v and the copy of o (x2 each).
TEST(SemaCapacity, AugmentedTileAssignmentIsStoredAndItsCopyCounted) {
  testing::Frontend f(rowKernel("            o = v * 1.0\n            o += tanh(o) * 2.0\n", "o"));
  ASSERT_FALSE(f.diagnostics.hasErrors()) << f.text();
  ASSERT_EQ(f.sema.kernels.size(), 1u);
  EXPECT_TRUE(f.sema.kernels[0].params[1].stored);
  EXPECT_EQ(typeStr(f.sema.types[f.find(NodeKind::AugAssign)]), "f32[r, 1024] in UB");
  EXPECT_EQ(ubPeak(f), 7 * 16384);
}

TEST(SemaCapacity, AugmentedAssignmentWorksForEveryTileOperator) {
  for (const char* op : {"+=", "-=", "*=", "/="}) {
    testing::Frontend f(rowKernel(std::string("            o = v * 1.0\n            o ") + op + " v\n", "o"));
    EXPECT_FALSE(f.diagnostics.hasErrors()) << op << "\n" << f.text();
  }
}

// log_softmax over rows of up to 4096 f32 with the row tile's size as given.
std::string logSoftmax(const std::string& size) {
  return "M = dim()\nN = dim(max=4096)\n\n@kernel\ndef ls(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):\n"
         "    rows = split(M, cores=vector_cores())\n    for r in tiles(rows, size=" +
         size +
         "):\n"
         "        with copyin:\n            v = load(x[r, :])\n"
         "        with compute:\n            shifted = v - reduce_max(v, axis=-1)\n"
         "            out = shifted - log(reduce_sum(exp(shifted), axis=-1))\n"
         "        with copyout:\n            store(y[r, :], out)\n";
}

// size=auto is the capacity search: the largest power of two whose explicit size fits, with the same layout.
TEST(SemaCapacity, SizeAutoTakesTheLargestPowerOfTwoThatFits) {
  testing::Frontend automatic(logSoftmax("auto"));
  ASSERT_FALSE(automatic.diagnostics.hasErrors()) << automatic.text();
  int64_t best = 0;
  for (int64_t size = 1; size <= 4096; size *= 2) {
    testing::Frontend f(logSoftmax(std::to_string(size)));
    if (!f.diagnostics.hasErrors()) best = size;
  }
  ASSERT_GT(best, 0);
  EXPECT_EQ(ubPeak(automatic), ubPeak(testing::Frontend(logSoftmax(std::to_string(best)))));
  EXPECT_LT(ubPeak(automatic), ubPeak(testing::Frontend(logSoftmax(std::to_string(2 * best)))));
}

// A bounded extent that fits whole is one tile of exactly that size, not a power of two.
TEST(SemaCapacity, SizeAutoTakesAWholeBoundedExtentThatFits) {
  auto add = [](const std::string& size) {
    return "@kernel\ndef add(x: Tensor[f32, (100,)], y: Tensor[f32, (100,)]):\n    for t in tiles(100, size=" + size +
           "):\n        with copyin:\n            v = load(x[t])\n"
           "        with copyout:\n            store(y[t], v)\n";
  };
  testing::Frontend automatic(add("auto"));
  ASSERT_FALSE(automatic.diagnostics.hasErrors()) << automatic.text();
  EXPECT_EQ(ubPeak(automatic), ubPeak(testing::Frontend(add("100"))));
}

// Two auto tiles: the inner one first, with the outer at 1 (4096 f32 columns, the bound), then the outer takes what
// is left (6 rows of two 16 KiB copies fit, so 4).
TEST(SemaCapacity, SizeAutoResolvesTheInnerTileFirst) {
  auto copy = [](const std::string& rows, const std::string& cols) {
    return "M = dim(max=4800)\nN = dim(max=4096)\n\n@kernel\ndef k(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):\n"
           "    rows = split(M, cores=vector_cores())\n    for r in tiles(rows, size=" +
           rows + "):\n        for c in tiles(N, size=" + cols +
           "):\n            with copyin:\n                v = load(x[r, c])\n"
           "            with copyout:\n                store(y[r, c], v)\n";
  };
  testing::Frontend automatic(copy("auto", "auto"));
  ASSERT_FALSE(automatic.diagnostics.hasErrors()) << automatic.text();
  EXPECT_EQ(ubPeak(automatic), ubPeak(testing::Frontend(copy("4", "4096"))));
  EXPECT_EQ(ubPeak(automatic), 4 * 4096 * 4 * 2);
}

// What does not fit even at size 1 is the capacity error an explicit size=1 gets, at the same place.
TEST(SemaCapacity, SizeAutoThatCannotFitReportsTheCapacityError) {
  std::string text = rmsNorm("");
  text.replace(text.find("size=1"), 6, "size=auto");
  testing::Frontend automatic(text);
  testing::Frontend one(rmsNorm(""));
  ASSERT_EQ(automatic.diagnostics.errorCount(), 1u) << automatic.text();
  const auto& d = automatic.diagnostics.diagnostics().back();
  EXPECT_EQ(d.message, one.diagnostics.diagnostics().back().message);
  EXPECT_EQ(automatic.sources.text(d.span), "auto");
}

TEST(SemaCapacity, SizeAutoIsForTilesOnly) {
  testing::Frontend f(
      "M = dim()\nN = dim()\n\n@kernel\ndef g(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):\n"
      "    for m, n in grid((M, N), size=(auto, 64), cores=vector_cores()):\n"
      "        with copyin:\n            v = load(x[m, n])\n"
      "        with copyout:\n            store(y[m, n], v)\n");
  ASSERT_TRUE(f.diagnostics.hasErrors());
  const auto& d = f.diagnostics.diagnostics().front();
  EXPECT_EQ(d.message, "size=auto is for tiles(); grid() blocks need explicit sizes");
  EXPECT_EQ(f.sources.text(d.span), "auto");
}

TEST(SemaLayout, TileBytesPadEveryRowTo32Bytes) {
  EXPECT_EQ(tileBytes(DType::F32, std::vector<int64_t>{4, 1}), 4 * 32);
  EXPECT_EQ(tileBytes(DType::F16, std::vector<int64_t>{2, 24}), 2 * 64);
  EXPECT_EQ(tileBytes(DType::F32, std::vector<int64_t>{1024}), 4096);
  EXPECT_EQ(reduceWorkBytes(DType::F32, 1024), 128);  // 16 repeats, two partials each
  EXPECT_EQ(reduceWorkBytes(DType::F16, 16), 32);     // one repeat, rounded up to 32 bytes
}

TEST(SemaLayout, FirstFitReusesDeadSpaceAndAlignsL0) {
  std::vector<LayoutItem> items = {
      {Mem::UB, 1000, 1, 0, 1},                            // placed after the big one, which is live at the same time
      {Mem::UB, 2048, 1, 0, 3}, {Mem::UB, 1000, 1, 2, 3},  // overlaps only the big one: reuses the first's space
      {Mem::L0A, 100, 1, 0, 1}, {Mem::L0A, 100, 1, 0, 1},
  };
  Layout layout = placeBuffers(items);
  EXPECT_EQ(layout.offsets, (std::vector<int64_t>{2048, 0, 2048, 0, 512}));
  // The end is the TBuf's InitBuffer, which the TPipe rounds up to 32 bytes.
  EXPECT_EQ(layout.end[static_cast<size_t>(Mem::UB)], 3072);
  EXPECT_EQ(layout.end[static_cast<size_t>(Mem::L0A)], 640);
}

// Queues are InitBuffers of their own: laid out first, one after the other, each copy rounded to the memory's
// alignment, and never reused, even by a buffer born after they die; the other items share one TBuf after them.
TEST(SemaLayout, QueuesTakeSpaceOfTheirOwnAndTheRestShareOneTBuf) {
  std::vector<LayoutItem> items = {
      {Mem::UB, 4096, 2, 0, 5, true},   // a double-buffered input queue
      {Mem::UB, 1000, 1, 6, 7, true},   // an output queue born after the input died: still its own space
      {Mem::UB, 2048, 1, 1, 2, false},  // compute values, dead apart: one slot
      {Mem::UB, 2048, 1, 3, 4, false}, {Mem::L0C, 1500, 1, 0, 1, true},  // rounded to 1024 bytes (Mmad's alignment)
  };
  Layout layout = placeBuffers(items);
  EXPECT_EQ(layout.offsets, (std::vector<int64_t>{0, 8192, 9216, 9216, 0}));
  EXPECT_EQ(layout.end[static_cast<size_t>(Mem::UB)], 9216 + 2048);
  EXPECT_EQ(layout.end[static_cast<size_t>(Mem::L0C)], 2048);
  ASSERT_EQ(layout.pipe.size(), 4u);
  auto expectCall = [&](size_t i, Mem mem, int item, int64_t offset, int64_t bytes, int64_t copies) {
    EXPECT_EQ(layout.pipe[i].mem, mem) << i;
    EXPECT_EQ(layout.pipe[i].item, item) << i;
    EXPECT_EQ(layout.pipe[i].offset, offset) << i;
    EXPECT_EQ(layout.pipe[i].bytes, bytes) << i;
    EXPECT_EQ(layout.pipe[i].copies, copies) << i;
  };
  expectCall(0, Mem::UB, 0, 0, 4096, 2);
  expectCall(1, Mem::UB, 1, 8192, 1024, 1);
  expectCall(2, Mem::UB, -1, 9216, 2048, 1);
  expectCall(3, Mem::L0C, 4, 0, 2048, 1);
}

// The placement finds overlapping slots through an index (sema_layout.cpp) instead of testing every placed one;
// the offsets must be exactly those of the direct first fit, largest first, written out here.
std::vector<int64_t> directFirstFit(const std::vector<LayoutItem>& items) {
  std::vector<size_t> order(items.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) {
    int64_t sa = items[a].bytes * items[a].copies, sc = items[c].bytes * items[c].copies;
    return sa != sc ? sa > sc : items[a].start < items[c].start;
  });
  std::vector<int64_t> offsets(items.size(), 0);
  std::vector<size_t> placed;
  for (size_t i : order) {
    const LayoutItem& item = items[i];
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t o : placed) {
      const LayoutItem& other = items[o];
      if (other.mem != item.mem || other.end < item.start || item.end < other.start) continue;
      busy.push_back({offsets[o], offsets[o] + other.bytes * other.copies});
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [lo, hi] : busy) {
      if (offset + item.bytes * item.copies <= lo) break;
      offset = std::max(offset,
                        (hi + bufferAlignment(item.mem) - 1) / bufferAlignment(item.mem) * bufferAlignment(item.mem));
    }
    offsets[i] = offset;
    placed.push_back(i);
  }
  return offsets;
}

TEST(Layout, IndexedPlacementEqualsTheDirectFirstFit) {
  uint64_t state = 12345;
  auto next = [&](uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int64_t>((state >> 33) % n);
  };
  for (int round = 0; round < 40; ++round) {
    std::vector<LayoutItem> items;
    int count = 1 + static_cast<int>(next(300));
    for (int i = 0; i < count; ++i) {
      int64_t start = next(500);
      // Mostly short lifetimes, some long ones, and a few empty ones (end before start).
      int64_t length = next(10) == 0 ? next(500) : next(8);
      int64_t end = next(40) == 0 ? start - 1 : start + length;
      Mem mem = next(4) == 0 ? Mem::L0A : Mem::UB;
      items.push_back({mem, 32 * (1 + next(64)), 1 + next(2), start, end});
    }
    EXPECT_EQ(placeBuffers(items).offsets, directFirstFit(items)) << "round " << round;
  }
}

}  // namespace
}  // namespace tilecraft::dsl
