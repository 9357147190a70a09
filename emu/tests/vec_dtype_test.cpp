// Every elementwise vector op on every dtype it supports on 910B, against a reference computed wide and
// rounded once.
#include <cmath>

#include "vec1_test_util.h"

using namespace AscendC;
using tcemu::testing::halves;
using tcemu::testing::VecTest;

namespace {

template <typename T>
T from(double v) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(v);
  else return tcemu::fromFloat<T>(static_cast<float>(v));
}
template <typename T>
double val(T v) {
  if constexpr (std::is_integral_v<T>) return static_cast<double>(v);
  else return static_cast<double>(tcemu::toFloat(v));
}

constexpr int32_t n = 40;  // lanes per dtype test: whole 32-byte blocks and a partial one

template <typename T>
class VecDtypeTest : public VecTest {
 protected:
  static constexpr uint32_t kN = n;
  std::vector<T> xs() {
    std::vector<T> v;
    for (uint32_t i = 0; i < kN; ++i) v.push_back(from<T>(static_cast<double>(static_cast<int>(i % 13) - 6)));
    return v;
  }
  std::vector<T> ys() {
    std::vector<T> v;
    for (uint32_t i = 0; i < kN; ++i) v.push_back(from<T>(static_cast<double>(static_cast<int>(i % 5) + 1)));
    return v;
  }
  // Runs fn(dst, a, b) on xs, ys and checks every lane against ref(x, y, dst0) rounded to T.
  template <typename Fn, typename Ref>
  void expectBinary(const char* what, Fn fn, Ref ref) {
    auto a = at<T>(0, kN), b = at<T>(1024, kN), d = at<T>(2048, kN);
    std::vector<T> x = xs(), y = ys();
    fill(a, x);
    fill(b, y);
    fill(d, y);
    fn(d, a, b);
    std::vector<T> out = get(d, kN);
    for (uint32_t i = 0; i < kN; ++i) {
      EXPECT_EQ(val(out[i]), val(from<T>(ref(val(x[i]), val(y[i]), val(y[i])))))
          << what << " " << tcemu::dtypeName<T>() << " lane " << i;
    }
  }
};

using ArithDtypes = ::testing::Types<int16_t, half, int32_t, float>;
template <typename T>
class VecArithDtypeTest : public VecDtypeTest<T> {};
TYPED_TEST_SUITE(VecArithDtypeTest, ArithDtypes);

TYPED_TEST(VecArithDtypeTest, BinaryAndScalarArithmetic) {
  using T = TypeParam;
  this->expectBinary(
      "Add", [](auto& d, auto& a, auto& b) { Add(d, a, b, n); }, [](double x, double y, double) { return x + y; });
  this->expectBinary(
      "Sub", [](auto& d, auto& a, auto& b) { Sub(d, a, b, n); }, [](double x, double y, double) { return x - y; });
  this->expectBinary(
      "Mul", [](auto& d, auto& a, auto& b) { Mul(d, a, b, n); }, [](double x, double y, double) { return x * y; });
  this->expectBinary(
      "Max", [](auto& d, auto& a, auto& b) { Max(d, a, b, n); },
      [](double x, double y, double) { return x > y ? x : y; });
  this->expectBinary(
      "Min", [](auto& d, auto& a, auto& b) { Min(d, a, b, n); },
      [](double x, double y, double) { return x < y ? x : y; });
  T s = from<T>(3.0);
  this->expectBinary(
      "Adds", [s](auto& d, auto& a, auto&) { Adds(d, a, s, n); }, [](double x, double, double) { return x + 3; });
  this->expectBinary(
      "Muls", [s](auto& d, auto& a, auto&) { Muls(d, a, s, n); }, [](double x, double, double) { return x * 3; });
  this->expectBinary(
      "Maxs", [s](auto& d, auto& a, auto&) { Maxs(d, a, s, n); },
      [](double x, double, double) { return x > 3 ? x : 3; });
  this->expectBinary(
      "Mins", [s](auto& d, auto& a, auto&) { Mins(d, a, s, n); },
      [](double x, double, double) { return x < 3 ? x : 3; });
  // The mask form over the same data: 40 lanes of one repeat.
  this->expectBinary(
      "Add mask", [](auto& d, auto& a, auto& b) { Add(d, a, b, uint64_t{n}, 1, {}); },
      [](double x, double y, double) { return x + y; });
}

using FloatDtypes = ::testing::Types<half, float>;
template <typename T>
class VecFloatDtypeTest : public VecDtypeTest<T> {};
TYPED_TEST_SUITE(VecFloatDtypeTest, FloatDtypes);

TYPED_TEST(VecFloatDtypeTest, FloatOnlyOps) {
  using T = TypeParam;
  auto f = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  this->expectBinary(
      "Div", [](auto& d, auto& a, auto& b) { Div(d, a, b, n); },
      [&](double x, double y, double) { return f(x) / f(y); });
  this->expectBinary(
      "AddRelu", [](auto& d, auto& a, auto& b) { AddRelu(d, a, b, n); },
      [](double x, double y, double) { return std::max(x + y, 0.0); });
  this->expectBinary(
      "SubRelu", [](auto& d, auto& a, auto& b) { SubRelu(d, a, b, n); },
      [](double x, double y, double) { return std::max(x - y, 0.0); });
  this->expectBinary(
      "FusedMulAdd", [](auto& d, auto& a, auto& b) { FusedMulAdd(d, a, b, n); },
      [](double x, double y, double d0) { return x * d0 + y; });
  this->expectBinary(
      "FusedMulAddRelu", [](auto& d, auto& a, auto& b) { FusedMulAddRelu(d, a, b, n); },
      [](double x, double y, double d0) { return std::max(x * d0 + y, 0.0); });
  this->expectBinary(
      "MulAddDst", [](auto& d, auto& a, auto& b) { MulAddDst(d, a, b, n); },
      [](double x, double y, double d0) { return x * y + d0; });
  this->expectBinary(
      "Axpy", [](auto& d, auto& a, auto&) { Axpy(d, a, from<T>(0.5), n); },
      [](double x, double, double d0) { return d0 + 0.5 * x; });
  this->expectBinary(
      "Exp", [](auto& d, auto& a, auto&) { Exp(d, a, n); },
      [](double x, double, double) { return std::exp(static_cast<float>(x)); });
  this->expectBinary(
      "Ln", [](auto& d, auto&, auto& b) { Ln(d, b, n); },
      [](double, double y, double) { return std::log(static_cast<float>(y)); });
  this->expectBinary(
      "Abs", [](auto& d, auto& a, auto&) { Abs(d, a, n); }, [](double x, double, double) { return std::fabs(x); });
  this->expectBinary(
      "Sqrt", [](auto& d, auto&, auto& b) { Sqrt(d, b, n); },
      [](double, double y, double) { return std::sqrt(static_cast<float>(y)); });
  this->expectBinary(
      "Rsqrt", [](auto& d, auto&, auto& b) { Rsqrt(d, b, n); },
      [](double, double y, double) { return 1.0f / std::sqrt(static_cast<float>(y)); });
  this->expectBinary(
      "Reciprocal", [](auto& d, auto&, auto& b) { Reciprocal(d, b, n); },
      [](double, double y, double) { return 1.0f / static_cast<float>(y); });
  this->expectBinary(
      "Relu", [](auto& d, auto& a, auto&) { Relu(d, a, n); },
      [](double x, double, double) { return std::max(x, 0.0); });
  this->expectBinary(
      "LeakyRelu", [](auto& d, auto& a, auto&) { LeakyRelu(d, a, from<T>(0.25), n); },
      [](double x, double, double) { return x >= 0 ? x : 0.25 * x; });
}

using BitDtypes = ::testing::Types<int16_t, uint16_t>;
template <typename T>
class VecBitDtypeTest : public VecDtypeTest<T> {};
TYPED_TEST_SUITE(VecBitDtypeTest, BitDtypes);

TYPED_TEST(VecBitDtypeTest, BitwiseOps) {
  using T = TypeParam;
  auto bits = [](double v) { return static_cast<int64_t>(static_cast<T>(v)); };
  this->expectBinary(
      "And", [](auto& d, auto& a, auto& b) { And(d, a, b, n); },
      [&](double x, double y, double) { return static_cast<double>(static_cast<T>(bits(x) & bits(y))); });
  this->expectBinary(
      "Or", [](auto& d, auto& a, auto& b) { Or(d, a, b, n); },
      [&](double x, double y, double) { return static_cast<double>(static_cast<T>(bits(x) | bits(y))); });
  this->expectBinary(
      "Not", [](auto& d, auto& a, auto&) { Not(d, a, n); },
      [&](double x, double, double) { return static_cast<double>(static_cast<T>(~bits(x))); });
}

using ShiftDtypes = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t>;
template <typename T>
class VecShiftDtypeTest : public VecDtypeTest<T> {};
TYPED_TEST_SUITE(VecShiftDtypeTest, ShiftDtypes);

TYPED_TEST(VecShiftDtypeTest, ShiftsAndFills) {
  using T = TypeParam;
  this->expectBinary(
      "ShiftLeft", [](auto& d, auto&, auto& b) { ShiftLeft(d, b, T(3), n); },
      [](double, double y, double) { return y * 8; });
  this->expectBinary(
      "ShiftRight", [](auto& d, auto&, auto& b) { ShiftRight(d, b, T(1), n); },
      [](double, double y, double) { return std::floor(y / 2); });
  this->expectBinary(
      "Duplicate", [](auto& d, auto&, auto&) { Duplicate(d, T(9), n); }, [](double, double, double) { return 9.0; });
}

TEST_F(VecTest, DuplicateOnTheRemainingDtypes) {
  auto h = at<half>(0, 40);
  Duplicate(h, half(-2.5f), 40);
  for (float v : getF(h, 40)) EXPECT_EQ(v, -2.5f);
  auto f = at<float>(1024, 40);
  Duplicate(f, 1e30f, 40);
  for (float v : get(f, 40)) EXPECT_EQ(v, 1e30f);
}

}  // namespace
