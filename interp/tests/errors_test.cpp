// Every run-time error of the interpreter: its message, its location and its hint.
#include "interp/tests/interp_fixture.h"

namespace tilecraft::interp::testing {
namespace {

using dsl::DType;

const char* kScale = R"(N = dim(max=64)

@kernel
def scale(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], alpha: f32):
    for t in tiles(N, size=16):
        with copyin:
            v = load(x[t])
        with compute:
            w = v * alpha
        with copyout:
            store(y[t], w)
)";

RunRequest scaleRequest() {
  RunRequest rq;
  rq.dims = {{"N", 20}};
  rq.attrs = {{"alpha", 3}};
  rq.inputs["x"] = make(DType::F32, {20}, [](const std::vector<int64_t>& i) { return i[0]; });
  return rq;
}

TEST(InterpErrors, AValidRequestRuns) {
  auto p = loadText(kScale);
  auto y = runOk(*p, scaleRequest()).at("y");
  for (int i = 0; i < 20; ++i) EXPECT_EQ(y.data[i], 3.0 * i);
}

TEST(InterpErrors, MissingDim) {
  auto p = loadText(kScale);
  RunRequest rq = scaleRequest();
  rq.dims.clear();
  EXPECT_EQ(runError(*p, rq),
            "t.tile:1:1: error: no value for dim 'N'\nN = dim(max=64)\n^~~~~~~~~~~~~~~\nhint: pass --shape N=N\n");
}

TEST(InterpErrors, DimAboveItsDeclaredMax) {
  auto p = loadText(kScale);
  RunRequest rq = scaleRequest();
  rq.dims["N"] = 65;
  EXPECT_EQ(runError(*p, rq),
            "t.tile:1:1: error: dim 'N' is 65 but is declared with max=64\n"
            "N = dim(max=64)\n^~~~~~~~~~~~~~~\n"
            "hint: use a value up to 64, or raise max= (the tile sizes were checked against it)\n");
}

TEST(InterpErrors, MissingAttributeWithoutDefault) {
  auto p = loadText(kScale);
  RunRequest rq = scaleRequest();
  rq.attrs.clear();
  std::string text = runError(*p, rq);
  EXPECT_NE(text.find("t.tile:4:55: error: no value for attribute 'alpha' (f32)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("hint: pass --attr alpha=VALUE"), std::string::npos) << text;
}

TEST(InterpErrors, MissingInputAndWrongShape) {
  auto p = loadText(kScale);
  RunRequest rq = scaleRequest();
  rq.inputs.clear();
  std::string text = runError(*p, rq);
  EXPECT_NE(text.find("t.tile:4:11: error: no input for tensor 'x' (f32(20))\n"), std::string::npos) << text;
  rq.inputs["x"] = HostTensor::zeros(DType::F16, {20});
  text = runError(*p, rq);
  EXPECT_NE(text.find("t.tile:4:11: error: input 'x' is f16[20] but the kernel expects f32(20)\n"), std::string::npos)
      << text;
}

TEST(InterpErrors, GatherIndexOutOfRangeNamesTheElementAndTheExtent) {
  auto p = loadExample("gather/embedding.tile");
  RunRequest rq;
  rq.dims = {{"T", 2}, {"V", 4}, {"D", 3}};
  rq.inputs["ids"] = values(DType::I32, {2}, {1, 4});
  rq.inputs["table"] = HostTensor::zeros(DType::F16, {4, 3});
  std::string text = runError(*p, rq);
  EXPECT_NE(text.find("gather/embedding.tile:13:31: error: gather index 4 (element 0 of 'idx') is out of range for "
                      "dimension 0 of 'table' (extent 4)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("hint: index values must be in [0, 4)"), std::string::npos) << text;

  auto g = loadExample("gather/gather_last.tile");
  rq.dims = {{"M", 1}, {"N", 2}, {"K", 2}};
  rq.inputs.clear();
  rq.inputs["x"] = HostTensor::zeros(DType::F32, {1, 2});
  rq.inputs["index"] = values(DType::I32, {1, 2}, {0, -1});
  text = runError(*g, rq);
  EXPECT_NE(text.find("gather/gather_last.tile:14:17: error: gather index -1 (element 1) is out of range for the "
                      "table's last axis (extent 2)\n"),
            std::string::npos)
      << text;
}

TEST(InterpErrors, UnknownKernelName) {
  auto p = loadText(kScale);
  support::DiagnosticEngine diagnostics;
  EXPECT_FALSE(run(*p, "scal", scaleRequest(), diagnostics));
  ASSERT_EQ(diagnostics.diagnostics().size(), 1u);
  EXPECT_EQ(diagnostics.diagnostics()[0].message, "no kernel named 'scal' (the file has: scale)");
}

const char* kHost = R"(N = dim()

@kernel
def k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)], d: i32, z: i32, e: i32, o: i32):
    c = cdiv(N, d)
    q = N // z
    p = d ** e
    for t in tiles(N, size=64):
        with copyin:
            v = load(x[o : o + 4])
        with copyout:
            store(y[0:4], v)
)";

std::string hostError(std::map<std::string, double> attrs, int64_t n = 10) {
  auto p = loadText(kHost);
  RunRequest rq;
  rq.dims = {{"N", n}};
  rq.attrs = std::move(attrs);
  rq.inputs["x"] = HostTensor::zeros(DType::F32, {std::max<int64_t>(n, 0)});
  return runError(*p, rq);
}

TEST(InterpErrors, HostArithmeticOnRunTimeValues) {
  EXPECT_EQ(hostError({{"d", 0}, {"z", 1}, {"e", 1}, {"o", 0}}),
            "t.tile:5:17: error: cdiv() divisor is 0; it must be positive\n    c = cdiv(N, d)\n                ^\n");
  EXPECT_EQ(hostError({{"d", 1}, {"z", 0}, {"e", 1}, {"o", 0}}),
            "t.tile:6:9: error: integer division by zero (10 // 0)\n    q = N // z\n        ^~~~~~\n");
  EXPECT_EQ(hostError({{"d", 2}, {"z", 1}, {"e", -1}, {"o", 0}}),
            "t.tile:7:9: error: integer power with negative exponent -1\n    p = d ** e\n        ^~~~~~\n");
  EXPECT_EQ(hostError({{"d", 2}, {"z", 1}, {"e", 1}, {"o", -1}}),
            "t.tile:10:24: error: slice -1:3 of dimension 0 of 'x' is empty or negative\n"
            "            v = load(x[o : o + 4])\n                       ^~~~~~~~~\n");
  EXPECT_NE(hostError({{"d", 1.5}, {"z", 1}, {"e", 1}, {"o", 0}})
                .find("error: attribute 'd' is 1.5 but must be an integer (i32)"),
            std::string::npos);
  EXPECT_NE(hostError({{"d", 1}, {"z", 1}, {"e", 1}, {"o", 0}}, -1)
                .find("t.tile:1:1: error: dim 'N' is -1; sizes are non-negative"),
            std::string::npos);
}

TEST(InterpErrors, ASubTileIndexBeyondATailTile) {
  auto p = loadText(R"(M = dim(max=8)
N = dim(max=64)

@kernel
def k(x: Tensor[f32, (M, N)], y: Tensor[f32, (M, N)]):
    for r in tiles(M, size=2):
        with copyin:
            v = load(x[r, :])
        with compute:
            o = v - v[1:2, :]
        with copyout:
            store(y[r, :], o)
)");
  RunRequest rq;
  rq.dims = {{"M", 4}, {"N", 3}};
  rq.inputs["x"] = HostTensor::zeros(DType::F32, {4, 3});
  runOk(*p, rq);  // two full tiles of two rows
  rq.dims["M"] = 3;
  rq.inputs["x"] = HostTensor::zeros(DType::F32, {3, 3});
  std::string text = runError(*p, rq);
  EXPECT_NE(text.find("t.tile:10:23: error: slice 1:2 is out of range for dimension 0 of 'v' (extent 1 at "
                      "run time)"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace tilecraft::interp::testing
