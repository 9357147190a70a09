// Case inputs: deterministic, in range, rounded to the dtype, special values where the range asks for them.
#include <algorithm>
#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "harness/inputs.h"
#include "interp/numeric.h"

namespace tilecraft::harness {
namespace {

using dsl::DType;

CaseTensor tensor(DType dtype, std::vector<int64_t> shape, std::optional<std::pair<double, double>> range) {
  CaseTensor t;
  t.dtype = dtype;
  t.dtypeName = dsl::dtypeName(dtype);
  t.shapes = {std::move(shape)};
  t.valueRange = range;
  return t;
}

struct Fixture {
  Task task;
  Case c;
  Fixture() {
    task.name = "t";
    c.id = "1";
  }
  void add(const std::string& name, CaseTensor t) {
    task.inputs.push_back({name, {t.dtype}, false, false, {t.dtypeName}, 0});
    c.inputs.push_back(std::move(t));
  }
};

size_t count(const std::vector<double>& v, double x) { return std::count(v.begin(), v.end(), x); }

TEST(GenerateInputs, SameSeedSameBytesOtherSeedOtherBytes) {
  Fixture f;
  f.add("x", tensor(DType::F16, {4, 67}, std::make_pair(-2.0, 3.0)));
  auto a = generateInputs(f.task, f.c, 7), b = generateInputs(f.task, f.c, 7), c = generateInputs(f.task, f.c, 8);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].name, "x");
  EXPECT_EQ(a[0].tensor.shape, (std::vector<int64_t>{4, 67}));
  EXPECT_EQ(a[0].tensor.data, b[0].tensor.data);
  EXPECT_NE(a[0].tensor.data, c[0].tensor.data);
  // The first values are pinned: the generator may not change silently (goldens are cached by input bytes).
  EXPECT_THAT(std::vector<double>(a[0].tensor.data.begin(), a[0].tensor.data.begin() + 4),
              ::testing::ElementsAre(1.009765625, 0.7490234375, 0.1956787109375, -0.2222900390625));
  f.c.id = "2";
  EXPECT_NE(generateInputs(f.task, f.c, 7)[0].tensor.data, a[0].tensor.data);
}

TEST(GenerateInputs, FloatsInRangeRoundedWithBoundsAndZeros) {
  Fixture f;
  f.add("x", tensor(DType::F16, {1000}, std::make_pair(-2.0, 3.0)));
  f.add("w", tensor(DType::BF16, {1000}, std::make_pair(0.5, 60000.0)));
  auto in = generateInputs(f.task, f.c, 1);
  const auto& x = in[0].tensor.data;
  for (double v : x) {
    EXPECT_GE(v, -2.0);
    EXPECT_LE(v, 3.0);
    EXPECT_EQ(v, interp::roundTo(v, DType::F16));
  }
  EXPECT_GE(count(x, 0.0), 1000u / 64);
  EXPECT_GE(count(x, -2.0), 1u);
  EXPECT_GE(count(x, 3.0), 1u);
  const auto& w = in[1].tensor.data;
  EXPECT_EQ(count(w, 0.0), 0u);  // zero is not in [0.5, 60000]
  for (double v : w) EXPECT_EQ(v, interp::roundTo(v, DType::BF16));
  EXPECT_GT(*std::max_element(w.begin(), w.end()), 30000.0);
}

TEST(GenerateInputs, InfAndNanRangesPlaceSpecialValues) {
  Fixture f;
  constexpr double inf = INFINITY;
  f.add("a", tensor(DType::F32, {640}, std::make_pair(-inf, inf)));
  f.add("b", tensor(DType::F16, {640}, std::make_pair(NAN, NAN)));
  f.add("c", tensor(DType::F32, {640}, std::make_pair(0.1, inf)));
  f.add("d", tensor(DType::F16, {640}, std::make_pair(-1e9, 1e9)));  // beyond f16: clamped to +-65504
  auto in = generateInputs(f.task, f.c, 3);
  const auto& a = in[0].tensor.data;
  EXPECT_GE(count(a, -inf), 1u);
  EXPECT_GE(count(a, inf), 1u);
  EXPECT_EQ(count(a, -inf), 640u / 32);  // exact counts: special values never share a position
  EXPECT_EQ(count(a, inf), 640u / 32);
  for (double v : a) EXPECT_TRUE(std::isinf(v) || (v >= -1 && v <= 1));
  const auto& b = in[1].tensor.data;
  size_t nans = std::count_if(b.begin(), b.end(), [](double v) { return std::isnan(v); });
  EXPECT_EQ(nans, 640u / 8);
  const auto& c = in[2].tensor.data;
  EXPECT_EQ(count(c, -inf), 0u);
  EXPECT_GE(count(c, inf), 1u);
  for (double v : c)
    EXPECT_TRUE(v == inf || (v >= interp::roundTo(0.1, DType::F32) && v <= interp::roundTo(1.1, DType::F32)));
  const auto& d = in[3].tensor.data;
  for (double v : d) EXPECT_TRUE(std::isfinite(v));
  EXPECT_EQ(*std::max_element(d.begin(), d.end()), 65504.0);
}

TEST(GenerateInputs, IntegersBoolsDefaultsListsAndAbsentInputs) {
  Fixture f;
  f.add("idx", tensor(DType::I32, {500}, std::make_pair(-3.0, 5.9)));
  f.add("mask", tensor(DType::Bool, {500}, std::make_pair(0.0, 1.0)));
  f.add("u", tensor(DType::F32, {500}, std::nullopt));
  f.add("k", tensor(DType::I8, {500}, std::nullopt));
  CaseTensor list = tensor(DType::F16, {3}, std::nullopt);
  list.isList = true;
  list.shapes = {{3}, {2, 2}};
  list.elementRanges = {std::make_pair(5.0, 5.0), std::make_pair(-1.0, 0.0)};
  f.add("ws", list);
  CaseTensor absent;
  absent.present = false;
  f.add("h0", absent);
  auto in = generateInputs(f.task, f.c, 11);
  ASSERT_EQ(in.size(), 6u);
  EXPECT_EQ(in[0].tensor.dtype, DType::I32);
  for (double v : in[0].tensor.data) {
    EXPECT_EQ(v, std::trunc(v));
    EXPECT_GE(v, -3);
    EXPECT_LE(v, 5);  // int(5.9) = 5, as CANN Bench's generator does
  }
  EXPECT_GE(count(in[0].tensor.data, 5.0), 1u);
  EXPECT_GE(count(in[1].tensor.data, 1.0), 100u);
  EXPECT_GE(count(in[1].tensor.data, 0.0), 100u);
  for (double v : in[2].tensor.data) EXPECT_TRUE(v >= 0 && v <= 1);    // CANN Bench's default float range [0, 1)
  for (double v : in[3].tensor.data) EXPECT_TRUE(v >= 0 && v <= 100);  // and integer range [0, 100]
  EXPECT_EQ(in[4].name, "ws.0");
  EXPECT_EQ(in[4].tensor.data, (std::vector<double>{5, 5, 5}));  // [5, 5]: the constant 5
  EXPECT_EQ(in[5].name, "ws.1");
  EXPECT_EQ(in[5].tensor.shape, (std::vector<int64_t>{2, 2}));
  for (double v : in[5].tensor.data) EXPECT_TRUE(v >= -1 && v <= 0);
}

TEST(GenerateInputs, AddingAnInputKeepsTheOthersValues) {
  Fixture f;
  f.add("x", tensor(DType::F32, {64}, std::make_pair(-1.0, 1.0)));
  auto before = generateInputs(f.task, f.c, 5);
  f.add("y", tensor(DType::F32, {64}, std::make_pair(-1.0, 1.0)));
  auto after = generateInputs(f.task, f.c, 5);
  EXPECT_EQ(before[0].tensor.data, after[0].tensor.data);
  EXPECT_NE(after[0].tensor.data, after[1].tensor.data);
}

}  // namespace
}  // namespace tilecraft::harness
