// Broadcast, Pad and UnPad (emu/hl_broadcast_pad.h) and their host queries (tiling/hl_tiling_pad.h): values, the
// temporary space they take, and every check's message.
#include <cmath>

#include "emu_test_util.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using tcemu::testing::checkMessage;

namespace {

class Hl2Test : public tcemu::testing::TBufTest {};

TEST_F(Hl2Test, BroadcastLastAxisRepeatsEachRowValue) {
  LocalTensor<float> src = filled<float>({1.5f, -2.0f, 3.25f, 4.0f}, 32);
  LocalTensor<float> dst = buffer<float>(4 * 8 * 4);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);  // the minimum: one Brcb block of 8 x 8 floats
  const uint32_t dstShape[2] = {4, 8}, srcShape[2] = {4, 1};
  Broadcast<float, 2, 1>(dst, src, dstShape, srcShape, tmp);
  const float rowValue[4] = {1.5f, -2.0f, 3.25f, 4.0f};
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(dst.GetPhyAddr()[i], rowValue[i / 8]) << i;
}

TEST_F(Hl2Test, BroadcastFirstAxisRepeatsTheRowHalf) {
  std::vector<float> row(16);
  for (int i = 0; i < 16; ++i) row[i] = 0.1f * static_cast<float>(i) - 0.7f;
  LocalTensor<half> src = filled<half>(row, 32);
  LocalTensor<half> dst = buffer<half>(3 * 16 * 2);
  const uint32_t dstShape[2] = {3, 16}, srcShape[2] = {1, 16};
  Broadcast<half, 2, 0>(dst, src, dstShape, srcShape);  // takes its 32 bytes from the free UB
  for (uint32_t i = 0; i < 48; ++i)
    EXPECT_EQ(static_cast<float>(dst.GetPhyAddr()[i]), static_cast<float>(half(row[i % 16]))) << i;
}

TEST_F(Hl2Test, BroadcastInt8UnalignedRowsAndScalarAndCopy) {
  LocalTensor<int8_t> src = filled<int8_t>({-128, 5, 127}, 32);
  LocalTensor<int8_t> dst = buffer<int8_t>(32);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(1088);  // half staging of src and dst + Brcb block + copy rows
  const uint32_t dstShape[2] = {3, 5}, srcShape[2] = {3, 1};
  Broadcast<int8_t, 2, 1>(dst, src, dstShape, srcShape, tmp);
  const int8_t rowValue[3] = {-128, 5, 127};
  for (uint32_t i = 0; i < 15; ++i) EXPECT_EQ(dst.GetPhyAddr()[i], rowValue[i / 5]) << i;

  LocalTensor<float> one = filled<float>({2.5f}, 32);
  LocalTensor<float> many = buffer<float>(64);
  const uint32_t d1[1] = {10}, s1[1] = {1};
  Broadcast<float, 1, 0>(many, one, d1, s1);
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(many.GetPhyAddr()[i], 2.5f) << i;
  LocalTensor<float> same = buffer<float>(64);
  const uint32_t d2[2] = {2, 5}, s2[2] = {2, 5};
  Broadcast<float, 2, 1>(same, many, d2, s2);
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(same.GetPhyAddr()[i], 2.5f) << i;
}

TEST_F(Hl2Test, BroadcastChecks) {
  LocalTensor<float> src = filled<float>({1, 2, 3, 4}, 32);
  LocalTensor<float> dst = buffer<float>(4 * 8 * 4);
  LocalTensor<uint8_t> small = buffer<uint8_t>(128);
  const uint32_t dstShape[2] = {4, 8}, srcShape[2] = {4, 1}, badSrc[2] = {4, 2};
  EXPECT_EQ(checkMessage([&] { Broadcast<float, 2, 1>(dst, src, dstShape, srcShape, small); }),
            "Broadcast sharedTmpBuffer has 128 bytes; this call needs at least 256 bytes; hint: size the buffer with "
            "GetBroadCastMaxMinTmpSize (minimum 256 bytes)");
  EXPECT_EQ(checkMessage([&] { Broadcast<float, 2, 1>(dst, src, dstShape, badSrc); }),
            "Broadcast<T, 2, 1>: srcShape [4, 2] does not broadcast to dstShape [4, 8] along axis 1 (the source must "
            "match the destination except for size 1 on axis 1); hint: pass the shapes in the order dstShape, "
            "srcShape");
  EXPECT_EQ(checkMessage([&] { Broadcast<float, 2, 2>(dst, src, dstShape, srcShape); }),
            "Broadcast<T, dim = 2, axis = 2>: axis must be between 0 and dim - 1 = 1; hint: axis is the dimension "
            "the source has size 1 in");
  const uint32_t d3[3] = {2, 2, 8}, s3[3] = {2, 2, 1};
  EXPECT_EQ(checkMessage([&] { Broadcast<float, 3, 2>(dst, src, d3, s3); }),
            "Broadcast<T, dim = 3, axis = 2>: CANN implements dim = 1 and dim = 2 only; hint: view the tensor as "
            "[rows, cols] with the broadcast axis 0 or 1");
  LocalTensor<half> hsrc = filled<half>(std::vector<float>(10, 1.0f), 32);
  LocalTensor<half> hdst = buffer<half>(64);
  const uint32_t hd[2] = {2, 10}, hs[2] = {1, 10};
  EXPECT_EQ(checkMessage([&] { Broadcast<half, 2, 0>(hdst, hsrc, hd, hs); }),
            "Broadcast<T, 2, 0> needs dstShape[1] * 2 bytes to be a multiple of 32: dstShape[1] = 10 half elements "
            "is 20 bytes; hint: pad the last axis to 16 elements");
}

TEST_F(Hl2Test, BroadcastHostSizesPassTheKernelCheck) {
  auto& platform = *platform_ascendc::PlatformAscendCManager::GetInstance();
  uint32_t maxV = 0, minV = 0;
  GetBroadCastMaxMinTmpSize(platform, ge::Shape({3, 1}), ge::Shape({3, 5}), 1, false, maxV, minV);
  EXPECT_EQ(minV, 1088u);
  EXPECT_EQ(maxV, 1088u);
  GetBroadCastMaxMinTmpSize(platform, ge::Shape({64, 1}), ge::Shape({64, 8}), 4, false, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 2048u);  // one 256-byte Brcb block per group of 8 rows
  GetBroadCastMaxMinTmpSize(platform, ge::Shape({1, 16}), ge::Shape({4, 16}), 2, false, maxV, minV);
  EXPECT_EQ(minV, 32u);

  std::vector<float> col(64);
  for (int i = 0; i < 64; ++i) col[i] = static_cast<float>(i);
  LocalTensor<float> src = filled<float>(col, 256);
  LocalTensor<float> dst = buffer<float>(64 * 8 * 4);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(2048);
  const uint32_t dstShape[2] = {64, 8}, srcShape[2] = {64, 1};
  Broadcast<float, 2, 1>(dst, src, dstShape, srcShape, tmp);
  EXPECT_EQ(dst.GetPhyAddr()[63 * 8 + 7], 63.0f);
}

TEST_F(Hl2Test, PadAlignedRowsSetsTheDirtyColumns) {
  std::vector<float> v(32);
  for (int i = 0; i < 32; ++i) v[i] = static_cast<float>(i);
  LocalTensor<half> src = filled<half>(v, 64);
  LocalTensor<half> dst = buffer<half>(64);
  optiling::PadTiling tiling;
  PadTilingFunc(ge::Shape({2, 16}), ge::Shape({2, 13}), 0, 2, tiling);
  EXPECT_EQ(tiling.get_srcOriWidth(), 13u);
  EXPECT_EQ(tiling.get_blocksPerRow(), 1u);
  PadParams params(0, 2, 7);  // columns 13 and 14 get 7; column 15 keeps its data
  Pad(dst, src, params, tiling);
  for (uint32_t i = 0; i < 32; ++i) {
    uint32_t col = i % 16;
    float want = (col == 13 || col == 14) ? 7.0f : v[i];
    EXPECT_EQ(static_cast<float>(dst.GetPhyAddr()[i]), want) << i;
  }
}

TEST_F(Hl2Test, PadUnalignedRowsWidensThem) {
  std::vector<float> v(10);
  for (int i = 0; i < 10; ++i) v[i] = 0.5f * static_cast<float>(i + 1);
  LocalTensor<float> src = filled<float>(v, 64);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);
  PadTiling tiling;
  tiling.srcHeight = 2;
  tiling.srcWidth = 5;
  tiling.srcOriWidth = 5;
  PadParams params(1, 2, -1);
  Pad(dst, src, params, tmp, tiling);
  const float want[16] = {-1, 0.5f, 1, 1.5f, 2, 2.5f, -1, -1, -1, 3, 3.5f, 4, 4.5f, 5, -1, -1};
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(dst.GetPhyAddr()[i], want[i]) << i;
  uint32_t maxV = 1, minV = 1;
  GetPadMaxMinTmpSize(ge::Shape({2, 5}), 4, maxV, minV);
  EXPECT_EQ(maxV, 0u);
  EXPECT_EQ(minV, 0u);
}

TEST_F(Hl2Test, PadChecks) {
  LocalTensor<float> src = filled<float>(std::vector<float>(16, 1.0f), 64);
  LocalTensor<float> dst = buffer<float>(64);
  PadTiling tiling;
  tiling.srcHeight = 2;
  tiling.srcWidth = 8;
  tiling.srcOriWidth = 8;
  PadParams params(0, 2, 0);
  EXPECT_EQ(checkMessage([&] { Pad(dst, src, params, tiling); }),
            "Pad of rows already 32-byte aligned: srcWidth = srcOriWidth = 8 float elements, so there is nothing to "
            "pad; hint: skip the Pad, or set srcOriWidth to the real row length in PadTilingFunc's oriSrcShape");
  tiling.srcOriWidth = 6;
  params.leftPad = 1;
  EXPECT_EQ(checkMessage([&] { Pad(dst, src, params, tiling); }),
            "Pad of 32-byte-aligned rows (srcWidth = 8) takes leftPad = 0, got 1: the dirty columns are always at the "
            "end of the row; hint: set leftPad = 0 and rightPad = srcWidth - srcOriWidth = 2");
  params.leftPad = 0;
  params.rightPad = 0;
  EXPECT_EQ(checkMessage([&] { Pad(dst, src, params, tiling); }),
            "Pad of 32-byte-aligned rows: rightPad = 0 must be between 1 and srcWidth - srcOriWidth = 8 - 6 = 2; "
            "hint: set rightPad = 2");
  tiling.srcWidth = 5;
  tiling.srcOriWidth = 5;
  params.rightPad = 2;
  EXPECT_EQ(checkMessage([&] { Pad(dst, src, params, tiling); }),
            "Pad: srcWidth = 5, leftPad = 0, rightPad = 2 give a padded row of 7 float elements (28 bytes), not a "
            "multiple of 32 bytes; hint: choose leftPad + rightPad so that the row is 8 elements");
}

TEST_F(Hl2Test, UnPadDropsTheRightColumns) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = static_cast<float>(i);
  LocalTensor<float> src = filled<float>(v, 64);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(32);
  optiling::UnPadTiling tiling;
  UnPadTilingFunc(ge::Shape({2, 8}), 0, 4, tiling);
  UnPadParams params(0, 3);
  UnPad(dst, src, params, tmp, tiling);
  const float want[10] = {0, 1, 2, 3, 4, 8, 9, 10, 11, 12};
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(dst.GetPhyAddr()[i], want[i]) << i;
}

TEST_F(Hl2Test, UnPadChecks) {
  LocalTensor<float> src = filled<float>(std::vector<float>(32, 1.0f), 128);
  LocalTensor<float> dst = buffer<float>(128);
  UnPadTiling tiling;
  tiling.srcHeight = 2;
  tiling.srcWidth = 5;
  UnPadParams params(0, 2);
  EXPECT_EQ(checkMessage([&] { UnPad(dst, src, params, tiling); }),
            "UnPad: srcWidth = 5 float elements is 20 bytes, not a multiple of 32; hint: UnPad takes rows padded to "
            "32 bytes (srcWidth = 8)");
  tiling.srcWidth = 16;
  params.rightPad = 8;
  EXPECT_EQ(checkMessage([&] { UnPad(dst, src, params, tiling); }),
            "UnPad: srcWidth - rightPad = 16 - 8 must be a row length that is not 32-byte aligned (and not negative); "
            "hint: for an aligned result no UnPad is needed, copy the rows instead");
}

// ---- SimpleSoftMax / LogSoftMax --------------------------------------------------------------------------------------

TEST_F(Hl2Test, SimpleSoftMaxUsesTheGivenStats) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = 0.3f * static_cast<float>(i) - 2.0f;
  LocalTensor<float> src = filled<float>(v, 64);
  LocalTensor<float> maxT =
      filled<float>({1.0f, 1, 1, 1, 1, 1, 1, 1, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f, -0.5f}, 64);
  LocalTensor<float> sumT =
      filled<float>({3.0f, 3, 3, 3, 3, 3, 3, 3, 7.5f, 7.5f, 7.5f, 7.5f, 7.5f, 7.5f, 7.5f, 7.5f}, 64);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(1024);
  SoftMaxTiling tiling;
  tiling.srcM = 2;
  tiling.srcK = 8;
  SimpleSoftMax<float>(dst, sumT, maxT, src, tmp, tiling);
  for (int i = 0; i < 16; ++i) {
    float mx = i < 8 ? 1.0f : -0.5f, sm = i < 8 ? 3.0f : 7.5f;
    EXPECT_EQ(dst.GetPhyAddr()[i], std::exp(v[i] - mx) / sm) << i;
  }
}

TEST_F(Hl2Test, SimpleSoftMaxHalfWithFloatStatsRoundsOnce) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = 0.37f * static_cast<float>(i) - 3.0f;
  LocalTensor<half> src = filled<half>(v, 32);
  LocalTensor<float> maxT = filled<float>(std::vector<float>(8, 2.0f), 32);
  LocalTensor<float> sumT = filled<float>(std::vector<float>(8, 5.0f), 32);
  LocalTensor<half> dst = buffer<half>(32);
  SimpleSoftMax<half>(dst, sumT, maxT, src, SoftMaxTiling{}, SoftMaxShapeInfo{1, 16, 1, 16});
  for (int i = 0; i < 16; ++i) {
    float x = static_cast<float>(half(v[i]));
    EXPECT_EQ(static_cast<float>(dst.GetPhyAddr()[i]), static_cast<float>(half(std::exp(x - 2.0f) / 5.0f))) << i;
  }
}

TEST_F(Hl2Test, SimpleSoftMaxChecks) {
  LocalTensor<float> src = filled<float>(std::vector<float>(16, 0.0f), 64);
  LocalTensor<float> stat = filled<float>(std::vector<float>(16, 1.0f), 64);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> small = buffer<uint8_t>(32);
  SoftMaxTiling tiling;
  EXPECT_EQ(checkMessage([&] { SimpleSoftMax<float>(dst, stat, stat, src, tiling); }),
            "SimpleSoftMax with an empty shape: SoftMaxShapeInfo and the tiling both give srcM = 0, srcK = 0; hint: "
            "pass SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} or a tiling filled by SoftMaxTilingFunc");
  EXPECT_EQ(checkMessage([&] {
              SimpleSoftMax<float>(dst, stat, stat, src, tiling, {2, 6, 2, 6});
            }),
            "SimpleSoftMax srcK = 6 float elements is 24 bytes, not a multiple of 32; hint: pad the last axis to 8 "
            "elements and pass the real length as oriSrcK");
  EXPECT_EQ(checkMessage([&] {
              SimpleSoftMax<float>(dst, stat, stat, src, tiling, {2, 8, 2, 9});
            }),
            "SimpleSoftMax oriSrcK = 9 is larger than srcK = 8; hint: srcK is the padded row length, oriSrcK the "
            "real one");
  EXPECT_EQ(checkMessage([&] {
              SimpleSoftMax<float>(dst, stat, stat, src, small, tiling, {2, 8, 2, 8});
            }),
            "SimpleSoftMax sharedTmpBuffer has 32 bytes; this call needs at least 96 bytes; hint: size the buffer "
            "with GetSoftMaxMinTmpSize (minimum 96 bytes)");
  EXPECT_EQ(checkMessage([&] {
              SimpleSoftMax<float, false, false, true>(dst, stat, stat, src, tiling, {2, 8, 2, 8});
            }),
            "SimpleSoftMax with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND "
            "data (isDataFormatNZ = false)");
}

TEST_F(Hl2Test, LogSoftMaxIsTheBase10LogOfSoftmax) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = 0.25f * static_cast<float>(i * i % 7) - 1.0f;
  LocalTensor<float> src = filled<float>(v, 64);
  LocalTensor<float> dst = buffer<float>(64), sumT = buffer<float>(64), maxT = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(GetLogSoftMaxMinTmpSize(ge::Shape({2, 8}), 4, false));
  optiling::LogSoftMaxTiling tiling;
  LogSoftMaxTilingFunc(ge::Shape({2, 8}), 4, 1024, tiling);
  EXPECT_EQ(tiling.get_srcK(), 8u);
  LogSoftMax<float>(dst, sumT, maxT, src, tmp, tiling);
  for (int r = 0; r < 2; ++r) {
    const float* x = v.data() + 8 * r;
    float mx = x[0];
    for (int j = 1; j < 8; ++j) mx = std::max(mx, x[j]);
    float e[8];
    for (int j = 0; j < 8; ++j) e[j] = std::exp(x[j] - mx);
    const float sum = ((e[0] + e[1]) + (e[2] + e[3])) + ((e[4] + e[5]) + (e[6] + e[7]));  // the documented tree
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(dst.GetPhyAddr()[8 * r + j], std::log(e[j] / sum) * 0.4342944819f) << r << "," << j;
      EXPECT_EQ(sumT.GetPhyAddr()[8 * r + j], sum);
      EXPECT_EQ(maxT.GetPhyAddr()[8 * r + j], mx);
    }
  }
}

TEST_F(Hl2Test, LogSoftMaxHalfKeepsHalfStatsAndChecks) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = 0.5f * static_cast<float>(i % 5);
  LocalTensor<half> src = filled<half>(v, 32);
  LocalTensor<half> dst = buffer<half>(32), sumT = buffer<half>(32), maxT = buffer<half>(32);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(1024);
  LogSoftMaxTiling tiling;
  LogSoftMax<half>(dst, sumT, maxT, src, tmp, tiling, {1, 16, 1, 16});
  EXPECT_EQ(static_cast<float>(maxT.GetPhyAddr()[15]), 2.0f);
  float e[16], lane[16];
  for (int j = 0; j < 16; ++j) e[j] = lane[j] = std::exp(v[j] - 2.0f);
  for (int w = 8; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) lane[j] = lane[2 * j] + lane[2 * j + 1];
  EXPECT_EQ(static_cast<float>(sumT.GetPhyAddr()[0]), static_cast<float>(half(lane[0])));
  for (int j = 0; j < 16; ++j)
    EXPECT_EQ(static_cast<float>(dst.GetPhyAddr()[j]),
              static_cast<float>(half(std::log(e[j] / lane[0]) * 0.4342944819f)));
  LocalTensor<uint8_t> small = buffer<uint8_t>(64);
  EXPECT_EQ(checkMessage([&] {
              LogSoftMax<half>(dst, sumT, maxT, src, small, tiling, {1, 16, 1, 16});
            }),
            "LogSoftMax sharedTmpBuffer has 64 bytes; this call needs at least 192 bytes; hint: size the buffer with "
            "GetLogSoftMaxMinTmpSize (minimum 192 bytes)");
  EXPECT_EQ(checkMessage([&] { LogSoftMax<half>(dst, sumT, maxT, src, tmp, tiling); }),
            "LogSoftMax with an empty shape: SoftMaxShapeInfo and the tiling both give srcM = 0, srcK = 0; hint: pass "
            "SoftMaxShapeInfo{srcM, srcK, oriSrcM, oriSrcK} or a tiling filled by LogSoftMaxTilingFunc");
  EXPECT_EQ(checkMessage([&] {
              LogSoftMax<half, false, true>(dst, sumT, maxT, src, tmp, tiling, {1, 16, 1, 16});
            }),
            "LogSoftMax with isDataFormatNZ = true: the emulator implements the ND layout only; hint: pass ND data "
            "(isDataFormatNZ = false)");
}

// ---- AscendQuant ----------------------------------------------------------------------------------------------------

// The library's steps, each a half operation, then a nearest-even saturating cast to int8.
int8_t quantRef(float x, float scale, float offset) {
  float y = static_cast<float>(half(static_cast<float>(half(x)) * static_cast<float>(half(scale))));
  y = static_cast<float>(half(y + static_cast<float>(half(offset))));
  float r = std::nearbyint(y);
  return static_cast<int8_t>(std::min(127.0f, std::max(-128.0f, r)));
}

TEST_F(Hl2Test, AscendQuantPerTensorRoundsInHalfAndSaturates) {
  std::vector<float> v = {0.3f, -1.7f, 100.0f, -300.0f, 2.5f, 3.5f, -0.25f, 0.7501f, 1e-3f, 63.3f, -64.26f, 7.0f};
  v.resize(32, 1.234f);
  LocalTensor<float> src = filled<float>(v, 128);
  LocalTensor<int8_t> dst = buffer<int8_t>(32);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(64);
  AscendQuant<float>(dst, src, tmp, 2.0f, 0.5f, 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(dst.GetPhyAddr()[i], quantRef(v[i], 2.0f, 0.5f)) << i;
  EXPECT_EQ(dst.GetPhyAddr()[2], 127);
  EXPECT_EQ(dst.GetPhyAddr()[3], -128);
  LocalTensor<int8_t> dst2 = buffer<int8_t>(32);
  AscendQuant<float>(dst2, src, 0.1f, -3.0f);  // whole tensor, temporary space from the free UB
  for (int i = 0; i < 32; ++i) EXPECT_EQ(dst2.GetPhyAddr()[i], quantRef(v[i], 0.1f, -3.0f)) << i;
}

TEST_F(Hl2Test, AscendQuantPerChannel) {
  std::vector<float> v(32), sc(16), of(16);
  for (int i = 0; i < 32; ++i) v[i] = 0.37f * static_cast<float>(i) - 5.0f;
  for (int c = 0; c < 16; ++c) {
    sc[c] = 0.5f + 0.25f * static_cast<float>(c);
    of[c] = static_cast<float>(c % 3) - 1.0f;
  }
  LocalTensor<half> src = filled<half>(v, 64);
  LocalTensor<half> scale = filled<half>(sc, 32), offset = filled<half>(of, 32);
  LocalTensor<int8_t> dst = buffer<int8_t>(32), dst2 = buffer<int8_t>(32);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);
  AscendQuant<half>(dst, src, tmp, scale, offset, 16, 16, 32);
  AscendQuant<half>(dst2, src, scale, half(1.5f), 16, 32);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(dst.GetPhyAddr()[i], quantRef(v[i], sc[i % 16], of[i % 16])) << i;
    EXPECT_EQ(dst2.GetPhyAddr()[i], quantRef(v[i], sc[i % 16], 1.5f)) << i;
  }
  uint32_t maxV = 0, minV = 0;
  GetAscendQuantMaxMinTmpSize(ge::Shape({2, 16}), 2, maxV, minV);
  EXPECT_EQ(minV, 64u);
  EXPECT_EQ(maxV, 64u);
  GetAscendQuantMaxMinTmpSize(ge::Shape({100}), 4, maxV, minV);
  EXPECT_EQ(maxV, 256u);
}

TEST_F(Hl2Test, AscendQuantChecks) {
  LocalTensor<half> src = filled<half>(std::vector<float>(32, 1.0f), 64);
  LocalTensor<half> scale = filled<half>(std::vector<float>(16, 1.0f), 32);
  LocalTensor<int8_t> dst = buffer<int8_t>(32);
  LocalTensor<uint8_t> small = buffer<uint8_t>(32);
  EXPECT_EQ(checkMessage([&] { AscendQuant<half>(dst, src, scale, scale, 16, 8, 32); }),
            "AscendQuant per channel: scaleCount = 16 and offsetCount = 8 must be equal; hint: pass one offset per "
            "scale");
  EXPECT_EQ(checkMessage([&] { AscendQuant<half>(dst, src, scale, half(0.0f), 16, 24); }),
            "AscendQuant per channel: calCount = 24 must be a non-zero multiple of scaleCount = 16 (src is "
            "[calCount / scaleCount, scaleCount]); hint: pass whole rows of scaleCount channels");
  EXPECT_EQ(checkMessage([&] { AscendQuant<half>(dst, src, small, 1.0f, 0.0f, 32); }),
            "AscendQuant sharedTmpBuffer has 32 bytes; this call needs at least 64 bytes; hint: size the buffer with "
            "GetAscendQuantMaxMinTmpSize (minimum 64 bytes)");
}

// ---- DropOut --------------------------------------------------------------------------------------------------------

TEST_F(Hl2Test, DropOutByteMaskHalfMultipliesByTheMaskThenScales) {
  std::vector<float> v(32), mk(32);
  for (int i = 0; i < 32; ++i) {
    v[i] = 0.173f * static_cast<float>(i) - 2.0f;
    mk[i] = static_cast<float>((i * 7) % 3 == 0 ? 1 : 0);
  }
  LocalTensor<half> src = filled<half>(v, 64);
  LocalTensor<uint8_t> mask = filled<uint8_t>(mk, 32);
  LocalTensor<half> dst = buffer<half>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(256);
  DropOutShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 16;
  info.maskLastAxis = 16;
  DropOut(dst, src, mask, tmp, 0.7f, info);
  const float div = static_cast<float>(half(1.0f / 0.7f));
  for (int i = 0; i < 32; ++i) {
    float prod = static_cast<float>(half(mk[i] * static_cast<float>(half(v[i]))));
    EXPECT_EQ(static_cast<float>(dst.GetPhyAddr()[i]), static_cast<float>(half(prod * div))) << i;
  }
}

TEST_F(Hl2Test, DropOutBitMaskFloatKeepsSetBits) {
  std::vector<float> v(32);
  for (int i = 0; i < 32; ++i) v[i] = 1.1f * static_cast<float>(i + 1);
  LocalTensor<float> src = filled<float>(v, 128);
  LocalTensor<uint8_t> mask = filled<uint8_t>({0xA5, 0x0F, 0x81, 0xFF}, 32);
  LocalTensor<float> dst = buffer<float>(128);
  DropOutShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 16;
  info.maskLastAxis = 2;  // 16 bits per row: bit mode
  DropOut(dst, src, mask, 0.3f, info);
  const uint8_t bytes[4] = {0xA5, 0x0F, 0x81, 0xFF};
  for (int i = 0; i < 32; ++i) {
    bool keep = (bytes[i / 8] >> (i % 8)) & 1;
    EXPECT_EQ(dst.GetPhyAddr()[i], keep ? v[i] * (1.0f / 0.3f) : 0.0f) << i;
  }
}

TEST_F(Hl2Test, DropOutPaddedMaskRowsAreCompactedInPlace) {
  std::vector<float> v(16, 2.0f), mk(64, 0.0f);
  for (int c = 0; c < 8; ++c) {
    mk[c] = static_cast<float>(c % 2);
    mk[32 + c] = static_cast<float>(1 - c % 2);
  }
  LocalTensor<float> src = filled<float>(v, 64);
  LocalTensor<uint8_t> mask = filled<uint8_t>(mk, 64);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> tmp = buffer<uint8_t>(768);
  DropOutShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 8;
  info.maskLastAxis = 32;  // byte mask, rows padded to 32 bytes
  DropOut(dst, src, mask, tmp, 0.5f, info);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(dst.GetPhyAddr()[i], (i < 8 ? i % 2 : 1 - i % 2) ? 4.0f : 0.0f) << i;
    EXPECT_EQ(mask.GetPhyAddr()[i], (i < 8 ? i % 2 : 1 - i % 2)) << i;  // the compacted rows
  }

  // Bit mask with padded rows (mode 4 by template argument): row r's bits start at byte 32 r.
  std::vector<float> bm(64, 0.0f);
  bm[0] = 0x01;
  bm[1] = 0x80;
  bm[32] = 0xFF;
  LocalTensor<half> hs = filled<half>(std::vector<float>(32, 3.0f), 64);
  LocalTensor<uint8_t> bmask = filled<uint8_t>(bm, 64);
  LocalTensor<half> hd = buffer<half>(64);
  DropOutShapeInfo binfo;
  binfo.firstAxis = 2;
  binfo.srcLastAxis = 16;
  binfo.maskLastAxis = 32;
  DropOut<half, false, DROPOUT_MODE_BIT_MISALIGN>(hd, hs, bmask, tmp, 0.5f, binfo);
  for (int i = 0; i < 32; ++i) {
    bool keep = i == 0 || i == 15 || (i >= 16 && i < 24);
    EXPECT_EQ(static_cast<float>(hd.GetPhyAddr()[i]), keep ? 6.0f : 0.0f) << i;
  }
}

TEST_F(Hl2Test, DropOutChecks) {
  LocalTensor<float> src = filled<float>(std::vector<float>(16, 1.0f), 64);
  LocalTensor<uint8_t> mask = filled<uint8_t>(std::vector<float>(64, 1.0f), 64);
  LocalTensor<float> dst = buffer<float>(64);
  LocalTensor<uint8_t> small = buffer<uint8_t>(256);
  DropOutShapeInfo info;
  info.srcLastAxis = 8;
  info.maskLastAxis = 8;
  EXPECT_EQ(checkMessage([&] { DropOut(dst, src, mask, 0.5f, info); }),
            "DropOut info.firstAxis = 0; CANN requires firstAxis, srcLastAxis and maskLastAxis > 0; hint: fill "
            "DropOutShapeInfo with the row count, the src row length and the mask row length (bytes)");
  info.firstAxis = 2;
  EXPECT_EQ(checkMessage([&] { DropOut(dst, src, mask, small, 0.5f, info); }),
            "DropOut sharedTmpBuffer has 256 bytes; this call needs at least 768 bytes; hint: size the buffer with "
            "GetDropOutMaxMinTmpSize (minimum 768 bytes)");
  info.maskLastAxis = 20;
  EXPECT_EQ(checkMessage([&] { DropOut(dst, src, mask, 0.5f, info); }),
            "DropOut with padded byte mask rows: maskLastAxis = 20 bytes must be a multiple of 32 and srcLastAxis = 8 "
            "a multiple of 2 (the rows are compacted as uint16 words); hint: pad the mask rows to 32 bytes and the "
            "src rows to 2 elements");
  info.maskLastAxis = 8;
  EXPECT_EQ(checkMessage([&] { DropOut<float, false, 7>(dst, src, mask, 0.5f, info); }),
            "DropOut<T, isInitBitMode, dropOutMode = 7>: the modes are 0 (from the shape) and 1 to 4; hint: leave "
            "dropOutMode at 0");
  uint32_t maxV = 0, minV = 0;
  GetDropOutMaxMinTmpSize(ge::Shape({2, 8}), 4, false, maxV, minV);
  EXPECT_EQ(minV, 768u);
  EXPECT_EQ(GetDropOutMinTmpSize(ge::Shape({2, 16}), 2, false), 256u);
}

}  // namespace
