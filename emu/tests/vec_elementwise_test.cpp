// The vector engine (mask, repeat, stride, counter mode) and the elementwise vector APIs, with exact values.
#include <cmath>

#include "vec1_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::halves;
using tcemu::testing::iota;
using tcemu::testing::VecTest;

namespace {

// --- engine: count form, masks, repeats, strides ---

class VecEngineTest : public VecTest {};

TEST_F(VecEngineTest, CountFormComputesExactlyCountElementsAndRecordsTheInstruction) {
  auto a = at<float>(0, 128), b = at<float>(512, 128), d = at<float>(1024, 128);
  fill(a, iota(128));
  fill(b, iota(128, 1000.0f));
  fillAll(d, -1.0f);
  Add(d, a, b, 100);
  const tcemu::Instr& ins = last();
  EXPECT_EQ(std::string(ins.name), "Add");
  EXPECT_EQ(ins.pipe, tcemu::Pipe::V);
  EXPECT_EQ(ins.cls, tcemu::OpClass::Vector);
  EXPECT_EQ(ins.repeats, 2u);
  EXPECT_EQ(ins.elements, 100u);
  EXPECT_EQ(ins.dtypeBytes, 4u);
  EXPECT_EQ(ins.src, tcemu::Space::UB);
  EXPECT_EQ(ins.dst, tcemu::Space::UB);
  std::vector<float> out = get(d, 128);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(out[i], 1000.0f + 2.0f * i) << i;
  for (int i = 100; i < 128; ++i) EXPECT_EQ(out[i], -1.0f) << i;
}

TEST_F(VecEngineTest, ContinuousMaskComputesTheFirstLanesOfEveryRepeatAndKeepsTheRest) {
  auto a = at<half>(0, 256), d = at<half>(1024, 256);
  fill(a, halves(iota(256)));
  fillAll(d, half(-1.0f));
  Adds(d, a, half(0.5f), 10, 2, {1, 1, 8, 8});
  EXPECT_EQ(last().repeats, 2u);
  EXPECT_EQ(last().elements, 20u);
  std::vector<float> out = getF(d, 256);
  for (int i = 0; i < 256; ++i) {
    bool on = (i % 128) < 10;
    EXPECT_EQ(out[i], on ? static_cast<float>(i) + 0.5f : -1.0f) << i;
  }
}

TEST_F(VecEngineTest, BitMaskSelectsLanesInBothWordsForHalf) {
  auto a = at<half>(0, 128), b = at<half>(256, 128), d = at<half>(512, 128);
  fill(a, halves(iota(128)));
  fillAll(b, half(1.0f));
  fillAll(d, half(0.0f));
  uint64_t mask[2] = {0x5, 1ULL << 63};
  Sub(d, a, b, mask, 1, {});
  std::vector<float> out = getF(d, 128);
  for (int i = 0; i < 128; ++i) {
    bool on = i == 0 || i == 2 || i == 127;
    EXPECT_EQ(out[i], on ? static_cast<float>(i) - 1.0f : 0.0f) << i;
  }
}

TEST_F(VecEngineTest, BitMaskHighWordIsIgnoredForFloat) {
  auto a = at<float>(0, 64), d = at<float>(256, 64);
  fill(a, iota(64));
  fillAll(d, 0.0f);
  uint64_t mask[2] = {0x3, ~0ULL};
  Muls(d, a, 2.0f, mask, 1, {});
  EXPECT_EQ(last().elements, 2u);
  std::vector<float> out = get(d, 64);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 2.0f);
  for (int i = 2; i < 64; ++i) EXPECT_EQ(out[i], 0.0f) << i;
}

TEST_F(VecEngineTest, BlockAndRepeatStridesFollowTheAddressFormula) {
  // src repStride 0 recomputes the same 8 blocks; dst blocks are 2 apart and repeats 16 blocks apart.
  auto a = at<float>(0, 64), d = at<float>(1024, 512);
  fill(a, iota(64));
  fillAll(d, -1.0f);
  Adds(d, a, 100.0f, 64, 2, {2, 1, 16, 0});
  std::vector<float> out = get(d, 512);
  for (int r = 0; r < 2; ++r) {
    for (int b = 0; b < 8; ++b) {
      for (int j = 0; j < 8; ++j) {
        EXPECT_EQ(out[r * 128 + b * 16 + j], 100.0f + b * 8 + j) << r << " " << b << " " << j;
        EXPECT_EQ(out[r * 128 + b * 16 + 8 + j], -1.0f) << "gap " << r << " " << b << " " << j;
      }
    }
  }
}

TEST_F(VecEngineTest, SourceBlockStrideZeroRereadsTheFirstBlock) {
  auto a = at<int32_t>(0, 64), d = at<int32_t>(512, 64);
  fill(a, std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8});  // only block 0 needs to be written
  fillAll(d, 0);
  Relu(d, a, 64, 1, {1, 0, 8, 8});
  std::vector<int32_t> out = get(d, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], i % 8 + 1) << i;
}

TEST_F(VecEngineTest, OnlyTheActiveLanesAreReadSoMaskedTailsMayBeUnwritten) {
  auto a = at<half>(0, 128), d = at<half>(512, 128);
  fill(a, halves(iota(16)));
  fillAll(d, half(0.0f));
  Abs(d, a, 16, 1, {});
  EXPECT_EQ(getF(d, 16), iota(16));
  EXPECT_EQ(checkMessage([&] { Abs(d, a, 17, 1, {}); }),
            "Abs src reads UB bytes [0, 34) that nothing wrote: byte 32 (32 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
}

TEST_F(VecEngineTest, CounterModeTakesTheCountFromTheMaskRegisterAndIgnoresRepeatTimes) {
  auto a = at<float>(0, 128), b = at<float>(512, 128), d = at<float>(1024, 128);
  fill(a, iota(128));
  fill(b, iota(128));
  fillAll(d, -1.0f);
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(0, 70);
  Add<float, false>(d, a, b, MASK_PLACEHOLDER, 1, {});
  EXPECT_EQ(last().repeats, 2u);
  EXPECT_EQ(last().elements, 70u);
  EXPECT_TRUE(core().counterMode_);  // a level-0 call leaves the mode alone
  SetMaskNorm();
  ResetMask();
  std::vector<float> out = get(d, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(out[i], i < 70 ? 2.0f * i : -1.0f) << i;
}

TEST_F(VecEngineTest, IsSetMaskFalseUsesTheMaskRegisterInNormalMode) {
  auto a = at<half>(0, 128), d = at<half>(256, 128);
  fill(a, halves(iota(128)));
  fillAll(d, half(0.0f));
  SetVectorMask<half>(1ULL << 1, 0xF);  // lanes 0..3 and 65
  Muls<half, false>(d, a, half(2.0f), MASK_PLACEHOLDER, 1, {});
  std::vector<float> out = getF(d, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(out[i], (i < 4 || i == 65) ? 2.0f * i : 0.0f) << i;
}

TEST_F(VecEngineTest, AMaskArgumentIsLeftInTheMaskRegister) {
  auto a = at<float>(0, 64), d = at<float>(256, 64);
  fill(a, iota(64));
  fillAll(d, 0.0f);
  Adds(d, a, 1.0f, 3, 1, {});
  EXPECT_EQ(core().maskLow_, 0x7u);
  EXPECT_EQ(core().maskHigh_, 0u);
  Adds<float, false>(d, d, 10.0f, MASK_PLACEHOLDER, 1, {});
  std::vector<float> out = get(d, 5);
  EXPECT_EQ(out, (std::vector<float>{11.0f, 12.0f, 13.0f, 0.0f, 0.0f}));
}

TEST_F(VecEngineTest, CountFormLeavesNormalModeAndAFullMask) {
  auto a = at<float>(0, 64), d = at<float>(256, 64);
  fill(a, iota(64));
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(0, 5);
  Exp(d, a, 8);
  EXPECT_FALSE(core().counterMode_);
  EXPECT_EQ(core().maskLow_, ~0ULL);
  EXPECT_EQ(core().maskHigh_, ~0ULL);
}

TEST_F(VecEngineTest, InPlaceOperationsReadBeforeTheyWrite) {
  auto a = at<int16_t>(0, 128);
  fill(a, std::vector<int16_t>(128, 21));
  Add(a, a, a, 128);
  Mul(a, a, a, 128, 1, {});
  std::vector<int16_t> out = get(a, 128);
  for (int16_t v : out) EXPECT_EQ(v, 42 * 42);
}

TEST_F(VecEngineTest, RepeatTimesZeroDoesNothing) {
  auto a = at<float>(0, 64), d = at<float>(256, 64);
  fillAll(d, 5.0f);
  Adds(d, a, 1.0f, 64, 0, {});  // a is never written: nothing may be read
  EXPECT_EQ(last().repeats, 0u);
  EXPECT_EQ(get(d, 1)[0], 5.0f);
}

// --- engine checks ---

TEST_F(VecEngineTest, ContinuousMaskOutOfRangeForHalf) {
  auto a = at<half>(0, 128);
  fillAll(a, half(1.0f));
  EXPECT_EQ(checkMessage([&] { Add(a, a, a, 129, 1, {}); }),
            "Add mask 129 is out of range [1, 128] for 2-byte elements (the first `mask` elements of each repeat); "
            "hint: for a longer or shorter row use the count form or more repeats");
  EXPECT_EQ(checkMessage([&] { Add(a, a, a, uint64_t{0}, 1, {}); }),
            "Add mask 0 is out of range [1, 128] for 2-byte elements (the first `mask` elements of each repeat); "
            "hint: for a longer or shorter row use the count form or more repeats");
}

TEST_F(VecEngineTest, ContinuousMaskOutOfRangeForFloat) {
  auto a = at<float>(0, 64);
  fillAll(a, 1.0f);
  EXPECT_EQ(checkMessage([&] { Exp(a, a, 65, 1, {}); }),
            "Exp mask 65 is out of range [1, 64] for 4-byte elements (the first `mask` elements of each repeat); "
            "hint: for a longer or shorter row use the count form or more repeats");
}

TEST_F(VecEngineTest, EmptyBitMask) {
  auto a = at<float>(0, 64);
  fillAll(a, 1.0f);
  uint64_t mask[2] = {0, 0xff};
  EXPECT_EQ(checkMessage([&] { Sqrt(a, a, mask, 1, {}); }),
            "Sqrt bit mask {0x0, 0xff} selects no element of a repeat (32-bit elements use only mask[0]); "
            "hint: set "
            "bit i of mask[0] (or of mask[1] for element 64 + i) for each element to compute");
}

TEST_F(VecEngineTest, MaskArgumentInCounterMode) {
  auto a = at<float>(0, 64);
  fillAll(a, 1.0f);
  SetMaskCount();
  EXPECT_EQ(checkMessage([&] { Adds(a, a, 1.0f, 64, 1, {}); }),
            "Adds with a mask argument in counter mode: the call would overwrite the element count in the mask "
            "register; hint: after SetMaskCount, call Adds<T, false>(..., MASK_PLACEHOLDER, ...) and set the count "
            "with SetVectorMask<T, MaskMode::COUNTER>(0, count)");
  SetMaskNorm();
}

TEST_F(VecEngineTest, EmptyMaskRegisterWithIsSetMaskFalse) {
  auto a = at<half>(0, 128);
  fillAll(a, half(1.0f));
  SetVectorMask<half>(0, 0);
  EXPECT_EQ(checkMessage([&] { Relu<half, false>(a, a, MASK_PLACEHOLDER, 1, {}); }),
            "Relu with isSetMask=false, but the mask register selects no element (maskHigh 0x0, maskLow "
            "0x0); hint: "
            "SetVectorMask before the call, or pass the mask with isSetMask=true");
}

TEST_F(VecEngineTest, DstBlockStrideZeroWithSeveralBlocks) {
  auto a = at<float>(0, 64), d = at<float>(256, 64);
  fillAll(a, 1.0f);
  EXPECT_EQ(checkMessage([&] {
              Adds(d, a, 1.0f, 9, 1, {0, 1, 8, 8});
            }),
            "Adds dst block stride 0: every block of a repeat would write the same 32 bytes (active lanes reach "
            "block 1); hint: use a dst block stride of at least 1");
  Adds(d, a, 1.0f, 8, 1, {0, 1, 8, 8});  // one block: harmless
  EXPECT_EQ(get(d, 8), std::vector<float>(8, 2.0f));
}

TEST_F(VecEngineTest, NegativeCount) {
  auto a = at<float>(0, 64);
  EXPECT_EQ(checkMessage([&] { Ln(a, a, -3); }),
            "Ln calCount -3 is negative; hint: pass the number of elements to compute");
}

TEST_F(VecEngineTest, CountPastTheBufferNamesTheOperand) {
  auto a = at<float>(16320, 16), d = at<float>(0, 16);
  fillAll(a, 1.0f);
  EXPECT_EQ(checkMessage([&] { Adds(d, a, 1.0f, 32); }),
            "Adds src accesses UB bytes [16320, 16448), outside its buffer [0, 16384) (64 bytes past the "
            "end); hint: "
            "check the count or offset against the tensor's GetSize()");
}

TEST_F(VecEngineTest, MisalignedOperand) {
  auto a = at<half>(0, 128);
  fillAll(a, half(1.0f));
  EXPECT_EQ(checkMessage([&] { Add(a, a[3], a, 16); }),
            "Add src0 address UB+6 is not 32-byte aligned (6 bytes past a boundary); hint: offset tensors by "
            "multiples of 32 bytes");
}

TEST_F(VecEngineTest, RepeatTimesAbove255ThroughTheEngine) {
  // The public signatures take a uint8_t; the engine itself also guards callers that compute a repeat count.
  EXPECT_EQ(checkMessage([&] {
              tcemu::vec::VecInstr("Add", 4, tcemu::vec::Mask::continuous(64), 256, {"k.cpp", 7});
            }),
            "Add repeatTimes 256 is out of range [0, 255]; hint: split the work into calls of at most 255 repeats");
}

TEST_F(VecEngineTest, OperandOutsideUb) {
  TBuf<TPosition::A1> l1;
  pipe_->InitBuffer(l1, 1024);
  LocalTensor<float> t = l1.Get<float>();
  auto d = at<float>(0, 64);
  EXPECT_EQ(checkMessage([&] { Adds(d, t, 1.0f, 64); }),
            "Adds src is in L1: vector instructions reach only UB (VECIN, VECOUT, VECCALC); hint: copy the "
            "data to a "
            "UB tensor first");
}

TEST_F(VecEngineTest, ChecksNameTheKernelLine) {
  auto a = at<float>(0, 64);
  int line = 0;
  try {
    line = TCEMU_LINE_OF_NEXT();
    Exp(a, a, 65, 1, {});
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
    EXPECT_NE(std::string(e.loc.file).find("vec_elementwise_test.cpp"), std::string::npos);
    return;
  }
  ADD_FAILURE() << "expected a check to fail";
}

TEST_F(VecEngineTest, UnsupportedDtypes) {
  auto i16 = at<int16_t>(0, 128);
  auto f = at<float>(512, 64);
  auto u8 = at<uint8_t>(1024, 256);
  EXPECT_EQ(checkMessage([&] { Div(i16, i16, i16, 16); }),
            "Div does not support int16_t on 910B (supported: half, float)");
  EXPECT_EQ(checkMessage([&] { And(f, f, f, 64, 1, {}); }),
            "And does not support float on 910B (supported: int16_t, uint16_t)");
  EXPECT_EQ(checkMessage([&] { Exp(i16, i16, 16); }), "Exp does not support int16_t on 910B (supported: half, float)");
  EXPECT_EQ(checkMessage([&] { Adds(u8, u8, uint8_t(1), 16); }),
            "Adds does not support uint8_t on 910B (supported: int16_t, half, int32_t, float)");
  EXPECT_EQ(checkMessage([&] { ShiftLeft(f, f, 1.0f, 16); }),
            "ShiftLeft does not support float on 910B (supported: int16_t, uint16_t, int32_t, uint32_t)");
  EXPECT_EQ(checkMessage([&] { Duplicate(u8, uint8_t(1), 16); }),
            "Duplicate does not support uint8_t on 910B (supported: half, bfloat16_t, int16_t, uint16_t, int32_t, "
            "uint32_t, float)");
  EXPECT_EQ(checkMessage([&] { Axpy(i16, i16, int16_t(1), 16); }),
            "Axpy does not support dst int16_t with src int16_t on 910B (supported: half/half, float/float, float "
            "dst with half src)");
  EXPECT_EQ(checkMessage([&] { CreateVecIndex(u8, uint8_t(0), 16); }),
            "CreateVecIndex does not support uint8_t on 910B (supported: half, int16_t, int32_t, float)");
}

TEST_F(VecEngineTest, CubeCoresSkipVectorInstructions) {
  tcemu::CoreScope aic(tcemu::CoreKind::AIC);
  size_t before = aic.core().trace().size();
  LocalTensor<float> none;
  Add(none, none, none, 64);  // never reaches the engine, so the invalid tensors are not an error
  EXPECT_EQ(aic.core().trace().size(), before);
}

// --- binary ops ---

class VecBinaryTest : public VecTest {
 protected:
  template <typename T, typename Fn>
  std::vector<T> run2(const std::vector<T>& x, const std::vector<T>& y, Fn fn) {
    uint32_t n = static_cast<uint32_t>(x.size());
    auto a = at<T>(0, n), b = at<T>(4096, n), d = at<T>(8192, n);
    fill(a, x);
    fill(b, y);
    fillAll(d, T(0));
    fn(d, a, b, n);
    return get(d, n);
  }
};

TEST_F(VecBinaryTest, AddSubMulWrapForIntegers) {
  std::vector<int16_t> x{32767, -32768, 300, -7}, y{1, -1, 300, 3};
  auto add = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Add(d, a, b, n); });
  EXPECT_EQ(add, (std::vector<int16_t>{-32768, 32767, 600, -4}));
  auto sub = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Sub(d, a, b, n); });
  EXPECT_EQ(sub, (std::vector<int16_t>{32766, -32767, 0, -10}));
  auto mul = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Mul(d, a, b, n); });
  EXPECT_EQ(mul, (std::vector<int16_t>{32767, -32768, 24464, -21}));  // 90000 mod 65536 = 24464
  std::vector<int32_t> xi{2147483647, 65536, -5}, yi{1, 65536, 4};
  auto muli = run2(xi, yi, [](auto& d, auto& a, auto& b, uint32_t n) { Mul(d, a, b, n); });
  EXPECT_EQ(muli, (std::vector<int32_t>{2147483647, 0, -20}));
  auto addi = run2(xi, yi, [](auto& d, auto& a, auto& b, uint32_t n) { Add(d, a, b, n); });
  EXPECT_EQ(addi[0], std::numeric_limits<int32_t>::min());
}

TEST_F(VecBinaryTest, HalfArithmeticRoundsOnceToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1; 1 + 3*2^-11 rounds up to 1 + 2^-9.
  std::vector<half> x = halves({1.0f, 1.0f, 65504.0f, 3.0f}), y = halves({0.00048828125f, 0.00146484375f, 8.0f, 7.0f});
  auto add = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Add(d, a, b, n); });
  EXPECT_EQ(tcemu::toFloat(add[0]), 1.0f);
  EXPECT_EQ(tcemu::toFloat(add[1]), 1.001953125f);
  EXPECT_EQ(tcemu::toFloat(add[2]), 65504.0f);  // 65512 is below the overflow threshold 65520
  auto div = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Div(d, a, b, n); });
  EXPECT_EQ(div[3].val, half(3.0f / 7.0f).val);
  auto mul = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Mul(d, a, b, n); });
  EXPECT_TRUE(std::isinf(tcemu::toFloat(mul[2])));
}

TEST_F(VecBinaryTest, FloatDivAndSubAreIeee) {
  std::vector<float> x{1.0f, 10.0f, -0.0f}, y{3.0f, 4.0f, 0.0f};
  auto div = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Div(d, a, b, n); });
  EXPECT_EQ(div[0], 1.0f / 3.0f);
  EXPECT_EQ(div[1], 2.5f);
  EXPECT_TRUE(std::isnan(div[2]));
  auto sub = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Sub(d, a, b, n); });
  EXPECT_EQ(sub, (std::vector<float>{-2.0f, 6.0f, -0.0f}));
}

TEST_F(VecBinaryTest, MaxMinPickPerLane) {
  std::vector<float> x{1.0f, -2.0f, 5.0f, -0.0f}, y{0.5f, 3.0f, 5.0f, 0.0f};
  auto mx = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Max(d, a, b, n); });
  EXPECT_EQ(mx, (std::vector<float>{1.0f, 3.0f, 5.0f, 0.0f}));
  auto mn = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Min(d, a, b, n); });
  EXPECT_EQ(mn, (std::vector<float>{0.5f, -2.0f, 5.0f, 0.0f}));
  std::vector<int32_t> xi{-3, 7}, yi{2, -9};
  auto mxi = run2(xi, yi, [](auto& d, auto& a, auto& b, uint32_t n) { Max(d, a, b, n); });
  EXPECT_EQ(mxi, (std::vector<int32_t>{2, 7}));
  auto hx = run2(halves({1.5f, -4.0f}), halves({2.5f, -8.0f}),
                 [](auto& d, auto& a, auto& b, uint32_t n) { Min(d, a, b, n); });
  EXPECT_EQ(tcemu::toFloat(hx[0]), 1.5f);
  EXPECT_EQ(tcemu::toFloat(hx[1]), -8.0f);
}

TEST_F(VecBinaryTest, AndOrOnSixteenBitLanes) {
  std::vector<uint16_t> x{0xF0F0, 0x1234}, y{0xFF00, 0x00FF};
  auto andv = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { And(d, a, b, n); });
  EXPECT_EQ(andv, (std::vector<uint16_t>{0xF000, 0x0034}));
  auto orv = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { Or(d, a, b, n); });
  EXPECT_EQ(orv, (std::vector<uint16_t>{0xFFF0, 0x12FF}));
}

TEST_F(VecBinaryTest, ThirtyTwoBitAndCountsSixteenBitLanesAsCannDoes) {
  std::vector<uint32_t> x{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, y{0x12345678, 0x9ABCDEF0, 1, 2};
  auto out = run2(x, y, [](auto& d, auto& a, auto& b, uint32_t n) { And(d, a, b, n); });
  EXPECT_EQ(out, (std::vector<uint32_t>{0x12345678, 0x9ABCDEF0, 0, 0}));  // 4 lanes of 16 bits = 2 elements
}

TEST_F(VecBinaryTest, AddReluAndSubReluClampAtZero) {
  auto ar = run2(std::vector<float>{1.0f, -3.0f}, std::vector<float>{1.0f, 1.0f},
                 [](auto& d, auto& a, auto& b, uint32_t n) { AddRelu(d, a, b, n); });
  EXPECT_EQ(ar, (std::vector<float>{2.0f, 0.0f}));
  auto sr = run2(std::vector<int16_t>{5, 1}, std::vector<int16_t>{2, 9},
                 [](auto& d, auto& a, auto& b, uint32_t n) { SubRelu(d, a, b, n); });
  EXPECT_EQ(sr, (std::vector<int16_t>{3, 0}));
}

TEST_F(VecBinaryTest, FusedMulAddUsesDstAsTheMultiplicand) {
  auto a = at<float>(0, 64), b = at<float>(256, 64), d = at<float>(512, 64);
  fill(a, std::vector<float>{2.0f, 3.0f, 1.0f + 0x1p-23f});
  fill(b, std::vector<float>{1.0f, -20.0f, -1.0f});
  fill(d, std::vector<float>{10.0f, 4.0f, 1.0f - 0x1p-23f});
  FusedMulAdd(d, a, b, 3);  // dst = src0 * dst + src1
  std::vector<float> out = get(d, 3);
  EXPECT_EQ(out[0], 21.0f);
  EXPECT_EQ(out[1], -8.0f);
  EXPECT_EQ(out[2], -0x1p-46f);  // (1+e)(1-e) - 1 = -e^2: rounded once, as a fused multiply-add
  fill(d, std::vector<float>{10.0f, 4.0f});
  FusedMulAddRelu(d, a, b, 2, 1, {});
  EXPECT_EQ(get(d, 2), (std::vector<float>{21.0f, 0.0f}));
}

TEST_F(VecBinaryTest, MulAddDstMixesHalfSourcesIntoAFloatDst) {
  auto a = at<half>(0, 128), b = at<half>(256, 128);
  auto d = at<float>(512, 128);
  fill(a, halves(iota(70)));
  fill(b, halves(std::vector<float>(70, 0.5f)));
  fill(d, std::vector<float>(70, 1.0f));
  MulAddDst(d, a, b, 70);
  EXPECT_EQ(last().repeats, 2u);  // 64 lanes per repeat: the float dst is the wider type
  EXPECT_EQ(last().dtypeBytes, 4u);
  std::vector<float> out = get(d, 70);
  for (int i = 0; i < 70; ++i) EXPECT_EQ(out[i], 1.0f + 0.5f * i) << i;
}

// --- unary ops ---

class VecUnaryTest : public VecTest {
 protected:
  template <typename T, typename Fn>
  std::vector<T> run1(const std::vector<T>& x, Fn fn) {
    uint32_t n = static_cast<uint32_t>(x.size());
    auto a = at<T>(0, n), d = at<T>(8192, n);
    fill(a, x);
    fillAll(d, T(0));
    fn(d, a, n);
    return get(d, n);
  }
};

TEST_F(VecUnaryTest, ReluOnEachDtype) {
  EXPECT_EQ(run1(std::vector<int32_t>{-5, 0, 7}, [](auto& d, auto& a, uint32_t n) { Relu(d, a, n); }),
            (std::vector<int32_t>{0, 0, 7}));
  EXPECT_EQ(run1(std::vector<float>{-1.5f, 2.5f}, [](auto& d, auto& a, uint32_t n) { Relu(d, a, n); }),
            (std::vector<float>{0.0f, 2.5f}));
  auto h = run1(halves({-1.0f, 0.25f}), [](auto& d, auto& a, uint32_t n) { Relu(d, a, n); });
  EXPECT_EQ(tcemu::toFloat(h[0]), 0.0f);
  EXPECT_EQ(tcemu::toFloat(h[1]), 0.25f);
}

TEST_F(VecUnaryTest, TranscendentalsInFloat) {
  std::vector<float> x{0.5f, 2.0f, 9.0f};
  auto e = run1(x, [](auto& d, auto& a, uint32_t n) { Exp(d, a, n); });
  auto l = run1(x, [](auto& d, auto& a, uint32_t n) { Ln(d, a, n); });
  auto s = run1(x, [](auto& d, auto& a, uint32_t n) { Sqrt(d, a, n); });
  auto r = run1(x, [](auto& d, auto& a, uint32_t n) { Rsqrt(d, a, n); });
  auto q = run1(x, [](auto& d, auto& a, uint32_t n) { Reciprocal(d, a, n); });
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(e[i], std::exp(x[i]));
    EXPECT_EQ(l[i], std::log(x[i]));
    EXPECT_EQ(s[i], std::sqrt(x[i]));
    EXPECT_EQ(r[i], 1.0f / std::sqrt(x[i]));
    EXPECT_EQ(q[i], 1.0f / x[i]);
  }
  EXPECT_EQ(s[2], 3.0f);
  EXPECT_EQ(q[1], 0.5f);
}

TEST_F(VecUnaryTest, HalfUnaryRoundsTheFloatResultOnce) {
  auto e = run1(halves({1.0f, -2.0f}), [](auto& d, auto& a, uint32_t n) { Exp(d, a, n); });
  EXPECT_EQ(e[0].val, half(std::exp(1.0f)).val);
  EXPECT_EQ(tcemu::toFloat(e[0]), 2.71875f);
  auto ab = run1(halves({-3.5f, 2.0f}), [](auto& d, auto& a, uint32_t n) { Abs(d, a, n); });
  EXPECT_EQ(tcemu::toFloat(ab[0]), 3.5f);
  EXPECT_EQ(tcemu::toFloat(ab[1]), 2.0f);
  auto rc = run1(halves({3.0f}), [](auto& d, auto& a, uint32_t n) { Reciprocal(d, a, n); });
  EXPECT_EQ(rc[0].val, half(1.0f / 3.0f).val);
}

TEST_F(VecUnaryTest, NotFlipsEveryBit) {
  EXPECT_EQ(run1(std::vector<int16_t>{0, -1, 0x0F0F}, [](auto& d, auto& a, uint32_t n) { Not(d, a, n); }),
            (std::vector<int16_t>{-1, 0, static_cast<int16_t>(0xF0F0)}));
}

// --- scalar ops ---

TEST_F(VecUnaryTest, ScalarArithmetic) {
  EXPECT_EQ(run1(std::vector<int16_t>{32767, 4}, [](auto& d, auto& a, uint32_t n) { Adds(d, a, int16_t(1), n); }),
            (std::vector<int16_t>{-32768, 5}));
  auto m = run1(halves({3.0f, -0.5f}), [](auto& d, auto& a, uint32_t n) { Muls(d, a, half(1.5f), n); });
  EXPECT_EQ(tcemu::toFloat(m[0]), 4.5f);
  EXPECT_EQ(tcemu::toFloat(m[1]), -0.75f);
  EXPECT_EQ(run1(std::vector<float>{-1.0f, 2.0f}, [](auto& d, auto& a, uint32_t n) { Maxs(d, a, 0.5f, n); }),
            (std::vector<float>{0.5f, 2.0f}));
  EXPECT_EQ(run1(std::vector<int32_t>{-1, 20}, [](auto& d, auto& a, uint32_t n) { Mins(d, a, 3, n); }),
            (std::vector<int32_t>{-1, 3}));
}

TEST_F(VecUnaryTest, LeakyReluScalesOnlyNegatives) {
  auto out = run1(halves({-2.0f, 0.0f, 3.0f}), [](auto& d, auto& a, uint32_t n) { LeakyRelu(d, a, half(0.25f), n); });
  EXPECT_EQ(tcemu::toFloat(out[0]), -0.5f);
  EXPECT_EQ(tcemu::toFloat(out[1]), 0.0f);
  EXPECT_EQ(tcemu::toFloat(out[2]), 3.0f);
}

TEST_F(VecUnaryTest, ShiftsAreLogicalLeftAndArithmeticRightForSignedTypes) {
  EXPECT_EQ(
      run1(std::vector<uint16_t>{0x8001, 3}, [](auto& d, auto& a, uint32_t n) { ShiftLeft(d, a, uint16_t(1), n); }),
      (std::vector<uint16_t>{0x0002, 6}));
  EXPECT_EQ(run1(std::vector<int16_t>{-8, 8}, [](auto& d, auto& a, uint32_t n) { ShiftRight(d, a, int16_t(2), n); }),
            (std::vector<int16_t>{-2, 2}));
  EXPECT_EQ(run1(std::vector<uint32_t>{0x80000000u, 7}, [](auto& d, auto& a, uint32_t n) { ShiftRight(d, a, 4u, n); }),
            (std::vector<uint32_t>{0x08000000u, 0}));
  EXPECT_EQ(run1(std::vector<int32_t>{5, 1}, [](auto& d, auto& a, uint32_t n) { ShiftLeft(d, a, 32, n); }),
            (std::vector<int32_t>{0, 0}));
}

TEST_F(VecUnaryTest, ShiftRightRoundEnRoundsHalfUp) {
  auto a = at<int32_t>(0, 64), d = at<int32_t>(256, 64);
  fill(a, std::vector<int32_t>{5, 6, -5, 4, 0, 0, 0, 0});
  ShiftRight(d, a, 2, 8, 1, {}, true);  // (x + 2) >> 2
  EXPECT_EQ(get(d, 4), (std::vector<int32_t>{1, 2, -1, 1}));
  ShiftRight(d, a, 2, 8, 1, {});  // truncating
  EXPECT_EQ(get(d, 4), (std::vector<int32_t>{1, 1, -2, 1}));
}

TEST_F(VecUnaryTest, ShiftCountOutOfRange) {
  auto a = at<int16_t>(0, 16);
  fillAll(a, int16_t(1));
  EXPECT_EQ(checkMessage([&] { ShiftLeft(a, a, int16_t(17), 16); }),
            "ShiftLeft scalarValue 17 is out of range [0, 16] for int16_t (the shift count); hint: shift int16_t "
            "elements by at most 16 bits");
  EXPECT_EQ(checkMessage([&] { ShiftRight(a, a, int16_t(-1), 16, 1, {}); }),
            "ShiftRight scalarValue -1 is out of range [0, 16] for int16_t (the shift count); hint: shift int16_t "
            "elements by at most 16 bits");
}

// --- fills and axpy ---

TEST_F(VecUnaryTest, DuplicateCountAndMaskForms) {
  auto d = at<bfloat16_t>(0, 256);
  Duplicate(d, bfloat16_t(1.5f), 200);
  std::vector<bfloat16_t> out = get(d, 200);
  for (auto v : out) EXPECT_EQ(tcemu::toFloat(v), 1.5f);
  auto f = at<float>(1024, 256);
  Duplicate(f, 0.0f, 256);
  Duplicate(f, 7.0f, 4, 2, 2, 16);  // 4 lanes, 2 repeats, blocks 2 apart, repeats 16 blocks apart
  std::vector<float> o = get(f, 256);
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(o[i], (i == 0 || i == 1 || i == 2 || i == 3 || (i >= 128 && i < 132)) ? 7.0f : 0.0f) << i;
  uint64_t mask[2] = {0x101, 0};
  Duplicate(f, 9.0f, mask, 1, 1, 8);
  EXPECT_EQ(get(f, 9)[8], 9.0f);
}

TEST_F(VecUnaryTest, CreateVecIndexCountsAcrossRepeats) {
  auto f = at<float>(0, 192);
  CreateVecIndex(f, 10.0f, 150);
  std::vector<float> out = get(f, 150);
  for (int i = 0; i < 150; ++i) EXPECT_EQ(out[i], 10.0f + i) << i;
  auto h = at<half>(1024, 256);
  Duplicate(h, half(0.0f), 256);
  CreateVecIndex(h, half(0.0f), 4, 2, 1, 8);  // mask form: the index of lane j of repeat r is r*128 + j
  std::vector<float> hv = getF(h, 256);
  EXPECT_EQ(hv[3], 3.0f);
  EXPECT_EQ(hv[4], 0.0f);
  EXPECT_EQ(hv[130], 130.0f);
}

TEST_F(VecUnaryTest, CreateVecIndexWritesAtLeastOneBlock) {
  auto i = at<int32_t>(0, 8);
  CreateVecIndex(i, 5, 3);
  EXPECT_EQ(get(i, 8), (std::vector<int32_t>{5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST_F(VecUnaryTest, AxpyAccumulatesIntoDst) {
  auto s = at<half>(0, 128);
  auto d = at<float>(512, 128);
  fill(s, halves(iota(100)));
  fill(d, std::vector<float>(100, 2.0f));
  Axpy(d, s, half(0.5f), 100);
  std::vector<float> out = get(d, 100);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(out[i], 2.0f + 0.5f * i) << i;
  auto hd = at<half>(2048, 128);
  fill(hd, halves(std::vector<float>(128, 1.0f)));
  Axpy(hd, s, half(2.0f), 16, 1, {});
  std::vector<float> ho = getF(hd, 17);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(ho[i], 1.0f + 2.0f * i) << i;
  EXPECT_EQ(ho[16], 1.0f);
}

// --- operator sugar ---

TEST_F(VecBinaryTest, OperatorsRunTheCountFormOverDstSize) {
  auto a = at<float>(0, 64), b = at<float>(256, 64), d = at<float>(512, 48);
  fill(a, iota(64));
  fill(b, std::vector<float>(64, 2.0f));
  d = a + b;
  EXPECT_EQ(last().elements, 48u);
  std::vector<float> out = get(d, 48);
  for (int i = 0; i < 48; ++i) EXPECT_EQ(out[i], i + 2.0f) << i;
  d = a * b;
  EXPECT_EQ(get(d, 3), (std::vector<float>{0.0f, 2.0f, 4.0f}));
  d = a / b;
  EXPECT_EQ(get(d, 3), (std::vector<float>{0.0f, 0.5f, 1.0f}));
  d = a - b;
  EXPECT_EQ(get(d, 2), (std::vector<float>{-2.0f, -1.0f}));
}

TEST_F(VecBinaryTest, BitwiseOperatorsCoverWholeThirtyTwoBitTensors) {
  auto a = at<int32_t>(0, 8), b = at<int32_t>(256, 8), d = at<int32_t>(512, 8);
  fill(a, std::vector<int32_t>(8, 0x0F0F0F0F));
  fill(b, std::vector<int32_t>(8, 0x00FF00FF));
  d = a & b;
  EXPECT_EQ(get(d, 8), std::vector<int32_t>(8, 0x000F000F));
  d = a | b;
  EXPECT_EQ(get(d, 8), std::vector<int32_t>(8, 0x0FFF0FFF));
}

TEST_F(VecBinaryTest, ComparisonOperatorsProduceABitMask) {
  auto a = at<half>(0, 128), b = at<half>(512, 128);
  auto d = at<uint8_t>(1024, 32);
  fill(a, halves(iota(128)));
  fill(b, halves(std::vector<float>(128, 60.0f)));
  d = a < b;  // Compare over a.GetSize() = 128 elements: bit i of the mask is element i
  std::vector<uint8_t> bits = get(d, 16);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(bits[i], 0xFF) << i;
  EXPECT_EQ(bits[7], 0x0F);  // elements 56..59
  for (int i = 8; i < 16; ++i) EXPECT_EQ(bits[i], 0x00) << i;
  d = a == b;
  bits = get(d, 16);
  EXPECT_EQ(bits[7], 0x10);  // element 60
}

TEST_F(VecBinaryTest, OperatorWithMixedDtypes) {
  auto a = at<half>(0, 16);
  auto d = at<float>(256, 16);
  EXPECT_EQ(checkMessage([&] { d = a + a; }),
            "LocalTensor operator + needs dst and sources of one dtype, but dst is float and the sources are half; "
            "hint: Cast the sources to float first");
}

}  // namespace
