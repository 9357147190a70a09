// High-level vector APIs: Sigmoid, Tanh, Gelu, FasterGelu, SoftMax, LayerNorm, RmsNorm, Sum, Mean, and their host
// tiling / temporary-size functions. Values are compared with a double-precision reference rounded to the output
// type (elementwise and row-wise transcendental results within an ulp of T); sums of integers exactly.
#include <random>

#include "emu_test_util.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

class HighLevelTest : public EmuTest {
 protected:
  // Stores values into a UB tensor as a V-pipe write, so later vector instructions may read them.
  template <typename T>
  void fill(const LocalTensor<T>& t, const std::vector<double>& v) {
    uint32_t ins = core().begin(tcemu::Pipe::V, tcemu::OpClass::Vector, "fill", tcemu::SrcLoc::current());
    core().write(ins, t.ref_, 0, v.size() * sizeof(T), "fill", tcemu::SrcLoc::current());
    for (size_t i = 0; i < v.size(); ++i) t.GetPhyAddr()[i] = tcemu::fromFloat<T>(static_cast<float>(v[i]));
  }
  template <typename T>
  std::vector<double> values(const LocalTensor<T>& t, size_t n) {
    std::vector<double> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = tcemu::toFloat(t.GetPhyAddr()[i]);
    return out;
  }
  std::vector<double> random(size_t n, double lo, double hi, unsigned seed = 7) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(n);
    for (double& x : v) x = d(gen);
    return v;
  }
  // Inputs as the kernel sees them (already rounded to T).
  template <typename T>
  std::vector<double> asT(const std::vector<double>& v) {
    std::vector<double> r(v.size());
    for (size_t i = 0; i < v.size(); ++i) r[i] = tcemu::toFloat(tcemu::fromFloat<T>(static_cast<float>(v[i])));
    return r;
  }
  // |got - ref| within one ulp of T at ref (plus a tiny absolute slack near zero).
  template <typename T>
  // `scale` floors the magnitude the ulp is taken at, for results that cancel towards 0 (normalisations).
  void expectNear(const std::vector<double>& got, const std::vector<double>& ref, double ulps = 1.0,
                  double scale = 1e-3) {
    ASSERT_EQ(got.size(), ref.size());
    const double eps = std::is_same_v<T, half> ? 1.0 / 1024 : 1.0 / (1 << 23);
    for (size_t i = 0; i < got.size(); ++i) {
      double tol = ulps * eps * std::max(std::fabs(ref[i]), scale) + (std::is_same_v<T, half> ? 6e-8 : 1e-12);
      EXPECT_NEAR(got[i], ref[i], tol) << "element " << i;
    }
  }
  TPipe pipe_;
};

template <typename T>
class HighLevelTypedTest : public HighLevelTest {};
using FloatTypes = ::testing::Types<half, float>;
TYPED_TEST_SUITE(HighLevelTypedTest, FloatTypes);

TYPED_TEST(HighLevelTypedTest, ElementwiseActivationsMatchTheDoubleReference) {
  using T = TypeParam;
  const uint32_t n = 304;  // not a whole number of repeats
  TBuf<TPosition::VECCALC> bx, by, bt;
  this->pipe_.InitBuffer(bx, n * sizeof(T));
  this->pipe_.InitBuffer(by, n * sizeof(T));
  this->pipe_.InitBuffer(bt, 4096);
  LocalTensor<T> x = bx.template Get<T>(), y = by.template Get<T>();
  LocalTensor<uint8_t> tmp = bt.template Get<uint8_t>();
  std::vector<double> in = this->template asT<T>(this->random(n, -6.0, 6.0));
  this->fill(x, in);
  // Float results carry the float evaluation's error amplified by the function's condition number: exp(-a) with
  // |a| up to ~25 for Gelu at -6 turns an ulp of the argument into ~25 ulps of the result.
  auto run = [&](auto api, auto ref, double floatUlps) {
    api();
    std::vector<double> want(n);
    for (uint32_t i = 0; i < n; ++i) want[i] = ref(in[i]);
    this->template expectNear<T>(this->values(y, n), want, std::is_same_v<T, half> ? 1.0 : floatUlps);
  };
  auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  run([&] { Sigmoid<T>(y, x, tmp, n); }, sigmoid, 8.0);
  run([&] { Sigmoid<T>(y, x, n); }, sigmoid, 8.0);
  run([&] { Tanh<T>(y, x, tmp, n); }, [](double v) { return std::tanh(v); }, 2.0);
  run([&] { Tanh<T>(y, x); }, [](double v) { return std::tanh(v); }, 2.0);
  auto gelu = [](double v) { return 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v))); };
  run([&] { Gelu<T>(y, x, tmp, n); }, gelu, 64.0);
  run([&] { Gelu<T>(y, x, n); }, gelu, 64.0);
  auto fast = [](double v) { return v / (1.0 + std::exp(-1.702 * v)); };
  run([&] { FasterGelu<T>(y, x, tmp, n); }, fast, 32.0);
  run([&] { FasterGelu<T>(y, x, n); }, fast, 32.0);
}

TEST_F(HighLevelTest, ActivationTmpBufferBelowTheMinimumIsNamed) {
  TBuf<TPosition::VECCALC> bx, bt;
  pipe_.InitBuffer(bx, 512);
  pipe_.InitBuffer(bt, 256);
  LocalTensor<half> x = bx.Get<half>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  fill(x, std::vector<double>(256, 1.0));
  EXPECT_EQ(checkMessage([&] { Sigmoid<half>(x, x, tmp, 256); }),
            "Sigmoid sharedTmpBuffer has 256 bytes; this call needs at least 512 bytes; hint: size the buffer with "
            "GetSigmoidMaxMinTmpSize (minimum 512 bytes)");
  uint32_t maxV = 0, minV = 0;
  GetSigmoidMaxMinTmpSize(ge::Shape({256}), 2, false, maxV, minV);
  EXPECT_EQ(minV, 512u);
  EXPECT_EQ(maxV, 2048u);  // two float copies of 256 elements
  GetGeluMaxMinTmpSize(ge::Shape({100}), 4, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 512u);
  EXPECT_EQ(GetGeluMinTmpSize(ge::Shape({100}), 4), 256u);
  GetTanhMaxMinTmpSize(ge::Shape({8, 16}), 2, false, maxV, minV);
  EXPECT_EQ(maxV, 1024u);
}

TEST_F(HighLevelTest, StackBufferMustLeaveEnoughFreeUb) {
  TBuf<TPosition::VECCALC> bx, big;
  pipe_.InitBuffer(bx, 512);
  pipe_.InitBuffer(big, tcemu::memSize(tcemu::Mem::UB) - 512 - 256);
  LocalTensor<half> x = bx.Get<half>();
  fill(x, std::vector<double>(256, 1.0));
  EXPECT_EQ(checkMessage([&] { Tanh<half>(x, x, 256); }),
            "Tanh without a sharedTmpBuffer takes its temporary space from the UB the TPipe left free: 256 bytes are "
            "free (196352 of 196608 used by InitBuffer), this call needs 512; hint: InitBuffer less, or pass a "
            "sharedTmpBuffer");
}

TEST_F(HighLevelTest, OperandOutsideUbIsRejected) {
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::VECCALC> ub;
  pipe_.InitBuffer(l1, 512);
  pipe_.InitBuffer(ub, 512);
  LocalTensor<float> a = l1.Get<float>(), b = ub.Get<float>();
  EXPECT_EQ(checkMessage([&] { Sigmoid<float>(b, a, 64); }),
            "Sigmoid src is a tensor in L1 (position A1); Sigmoid works on UB tensors (VECIN, VECOUT, VECCALC); "
            "hint: copy the data to a VECIN/VECCALC buffer first");
}

TEST_F(HighLevelTest, CountBeyondTheTensorIsRejected) {
  TBuf<TPosition::VECCALC> bx;
  pipe_.InitBuffer(bx, 256);
  LocalTensor<float> x = bx.Get<float>();
  EXPECT_EQ(checkMessage([&] { Gelu<float>(x, x, 100); }),
            "Gelu src needs 100 elements but the tensor holds 64; hint: pass a count of at most GetSize(), or "
            "allocate a larger buffer");
}

TEST_F(HighLevelTest, ReadingUnwrittenInputIsCaught) {
  TBuf<TPosition::VECCALC> bx, by;
  pipe_.InitBuffer(bx, 256);
  pipe_.InitBuffer(by, 256);
  LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>();
  std::string msg = checkMessage([&] { Sigmoid<float>(y, x, 64); });
  EXPECT_NE(msg.find("Sigmoid src reads UB bytes [0, 256) that nothing wrote"), std::string::npos) << msg;
}

TEST_F(HighLevelTest, InputFromMte2WithoutSyncIsAHazard) {
  TBuf<TPosition::VECCALC> bx;
  pipe_.InitBuffer(bx, 256);
  LocalTensor<float> x = bx.Get<float>();
  uint32_t ins = core().begin(tcemu::Pipe::MTE2, tcemu::OpClass::DmaIn, "DataCopy", tcemu::SrcLoc::current());
  core().write(ins, x.ref_, 0, 256, "DataCopy dst", tcemu::SrcLoc::current());
  std::string msg = checkMessage([&] { Tanh<float>(x, x, 64); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: Tanh src on pipe V reads data that DataCopy on pipe MTE2 wrote", 0), 0u)
      << msg;
}

TEST_F(HighLevelTest, ActivationTraceIsAVectorSequence) {
  TBuf<TPosition::VECCALC> bx, bt;
  pipe_.InitBuffer(bx, 1024);
  pipe_.InitBuffer(bt, 4096);
  LocalTensor<half> x = bx.Get<half>();
  fill(x, std::vector<double>(512, 0.5));
  size_t before = core().trace().size();
  Sigmoid<half>(x, x, bt.Get<uint8_t>(), 512);
  const auto& tr = core().trace();
  std::vector<std::string> names;
  for (size_t i = before; i < tr.size(); ++i) {
    names.push_back(tr[i].name);
    EXPECT_EQ(tr[i].pipe, tcemu::Pipe::V);
    EXPECT_EQ(tr[i].repeats, 8u);  // 512 floats = 2048 bytes = 8 repeats
    EXPECT_EQ(tr[i].elements, 512u);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Cast", "Muls", "Exp", "Adds", "Div", "Cast"}));
}

class HighLevelCubeSideTest : public tcemu::testing::CubeTest {};

TEST_F(HighLevelCubeSideTest, VectorApisAreSkippedOnTheCube) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx;
  pipe.InitBuffer(bx, 256);
  LocalTensor<float> x = bx.Get<float>();
  size_t before = core().trace().size();
  Sigmoid<float>(x, x, 64);  // would read unwritten data on an AIV
  EXPECT_EQ(core().trace().size(), before);
}

// ---- SoftMax ---------------------------------------------------------------------------------------------------------

// Reference softmax of one row of `k` values (first `ori` real).
std::vector<double> softmaxRef(const std::vector<double>& x, uint32_t m, uint32_t k, uint32_t ori,
                               std::vector<double>& mx, std::vector<double>& sum) {
  std::vector<double> y(size_t(m) * k, 0.0);
  mx.assign(m, 0);
  sum.assign(m, 0);
  for (uint32_t r = 0; r < m; ++r) {
    double best = x[r * k];
    for (uint32_t j = 0; j < ori; ++j) best = std::max(best, x[r * k + j]);
    double s = 0;
    for (uint32_t j = 0; j < ori; ++j) s += std::exp(x[r * k + j] - best);
    for (uint32_t j = 0; j < ori; ++j) y[r * k + j] = std::exp(x[r * k + j] - best) / s;
    mx[r] = best;
    sum[r] = s;
  }
  return y;
}

TYPED_TEST(HighLevelTypedTest, SoftMaxRowsWithStatsAndTiling) {
  using T = TypeParam;
  const uint32_t m = 5, k = 64, ori = 50, statK = 32 / sizeof(T);
  optiling::SoftMaxTiling host;
  SoftMaxTilingFunc(ge::Shape({m, k}), sizeof(T), 64 * 1024, host);
  SoftMaxTiling tiling;
  host.SaveToBuffer(&tiling, sizeof(tiling));
  TBuf<TPosition::VECCALC> bx, by, bs, bm, bt;
  this->pipe_.InitBuffer(bx, m * k * sizeof(T));
  this->pipe_.InitBuffer(by, m * k * sizeof(T));
  this->pipe_.InitBuffer(bs, m * 32);
  this->pipe_.InitBuffer(bm, m * 32);
  this->pipe_.InitBuffer(bt, GetSoftMaxMinTmpSize(ge::Shape({m, k}), sizeof(T), false));
  LocalTensor<T> x = bx.template Get<T>(), y = by.template Get<T>(), s = bs.template Get<T>(),
                 mx = bm.template Get<T>();
  std::vector<double> in = this->template asT<T>(this->random(m * k, -4.0, 4.0, 11));
  this->fill(x, in);
  SoftMax<T>(y, s, mx, x, bt.template Get<uint8_t>(), tiling, SoftMaxShapeInfo{m, k, m, ori});
  std::vector<double> rmax, rsum;
  std::vector<double> want = softmaxRef(in, m, k, ori, rmax, rsum);
  this->template expectNear<T>(this->values(y, m * k), want, 3.0);
  std::vector<double> gotS = this->values(s, m * statK), gotM = this->values(mx, m * statK);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t j = 0; j < statK; ++j) {
      EXPECT_EQ(gotM[r * statK + j], rmax[r]);  // max of T values is exact
      EXPECT_NEAR(gotS[r * statK + j], rsum[r], rsum[r] * (sizeof(T) == 2 ? 1e-3 : 1e-6));
    }
  }
  // Without a tmp buffer and without stats, the shape from the tiling: all 64 columns are real.
  SoftMax<T>(y, x, tiling);
  want = softmaxRef(in, m, k, k, rmax, rsum);
  this->template expectNear<T>(this->values(y, m * k), want, 3.0);
}

TEST_F(HighLevelTest, SoftMaxHalfWithFloatStats) {
  const uint32_t m = 3, k = 32;
  TBuf<TPosition::VECCALC> bx, by, bs, bm;
  pipe_.InitBuffer(bx, m * k * 2);
  pipe_.InitBuffer(by, m * k * 2);
  pipe_.InitBuffer(bs, m * 32);
  pipe_.InitBuffer(bm, m * 32);
  LocalTensor<half> x = bx.Get<half>(), y = by.Get<half>();
  LocalTensor<float> s = bs.Get<float>(), mx = bm.Get<float>();
  std::vector<double> in = asT<half>(random(m * k, -3.0, 3.0, 5));
  fill(x, in);
  SoftMaxTiling tiling{};
  SoftMax<half>(y, s, mx, x, tiling, SoftMaxShapeInfo{m, k, m, k});
  std::vector<double> rmax, rsum;
  expectNear<half>(values(y, m * k), softmaxRef(in, m, k, k, rmax, rsum), 2.0);
  std::vector<double> gotS = values(s, m * 8);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t j = 0; j < 8; ++j) EXPECT_NEAR(gotS[r * 8 + j], rsum[r], rsum[r] * 1e-6);
}

TEST_F(HighLevelTest, SoftMaxTraceHasTheReduceSubExpReduceDivSequence) {
  const uint32_t m = 4, k = 64;
  TBuf<TPosition::VECCALC> bx;
  pipe_.InitBuffer(bx, m * k * 4);
  LocalTensor<float> x = bx.Get<float>();
  fill(x, std::vector<double>(m * k, 1.0));
  size_t before = core().trace().size();
  SoftMax<float>(x, x, SoftMaxTiling{}, SoftMaxShapeInfo{m, k, m, k});
  std::vector<std::string> names;
  for (size_t i = before; i < core().trace().size(); ++i) {
    const tcemu::Instr& in = core().trace()[i];
    names.push_back(in.name);
    if (std::string(in.name) != "Brcb") {
      EXPECT_EQ(in.repeats, 4u);  // 256 floats
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"WholeReduceMax", "Brcb", "Sub", "Exp", "WholeReduceSum", "Brcb", "Div"}));
  for (double v : values(x, m * k)) EXPECT_EQ(v, 1.0 / 64);
}

TEST_F(HighLevelTest, SoftMaxShapeErrors) {
  TBuf<TPosition::VECCALC> bx, bt;
  pipe_.InitBuffer(bx, 1024);
  pipe_.InitBuffer(bt, 64);
  LocalTensor<half> x = bx.Get<half>();
  fill(x, std::vector<double>(512, 1.0));
  EXPECT_EQ(checkMessage([&] { SoftMax<half>(x, x, SoftMaxTiling{}); }),
            "SoftMax with an empty shape: SoftMaxShapeInfo and the tiling both give srcM = 0, srcK = 0; hint: pass "
            "SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} or a tiling filled by SoftMaxTilingFunc");
  EXPECT_EQ(checkMessage([&] {
              SoftMax<half>(x, x, SoftMaxTiling{}, SoftMaxShapeInfo{2, 20, 2, 20});
            }),
            "SoftMax srcK = 20 half elements is 40 bytes, not a multiple of 32; hint: pad the last axis to 32 elements "
            "and pass the real length as oriSrcK");
  EXPECT_EQ(checkMessage([&] {
              SoftMax<half>(x, x, SoftMaxTiling{}, SoftMaxShapeInfo{2, 32, 2, 40});
            }),
            "SoftMax oriSrcK = 40 is larger than srcK = 32; hint: srcK is the padded row length, oriSrcK the real one");
  EXPECT_EQ(checkMessage([&] {
              SoftMax<half>(x, x, bt.Get<uint8_t>(), SoftMaxTiling{}, SoftMaxShapeInfo{2, 32, 2, 32});
            }),
            "SoftMax sharedTmpBuffer has 64 bytes; this call needs at least 320 bytes; hint: size the buffer with "
            "GetSoftMaxMinTmpSize (minimum 320 bytes)");
  EXPECT_EQ(checkMessage([&] {
              SoftMax<half, false, false, true>(x, x, x, x, SoftMaxTiling{}, SoftMaxShapeInfo{2, 32, 2, 32});
            }),
            "SoftMax with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND data "
            "(isDataFormatNZ = false)");
}

TEST(HighLevelHostTest, SoftMaxTilingFuncSplitsRowsByWorkspace) {
  optiling::SoftMaxTiling t;
  const uint32_t perRow = GetSoftMaxMinTmpSize(ge::Shape({10, 128}), 2, false);
  EXPECT_EQ(perRow, (2 * 128 + 16) * 4u);
  EXPECT_EQ(GetSoftMaxMaxTmpSize(ge::Shape({10, 128}), 2, false), 10 * perRow);
  SoftMaxTilingFunc(ge::Shape({10, 128}), 2, 3 * perRow + 5, t);
  EXPECT_EQ(t.get_srcM(), 10u);
  EXPECT_EQ(t.get_srcK(), 128u);
  EXPECT_EQ(t.get_srcSize(), 1280u);
  EXPECT_EQ(t.get_outMaxK(), 16u);
  EXPECT_EQ(t.get_splitM(), 3u);
  EXPECT_EQ(t.get_rangeM(), 3u);
  EXPECT_EQ(t.get_tailM(), 1u);
  EXPECT_EQ(t.get_tailSplitSize(), 128u);
  EXPECT_EQ(t.GetDataSize(), sizeof(::SoftMaxTiling));
}

// ---- LayerNorm / RmsNorm ---------------------------------------------------------------------------------------------

TYPED_TEST(HighLevelTypedTest, LayerNormAgainstReference) {
  using T = TypeParam;
  const uint32_t b = 2, s = 3, h = 32, rows = b * s;
  optiling::LayerNormTiling host;
  uint32_t maxV = 0, minV = 0;
  GetLayerNormMaxMinTmpSize(ge::Shape({b, s, h}), sizeof(T), false, maxV, minV);
  EXPECT_EQ(minV, tcemu::hl::rowTmpBytes(h, sizeof(T)));
  EXPECT_EQ(maxV, rows * minV);
  GetLayerNormNDTilingInfo(ge::Shape({b, s, h}), minV * 4, sizeof(T), false, host);
  EXPECT_EQ(host.get_bsCurLength(), 4u);
  EXPECT_EQ(host.get_loopRound(), 1u);
  EXPECT_EQ(host.get_meanVarTailSize(), 2u);
  EXPECT_FLOAT_EQ(host.get_lastDimValueBack(), 1.0f / 32);
  LayerNormTiling tiling = host;
  TBuf<TPosition::VECCALC> bx, bg, bb, bo, bm, bv, bt;
  this->pipe_.InitBuffer(bx, rows * h * sizeof(T));
  this->pipe_.InitBuffer(bg, h * sizeof(T));
  this->pipe_.InitBuffer(bb, h * sizeof(T));
  this->pipe_.InitBuffer(bo, rows * h * sizeof(T));
  this->pipe_.InitBuffer(bm, 64);
  this->pipe_.InitBuffer(bv, 64);
  this->pipe_.InitBuffer(bt, minV);
  LocalTensor<T> x = bx.template Get<T>(), g = bg.template Get<T>(), be = bb.template Get<T>();
  LocalTensor<T> o = bo.template Get<T>(), mean = bm.template Get<T>(), var = bv.template Get<T>();
  std::vector<double> in = this->template asT<T>(this->random(rows * h, -2.0, 3.0, 3));
  std::vector<double> gam = this->template asT<T>(this->random(h, 0.5, 1.5, 4));
  std::vector<double> bet = this->template asT<T>(this->random(h, -0.5, 0.5, 5));
  this->fill(x, in);
  this->fill(g, gam);
  this->fill(be, bet);
  const float eps = 1e-5f;
  LayerNorm<T>(o, mean, var, x, g, be, bt.template Get<uint8_t>(), tcemu::fromFloat<T>(eps), tiling);
  std::vector<double> want(rows * h), wm(rows), wv(rows);
  const double epsT = tcemu::toFloat(tcemu::fromFloat<T>(eps));
  for (uint32_t r = 0; r < rows; ++r) {
    double mu = 0, v = 0;
    for (uint32_t j = 0; j < h; ++j) mu += in[r * h + j];
    mu /= h;
    for (uint32_t j = 0; j < h; ++j) v += (in[r * h + j] - mu) * (in[r * h + j] - mu);
    v /= h;
    for (uint32_t j = 0; j < h; ++j) want[r * h + j] = (in[r * h + j] - mu) / std::sqrt(v + epsT) * gam[j] + bet[j];
    wm[r] = mu;
    wv[r] = v;
  }
  this->template expectNear<T>(this->values(o, rows * h), want, sizeof(T) == 2 ? 2.0 : 16.0, 1.0);
  this->template expectNear<T>(this->values(mean, rows), wm, sizeof(T) == 2 ? 1.0 : 16.0);
  this->template expectNear<T>(this->values(var, rows), wv, sizeof(T) == 2 ? 1.0 : 16.0);
}

TEST_F(HighLevelTest, LayerNormChecksShapeAndTmp) {
  TBuf<TPosition::VECCALC> bx, bt;
  pipe_.InitBuffer(bx, 1024);
  pipe_.InitBuffer(bt, 32);
  LocalTensor<float> x = bx.Get<float>();
  LayerNormTiling t{};
  EXPECT_EQ(checkMessage([&] { LayerNorm<float>(x, x, x, x, x, x, 1e-5f, t); }),
            "LayerNorm with an empty shape from the tiling: bLength = 0, sLength = 0, hLength = 0; hint: fill the "
            "tiling with the host function (GetLayerNormNDTilingInfo)");
  t.bLength = 1;
  t.sLength = 2;
  t.hLength = 12;
  EXPECT_EQ(checkMessage([&] { LayerNorm<float>(x, x, x, x, x, x, 1e-5f, t); }),
            "LayerNorm hLength = 12 float elements is 48 bytes, not a multiple of 32; hint: pad H to 16 elements and "
            "pass the real length as originalHLength");
  t.hLength = 16;
  fill(x, std::vector<double>(256, 1.0));
  EXPECT_EQ(checkMessage([&] { LayerNorm<float>(x, x, x, x, x, x, bt.Get<uint8_t>(), 1e-5f, t); }),
            "LayerNorm sharedTmpBuffer has 32 bytes; this call needs at least 128 bytes; hint: size the buffer with "
            "GetLayerNormMaxMinTmpSize (minimum 128 bytes)");
}

TYPED_TEST(HighLevelTypedTest, RmsNormAgainstReference) {
  using T = TypeParam;
  const uint32_t b = 1, s = 4, h = 64, ori = 60, rows = b * s;
  optiling::RmsNormTiling host;
  uint32_t maxV = 0, minV = 0;
  ASSERT_TRUE(GetRmsNormMaxMinTmpSize(ge::Shape({b, s, h}), sizeof(T), maxV, minV));
  EXPECT_FALSE(GetRmsNormTilingInfo(ge::Shape({b, s, h}), ge::Shape({b, s, ori}), minV - 32, sizeof(T), host));
  ASSERT_TRUE(GetRmsNormTilingInfo(ge::Shape({b, s, h}), ge::Shape({b, s, ori}), minV, sizeof(T), host));
  EXPECT_EQ(host.get_originalHLength(), ori);
  EXPECT_EQ(host.get_mainBsLength(), 1u);
  EXPECT_EQ(host.get_loopRound(), 4u);
  RmsNormTiling tiling = host;
  TBuf<TPosition::VECCALC> bx, bg, bo;
  this->pipe_.InitBuffer(bx, rows * h * sizeof(T));
  this->pipe_.InitBuffer(bg, h * sizeof(T));
  this->pipe_.InitBuffer(bo, rows * h * sizeof(T));
  LocalTensor<T> x = bx.template Get<T>(), g = bg.template Get<T>(), o = bo.template Get<T>();
  std::vector<double> in = this->template asT<T>(this->random(rows * h, -2.0, 2.0, 8));
  std::vector<double> gam = this->template asT<T>(this->random(h, 0.5, 1.5, 9));
  this->fill(x, in);
  this->fill(g, gam);
  RmsNorm<T>(o, x, g, tcemu::fromFloat<T>(1e-6f), tiling);  // temporary space from the free UB
  std::vector<double> want(rows * h, 0.0);
  for (uint32_t r = 0; r < rows; ++r) {
    double ss = 0;
    for (uint32_t j = 0; j < ori; ++j) ss += in[r * h + j] * in[r * h + j];
    double rms = std::sqrt(ss / ori + tcemu::toFloat(tcemu::fromFloat<T>(1e-6f)));
    for (uint32_t j = 0; j < ori; ++j) want[r * h + j] = in[r * h + j] / rms * gam[j];
  }
  this->template expectNear<T>(this->values(o, rows * h), want, sizeof(T) == 2 ? 2.0 : 16.0, 1.0);
}

TEST_F(HighLevelTest, RmsNormOriginalLengthBeyondHIsRejected) {
  TBuf<TPosition::VECCALC> bx;
  pipe_.InitBuffer(bx, 1024);
  LocalTensor<half> x = bx.Get<half>();
  RmsNormTiling t{};
  t.bLength = 1;
  t.sLength = 2;
  t.hLength = 16;
  t.originalHLength = 20;
  EXPECT_EQ(checkMessage([&] { RmsNorm<half>(x, x, x, half(1e-5f), t); }),
            "RmsNorm originalHLength = 20 is larger than hLength = 16; hint: hLength is the padded length");
}

TEST_F(HighLevelTest, UnsupportedDtypeIsNamed) {
  TBuf<TPosition::VECCALC> bx;
  pipe_.InitBuffer(bx, 256);
  LocalTensor<int32_t> x = bx.Get<int32_t>();
  EXPECT_EQ(checkMessage([&] { Sigmoid<int32_t>(x, x, 64); }),
            "Sigmoid does not support int32_t on 910B (supported: half, float)");
}

// ---- Sum / Mean ------------------------------------------------------------------------------------------------------

TYPED_TEST(HighLevelTypedTest, SumAndMeanOfIntegersAreExact) {
  using T = TypeParam;
  const uint32_t outter = 3, n = 70, inner = static_cast<uint32_t>(tcemu::roundUp(n, 32 / sizeof(T)));
  TBuf<TPosition::VECCALC> bx, by, bt;
  this->pipe_.InitBuffer(bx, outter * inner * sizeof(T));
  this->pipe_.InitBuffer(by, 64);
  uint32_t maxV = 0, minV = 0;
  GetSumMaxMinTmpSize(n, sizeof(T), false, maxV, minV);
  EXPECT_EQ(minV, 32u);  // 70 elements are 2 (float) or 1 (half) repeats, one 32-byte block
  this->pipe_.InitBuffer(bt, minV);
  LocalTensor<T> x = bx.template Get<T>(), y = by.template Get<T>();
  std::vector<double> in(outter * inner, 0.0);
  for (uint32_t r = 0; r < outter; ++r)
    for (uint32_t j = 0; j < n; ++j) in[r * inner + j] = static_cast<double>((r * 7 + j * 3) % 11) - 5.0;
  // padding is never read: leave it unwritten past n by filling the real part of each row only
  this->fill(x, in);
  Sum<T>(y, x, bt.template Get<uint8_t>(), SumParams{outter, inner, n});
  for (uint32_t r = 0; r < outter; ++r) {
    double want = 0;
    for (uint32_t j = 0; j < n; ++j) want += in[r * inner + j];
    EXPECT_EQ(this->values(y, outter)[r], want) << "row " << r;
  }
  Mean<T>(y, x, MeanParams{outter, inner, n});
  for (uint32_t r = 0; r < outter; ++r) {
    double want = 0;
    for (uint32_t j = 0; j < n; ++j) want += in[r * inner + j];
    double q = tcemu::toFloat(tcemu::fromFloat<T>(static_cast<float>(want) / static_cast<float>(n)));
    EXPECT_EQ(this->values(y, outter)[r], q) << "row " << r;
  }
}

TEST_F(HighLevelTest, MeanOfHalfWithFloatAccumulation) {
  const uint32_t n = 300, inner = 304;
  TBuf<TPosition::VECCALC> bx, by, bt;
  pipe_.InitBuffer(bx, inner * 2);
  pipe_.InitBuffer(by, 32);
  uint32_t maxV = 0, minV = 0;
  GetMeanMaxMinTmpSize(n, 2, 4, false, maxV, minV);
  EXPECT_EQ(minV, 1216u + 32u);  // 300 floats in 32-byte blocks, 5 repeat sums in one block
  pipe_.InitBuffer(bt, minV);
  LocalTensor<half> x = bx.Get<half>(), y = by.Get<half>();
  std::vector<double> in = asT<half>(random(inner, 0.0, 100.0, 21));
  fill(x, in);
  Mean<half, float>(y, x, bt.Get<uint8_t>(), MeanParams{1, inner, n});
  double want = 0;
  for (uint32_t j = 0; j < n; ++j) want += in[j];
  expectNear<half>(values(y, 1), {want / n});
  EXPECT_EQ(checkMessage([&] {
              Sum<half>(y, x, bt.Get<uint8_t>(), SumParams{1, 300, 300});
            }),
            "Sum inner = 300 must be n = 300 rounded up to 32 bytes (16 half elements); hint: set inner = 304");
  EXPECT_EQ(
      checkMessage([&] {
        Sum<half>(y, x, SumParams{0, 304, 300});
      }),
      "Sum with outter = 0, n = 300: nothing to reduce; hint: set outter (rows) and n (row length) to at least 1");
}

TEST(HighLevelOrderTest, TreeSumAddsPairsWithinEachRepeatThenRepeatsInOrder) {
  // 1 + 2^-24 pairs: a tree within a repeat keeps the small terms that a left-to-right sum would lose.
  std::vector<float> v(64, 0.0f);
  v[0] = 1.0f;
  v[1] = 0x1p-24f;
  v[2] = 0x1p-24f;
  v[3] = 0x1p-24f;
  EXPECT_EQ(tcemu::hl::treeSum(v.data(), 64), 1.0f + 0x1p-23f);  // (1 + e) rounds to 1, (e + e) = 2e; 1 + 2e exact
  float seq = 0.0f;
  for (float x : v) seq += x;
  EXPECT_EQ(seq, 1.0f);
}

}  // namespace
