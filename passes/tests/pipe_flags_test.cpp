// The flags queue insertion adds (pipe_flags.cpp) and the slices tiling bounds, checked on the printed IR of
// DSL snippets: FileCheck-style, each expected line must follow the previous one, and "flag" lines appear only
// where a test expects them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/pipeline.h"
#include "passes/tests/compile_fixture.h"

namespace tilecraft::passes {
namespace {

using ::testing::ElementsAre;

/// The IR after `pass`, as `tilecraft compile --emit=ir-after=PASS` prints it.
using testing::irAfter;

std::vector<std::string> trimmedLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t begin = line.find_first_not_of(' ');
    size_t end = line.find("  #");  // the "# line N" column
    if (begin == std::string::npos) continue;
    std::string s = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    out.push_back(s);
  }
  return out;
}

/// Every `expected` line occurs in `text`, in this order (whole trimmed lines), and the text holds exactly
/// `flags` flag lines.
void expectLines(const std::string& text, const std::vector<std::string>& expected, size_t flags) {
  std::vector<std::string> lines = trimmedLines(text);
  size_t at = 0;
  for (const std::string& want : expected) {
    while (at < lines.size() && lines[at] != want) ++at;
    ASSERT_LT(at, lines.size()) << "no line '" << want << "' after the previous match in:\n" << text;
    ++at;
  }
  size_t count = 0;
  for (const std::string& l : lines) count += l.rfind("flag ", 0) == 0;
  EXPECT_EQ(count, flags) << text;
}

constexpr const char* kCastThenGather = R"(V = dim()
D = dim(max=4096)
L = dim()

@kernel
def k(weight: Tensor[f16, (V, D)], idx: Tensor[i64, (L,)], y: Tensor[f16, (L, D)]):
    part = split(L, cores=vector_cores())
    for t in tiles(part, size=8):
        with copyin:
            ids64 = load(idx[t])
        with compute:
            ids = cast(ids64, i32)
        with copyin:
            rows = load(weight[ids, :])
        with copyout:
            store(y[t, :], rows)
)";

TEST(PipeFlags, IndicesComputedOnTheVectorUnitAreHandedToTheScalarUnit) {
  // The VECOUT queue of ids orders V -> MTE3 only; the gather's GetValue runs on S.
  expectLines(irAfter(kCastThenGather, "queue-insertion"),
              {"%ids = cast %ids64 to i32", "enque %ids", "copyin:", "deque %ids", "alloc %rows", "flag V->S %ids",
               "%rows = load weight[%ids, :] tail", "enque %rows", "free %ids"},
              1);
}

TEST(PipeFlags, LoadedIndicesAreHandedFromMte2ToTheScalarUnit) {
  const char* source = R"(V = dim()
D = dim(max=1024)
L = dim()

@kernel
def k(weight: Tensor[f32, (V, D)], idx: Tensor[i32, (L,)], y: Tensor[f32, (L, D)]):
    part = split(L, cores=vector_cores())
    for t in tiles(part, size=8):
        with copyin:
            ids = load(idx[t])
        with copyin:
            rows = load(weight[ids, :])
        with copyout:
            store(y[t, :], rows)
)";
  expectLines(irAfter(source, "queue-insertion"),
              {"enque %ids", "copyin:", "deque %ids", "flag MTE2->S %ids", "%rows = load weight[%ids, :] tail"}, 1);
}

TEST(PipeFlags, ALoadedValueStoredAsWellAsComputedOrdersMte3BothWays) {
  // The VECIN queue of a orders MTE2 -> V (and V -> MTE2 back); the store reads it on MTE3. (b's queues order
  // the same pipes transitively, which the walk does not credit: it adds flags rather than miss one.)
  const char* source = R"(N = dim()

@kernel
def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], z: Tensor[f32, (N,)]):
    part = split(N, cores=vector_cores())
    for t in tiles(part, size=512):
        with copyin:
            a = load(x[t])
        with compute:
            b = a * 2.0
        with copyout:
            store(y[t], b)
            store(z[t], a)
)";
  expectLines(irAfter(source, "queue-insertion"),
              {"store y[t], %b tail", "flag MTE2->MTE3 %a", "store z[t], %a tail", "flag MTE3->V %a", "free %a"}, 2);
}

TEST(PipeFlags, AColumnFormRewritesItsColumnSoAStoreOfItWaitsForTheVectorPipe) {
  // d = v * m spreads m across its blocks on V (legalize's column form): the store of m must wait for V, not only
  // for the MTE2 load.
  const char* source = R"(M = dim()
N = dim(max=64)

@kernel
def k(x: Tensor[f32, (M, N)], c: Tensor[f32, (M, 1)], y: Tensor[f32, (M, N)], s: Tensor[f32, (M, 1)]):
    rows = split(M, cores=vector_cores())
    for r in tiles(rows, size=8):
        with copyin:
            v = load(x[r, :])
            m = load(c[r, :])
        with compute:
            d = v * m
        with copyout:
            store(y[r, :], d)
            store(s[r, :], m)
)";
  expectLines(
      irAfter(source, "queue-insertion"),
      {"%d = mul %v, %m column-flat", "flag V->MTE3 %m", "store s[r, :], %m tail", "flag MTE3->V %m", "free %m"}, 2);
}

TEST(PipeFlags, QueuesAloneOrderAnElementwiseKernel) {
  const char* source = R"(N = dim()

@kernel
def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):
    part = split(N, cores=vector_cores())
    for t in tiles(part, size=512):
        with copyin:
            a = load(x[t])
        with compute:
            b = exp(a) * a
        with copyout:
            store(y[t], b)
)";
  expectLines(irAfter(source, "queue-insertion"), {"deque %a", "enque %b", "deque %b", "free %b"}, 0);
}

TEST(SliceBounds, AConstantWidthAtADeviceOffsetIsBoundedByTheTensorsEnd) {
  const char* source = R"(C = 256
N = dim()

@kernel
def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], w: Tensor[f32, (512,)], v: Tensor[f32, (512,)]):
    for i in range(0, cdiv(N, C)):
        with copyin:
            a = load(x[i*C : i*C + C])
            c = load(w[256 : 512])
        with compute:
            b = a * 2.0
            d = c * 2.0
        with copyout:
            store(y[i*C : i*C + C], b)
            store(v[0 : 256], d)
)";
  std::string ir = irAfter(source, "tiling");
  // Inside by constants: plain copies; the device offset: bounded, hence DataCopyPad.
  expectLines(ir,
              {"%a = load x[(i * 256) : +256 valid max(0, min(256, (N - (i * 256))))] tail", "%c = load w[256 : +256]",
               "store y[(i * 256) : +256 valid max(0, min(256, (N - (i * 256))))], %b tail", "store v[0 : +256], %d"},
              0);
}

}  // namespace
}  // namespace tilecraft::passes
