// The cache-hints pass (cache_hints.cpp): which inputs are read once by one core and so stream around L2, as
// printed in the IR's tensor lines and emitted as SetL2CacheHint.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "passes/tests/compile_fixture.h"

namespace tilecraft::passes {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string hinted(const std::string& source) { return testing::irAfter(source, "cache-hints"); }

// The add example: each core loads its share of x and y once.
TEST(CacheHints, AnInputEachCoreReadsOnceStreams) {
  std::ifstream file(std::string(TILECRAFT_SOURCE_DIR) + "/examples/elementwise/add.tile");
  std::stringstream text;
  text << file.rdbuf();
  ASSERT_FALSE(text.str().empty());
  std::string ir = hinted(text.str());
  EXPECT_THAT(ir, HasSubstr("tensor x: f16[N] in GM (in, streamed)\n"));
  EXPECT_THAT(ir, HasSubstr("tensor y: f16[N] in GM (in, streamed)\n"));
  EXPECT_THAT(ir, HasSubstr("tensor z: f16[N] in GM (out)\n"));
}

// A row every core loads, a tensor loaded twice, one loaded in a loop that does not index it, and one every core
// walks whole (no split) all read bytes again: L2 may hold them.
TEST(CacheHints, DataReadAgainKeepsL2) {
  std::string ir = hinted(R"(M = dim()
N = dim(max=1024)

@kernel
def k(x: Tensor[f32, (M, N)], g: Tensor[f32, (1, N)], w: Tensor[f32, (M, N)], v: Tensor[f32, (M, N)],
      y: Tensor[f32, (M, N)]):
    rows = split(M, cores=vector_cores())
    with copyin:
        gg = load(g[0:1, :])
    for r in tiles(rows, size=4):
        with copyin:
            a = load(x[r, :])
            b = load(w[r, :])
        with compute:
            s = reduce_sum(a * b, axis=-1)
        with copyin:
            c = load(x[r, :])
        for i in range(0, 2):
            with copyin:
                d = load(v[r, :])
            with compute:
                e = c * gg + s + d
            with copyout:
                store(y[r, :], e)
)");
  EXPECT_THAT(ir, HasSubstr("tensor w: f32[M, N] in GM (in, streamed)\n"));
  EXPECT_THAT(ir, HasSubstr("tensor x: f32[M, N] in GM (in)\n"));
  EXPECT_THAT(ir, HasSubstr("tensor g: f32[1, N] in GM (in)\n"));
  EXPECT_THAT(ir, HasSubstr("tensor v: f32[M, N] in GM (in)\n"));
}

// A matmul re-reads A for every block of N and B for every block of M.
TEST(CacheHints, MatmulOperandsKeepL2) {
  std::string ir = hinted(R"(M = dim()
N = dim()
K = dim()

@kernel
def mm(a: Tensor[f16, (M, K)], b: Tensor[f16, (K, N)], c: Tensor[f16, (M, N)]):
    for m, n in grid((M, N), size=(128, 128), cores=cube_cores()):
        with compute:
            acc = zeros((m, n), f32, mem=L0C)
        for k in tiles(K, size=64):
            with copyin:
                a1 = load(a[m, k], to=L1)
                b1 = load(b[k, n], to=L1)
            with compute:
                acc = acc + copy(a1, to=L0A) @ copy(b1, to=L0B)
        with copyout:
            store(c[m, n], acc)
)");
  EXPECT_THAT(ir, Not(HasSubstr("streamed")));
}

}  // namespace
}  // namespace tilecraft::passes
