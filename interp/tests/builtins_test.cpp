// Every tile builtin of the registry on a small input, against its definition in docs/language.md ("Reference
// semantics"): computed in double, rounded once to the result dtype.
#include <fmt/format.h>

#include <cmath>

#include "interp/tests/interp_fixture.h"

namespace tilecraft::interp::testing {
namespace {

using dsl::DType;

// A 2x4 input with negative, fractional and tied values.
const std::vector<double> kIn = {-1.5, 0.25, 2, -0.75, 3, -2, 0.5, 3};

struct Out {
  std::string dtype = "f32";
  std::string shape = "(M, N)";
  std::string index = "r, :";
};

std::vector<double> runExpr(const std::string& expr, Out out = {}, const std::string& in = "f32",
                            std::vector<double> input = kIn) {
  std::string text = fmt::format(R"(M = dim(max=8)
N = dim(max=64)

@kernel
def k(x: Tensor[{}, (M, N)], y: Tensor[{}, {}]):
    for r in tiles(M, size=8):
        with copyin:
            v = load(x[r, :])
        with compute:
            o = {}
        with copyout:
            store(y[{}], o)
)",
                                 in, out.dtype, out.shape, expr, out.index);
  auto p = loadText(text);
  if (!p->ok()) return {};
  RunRequest rq;
  rq.dims = {{"M", 2}, {"N", 4}};
  rq.inputs["x"] = values(*dsl::dtypeFromName(in), {2, 4}, std::move(input));
  return runOk(*p, rq).at("y").data;
}

std::vector<double> apply(double (*f)(double)) {
  std::vector<double> r;
  for (double v : kIn) r.push_back(roundTo(f(v), DType::F32));
  return r;
}

TEST(InterpBuiltins, UnaryMathIsTheDoubleFunctionRoundedToTheDType) {
  EXPECT_EQ(runExpr("exp(v)"), apply([](double x) { return std::exp(x); }));
  EXPECT_EQ(runExpr("log(abs(v))"), apply([](double x) { return std::log(std::fabs(x)); }));
  EXPECT_EQ(runExpr("abs(v)"), apply([](double x) { return std::fabs(x); }));
  EXPECT_EQ(runExpr("sqrt(abs(v))"), apply([](double x) { return std::sqrt(std::fabs(x)); }));
  EXPECT_EQ(runExpr("rsqrt(abs(v))"), apply([](double x) { return 1 / std::sqrt(std::fabs(x)); }));
  EXPECT_EQ(runExpr("reciprocal(v)"), apply([](double x) { return 1 / x; }));
  EXPECT_EQ(runExpr("relu(v)"), apply([](double x) { return x > 0 ? x : 0.0; }));
  EXPECT_EQ(runExpr("tanh(v)"), apply([](double x) { return std::tanh(x); }));
  EXPECT_EQ(runExpr("sigmoid(v)"), apply([](double x) { return 1 / (1 + std::exp(-x)); }));
  EXPECT_EQ(runExpr("silu(v)"), apply([](double x) { return x / (1 + std::exp(-x)); }));
  EXPECT_EQ(runExpr("gelu(v)"), apply([](double x) {
              return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
            }));
  EXPECT_EQ(runExpr("sin(v)"), apply([](double x) { return std::sin(x); }));
  EXPECT_EQ(runExpr("cos(v)"), apply([](double x) { return std::cos(x); }));
  EXPECT_EQ(runExpr("erf(v)"), apply([](double x) { return std::erf(x); }));
  EXPECT_EQ(runExpr("-v"), apply([](double x) { return -x; }));
}

TEST(InterpBuiltins, BinaryBuiltinsTakeNumbersInTheTilesDType) {
  EXPECT_EQ(runExpr("maximum(v, 0.5)"), (std::vector<double>{0.5, 0.5, 2, 0.5, 3, 0.5, 0.5, 3}));
  EXPECT_EQ(runExpr("minimum(0.5, v)"), (std::vector<double>{-1.5, 0.25, 0.5, -0.75, 0.5, -2, 0.5, 0.5}));
  EXPECT_EQ(runExpr("pow(abs(v), 2.0)"), (std::vector<double>{2.25, 0.0625, 4, 0.5625, 9, 4, 0.25, 9}));
  EXPECT_EQ(runExpr("v ** 3"), (std::vector<double>{-3.375, 0.015625, 8, -0.421875, 27, -8, 0.125, 27}));
  EXPECT_EQ(runExpr("leaky_relu(v, 0.5)"), (std::vector<double>{-0.75, 0.25, 2, -0.375, 3, -1, 0.5, 3}));
  EXPECT_EQ(runExpr("clamp(v, -1.0, 1.0)"), (std::vector<double>{-1, 0.25, 1, -0.75, 1, -1, 0.5, 1}));
  EXPECT_EQ(runExpr("where(v > 0.0, v, v * 0.5)"), (std::vector<double>{-0.75, 0.25, 2, -0.375, 3, -1, 0.5, 3}));
  EXPECT_EQ(runExpr("where(v <= 0.5, v * 0.0 + 1.0, 0.0)"), (std::vector<double>{1, 1, 0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(runExpr("v / 4.0 - 1.0"),
            (std::vector<double>{-1.375, -0.9375, -0.5, -1.1875, -0.25, -1.5, -0.875, -0.25}));
  // 0.1 is rounded to f32 before the multiply: 3 * f32(0.1) rounded to f32.
  EXPECT_EQ(runExpr("v * 0.1")[4], roundTo(3.0 * roundTo(0.1, DType::F32), DType::F32));
}

TEST(InterpBuiltins, ReductionsKeepTheReducedAxisWithExtentOne) {
  Out col{"f32", "(M, 1)", "r, :"};
  Out row{"f32", "(1, N)", "0:1, :"};
  EXPECT_EQ(runExpr("reduce_sum(v, axis=-1)", col), (std::vector<double>{0, 4.5}));
  EXPECT_EQ(runExpr("reduce_mean(v, axis=-1)", col), (std::vector<double>{0, 1.125}));
  EXPECT_EQ(runExpr("reduce_max(v, axis=-1)", col), (std::vector<double>{2, 3}));
  EXPECT_EQ(runExpr("reduce_min(v, axis=1)", col), (std::vector<double>{-1.5, -2}));
  EXPECT_EQ(runExpr("reduce_sum(v, axis=0)", row), (std::vector<double>{1.5, -1.75, 2.5, 2.25}));
  EXPECT_EQ(runExpr("reduce_max(v, axis=0)", row), (std::vector<double>{3, 0.25, 2, 3}));
  // Ties go to the first index: row 1 has 3 at columns 0 and 3.
  Out idx{"i32", "(M, 1)", "r, :"};
  EXPECT_EQ(runExpr("argmax(v, axis=-1)", idx), (std::vector<double>{2, 0}));
  EXPECT_EQ(runExpr("argmin(v, axis=-1)", idx), (std::vector<double>{0, 1}));
  EXPECT_EQ(runExpr("argmax(v, axis=0)", Out{"i32", "(1, N)", "0:1, :"}), (std::vector<double>{1, 0, 0, 1}));
}

TEST(InterpBuiltins, ScansAccumulateAlongTheAxis) {
  EXPECT_EQ(runExpr("cumsum(v, axis=-1)"), (std::vector<double>{-1.5, -1.25, 0.75, 0, 3, 1, 1.5, 4.5}));
  EXPECT_EQ(runExpr("cumsum(v, axis=0)"), (std::vector<double>{-1.5, 0.25, 2, -0.75, 1.5, -1.75, 2.5, 2.25}));
  EXPECT_EQ(runExpr("cumprod(v, axis=-1)"), (std::vector<double>{-1.5, -0.375, -0.75, 0.5625, 3, -6, -3, -9}));
  EXPECT_EQ(runExpr("cumsum(v, axis=-1)", Out{"i32"}, "i32", {1, 2, 3, 4, -1, -2, -3, 2147483647}),
            (std::vector<double>{1, 3, 6, 10, -1, -3, -6, 2147483641}));
}

TEST(InterpBuiltins, CastsConvertByTheLanguagesRules) {
  EXPECT_EQ(runExpr("cast(v, i32)", Out{"i32"}), (std::vector<double>{-1, 0, 2, 0, 3, -2, 0, 3}));  // toward zero
  EXPECT_EQ(runExpr("cast(v * 0.1, f16)", Out{"f16"}),
            (std::vector<double>{
                roundTo(roundTo(-0.15, DType::F32), DType::F16), roundTo(roundTo(0.025, DType::F32), DType::F16),
                roundTo(roundTo(0.2, DType::F32), DType::F16), roundTo(roundTo(-0.075, DType::F32), DType::F16),
                roundTo(roundTo(3 * roundTo(0.1, DType::F32), DType::F32), DType::F16),
                roundTo(roundTo(-0.2, DType::F32), DType::F16), roundTo(roundTo(0.05, DType::F32), DType::F16),
                roundTo(roundTo(3 * roundTo(0.1, DType::F32), DType::F32), DType::F16)}));
  EXPECT_EQ(runExpr("cast(v, f32)", Out{}, "i16", {1, -2, 3, 32767, 0, 0, 0, -32768})[3], 32767);
  EXPECT_EQ(runExpr("cast(v, i16)", Out{"i16"}, "i32", {40000, 0, 0, 0, 0, 0, 0, -40000})[0], -25536);  // wraps
  EXPECT_EQ(runExpr("cast(v, u8)", Out{"u8"}, "f16", {300, -5, 2.9, 0, 0, 0, 0, 255}),
            (std::vector<double>{255, 0, 2, 0, 0, 0, 0, 255}));  // saturates
}

TEST(InterpBuiltins, IntegerTilesWrapAtTheirWidth) {
  EXPECT_EQ(runExpr("v * v", Out{"i32"}, "i32", {50000, -3, 0, 0, 0, 0, 0, 46341})[0], -1794967296.0);
  EXPECT_EQ(runExpr("v + 1", Out{"i16"}, "i16", {32767, -3, 0, 0, 0, 0, 0, 0})[0], -32768);
  EXPECT_EQ(runExpr("relu(v) - maximum(v, 2)", Out{"i32"}, "i32", {5, -3, 0, 1, 0, 0, 0, 0}),
            (std::vector<double>{0, -2, -2, -1, -2, -2, -2, -2}));
}

TEST(InterpBuiltins, CreationCopiesAndSubTiles) {
  EXPECT_EQ(runExpr("v + full((r, N), 2.0, f32)"), (std::vector<double>{0.5, 2.25, 4, 1.25, 5, 0, 2.5, 5}));
  EXPECT_EQ(runExpr("v * zeros((1, N), f32) + 1.0"), (std::vector<double>(8, 1.0)));
  EXPECT_EQ(runExpr("copy(v, to=UB)"), kIn);
  EXPECT_EQ(runExpr("v - v[0:1, :]"), (std::vector<double>{0, 0, 0, 0, 4.5, -2.25, -1.5, 3.75}));
  EXPECT_EQ(runExpr("v[1, :]", Out{"f32", "(1, N)", "0:1, :"}), (std::vector<double>{3, -2, 0.5, 3}));
}

TEST(InterpControl, IfElifElseAndAugmentedAssignmentFollowTheAttribute) {
  auto p = loadText(R"(N = dim()

@kernel
def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], mode: i32):
    for t in tiles(N, size=64):
        with copyin:
            v = load(x[t])
        if mode == 0:
            with compute:
                o = v * 2.0
            with copyout:
                store(y[t], o)
        elif mode > 5 and not mode == 7:
            with compute:
                o = v + 1.0
                o += v
            with copyout:
                store(y[t], o)
        else:
            with copyout:
                store(y[t], v)
)");
  RunRequest rq;
  rq.dims = {{"N", 3}};
  rq.inputs["x"] = values(DType::F32, {3}, {1, 2, 3});
  rq.attrs["mode"] = 0;
  EXPECT_EQ(runOk(*p, rq).at("y").data, (std::vector<double>{2, 4, 6}));
  rq.attrs["mode"] = 6;
  EXPECT_EQ(runOk(*p, rq).at("y").data, (std::vector<double>{3, 5, 7}));
  rq.attrs["mode"] = 7;
  EXPECT_EQ(runOk(*p, rq).at("y").data, (std::vector<double>{1, 2, 3}));
}

TEST(InterpControl, HostArithmeticFollowsPython) {
  // y[i] = x[i] for the i that range(start, stop, step) visits; integer // and % floor like Python.
  auto p = loadText(R"(N = dim()
STEP = 7 // 2

@kernel
def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):
    for i in range(cdiv(N, 2) - 1, min(N, max(4, 2)) + (-7) % 3, STEP):
        with copyin:
            v = load(x[i : i + 1])
        with copyout:
            store(y[i : i + 1], v)
)");
  RunRequest rq;
  rq.dims = {{"N", 10}};  // range(4, 4 + 2, 3): i = 4 only
  rq.inputs["x"] = make(DType::F32, {10}, [](const std::vector<int64_t>& i) { return i[0] + 1.0; });
  EXPECT_EQ(runOk(*p, rq).at("y").data, (std::vector<double>{0, 0, 0, 0, 5, 0, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace tilecraft::interp::testing

namespace tilecraft::interp::testing {
namespace {

std::string repeatText(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// Operator chains are evaluated with a loop (machine.cpp, evalChain): 10,000 links, left to right, with the
// short circuit of `and`/`or` kept (the right operand of a decided link is not evaluated).
TEST(InterpChains, LongChainsEvaluateLeftToRightWithoutRecursion) {
  // ((v * 1 + v) * 1 + v) ... : 5,000 additions of v, each rounded to f32 in order.
  std::vector<double> sum = runExpr("v" + repeatText(" * 1.0 + v", 5000));
  ASSERT_EQ(sum.size(), kIn.size());
  for (size_t i = 0; i < sum.size(); ++i) EXPECT_EQ(sum[i], kIn[i] * 5001) << i;
  // n > 0 and n > 1 and ... and n > 4999 or n < 0: false from the link n > n on, true for a large n.
  std::string cond = "n > 0";
  for (int i = 1; i < 5000; ++i) cond += fmt::format(" and n > {}", i);
  auto p = loadText(fmt::format(R"(M = dim(max=8)
N = dim(max=64)

@kernel
def k(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)], n: i32):
    for r in tiles(M, size=8):
        with copyin:
            v = load(x[r, :])
        with compute:
            o = v * 1.0
        if {} or n < 0:
            with compute:
                o = v + 1.0
        with copyout:
            store(y[r, :], o)
)",
                                cond));
  ASSERT_TRUE(p->ok());
  for (int64_t n : {3, 6000}) {
    RunRequest rq;
    rq.dims = {{"M", 2}, {"N", 4}};
    rq.attrs = {{"n", static_cast<double>(n)}};
    rq.inputs["x"] = values(DType::F32, {2, 4}, kIn);
    std::vector<double> out = runOk(*p, rq).at("y").data;
    ASSERT_EQ(out.size(), kIn.size());
    for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], kIn[i] + (n > 4999 ? 1.0 : 0.0)) << n << " " << i;
  }
}

}  // namespace
}  // namespace tilecraft::interp::testing
