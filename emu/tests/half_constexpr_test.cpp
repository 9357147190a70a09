// half is a literal type, as the device compiler's native half is: `constexpr half HALF_ONE = 1.0;` (CastMath's
// answer) builds, and a constant expression rounds exactly as a run does.
#include "emu_test_util.h"

namespace {

constexpr half kOne = 1.0;
constexpr half kTenth = 0.1f;
constexpr half kThree = 3;
constexpr half kMinusTwo = int16_t{-2};
static_assert(kOne.val == 0x3c00);
static_assert(kTenth.val == 0x2e66);
static_assert(kThree.val == 0x4200);
static_assert(kMinusTwo.val == 0xc000);
static_assert(half(65520.0).val == 0x7c00);                 // rounds to inf
static_assert(half(5.9604644775390625e-08).val == 0x0001);  // the least subnormal
static_assert(half(2.9802322387695312e-08).val == 0x0000);  // half of it: ties to even, zero
static_assert(half(-0.0).val == 0x8000);

// Every finite half, the midpoints between neighbours (the ties) and either side of them, both signs.
TEST(HalfConstexpr, TheConstantConversionRoundsAsTheRuntimeOne) {
  int wrong = 0;
  for (uint32_t h = 0; h < 0x7c00; ++h) {
    double v = tcemu::halfBitsToFloatSlow(static_cast<uint16_t>(h));
    double mid = (v + tcemu::halfBitsToFloatSlow(static_cast<uint16_t>(h + 1))) / 2;
    for (double d : {v, mid, mid * (1 + 1e-12), mid * (1 - 1e-12), -v, -mid}) {
      uint16_t runtime = tcemu::floatToHalfBits(tcemu::doubleToFloatRoundOdd(d));
      if (tcemu::constDoubleToHalfBits(d) != runtime && wrong++ < 5) ADD_FAILURE() << d << " -> " << runtime;
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(tcemu::constDoubleToHalfBits(1e10), 0x7c00);
  EXPECT_EQ(tcemu::constDoubleToHalfBits(-1e10), 0xfc00);
  EXPECT_EQ(tcemu::constDoubleToHalfBits(std::nan("")) & 0x7c00, 0x7c00);
}

}  // namespace
