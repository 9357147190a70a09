// Brcb, Gather (byte offsets from srcBaseAddr) and the 16x16 Transpose.
#include "vec2_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::UbTest;

namespace {

class GatherTest : public UbTest {};

TEST_F(GatherTest, BrcbFillsOneBlockPerSourceElement) {
  LocalTensor<float> src = ub<float>(16);
  LocalTensor<float> dst = ub<float>(128);
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = static_cast<float>(i + 1);
  put(src, v);
  Brcb(dst, src, 2, {1, 8});
  EXPECT_EQ(core().trace().back().repeats, 2u);
  EXPECT_EQ(core().trace().back().elements, 128u);
  vToS();
  EXPECT_EQ(dst.GetValue(0), 1.0f);
  EXPECT_EQ(dst.GetValue(7), 1.0f);
  EXPECT_EQ(dst.GetValue(8), 2.0f);
  EXPECT_EQ(dst.GetValue(63), 8.0f);
  EXPECT_EQ(dst.GetValue(64), 9.0f);
  EXPECT_EQ(dst.GetValue(127), 16.0f);
}

TEST_F(GatherTest, BrcbBlockStrideSpreadsTheBlocks) {
  LocalTensor<half> src = ub<half>(16);
  LocalTensor<half> dst = ub<half>(256);
  put(src, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  fill(dst, 256, half(0.0f));
  Brcb(dst, src, 1, {2, 16});
  vToS();
  EXPECT_EQ(f(dst.GetValue(0)), 1.0f);
  EXPECT_EQ(f(dst.GetValue(16)), 0.0f);  // block 1 of dst is skipped
  EXPECT_EQ(f(dst.GetValue(32)), 2.0f);
  EXPECT_EQ(f(dst.GetValue(7 * 32 + 15)), 8.0f);
}

TEST_F(GatherTest, GatherOffsetsAreBytesFromTheBase) {
  LocalTensor<float> src = ub<float>(64);
  LocalTensor<uint32_t> off = ub<uint32_t>(72);
  LocalTensor<float> dst = ub<float>(72);
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>(i) * 10.0f;
  put(src, v);
  std::vector<uint32_t> o(72);
  for (uint32_t i = 0; i < 72; ++i) o[i] = ((71 - i) % 48) * 4;  // byte offsets, reversed, within 48 elements
  put(off, o);
  Gather(dst, src, off, 64, 72);  // base 64 bytes = element 16
  vToS();
  EXPECT_EQ(dst.GetValue(0), (16 + 23) * 10.0f);  // (71 % 48) = 23
  EXPECT_EQ(dst.GetValue(23), (16 + 0) * 10.0f);
  EXPECT_EQ(dst.GetValue(71), 16 * 10.0f);
  EXPECT_EQ(dst.GetValue(65), (16 + 6) * 10.0f);  // the tail repeat
}

TEST_F(GatherTest, GatherMaskFormWritesOnlyActiveLanes) {
  LocalTensor<half> src = ub<half>(128);
  LocalTensor<uint32_t> off = ub<uint32_t>(128);
  LocalTensor<half> dst = ub<half>(128);
  std::vector<float> v(128);
  for (int i = 0; i < 128; ++i) v[i] = static_cast<float>(i);
  put(src, v);
  std::vector<uint32_t> o(128);
  for (uint32_t i = 0; i < 128; ++i) o[i] = (127 - i) * 2;
  put(off, o);
  fill(dst, 128, half(-1.0f));
  Gather(dst, src, off, 0, uint64_t{3}, 1, 8);
  vToS();
  EXPECT_EQ(f(dst.GetValue(0)), 127.0f);
  EXPECT_EQ(f(dst.GetValue(2)), 125.0f);
  EXPECT_EQ(f(dst.GetValue(3)), -1.0f);
}

TEST_F(GatherTest, GatherChecksOffsets) {
  LocalTensor<float> src = ub<float>(8);
  LocalTensor<uint32_t> off = ub<uint32_t>(8);
  LocalTensor<float> dst = ub<float>(8);
  fill(src, 8, 1.0f);
  put(off, std::vector<uint32_t>{0, 4, 6, 0, 0, 0, 0, 0});
  EXPECT_EQ(checkMessage([&] { Gather(dst, src, off, 0, 8); }),
            "Gather offset 6 (element 2) plus srcBaseAddr 0 is byte 6 of src, not a multiple of 4: the "
            "offsets are bytes; hint: multiply element indices by sizeof(float)");
  LocalTensor<int8_t> b8 = ub<int8_t>(32);
  LocalTensor<uint32_t> off8 = ub<uint32_t>(32);
  EXPECT_EQ(checkMessage([&] { Gather(b8, b8, off8, 0, 32); }),
            "Gather does not support int8_t on 910B (supported: half, bfloat16_t, int16_t, uint16_t, float, "
            "int32_t, uint32_t)");
}

TEST_F(GatherTest, GatherOutsideTheSourceBufferIsCaught) {
  TBuf<TPosition::VECCALC> small;
  pipe_->InitBuffer(small, 32);
  LocalTensor<float> src = small.Get<float>();
  LocalTensor<uint32_t> off = ub<uint32_t>(8);
  LocalTensor<float> dst = ub<float>(8);
  fill(src, 8, 1.0f);
  put(off, std::vector<uint32_t>{0, 4, 32, 0, 0, 0, 0, 0});
  std::string msg = checkMessage([&] { Gather(dst, src, off, 0, 8); });
  EXPECT_EQ(msg.rfind("Gather src accesses UB bytes", 0), 0u) << msg;
  EXPECT_NE(msg.find("outside its buffer"), std::string::npos) << msg;
}

TEST_F(GatherTest, TransposeSixteenBySixteen) {
  LocalTensor<uint16_t> src = ub<uint16_t>(256);
  LocalTensor<uint16_t> dst = ub<uint16_t>(256);
  std::vector<uint16_t> v(256);
  for (uint16_t i = 0; i < 256; ++i) v[i] = i;
  put(src, v);
  Transpose(dst, src);
  vToS();
  EXPECT_EQ(dst.GetValue(1), 16);
  EXPECT_EQ(dst.GetValue(16), 1);
  EXPECT_EQ(dst.GetValue(3 * 16 + 5), 5 * 16 + 3);
  EXPECT_EQ(dst.GetValue(255), 255);
  LocalTensor<float> fsrc = ub<float>(64);
  EXPECT_EQ(checkMessage([&] { Transpose(fsrc, fsrc); }),
            "Transpose does not support float on 910B (supported: half, int16_t, uint16_t)");
}

TEST_F(GatherTest, GatherMaskBuiltInPatternInPlace) {
  LocalTensor<float> src = ub<float>(256);
  std::vector<float> v(256);
  for (int i = 0; i < 256; ++i) v[i] = static_cast<float>(i + 1);
  put(src, v);
  uint64_t kept = 0;
  GatherMask(src, src, 2, false, 0, {1, 4, 8, 0}, kept);  // pattern 2: odd indices of every repeat
  EXPECT_EQ(kept, 128u);
  vToS();
  EXPECT_EQ(src.GetValue(0), 2.0f);
  EXPECT_EQ(src.GetValue(63), 128.0f);
  EXPECT_EQ(src.GetValue(127), 256.0f);
  EXPECT_EQ(GetGatherMaskRemainCount(), 128);
}

TEST_F(GatherTest, GatherMaskPatternTensorInCounterMode) {
  LocalTensor<half> src = ub<half>(256);
  LocalTensor<uint16_t> pattern = ub<uint16_t>(16);
  LocalTensor<half> dst = ub<half>(128);
  std::vector<float> v(256);
  for (int i = 0; i < 256; ++i) v[i] = static_cast<float>(i);
  put(src, v);
  put(pattern, std::vector<uint16_t>(16, 0x9999));  // keep the first and fourth of every four
  uint64_t kept = 0;
  GatherMask(dst, src, pattern, true, 70, {1, 2, 8, 0}, kept);  // 70 elements of each repeat, same bits
  EXPECT_EQ(kept, 70u);
  EXPECT_FALSE(core().counterMode_);
  EXPECT_EQ(core().maskLow_, 70u);
  vToS();
  EXPECT_EQ(f(dst.GetValue(0)), 0.0f);
  EXPECT_EQ(f(dst.GetValue(1)), 3.0f);
  EXPECT_EQ(f(dst.GetValue(2)), 4.0f);
  EXPECT_EQ(f(dst.GetValue(34)), 68.0f);
  EXPECT_EQ(f(dst.GetValue(35)), 128.0f);  // repeat 1 starts 8 blocks (128 halves) later
  EXPECT_EQ(f(dst.GetValue(69)), 196.0f);
}

TEST_F(GatherTest, GatherCountBeyondOneCall) {
  LocalTensor<half> src = ub<half>(16);
  LocalTensor<uint32_t> off = ub<uint32_t>(8);
  EXPECT_EQ(checkMessage([&] { Gather(src, src, off, 0, 40000); }),
            "Gather count 40000 needs 312 repeats of 128 elements; one call covers at most 255; hint: split "
            "the gather into calls of at most 32640 elements");
}

TEST_F(GatherTest, GatherMaskChecks) {
  LocalTensor<half> src = ub<half>(128);
  LocalTensor<uint32_t> wide = ub<uint32_t>(8);
  uint64_t kept = 0;
  EXPECT_EQ(checkMessage([&] {
              GatherMask(src, src, 9, false, 0, {1, 1, 8, 0}, kept);
            }),
            "GatherMask src1Pattern 9 is out of range [1, 7]; hint: 1/2 keep even/odd elements, 3..6 one of "
            "every four, 7 all; pass a LocalTensor for any other pattern");
  EXPECT_EQ(checkMessage([&] {
              GatherMask(src, src, wide, false, 0, {1, 1, 8, 0}, kept);
            }),
            "GatherMask of half takes a src1Pattern tensor of uint16_t, not uint32_t; hint: declare the "
            "pattern as LocalTensor<uint16_t>");
}

}  // namespace
