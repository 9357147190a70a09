// The cube path: ND->NZ copies, LoadData, Mmad and Fixpipe, checked element by element against plain loops.
#include <cmath>

#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::CubeTest;
using tcemu::testing::EmuTest;
using tcemu::testing::Gm;

namespace {

uint16_t bits(half h) { return h.val; }

// One TBuf per cube position, sized by the test.
class CubePathTest : public CubeTest {
 protected:
  void alloc(uint32_t a1, uint32_t b1, uint32_t a2, uint32_t b2, uint32_t co1) {
    pipe_.InitBuffer(a1_, a1);
    pipe_.InitBuffer(b1_, b1);
    pipe_.InitBuffer(a2_, a2);
    pipe_.InitBuffer(b2_, b2);
    pipe_.InitBuffer(co1_, co1);
  }
  TPipe pipe_;
  TBuf<TPosition::A1> a1_;
  TBuf<TPosition::B1> b1_;
  TBuf<TPosition::A2> a2_;
  TBuf<TPosition::B2> b2_;
  TBuf<TPosition::CO1> co1_;
};

TEST_F(CubePathTest, Nd2NzLaysOutColumnStripsAndZeroPadsTheLastOne) {
  Gm<half> a(20 * 24);
  for (int i = 0; i < 20 * 24; ++i) a[i] = half(static_cast<float>(i % 1000));
  alloc(2048, 32, 512, 512, 1024);
  LocalTensor<half> l1 = a1_.Get<half>();
  // 20 rows x 20 columns of a matrix whose rows are 24 long; strips 32 rows apart (rows rounded up to 16).
  DataCopy(l1, a.t_, Nd2NzParams(1, 20, 20, 0, 24, 32, 1, 0));
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.pipe, tcemu::Pipe::MTE2);
  EXPECT_EQ(in.bursts, 20u);
  EXPECT_EQ(in.burstBytes, 40u);
  const half* p = l1.GetPhyAddr();
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 32; ++c)
      EXPECT_EQ(tcemu::toFloat(p[(c / 16) * 32 * 16 + r * 16 + c % 16]), c < 20 ? float(r * 24 + c) : 0.0f) << r << c;
  // Rows 20..31 of each strip are padding that nothing writes.
  const auto& written = core().arena(tcemu::Mem::L1).written;
  EXPECT_EQ(written[20 * 32], 0);
  EXPECT_EQ(written[19 * 32 + 31], 1);
}

// C(32x64) = A(32x48) * B(48x64) in half with float accumulation: K in two Mmad calls (32 then 16), B in ND
// (K x N) turned into Zn by LoadData's ifTranspose, synchronised with flags as a kernel would be.
TEST_F(CubePathTest, HalfMatmulThroughTheWholeCubePathIsExactlyRounded) {
  constexpr int M = 32, K = 48, N = 64, M1 = 2, K1 = 3, N1 = 4;
  Gm<half> a(M * K), b(K * N), c(M * N);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) a[i * K + k] = half(std::sin(i * 0.37f + k * 0.11f));
  for (int k = 0; k < K; ++k)
    for (int j = 0; j < N; ++j) b[k * N + j] = half(std::cos(k * 0.23f - j * 0.05f) * 1.7f);
  alloc(K1 * M * 16 * 2, N1 * K * 16 * 2, M1 * 2 * 512, 2 * N1 * 512, M1 * N1 * 1024);
  LocalTensor<half> a1 = a1_.Get<half>(), b1 = b1_.Get<half>(), a2 = a2_.Get<half>(), b2 = b2_.Get<half>();
  LocalTensor<float> c1 = co1_.Get<float>();

  DataCopy(a1, a.t_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(b1, b.t_, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
  SetFlag<HardEvent::MTE2_MTE1>(0);
  WaitFlag<HardEvent::MTE2_MTE1>(0);
  const int chunks[2][2] = {{0, 2}, {2, 1}};  // first k-fractal and count of each Mmad
  for (int ch = 0; ch < 2; ++ch) {
    int kStart = chunks[ch][0], kc = chunks[ch][1];
    if (ch > 0) WaitFlag<HardEvent::M_MTE1>(0);
    for (int m1 = 0; m1 < M1; ++m1)  // L1 NZ fractal (k1, m1) is k1 * M1 + m1; L0A Zz wants m1 * kc + k1
      LoadData(a2[m1 * kc * 256], a1, LoadData2DParams(kStart * M1 + m1, kc, M1, 0, 0, false, 0));
    for (int kk = 0; kk < kc; ++kk)  // L1 NZ fractal (n1, k1) is n1 * K1 + k1; L0B Zn wants k1 * N1 + n1
      LoadData(b2[kk * N1 * 256], b1, LoadData2DParams(kStart + kk, N1, K1, 0, 0, true, 0));
    EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::MTE1);
    SetFlag<HardEvent::MTE1_M>(0);
    WaitFlag<HardEvent::MTE1_M>(0);
    Mmad(c1, a2, b2, MmadParams(M, N, kc * 16, 0, false, ch == 0));
    const tcemu::Instr& mm = core().trace().back();
    EXPECT_EQ(mm.pipe, tcemu::Pipe::M);
    EXPECT_EQ(mm.m, M);
    EXPECT_EQ(mm.n, N);
    EXPECT_EQ(mm.k, kc * 16);
    if (ch == 0) SetFlag<HardEvent::M_MTE1>(0);
  }
  SetFlag<HardEvent::M_FIX>(0);
  WaitFlag<HardEvent::M_FIX>(0);
  Fixpipe(c.t_, c1, FixpipeParamsV220(N, M, M, N, false, QuantMode_t::F322F16, 0, 1, 0, 0, 0));
  EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::FIX);

  double maxErr = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float acc = 0.0f;
      double exact = 0;
      for (int k = 0; k < K; ++k) {
        float x = tcemu::toFloat(a[i * K + k]), y = tcemu::toFloat(b[k * N + j]);
        acc += x * y;
        exact += double(x) * y;
      }
      ASSERT_EQ(bits(c[i * N + j]), bits(half(acc))) << i << "," << j;
      maxErr = std::max(maxErr, std::fabs(tcemu::toFloat(c[i * N + j]) - exact));
    }
  }
  EXPECT_LT(maxErr, 0.02);  // a real product, not just self-consistent: half rounding of values up to ~30
}

// int8 x int8 -> int32, exact, with B stored transposed (N x K) in GM so that ND->NZ already gives Zn.
TEST_F(CubePathTest, Int8MatmulIsExact) {
  constexpr int M = 32, K = 64, N = 32, M1 = 2, K1 = 2;
  Gm<int8_t> a(M * K), bt(N * K);
  Gm<int32_t> c(M * N);
  for (int i = 0; i < M * K; ++i) a[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
  for (int i = 0; i < N * K; ++i) bt[i] = static_cast<int8_t>((i * 53 + 7) % 256 - 128);
  alloc(2048, 2048, 2048, 2048, 4096);
  LocalTensor<int8_t> a1 = a1_.Get<int8_t>(), b1 = b1_.Get<int8_t>(), a2 = a2_.Get<int8_t>(), b2 = b2_.Get<int8_t>();
  LocalTensor<int32_t> c1 = co1_.Get<int32_t>();
  DataCopy(a1, a.t_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
  DataCopy(b1, bt.t_, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
  PipeBarrier<PIPE_ALL>();
  for (int m1 = 0; m1 < M1; ++m1) LoadData(a2[m1 * K1 * 512], a1, LoadData2DParams(m1, K1, M1, 0, 0, false, 0));
  LoadData(b2, b1, LoadData2DParams(0, 4, 1, 0, 0, false, 0));
  PipeBarrier<PIPE_ALL>();
  Mmad(c1, a2, b2, MmadParams(M, N, K, 0, false, true));
  PipeBarrier<PIPE_ALL>();
  Fixpipe(c.t_, c1, FixpipeParamsV220(N, M, M, N, false));
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      int32_t want = 0;
      for (int k = 0; k < K; ++k) want += int32_t(a[i * K + k]) * int32_t(bt[j * K + k]);
      ASSERT_EQ(c[i * N + j], want) << i << "," << j;
    }
  }
}

// A 16 x 8 x 32 float matmul: one A fractal, two B fractals. Returns C in L0C (NZ, 16 rows, 2 strips).
class FloatMatmulTest : public CubePathTest {
 protected:
  static constexpr int M = 16, K = 8, N = 32;
  void SetUp() override {
    CubePathTest::SetUp();
    a_ = std::make_unique<Gm<float>>(M * K);
    bt_ = std::make_unique<Gm<float>>(N * K);
    for (int i = 0; i < M * K; ++i) (*a_)[i] = static_cast<float>((i * 7) % 13) - 6.5f;
    for (int i = 0; i < N * K; ++i) (*bt_)[i] = static_cast<float>((i * 5) % 11) * 0.25f - 1.0f;
    alloc(512, 1024, 512, 1024, 2048);
    DataCopy(a1_.Get<float>(), a_->t_, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1_.Get<float>(), bt_->t_, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    PipeBarrier<PIPE_ALL>();
    LoadData(a2_.Get<float>(), a1_.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    LoadData(b2_.Get<float>(), b1_.Get<float>(), LoadData2DParams(0, 2, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
  }
  float ref(int i, int j, float init = 0.0f) {
    float acc = init;
    for (int k = 0; k < K; ++k) acc += (*a_)[i * K + k] * (*bt_)[j * K + k];
    return acc;
  }
  std::unique_ptr<Gm<float>> a_, bt_;
};

TEST_F(FloatMatmulTest, FixpipeNzKeepsStripsAndHonoursDstStride) {
  Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), MmadParams(M, N, K, 0, false, true));
  PipeBarrier<PIPE_ALL>();
  Gm<float> out(2 * 320);
  for (int i = 0; i < 640; ++i) out[i] = -1.0f;
  // Strips land 40 x 32 bytes = 320 floats apart; each strip is 16 rows x 16 floats.
  Fixpipe<float, float, CFG_NZ>(out.t_, co1_.Get<float>(), FixpipeParamsV220(N, M, M, 40, false));
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < M; ++i)
      for (int c = 0; c < 16; ++c) EXPECT_EQ(out[s * 320 + i * 16 + c], ref(i, s * 16 + c)) << s << i << c;
  EXPECT_EQ(out[256], -1.0f);  // between the strips
}

TEST_F(FloatMatmulTest, ReluAndBf16Quantisation) {
  Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), MmadParams(M, N, K, 0, false, true));
  PipeBarrier<PIPE_ALL>();
  Gm<bfloat16_t> out(M * N);
  Fixpipe(out.t_, co1_.Get<float>(), FixpipeParamsV220(N, M, M, N, true, QuantMode_t::F322BF16, 0, 1, 0, 0, 0));
  int negatives = 0;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float r = ref(i, j);
      negatives += r < 0;
      EXPECT_EQ(out[i * N + j].val, bfloat16_t(std::max(r, 0.0f)).val) << i << "," << j;
    }
  }
  EXPECT_GT(negatives, 0);
}

TEST_F(FloatMatmulTest, BiasFromTheBiasTableIsAddedToEveryRow) {
  Gm<float> bias(N);
  for (int j = 0; j < N; ++j) bias[j] = 0.5f * j - 3.0f;
  TBuf<TPosition::C1> c1buf;
  TBuf<TPosition::C2> bt;
  pipe_.InitBuffer(c1buf, N * 4);
  pipe_.InitBuffer(bt, N * 4);
  DataCopy(c1buf.Get<float>(), bias.t_, N);
  PipeBarrier<PIPE_ALL>();
  DataCopy(bt.Get<float>(), c1buf.Get<float>(), N);
  EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::MTE1);
  PipeBarrier<PIPE_ALL>();
  Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), bt.Get<float>(), MmadParams(M, N, K, 0, false, false));
  PipeBarrier<PIPE_ALL>();
  Gm<float> out(M * N);
  Fixpipe(out.t_, co1_.Get<float>(), FixpipeParamsV220(N, M, M, N, false));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) EXPECT_EQ(out[i * N + j], ref(i, j, bias[j])) << i << "," << j;
}

TEST_F(FloatMatmulTest, OlderCo1DataCopyMatchesFixpipe) {
  Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), MmadParams(M, N, K, 0, false, true));
  PipeBarrier<PIPE_ALL>();
  Gm<half> x(M * N), y(M * N);
  Fixpipe(x.t_, co1_.Get<float>(), FixpipeParamsV220(N, M, M, N, false, QuantMode_t::F322F16, 0, 1, 0, 0, 0));
  DataCopy(y.t_, co1_.Get<float>(), DataCopyCO12DstParams(N, M, N, M, QuantMode_t::F322F16, 0, false, true));
  for (int i = 0; i < M * N; ++i) EXPECT_EQ(bits(x[i]), bits(y[i])) << i;
  EXPECT_EQ(bits(x[0]), bits(half(ref(0, 0))));
}

TEST_F(FloatMatmulTest, FixpipeHonoursAtomicAdd) {
  Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), MmadParams(M, N, K, 0, false, true));
  PipeBarrier<PIPE_ALL>();
  Gm<float> out(M * N);
  for (int i = 0; i < M * N; ++i) out[i] = 10.0f;
  SetAtomicAdd<float>();
  Fixpipe(out.t_, co1_.Get<float>(), FixpipeParamsV220(N, M, M, N, false));
  SetAtomicNone();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) EXPECT_EQ(out[i * N + j], 10.0f + ref(i, j));
}

TEST_F(FloatMatmulTest, MmadWithoutAFlagAfterLoadDataIsAHazard) {
  LoadData(a2_.Get<float>(), a1_.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  std::string msg = checkMessage(
      [&] { Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), MmadParams(M, N, K, 0, false, true)); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: Mmad fm on pipe M reads data that LoadData on pipe MTE1 wrote", 0), 0u)
      << msg;
}

TEST_F(CubePathTest, MmadOfAnEmptyL0AIsCaught) {
  alloc(512, 512, 512, 512, 1024);
  EXPECT_EQ(checkMessage([&] {
              Mmad(co1_.Get<float>(), a2_.Get<half>(), b2_.Get<half>(), MmadParams(16, 16, 16, 0, false, true));
            }),
            "Mmad fm reads L0A bytes [0, 32) that nothing wrote: byte 0 (0 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
}

TEST_F(CubePathTest, CubeParameterChecks) {
  alloc(1024, 1024, 1024, 1024, 4096);
  LocalTensor<half> a1 = a1_.Get<half>(), a2 = a2_.Get<half>(), b2 = b2_.Get<half>();
  LocalTensor<float> c1 = co1_.Get<float>();
  EXPECT_EQ(checkMessage([&] { Mmad(co1_.Get<half>(), a2, b2, MmadParams(16, 16, 16, 0, false, true)); }),
            "Mmad does not support dst half, fm half, filter half on 910B (supported: int8_t x int8_t -> int32_t, "
            "half x half -> float, bfloat16_t x bfloat16_t -> float, float x float -> float)");
  EXPECT_EQ(checkMessage([&] { Mmad(c1, a2, b2, MmadParams(4096, 16, 16, 0, false, true)); }),
            "Mmad m is 4096, outside [0, 4095]; hint: split M into several Mmad calls");
  EXPECT_EQ(checkMessage([&] { Mmad(c1, b2, a2, MmadParams(16, 16, 16, 0, false, true)); }),
            "Mmad operands must be dst in CO1 (L0C), fm in A2 (L0A), filter in B2 (L0B); got dst in L0C, fm in L0B, "
            "filter in L0A");
  EXPECT_EQ(checkMessage([&] { Mmad(c1[64], a2, b2, MmadParams(16, 16, 16, 0, false, true)); }),
            "Mmad dst address L0C+256 is not 1024-byte aligned (256 bytes past a boundary); hint: offset tensors by "
            "multiples of 1024 bytes");
  EXPECT_EQ(checkMessage([&] { LoadData(a2[16], a1, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); }),
            "LoadData dst address L0A+32 is not 512-byte aligned (32 bytes past a boundary); hint: offset tensors by "
            "multiples of 512 bytes");
  EXPECT_EQ(
      checkMessage([&] { LoadData(b2_.Get<float>(), a1_.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, true, 0)); }),
      "LoadData with ifTranspose transposes 16x16 fractals of 2-byte types only, not float; hint: use "
      "LoadDataWithTranspose, or lay the matrix out transposed in GM");
  EXPECT_EQ(checkMessage([&] { LoadData(a2, a2, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); }),
            "LoadData src is in L0A (A2); LoadData with LoadData2DParams reads L1 (A1/B1)");
  EXPECT_EQ(checkMessage([&] { LoadData(co1_.Get<half>(), a1, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); }),
            "LoadData dst is in L0C (CO1); LoadData with LoadData2DParams writes L0A (A2) or L0B (B2)");
}

TEST_F(CubePathTest, Nd2NzChecks) {
  alloc(1024, 1024, 1024, 1024, 4096);
  Gm<half> g(256);
  TBuf<TPosition::VECCALC> u;
  pipe_.InitBuffer(u, 512);
  EXPECT_EQ(checkMessage([&] { DataCopy(u.Get<half>(), g.t_, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0)); }),
            "DataCopy with Nd2NzParams to UB (VECCALC): ND->NZ copies from GM reach only L1 (A1/B1) on 910B");
  EXPECT_EQ(checkMessage([&] { DataCopy(a1_.Get<half>(), g.t_, Nd2NzParams(1, 16, 16, 0, 8, 16, 1, 0)); }),
            "DataCopy with Nd2NzParams: dValue 16 is larger than the source row pitch srcDValue 8; hint: srcDValue "
            "is the full row length of the GM matrix in elements");
  EXPECT_EQ(checkMessage([&] { DataCopy(a1_.Get<half>(), g.t_, Nd2NzParams(4096, 16, 16, 0, 16, 16, 1, 0)); }),
            "DataCopy with Nd2NzParams ndNum is 4096, outside [0, 4095]; hint: copy fewer matrices per call");
}

TEST_F(FloatMatmulTest, FixpipeChecks) {
  Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), MmadParams(M, N, K, 0, false, true));
  PipeBarrier<PIPE_ALL>();
  Gm<half> h(M * N);
  Gm<float> fl(M * N);
  Gm<int8_t> i8(M * N);
  LocalTensor<float> c1 = co1_.Get<float>();
  EXPECT_EQ(checkMessage([&] { Fixpipe(h.t_, c1, FixpipeParamsV220(N, M, M, N, false)); }),
            "Fixpipe from float to half needs quantPre = F322F16, got quantPre 0; hint: set quantPre to "
            "QuantMode_t::F322F16");
  EXPECT_EQ(checkMessage([&] { Fixpipe<float, float, CFG_NZ>(fl.t_, c1, FixpipeParamsV220(20, M, M, 1, false)); }),
            "Fixpipe in NZ format needs nSize to be a multiple of 16, got 20; hint: round nSize up to 32");
  EXPECT_EQ(checkMessage([&] { Fixpipe(fl.t_, c1, FixpipeParamsV220(N, M, M, 0, false)); }),
            "Fixpipe dstStride is 0; it must be at least 1");
  EXPECT_EQ(checkMessage([&] { Fixpipe(fl.t_, c1, FixpipeParamsV220(N, 8193, M, N, false)); }),
            "Fixpipe mSize is 8193, outside [1, 8192]; hint: split M into several calls");
  EXPECT_EQ(checkMessage([&] { Fixpipe(i8.t_, c1, FixpipeParamsV220(N, M, M, N, false)); }),
            "Fixpipe from float to int8_t needs quantPre = QF322B8_PRE or VQF322B8_PRE, got quantPre 0; hint: set "
            "quantPre to QuantMode_t::QF322B8_PRE (one scale in deqScalar) or QuantMode_t::VQF322B8_PRE (per-channel "
            "scales in cbufWorkspace)");
  EXPECT_EQ(checkMessage([&] { Fixpipe(fl.t_, c1, FixpipeParamsV220(N, M, M, N, false, NoQuant, 0, 2, 1, 1, 0)); }),
            "Fixpipe with ndNum 2 is not emulated; hint: issue one call per matrix");
  EXPECT_EQ(
      checkMessage([&] { Fixpipe(fl.t_, c1, FixpipeParamsV220(N, M, M, N, false, NoQuant, 0, 1, 0, 0, 0, true)); }),
      "Fixpipe with isChannelSplit is not emulated");
  EXPECT_EQ(
      checkMessage([&] { Fixpipe<float, float, CFG_COLUMN_MAJOR>(fl.t_, c1, FixpipeParamsV220(N, M, M, N, false)); }),
      "Fixpipe with CFG_COLUMN_MAJOR is not supported on 910B; hint: use CFG_ROW_MAJOR or CFG_NZ");
  EXPECT_EQ(checkMessage([&] { Fixpipe(fl.t_, a1_.Get<float>(), FixpipeParamsV220(N, M, M, N, false)); }),
            "Fixpipe src is in L1 (A1); it copies out of L0C (CO1)");
}

TEST_F(FloatMatmulTest, BiasChecks) {
  TBuf<TPosition::C2> bt;
  pipe_.InitBuffer(bt, 128);
  EXPECT_EQ(checkMessage([&] {
              Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), bt.Get<half>(),
                   MmadParams(M, N, K, 0, false, false));
            }),
            "Mmad with a bias needs the bias dtype to match dst (float), got half");
  EXPECT_EQ(checkMessage([&] {
              Mmad(co1_.Get<float>(), a2_.Get<float>(), b2_.Get<float>(), a1_.Get<float>(),
                   MmadParams(M, N, K, 0, false, false));
            }),
            "Mmad bias is in L1 (A1); it must be in C2 (bias table) or CO1 (L0C)");
}

TEST(CubeOnVectorCore, CubeWorkIsSkippedOnAnAivCore) {
  tcemu::CoreScope aiv(tcemu::CoreKind::AIV);
  LocalTensor<half> none;
  LocalTensor<float> noneF;
  GlobalTensor<half> g;
  DataCopy(none, g, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
  LoadData(none, none, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
  Mmad(noneF, none, none, MmadParams(16, 16, 16, 0, false, true));
  Fixpipe(g, noneF, FixpipeParamsV220(16, 16, 16, 16, false, QuantMode_t::F322F16, 0, 1, 0, 0, 0));
  EXPECT_TRUE(aiv.core().trace().empty());
}

}  // namespace
