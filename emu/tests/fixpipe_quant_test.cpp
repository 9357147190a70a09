// Fixpipe quantisation modes (emu/fixpipe.h): scalar and per-channel scales, offsets, saturation and rounding,
// Fixpipe into L1 (NZ, channel-merged for 1-byte types), the cbufWorkspace form, and every new check message.
#include <cstring>

#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::CubeTest;
using tcemu::testing::Gm;

namespace {

uint64_t scaleWord(float scale, int offset = 0) {
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  return uint64_t{bits} | (uint64_t(static_cast<uint32_t>(offset) & 0x1FF) << 37);
}
uint64_t bitsWord(uint32_t bits) { return bits; }

class FixpipeQuantTest : public CubeTest {
 protected:
  static constexpr int M = 16, N = 32;
  void SetUp() override {
    CubeTest::SetUp();
    pipe_.InitBuffer(co1_, 4096);
    pipe_.InitBuffer(l1_, 4096);
    pipe_.InitBuffer(ws_, 512);
  }
  // Stores a row-major M x N matrix into L0C in the NZ layout Mmad leaves (strips of 16 columns, M rows apart).
  template <typename T>
  LocalTensor<T> c0(const std::vector<T>& rowMajor) {
    LocalTensor<T> t = co1_.Get<T>();
    std::vector<T> nz(M * N);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) nz[(j / 16) * M * 16 + i * 16 + j % 16] = rowMajor[i * N + j];
    poke(t, nz);
    return t;
  }
  template <typename T>
  void poke(const LocalTensor<T>& t, const std::vector<T>& v) {
    tcemu::Arena& a = core().arena(t.ref_.mem);
    std::memcpy(a.data.data() + t.ref_.offset, v.data(), v.size() * sizeof(T));
    a.written.set(t.ref_.offset, t.ref_.offset + v.size() * sizeof(T));
  }
  template <typename T>
  T peek(const LocalTensor<T>& t, size_t i) {
    T v;
    std::memcpy(static_cast<void*>(&v), core().arena(t.ref_.mem).data.data() + t.ref_.offset + i * sizeof(T),
                sizeof(T));
    return v;
  }
  TPipe pipe_;
  TBuf<TPosition::CO1> co1_;
  TBuf<TPosition::A1> l1_;
  TBuf<TPosition::C1> ws_;
};

TEST_F(FixpipeQuantTest, QF322B8RoundsHalfToEvenAddsTheOffsetAndSaturates) {
  std::vector<float> c(M * N, 0.0f);
  c[0] = 5.0f;       // 5 * 0.5 = 2.5 -> 2 (even), + 3 = 5
  c[1] = 7.0f;       // 3.5 -> 4, + 3 = 7
  c[2] = -1000.f;    // saturates at -128
  c[3] = 1000.f;     // saturates at 127
  c[N + 5] = -3.0f;  // -1.5 -> -2, + 3 = 1
  c[N + 6] = 9.0f;   // 4.5 -> 4, + 3 = 7: rounded before the offset (4.5 + 3 = 7.5 would round to 8)
  LocalTensor<float> src = c0(c);
  Gm<int8_t> out(M * N);
  Fixpipe(out.t_, src,
          FixpipeParamsV220(N, M, M, N, false, QF322B8_PRE, static_cast<int64_t>(scaleWord(0.5f, 3)), 1, 0, 0, 0));
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 7);
  EXPECT_EQ(out[2], -128);
  EXPECT_EQ(out[3], 127);
  EXPECT_EQ(out[N + 5], 1);
  EXPECT_EQ(out[N + 6], 7);
  EXPECT_EQ(out[4], 3);  // zero plus the offset
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::FIX);
  EXPECT_EQ(in.dtypeBytes, 1u);
  EXPECT_EQ(in.bytes, uint64_t{M} * N);
}

TEST_F(FixpipeQuantTest, ReluComesBeforeTheQuantisation) {
  std::vector<float> c(M * N, -4.0f);
  LocalTensor<float> src = c0(c);
  Gm<int8_t> out(M * N);
  Fixpipe(out.t_, src,
          FixpipeParamsV220(N, M, M, N, true, QF322B8_PRE, static_cast<int64_t>(scaleWord(1.0f, -2)), 1, 0, 0, 0));
  EXPECT_EQ(out[7], -2);  // relu(-4) = 0, then + offset -2
}

TEST_F(FixpipeQuantTest, VReq8TakesOneScalePerOutputColumnFromL1) {
  std::vector<int32_t> c(M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) c[i * N + j] = 10 * i + j;
  LocalTensor<int32_t> src = c0(c);
  LocalTensor<uint64_t> ws = ws_.Get<uint64_t>();
  std::vector<uint64_t> words(N);
  for (int j = 0; j < N; ++j) words[j] = scaleWord(j % 2 ? 0.25f : 1.0f, j == 3 ? 100 : 0);
  poke(ws, words);
  Gm<uint8_t> out(M * N);
  Fixpipe(out.t_, src, ws, FixpipeParamsV220(N, M, M, N, false, VREQ8, 0, 1, 0, 0, 0));
  EXPECT_EQ(out[0 * N + 2], 2);
  EXPECT_EQ(out[1 * N + 1], 3);      // 11 * 0.25 = 2.75 -> 3
  EXPECT_EQ(out[15 * N + 30], 180);  // 180 * 1.0
  EXPECT_EQ(out[15 * N + 31], 45);   // 181 * 0.25 = 45.25 -> 45
  EXPECT_EQ(out[2 * N + 3], 106);    // 23 * 0.25 = 5.75 -> 6, + 100
  EXPECT_EQ(out[15 * N + 0], 150);
}

TEST_F(FixpipeQuantTest, DeqF16RoundsTheExactProductOnceAndDropsTheLow13ScaleBits) {
  std::vector<int32_t> c(M * N, 1000);
  c[1] = 4097;  // 4097 * 1.0 in half: 4096 (spacing 4, ties to even)
  LocalTensor<int32_t> src = c0(c);
  Gm<half> out(M * N);
  // 0x3F801FFF is 1.000977 as a float; the register keeps bits [31:13], so the scale is exactly 1.0.
  Fixpipe(out.t_, src,
          FixpipeParamsV220(N, M, M, N, false, DEQF16, static_cast<int64_t>(bitsWord(0x3F801FFFu)), 1, 0, 0, 0));
  EXPECT_EQ(tcemu::toFloat(out[0]), 1000.0f);  // not 1001 (the untruncated scale)
  EXPECT_EQ(tcemu::toFloat(out[1]), 4096.0f);
}

TEST_F(FixpipeQuantTest, FixpipeToL1WritesNzStrips) {
  std::vector<float> c(M * N);
  for (int i = 0; i < M * N; ++i) c[i] = static_cast<float>(i) * 0.5f;
  LocalTensor<float> src = c0(c);
  LocalTensor<half> dst = l1_.Get<half>();
  Fixpipe<half, float, CFG_NZ>(dst, src, FixpipeParamsV220(N, M, M, M * 16 * 2 / 32, false, F322F16, 0, 1, 0, 0, 0));
  EXPECT_EQ(core().trace().back().dst, tcemu::Space::L1);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      ASSERT_EQ(tcemu::toFloat(peek(dst, (j / 16) * M * 16 + i * 16 + j % 16)), c[i * N + j]) << i << "," << j;
}

TEST_F(FixpipeQuantTest, OneByteNzOutputMergesTwoStripsIntoOneC0Of32) {
  std::vector<float> c(M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) c[i * N + j] = static_cast<float>(i + j);
  LocalTensor<float> src = c0(c);
  LocalTensor<int8_t> dst = l1_.Get<int8_t>();
  Fixpipe<int8_t, float, CFG_NZ>(
      dst, src, FixpipeParamsV220(N, M, M, M, false, QF322B8_PRE, static_cast<int64_t>(scaleWord(1.0f)), 1, 0, 0, 0));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) ASSERT_EQ(peek(dst, i * 32 + j), i + j) << i << "," << j;
}

TEST_F(FixpipeQuantTest, Checks) {
  LocalTensor<float> f = c0(std::vector<float>(M * N, 1.0f));
  LocalTensor<uint64_t> ws = ws_.Get<uint64_t>();
  poke(ws, std::vector<uint64_t>(N, scaleWord(1.0f)));
  Gm<int8_t> i8(M * N);
  Gm<int32_t> i32(M * N);
  Gm<float> fl(M * N);
  EXPECT_EQ(
      checkMessage([&] { Fixpipe(i8.t_, f, ws, FixpipeParamsV220(N, M, M, N, false, QF322B8_PRE, 0, 1, 0, 0, 0)); }),
      "Fixpipe with a cbufWorkspace and quantPre 24 moves nothing on 910B: CANN runs only VDEQF16, "
      "VQF322B8_PRE and VREQ8 in this form; hint: call Fixpipe without cbufWorkspace, or use a per-channel "
      "quantPre");
  EXPECT_EQ(checkMessage([&] { Fixpipe(i8.t_, f, FixpipeParamsV220(N, M, M, N, false, VQF322B8_PRE, 0, 1, 0, 0, 0)); }),
            "Fixpipe with quantPre 23 (per-channel) reads its scales from a cbufWorkspace tensor; hint: call "
            "Fixpipe(dst, src, cbufWorkspace, params) with nSize uint64 quant words in L1");
  EXPECT_EQ(checkMessage([&] { Fixpipe(i32.t_, f, FixpipeParamsV220(N, M, M, N, false)); }),
            "Fixpipe from float to int32_t is not supported on 910B (float copies out to float, half, bfloat16_t, "
            "int8_t or uint8_t; int32_t to int32_t, half, int8_t or uint8_t)");
  EXPECT_EQ(checkMessage([&] { Fixpipe(l1_.Get<float>(), f, FixpipeParamsV220(N, M, M, N, false)); }),
            "Fixpipe from float to float into L1 is not supported on 910B (to L1: float to half, bfloat16_t, int8_t "
            "or uint8_t; int32_t to half, int8_t or uint8_t)");
  EXPECT_EQ(
      checkMessage([&] { Fixpipe(l1_.Get<half>(), f, FixpipeParamsV220(N, M, M, N, false, F322F16, 0, 1, 0, 0, 0)); }),
      "Fixpipe to L1 (A1) writes NZ only; hint: use Fixpipe<DstT, SrcT, CFG_NZ>");
  EXPECT_EQ(checkMessage([&] {
              Fixpipe<int8_t, float, CFG_NZ>(l1_.Get<int8_t>(), f,
                                             FixpipeParamsV220(16, M, M, M, false, QF322B8_PRE, 0, 1, 0, 0, 0));
            }),
            "Fixpipe in NZ format needs nSize to be a multiple of 32, got 16; hint: round nSize up to 32");
  TBuf<TPosition::VECCALC> ub;
  pipe_.InitBuffer(ub, 512);
  EXPECT_EQ(checkMessage([&] {
              Fixpipe<half, float, CFG_NZ>(ub.Get<half>(), f,
                                           FixpipeParamsV220(N, M, M, M, false, F322F16, 0, 1, 0, 0, 0));
            }),
            "Fixpipe dst is in UB (VECCALC); a local Fixpipe destination is L1 (A1/B1/C1) on 910B; hint: copy to "
            "GM with the GlobalTensor form");
  LocalTensor<int32_t> c32 = co1_.Get<int32_t>();
  Gm<uint8_t> u8(M * N);
  EXPECT_EQ(checkMessage([&] {
              Fixpipe(u8.t_, c32, ub.Get<uint64_t>(), FixpipeParamsV220(N, M, M, N, false, VREQ8, 0, 1, 0, 0, 0));
            }),
            "Fixpipe cbufWorkspace is in UB (VECCALC); the per-channel quant tensor must be in L1 (A1/B1/C1); hint: "
            "DataCopy the uint64 quant words from GM to an L1 buffer first");
  EXPECT_EQ(checkMessage([&] {
              Gm<half> h16(M * N);
              DataCopy(h16.t_, c32, DataCopyCO12DstParams(N, M, N, M, DEQF16, 0, false, true));
            }),
            "DataCopy from CO1 with quantPre 11 is not emulated: DataCopyCO12DstParams carries no quant scale; hint: "
            "use Fixpipe with FixpipeParamsV220::deqScalar or a cbufWorkspace");
}

}  // namespace
