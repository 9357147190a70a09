// The high-level APIs added for real kernels: Silu, Swish, SwiGLU, GeGLU, ReGlu (hl_glu.h) and Sin, Cos, Erf, Log,
// Log2, Log10, Floor, Round, Trunc, Sign, ClampMax, ClampMin, Power (hl_math.h).
//
// Tolerances: each result is the float evaluation rounded once to T. For half that is within one half ulp of the
// exact value (the float error is ~2^-13 of a half ulp), so 1 half ulp is asserted. For float, libm's sinf, cosf,
// erff, logf, log2f, log10f and powf are within 1-2 ulps; Silu/Swish/SwiGLU/GeGLU chain exp, add, div (and mul),
// each rounding once, plus exp's condition number (|x| <= 6 here), so 8 float ulps are asserted. Floor, Round,
// Trunc, Sign, Clamp, ReGlu and int32 Power are exact.
#include <list>
#include <random>

#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

class HighLevelMoreTest : public EmuTest {
 protected:
  template <typename T>
  LocalTensor<T> buffer(uint32_t bytes) {
    bufs_.emplace_back();
    pipe_.InitBuffer(bufs_.back(), bytes);
    return bufs_.back().Get<T>();
  }
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
  // Random inputs already rounded to T, as the kernel sees them.
  template <typename T>
  std::vector<double> random(size_t n, double lo, double hi, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> d(lo, hi);
    std::vector<double> v(n);
    for (double& x : v) x = tcemu::toFloat(tcemu::fromFloat<T>(static_cast<float>(d(gen))));
    return v;
  }
  template <typename T>
  void expectNear(const std::vector<double>& got, const std::vector<double>& ref, double floatUlps) {
    ASSERT_EQ(got.size(), ref.size());
    const bool isHalf = std::is_same_v<T, half>;
    const double eps = isHalf ? 1.0 / 1024 : floatUlps / (1 << 23);
    for (size_t i = 0; i < got.size(); ++i) {
      double tol = eps * std::max(std::fabs(ref[i]), 1e-3) + (isHalf ? 6e-8 : 1e-12);
      EXPECT_NEAR(got[i], ref[i], tol) << "element " << i;
    }
  }
  // The exact value rounded to T: what the exact APIs must return bit for bit.
  template <typename T>
  static double roundT(double v) {
    return tcemu::toFloat(tcemu::fromFloat<T>(static_cast<float>(v)));
  }
  TPipe pipe_;
  std::list<TBuf<TPosition::VECCALC>> bufs_;
};

template <typename T>
class HighLevelMoreTypedTest : public HighLevelMoreTest {};
using FloatTypes = ::testing::Types<half, float>;
TYPED_TEST_SUITE(HighLevelMoreTypedTest, FloatTypes);

TYPED_TEST(HighLevelMoreTypedTest, SiluAndSwishMatchTheDoubleReference) {
  using T = TypeParam;
  const uint32_t n = 200;  // not a whole number of repeats
  LocalTensor<T> x = this->template buffer<T>(n * sizeof(T)), y = this->template buffer<T>(n * sizeof(T));
  std::vector<double> in = this->template random<T>(n, -6.0, 6.0, 3);
  this->fill(x, in);
  Silu(y, x, n);
  std::vector<double> want(n);
  for (uint32_t i = 0; i < n; ++i) want[i] = in[i] / (1.0 + std::exp(-in[i]));
  this->template expectNear<T>(this->values(y, n), want, 8);

  const T beta = tcemu::fromFloat<T>(1.5f);
  Swish(y, x, n, beta);
  for (uint32_t i = 0; i < n; ++i) want[i] = in[i] / (1.0 + std::exp(-1.5 * in[i]));
  this->template expectNear<T>(this->values(y, n), want, 8);
}

TYPED_TEST(HighLevelMoreTypedTest, GatedActivationsMatchTheReference) {
  using T = TypeParam;
  const uint32_t n = 256;
  LocalTensor<T> a = this->template buffer<T>(n * sizeof(T)), b = this->template buffer<T>(n * sizeof(T));
  LocalTensor<T> y = this->template buffer<T>(n * sizeof(T));
  LocalTensor<uint8_t> tmp = this->template buffer<uint8_t>(4096);
  std::vector<double> va = this->template random<T>(n, -3.0, 3.0, 4), vb = this->template random<T>(n, -5.0, 5.0, 5);
  this->fill(a, va);
  this->fill(b, vb);
  std::vector<double> want(n);

  SwiGLU<T>(y, a, b, 0.75f, tmp, n);
  for (uint32_t i = 0; i < n; ++i) want[i] = va[i] * vb[i] / (1.0 + std::exp(-0.75 * vb[i]));
  this->template expectNear<T>(this->values(y, n), want, 8);

  GeGLU<T>(y, a, b, tmp, n);
  for (uint32_t i = 0; i < n; ++i) {
    double x = vb[i];
    want[i] = va[i] * 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  }
  this->template expectNear<T>(this->values(y, n), want, 8);

  ReGlu<T>(y, a, b, tmp, n);
  std::vector<double> got = this->values(y, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(got[i], this->template roundT<T>(va[i] * std::max(vb[i], 0.0))) << i;
}

TYPED_TEST(HighLevelMoreTypedTest, TranscendentalsMatchTheDoubleReference) {
  using T = TypeParam;
  const uint32_t n = 160;
  LocalTensor<T> x = this->template buffer<T>(n * sizeof(T)), p = this->template buffer<T>(n * sizeof(T));
  LocalTensor<T> y = this->template buffer<T>(n * sizeof(T));
  LocalTensor<uint8_t> tmp = this->template buffer<uint8_t>(2048);
  std::vector<double> in = this->template random<T>(n, 0.1, 6.0, 6), ex = this->template random<T>(n, -3.0, 3.0, 7);
  this->fill(x, in);
  this->fill(p, ex);
  auto check = [&](auto api, double (*ref)(double), double ulps) {
    api();
    std::vector<double> want(n);
    for (uint32_t i = 0; i < n; ++i) want[i] = ref(in[i]);
    this->template expectNear<T>(this->values(y, n), want, ulps);
  };
  check([&] { Sin(y, x, tmp, n); }, [](double v) { return std::sin(v); }, 2);
  check([&] { Cos(y, x, n); }, [](double v) { return std::cos(v); }, 2);
  check([&] { Erf(y, x, tmp); }, [](double v) { return std::erf(v); }, 2);
  check([&] { Log(y, x, n); }, [](double v) { return std::log(v); }, 2);
  check([&] { Log2(y, x, tmp, n); }, [](double v) { return std::log2(v); }, 2);
  check([&] { Log10(y, x); }, [](double v) { return std::log10(v); }, 2);

  Power(y, x, p, tmp, n);
  std::vector<double> want(n);
  for (uint32_t i = 0; i < n; ++i) want[i] = std::pow(in[i], ex[i]);
  this->template expectNear<T>(this->values(y, n), want, 2);
  const T three = tcemu::fromFloat<T>(3.0f);
  Power(y, x, three, n);
  for (uint32_t i = 0; i < n; ++i) want[i] = in[i] * in[i] * in[i];
  this->template expectNear<T>(this->values(y, n), want, 2);
  const T two = tcemu::fromFloat<T>(2.0f);
  Power(y, two, p);
  for (uint32_t i = 0; i < n; ++i) want[i] = std::exp2(ex[i]);
  this->template expectNear<T>(this->values(y, n), want, 2);
}

TYPED_TEST(HighLevelMoreTypedTest, RoundingSignAndClampAreExact) {
  using T = TypeParam;
  const std::vector<double> in = {-2.5, -1.5, -0.5, 0.5,  1.5, 2.5,  -1.25, 1.75,
                                  0.0,  3.0,  -7.0, 0.25, 6.5, -6.5, 100.0, -0.0};
  const uint32_t n = static_cast<uint32_t>(in.size());
  LocalTensor<T> x = this->template buffer<T>(n * sizeof(T)), y = this->template buffer<T>(n * sizeof(T));
  LocalTensor<uint8_t> tmp = this->template buffer<uint8_t>(1024);
  this->fill(x, in);
  auto expectEach = [&](double (*ref)(double)) {
    std::vector<double> got = this->values(y, n);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(got[i], ref(in[i])) << "input " << in[i];
  };
  Floor(y, x, tmp, n);
  expectEach([](double v) { return std::floor(v); });
  Round(y, x, n);  // ties to even: -2.5 -> -2, 0.5 -> 0, 1.5 -> 2
  expectEach([](double v) { return std::nearbyint(v); });
  Trunc(y, x);
  expectEach([](double v) { return std::trunc(v); });
  Sign(y, x, tmp);
  expectEach([](double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); });
  ClampMax(y, x, tmp, tcemu::fromFloat<T>(1.5f), n);
  expectEach([](double v) { return std::min(v, 1.5); });
  ClampMin(y, x, tcemu::fromFloat<T>(-1.0f), n);
  expectEach([](double v) { return std::max(v, -1.0); });
}

TEST_F(HighLevelMoreTest, IntegerPowerIsExactAndWraps) {
  const std::vector<int32_t> base = {3, -2, 7, 2, -1, 1, 2, 0, 10, -3, 5, 2, 0, -1, 4, 6};
  const std::vector<int32_t> ex = {5, 3, 0, -1, -3, -5, 31, 0, 9, 4, 1, 32, 3, 4, 2, 12};
  const std::vector<int32_t> want = {243, -8, 1, 0, -1, 1,  INT32_MIN,  1, 1000000000,
                                     81,  5,  0, 0, 1,  16, -2118184960};  // 6^12 = 2176782336 wraps modulo 2^32
  LocalTensor<int32_t> b = buffer<int32_t>(64), e = buffer<int32_t>(64), y = buffer<int32_t>(64);
  uint32_t ins = core().begin(tcemu::Pipe::V, tcemu::OpClass::Vector, "fill", tcemu::SrcLoc::current());
  core().write(ins, b.ref_, 0, 64, "fill", tcemu::SrcLoc::current());
  core().write(ins, e.ref_, 0, 64, "fill", tcemu::SrcLoc::current());
  for (size_t i = 0; i < base.size(); ++i) {
    b.GetPhyAddr()[i] = base[i];
    e.GetPhyAddr()[i] = ex[i];
  }
  Power(y, b, e, 16);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(y.GetPhyAddr()[i], want[i]) << base[i] << "^" << ex[i];
}

TEST_F(HighLevelMoreTest, SiluTraceIsFourVectorStepsInTheElementType) {
  LocalTensor<half> x = buffer<half>(512), y = buffer<half>(512);
  fill(x, std::vector<double>(256, 1.0));
  size_t before = core().trace().size();
  Silu(y, x, 256);
  const auto& tr = core().trace();
  ASSERT_EQ(tr.size() - before, 4u);
  const char* names[] = {"Muls", "Exp", "Adds", "Div"};
  for (size_t i = 0; i < 4; ++i) {
    const tcemu::Instr& in = tr[before + i];
    EXPECT_STREQ(in.name, names[i]);
    EXPECT_EQ(in.pipe, tcemu::Pipe::V);
    EXPECT_EQ(in.dtypeBytes, 2);
    EXPECT_EQ(in.elements, 256u);
    EXPECT_EQ(in.repeats, 2u);  // 512 bytes of half = 2 repeats of 256 bytes
  }
}

TEST_F(HighLevelMoreTest, GatedInputsOfDifferentSizesAreRejected) {
  LocalTensor<float> a = buffer<float>(256), b = buffer<float>(128), y = buffer<float>(256);
  fill(a, std::vector<double>(64, 1.0));
  fill(b, std::vector<double>(32, 1.0));
  EXPECT_EQ(checkMessage([&] { SwiGLU<float>(y, a, b, 1.0f, 32); }),
            "SwiGLU src0 holds 64 elements and src1 32; the two inputs must have the same size; hint: pass tensors "
            "of equal GetSize(), e.g. two slices of equal length");
  EXPECT_EQ(checkMessage([&] { GeGLU(y, a, b, 32); }),
            "GeGLU src0 holds 64 elements and src1 32; the two inputs must have the same size; hint: pass tensors "
            "of equal GetSize(), e.g. two slices of equal length");
}

TEST_F(HighLevelMoreTest, SwiGluCountAndTmpMustBe32ByteMultiples) {
  LocalTensor<float> a = buffer<float>(256), b = buffer<float>(256), y = buffer<float>(256);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);
  fill(a, std::vector<double>(64, 1.0));
  fill(b, std::vector<double>(64, 1.0));
  int line = TCEMU_LINE_OF_NEXT();
  auto err = [&] { SwiGLU<float>(y, a, b, 1.0f, 12); };
  EXPECT_EQ(checkMessage(err),
            "SwiGLU calCount 12 is 48 bytes of float; it must be non-zero and a multiple of 32 bytes (8 elements); "
            "hint: pad the row to a multiple of 8 elements");
  try {
    err();
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
  }
  tmp.SetSize(40);
  EXPECT_EQ(checkMessage([&] { SwiGLU<float>(y, a, b, 1.0f, tmp, 64); }),
            "SwiGLU sharedTmpBuffer has 40 bytes; its size must be a multiple of 32 bytes; hint: round the buffer up "
            "to 64 bytes");
}

TEST_F(HighLevelMoreTest, ReGluRejectsReuseSourceAndSwishAnEmptyCount) {
  LocalTensor<float> a = buffer<float>(256), b = buffer<float>(256), y = buffer<float>(256);
  fill(a, std::vector<double>(64, 1.0));
  fill(b, std::vector<double>(64, 1.0));
  EXPECT_EQ(checkMessage([&] { ReGlu<float, true>(y, a, b, 64); }),
            "ReGlu<T, isReuseSource = true>: CANN supports only isReuseSource = false; hint: drop the second "
            "template argument");
  EXPECT_EQ(checkMessage([&] { Swish(y, a, 0, 1.0f); }),
            "Swish dataSize is 0; CANN requires at least one element; hint: skip the call for empty tiles");
}

TEST_F(HighLevelMoreTest, MathTmpBelowTheMinimumNamesTheHostQuery) {
  LocalTensor<half> x = buffer<half>(512), y = buffer<half>(512);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);
  fill(x, std::vector<double>(256, 1.0));
  EXPECT_EQ(checkMessage([&] { Sin(y, x, tmp, 256); }),
            "Sin sharedTmpBuffer has 256 bytes; this call needs at least 512 bytes; hint: size the buffer with "
            "GetSinMaxMinTmpSize (minimum 512 bytes)");
  EXPECT_EQ(checkMessage([&] { GeGLU(y, x, x, tmp, 256); }),
            "GeGLU sharedTmpBuffer has 256 bytes; this call needs at least 768 bytes; hint: size the buffer with "
            "GetGeGLUMaxMinTmpSize (minimum 768 bytes)");
}

TEST_F(HighLevelMoreTest, UnsupportedDtypesAreNamed) {
  LocalTensor<int16_t> x = buffer<int16_t>(64), y = buffer<int16_t>(64);
  LocalTensor<int32_t> xi = buffer<int32_t>(64), yi = buffer<int32_t>(64);
  EXPECT_EQ(checkMessage([&] { Power(y, x, x, 32); }),
            "Power does not support int16_t on 910B (supported: half, float, int32_t)");
  EXPECT_EQ(checkMessage([&] { Floor(yi, xi, 16); }),
            "Floor does not support int32_t on 910B (supported: half, float)");
  EXPECT_EQ(checkMessage([&] { Silu(yi, xi, 16); }), "Silu does not support int32_t on 910B (supported: half, float)");
}

TEST_F(HighLevelMoreTest, ReadingAnUnwrittenSecondInputIsCaught) {
  LocalTensor<float> a = buffer<float>(256), b = buffer<float>(256), y = buffer<float>(256);
  fill(a, std::vector<double>(64, 1.0));
  std::string msg = checkMessage([&] { ReGlu(y, a, b, 64); });
  EXPECT_NE(msg.find("ReGlu src1 reads UB bytes"), std::string::npos) << msg;
}

class HighLevelMoreCubeTest : public HighLevelMoreTest {
 protected:
  tcemu::CoreKind kind() const override { return tcemu::CoreKind::AIC; }
};

TEST_F(HighLevelMoreCubeTest, VectorApisAreSkippedOnTheCube) {
  LocalTensor<float> x = buffer<float>(256), y = buffer<float>(256);
  size_t before = core().trace().size();
  Silu(y, x, 64);
  SwiGLU<float>(y, x, x, 1.0f, 64);
  Sin(y, x, 64);
  EXPECT_EQ(core().trace().size(), before);
}

}  // namespace
