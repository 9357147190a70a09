// The high-level Matmul object (lib/matmul_intf.h) and its host tiling (tiling/tiling_api.h): results compared
// exactly with a float reference that accumulates in increasing k from the bias (the documented order), and with a
// double reference; tails, transposes, bias, UB output, atomic add, the trace, and a MIX launch over several cores.
#include <random>

#include "emu_test_util.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::EmuTest;

namespace {

template <typename T>
T* gmArray(const std::vector<double>& v) {
  T* p = static_cast<T*>(GmAlloc(v.size() * sizeof(T)));
  for (size_t i = 0; i < v.size(); ++i) p[i] = tcemu::fromFloat<T>(static_cast<float>(v[i]));
  return p;
}

std::vector<double> randomValues(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  std::vector<double> v(n);
  for (double& x : v) x = d(gen);
  return v;
}

// C = A x B (+ bias) with A [M, K] (or its transpose [K, M]) and B [K, N] (or [N, K]), in the documented order.
template <typename In, typename Out>
std::vector<float> reference(const In* a, const In* b, const float* bias, int M, int N, int K, bool ta, bool tb,
                             std::vector<double>* exact = nullptr) {
  std::vector<float> c(size_t(M) * N);
  if (exact) exact->assign(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      float acc = bias ? bias[j] : 0.0f;
      double dacc = bias ? bias[j] : 0.0;
      for (int k = 0; k < K; ++k) {
        float x = tcemu::toFloat(ta ? a[k * M + i] : a[i * K + k]);
        float y = tcemu::toFloat(tb ? b[j * K + k] : b[k * N + j]);
        acc += x * y;
        dacc += double(x) * double(y);
      }
      c[size_t(i) * N + j] = tcemu::toFloat(tcemu::fromFloat<Out>(acc));
      if (exact) (*exact)[size_t(i) * N + j] = dacc;
    }
  }
  return c;
}

TCubeTiling smallTiling(int M, int N, int K, int baseM, int baseN, int baseK, bool bias) {
  TCubeTiling t;
  t.usedCoreNum = 1;
  t.M = M;
  t.N = N;
  t.Ka = t.Kb = K;
  t.singleCoreM = M;
  t.singleCoreN = N;
  t.singleCoreK = K;
  t.baseM = baseM;
  t.baseN = baseN;
  t.baseK = baseK;
  t.isBias = bias ? 1 : 0;
  return t;
}

class MatmulTest : public EmuTest {};

using AH = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using AHT = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using CF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using CH = MatmulType<TPosition::GM, CubeFormat::ND, half>;

TEST_F(MatmulTest, TailsTransposesAndBiasMatchTheReference) {
  const int M = 70, N = 50, K = 40;  // none a multiple of the 32 x 32 x 16 base block
  for (int variant = 0; variant < 4; ++variant) {
    const bool ta = variant & 1, tb = variant & 2;
    half* a = gmArray<half>(randomValues(size_t(M) * K, 1 + variant));
    half* b = gmArray<half>(randomValues(size_t(K) * N, 5 + variant));
    float* bias = gmArray<float>(randomValues(N, 9));
    float* c = static_cast<float*>(GmAlloc(size_t(M) * N * sizeof(float)));
    TCubeTiling tiling = smallTiling(M, N, K, 32, 32, 16, true);
    Matmul<AHT, AHT, CF, CF> mm;
    mm.Init(&tiling);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gbias, gc;
    ga.SetGlobalBuffer(a, size_t(M) * K);
    gb.SetGlobalBuffer(b, size_t(K) * N);
    gbias.SetGlobalBuffer(bias, N);
    gc.SetGlobalBuffer(c, size_t(M) * N);
    mm.SetTensorA(ga, ta);
    mm.SetTensorB(gb, tb);
    mm.SetBias(gbias);
    mm.IterateAll(gc);
    mm.End();
    std::vector<double> exact;
    std::vector<float> want = reference<half, float>(a, b, bias, M, N, K, ta, tb, &exact);
    for (int i = 0; i < M * N; ++i) {
      ASSERT_EQ(c[i], want[i]) << "variant " << variant << " element " << i;
      ASSERT_NEAR(c[i], exact[i], 1e-5 * (1 + std::fabs(exact[i])));
    }
    GmFree(a);
    GmFree(b);
    GmFree(bias);
    GmFree(c);
  }
}

TEST_F(MatmulTest, HalfOutputIsRoundedOnceAndIterateWalksBlocks) {
  const int M = 48, N = 40, K = 64;
  half* a = gmArray<half>(randomValues(size_t(M) * K, 2));
  half* b = gmArray<half>(randomValues(size_t(K) * N, 3));
  half* c = static_cast<half*>(GmAlloc(size_t(M) * N * sizeof(half)));
  TCubeTiling tiling = smallTiling(M, N, K, 32, 16, 32, false);
  Matmul<AH, AH, CH> mm;
  mm.Init(&tiling);
  GlobalTensor<half> ga, gb, gc;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gc.SetGlobalBuffer(c);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  std::vector<std::pair<int, int>> order;
  while (mm.Iterate()) {
    MatrixOffset off = mm.GetOffsetC();
    order.push_back({off.row, off.col});
    mm.GetTensorC(gc);
  }
  // ORDER_M: down M first. M = 48 is two blocks (32 + 16 tail), N = 40 three (16 + 16 + 8 tail).
  EXPECT_EQ(order, (std::vector<std::pair<int, int>>{{0, 0}, {32, 0}, {0, 16}, {32, 16}, {0, 32}, {32, 32}}));
  std::vector<float> want = reference<half, half>(a, b, nullptr, M, N, K, false, false);
  for (int i = 0; i < M * N; ++i) ASSERT_EQ(tcemu::toFloat(c[i]), want[i]) << i;
  GmFree(a);
  GmFree(b);
  GmFree(c);
}

TEST_F(MatmulTest, FloatInputsSetTailAndAtomicAdd) {
  const int M = 20, N = 24, K = 30;
  using AF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  float* a = gmArray<float>(randomValues(size_t(M) * K, 4));
  float* b = gmArray<float>(randomValues(size_t(K) * N, 6));
  float* c = gmArray<float>(std::vector<double>(size_t(M) * N, 1.5));
  TCubeTiling tiling = smallTiling(32, 32, 32, 16, 16, 8, false);  // a larger org tiling; this core's tail is smaller
  tiling.M = M;
  tiling.N = N;
  tiling.Ka = tiling.Kb = K;
  Matmul<AF, AF, AF> mm;
  mm.Init(&tiling);
  mm.SetTail(M, N, K);
  GlobalTensor<float> ga, gb, gc;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gc.SetGlobalBuffer(c);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  mm.IterateAll(gc, 1);
  std::vector<float> want = reference<float, float>(a, b, nullptr, M, N, K, false, false);
  for (int i = 0; i < M * N; ++i) ASSERT_EQ(c[i], 1.5f + want[i]) << i;
  GmFree(a);
  GmFree(b);
  GmFree(c);
}

TEST_F(MatmulTest, GetTensorCToUbAndTrace) {
  const int M = 32, N = 32, K = 32;
  half* a = gmArray<half>(randomValues(size_t(M) * K, 7));
  half* b = gmArray<half>(randomValues(size_t(K) * N, 8));
  TCubeTiling tiling = smallTiling(M, N, K, 32, 32, 16, false);
  TPipe pipe;
  TBuf<TPosition::VECCALC> ub;
  pipe.InitBuffer(ub, M * N * sizeof(float));
  LocalTensor<float> cl = ub.Get<float>();
  Matmul<AH, AH, CF> mm;
  mm.Init(&tiling, &pipe);
  GlobalTensor<half> ga, gb;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  size_t before = core().trace().size();
  ASSERT_TRUE(mm.Iterate());
  mm.GetTensorC(cl);
  EXPECT_FALSE(mm.Iterate());
  std::vector<float> want = reference<half, float>(a, b, nullptr, M, N, K, false, false);
  for (int i = 0; i < M * N; ++i) ASSERT_EQ(cl.GetValue(i), want[i]) << i;  // readable on the scalar pipe
  int mmad = 0, fix = 0, mte2 = 0, mte1 = 0;
  for (size_t i = before; i < core().trace().size(); ++i) {
    const tcemu::Instr& in = core().trace()[i];
    if (in.pipe == tcemu::Pipe::M) {
      ++mmad;
      EXPECT_EQ(in.m, 32);
      EXPECT_EQ(in.n, 32);
      EXPECT_EQ(in.k, 16);
    }
    if (in.pipe == tcemu::Pipe::FIX) {
      ++fix;
      EXPECT_EQ(in.bytes, 32u * 32 * 4);
      EXPECT_EQ(in.dst, tcemu::Space::UB);
    }
    if (in.pipe == tcemu::Pipe::MTE2) {
      ++mte2;
      EXPECT_EQ(in.bytes, 32u * 16 * 2);
      EXPECT_EQ(in.src, tcemu::Space::GM);
    }
    if (in.pipe == tcemu::Pipe::MTE1) ++mte1;
  }
  EXPECT_EQ(mmad, 2);  // K = 32 in two baseK = 16 steps
  EXPECT_EQ(mte2, 4);
  EXPECT_EQ(mte1, 4);
  EXPECT_EQ(fix, 1);
  GmFree(a);
  GmFree(b);
}

TEST_F(MatmulTest, MisuseIsReported) {
  Matmul<AH, AH, CF> mm;
  TCubeTiling big = smallTiling(256, 256, 256, 256, 128, 256, false);
  EXPECT_EQ(checkMessage([&] { mm.Init(&big); }),
            "Matmul tiling does not fit L0A: baseM x baseK needs 131072 bytes, L0A holds 65536; hint: lower "
            "baseM/baseN/baseK (GetTiling picks values that fit)");
  TCubeTiling empty;
  EXPECT_EQ(checkMessage([&] { mm.Init(&empty); }),
            "Matmul Init with an incomplete tiling: baseM/N/K = 0/0/0, singleCoreM/N/K = 0/0/0 must all be positive; "
            "hint: fill the tiling with MultiCoreMatmulTiling::GetTiling on the host");
  EXPECT_EQ(checkMessage([&] { mm.Iterate(); }),
            "Matmul Iterate before Init; hint: REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling) or "
            "mm.Init(&tiling) first");
  TCubeTiling ok = smallTiling(16, 16, 16, 16, 16, 16, true);
  mm.Init(&ok);
  EXPECT_EQ(checkMessage([&] { mm.Iterate(); }),
            "Matmul Iterate before SetTensorA; hint: call SetTensorA and SetTensorB with the GM inputs");
  half* a = gmArray<half>(std::vector<double>(16 * 16, 1.0));
  GlobalTensor<half> ga;
  ga.SetGlobalBuffer(a);
  mm.SetTensorA(ga);
  mm.SetTensorB(ga);
  EXPECT_EQ(checkMessage([&] { mm.Iterate(); }),
            "Matmul Iterate with bias enabled (tiling isBias = 1) but no SetBias; hint: SetBias(gm) or DisableBias()");
  mm.DisableBias();
  EXPECT_EQ(checkMessage([&] { mm.GetTensorC(GlobalTensor<float>()); }),
            "Matmul GetTensorC without a block: call it after an Iterate() that returned true");
  mm.SetOrgShape(16, 16, 32);  // A rows of 32 elements: row 8 starts past the 256-element allocation
  std::string msg = checkMessage([&] { mm.Iterate(); });
  EXPECT_EQ(msg,
            "Matmul A accesses global memory 32 bytes past the end of a 512-byte GmAlloc allocation (bytes "
            "[512, 544) of it); hint: check the offset and count against the tensor's size");
  GmFree(a);
  EXPECT_EQ(checkMessage([&] { tcemu::mm::registerObjs(tcemu::SrcLoc::current(), nullptr, nullptr, mm); }),
            "REGIST_MATMUL_OBJ with a null system workspace: the matmul client and server exchange messages through "
            "it; hint: pass GetSysWorkSpacePtr() after SetSysWorkspace(workspace), and reserve "
            "GetLibApiWorkSpaceSize() bytes of workspace on the host");
}

TEST_F(MatmulTest, MoreMisuse) {
  using AF = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<AH, AF, CF> mixed;
  TCubeTiling ok = smallTiling(16, 16, 16, 16, 16, 16, false);
  EXPECT_EQ(checkMessage([&] { mixed.Init(&ok); }),
            "Matmul with A of half and B of float: the cube unit multiplies equal input types; hint: use the same TYPE "
            "in both MatmulType");
  Matmul<AH, AH, CF> mm;
  EXPECT_EQ(checkMessage([&] { mm.Init(nullptr); }),
            "Matmul Init with a null tiling; hint: pass &tiling (a TCubeTiling from GetTiling)");
  mm.Init(&ok);
  half* a = gmArray<half>(std::vector<double>(16 * 16, 1.0));
  GlobalTensor<half> ga;
  ga.SetGlobalBuffer(a);
  mm.SetTensorA(ga);
  EXPECT_EQ(checkMessage([&] { mm.Iterate(); }),
            "Matmul Iterate before SetTensorB; hint: call SetTensorA and SetTensorB with the GM inputs");
  mm.SetTensorB(ga);
  EXPECT_EQ(checkMessage([&] { mm.Iterate(true); }),
            "Matmul Iterate with enPartialSum = true is not supported by the emulator; hint: compute the full K in one "
            "Iterate");
  mm.SetSingleShape(16, 0, 16);
  EXPECT_EQ(checkMessage([&] { mm.Iterate(); }),
            "Matmul Iterate with single-core shape 16 x 0 x 16; hint: SetSingleShape/SetTail with positive sizes");
  using ANz = MatmulType<TPosition::GM, CubeFormat::NZ, half>;
  Matmul<ANz, AH, CF> nz;
  EXPECT_EQ(checkMessage([&] { nz.Init(&ok); }),
            "Matmul with a non-ND A operand: the emulator implements ND A, B and C in GM only; hint: declare "
            "MatmulType<TPosition::GM, CubeFormat::ND, ...> for A, B and C");
  using AL1 = MatmulType<TPosition::TSCM, CubeFormat::ND, half>;
  Matmul<AH, AL1, CF> l1;
  EXPECT_EQ(checkMessage([&] { l1.Init(&ok); }),
            "Matmul with A or B outside GM: the emulator implements GM inputs only; hint: declare "
            "MatmulType<TPosition::GM, ...> for A and B");
  using AI = MatmulType<TPosition::GM, CubeFormat::ND, int8_t>;
  Matmul<AI, AI, CF> mi;
  EXPECT_EQ(checkMessage([&] { mi.Init(&ok); }),
            "Matmul A type does not support int8_t on 910B (supported: half, float, bfloat16_t)");
  GmFree(a);
}

TEST_F(MatmulTest, Bf16InputsAndOutput) {
  const int M = 24, N = 40, K = 56;
  using AB = MatmulType<TPosition::GM, CubeFormat::ND, bfloat16_t>;
  bfloat16_t* a = gmArray<bfloat16_t>(randomValues(size_t(M) * K, 41));
  bfloat16_t* b = gmArray<bfloat16_t>(randomValues(size_t(K) * N, 42));
  bfloat16_t* c = static_cast<bfloat16_t*>(GmAlloc(size_t(M) * N * sizeof(bfloat16_t)));
  TCubeTiling tiling = smallTiling(M, N, K, 16, 32, 16, false);
  Matmul<AB, AB, AB> mm;
  mm.Init(&tiling);
  GlobalTensor<bfloat16_t> ga, gb, gc;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gc.SetGlobalBuffer(c);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb, true);
  mm.IterateAll(gc);
  std::vector<double> exact;
  std::vector<float> want = reference<bfloat16_t, bfloat16_t>(a, b, nullptr, M, N, K, false, true, &exact);
  for (int i = 0; i < M * N; ++i) {
    ASSERT_EQ(tcemu::toFloat(c[i]), want[i]) << i;
    ASSERT_NEAR(tcemu::toFloat(c[i]), exact[i], std::fabs(exact[i]) / 128 + 1e-6);  // one bf16 rounding
  }
  GmFree(a);
  GmFree(b);
  GmFree(c);
}

TEST(MatmulTilingTest, MultiCoreTilingFitsTheBuffersAndCoversTheShape) {
  struct Case {
    int m, n, k, dim;
    matmul_tiling::DataType in;
  };
  for (Case cs : {Case{512, 1024, 256, 8, matmul_tiling::DataType::DT_FLOAT16},
                  Case{1000, 300, 77, 20, matmul_tiling::DataType::DT_FLOAT16},
                  Case{64, 4096, 512, 24, matmul_tiling::DataType::DT_FLOAT},
                  Case{17, 17, 17, 1, matmul_tiling::DataType::DT_BF16}}) {
    platform_ascendc::PlatformAscendC platform(nullptr);
    matmul_tiling::MultiCoreMatmulTiling t(platform);
    t.SetDim(cs.dim);
    t.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, cs.in);
    t.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, cs.in);
    t.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    t.SetShape(cs.m, cs.n, cs.k);
    t.SetOrgShape(cs.m, cs.n, cs.k);
    t.SetBias(true);
    t.SetBufferSpace(-1, -1, -1);
    optiling::TCubeTiling tiling;
    ASSERT_EQ(t.GetTiling(tiling), 0);
    const int sz = static_cast<int>(matmul_tiling::dataTypeBytes(cs.in));
    EXPECT_LE(tiling.usedCoreNum, cs.dim);
    EXPECT_GE(tiling.usedCoreNum, 1);
    EXPECT_GE(int64_t(tiling.singleCoreM) * ((cs.m + tiling.singleCoreM - 1) / tiling.singleCoreM), cs.m);
    EXPECT_EQ(tiling.singleCoreK, cs.k);
    EXPECT_LE(tiling.baseM * tiling.baseK * sz * tiling.dbL0A, 64 * 1024);
    EXPECT_LE(tiling.baseK * tiling.baseN * sz * tiling.dbL0B, 64 * 1024);
    EXPECT_LE(tiling.baseM * tiling.baseN * 4 * tiling.dbL0C, 128 * 1024);
    EXPECT_EQ(tiling.baseK % (32 / sz), 0);
    EXPECT_LE(tiling.shareL1Size, 512 * 1024);
    EXPECT_EQ(tiling.get_isBias(), 1);
    EXPECT_EQ(tiling.get_M(), cs.m);
    int32_t dim = 0, mDim = 0, nDim = 0;
    ASSERT_EQ(t.GetCoreNum(dim, mDim, nDim), 0);
    EXPECT_EQ(dim, tiling.usedCoreNum);
  }
  // 512 x 1024 over 8 cores: 2 x 4 blocks of 256 x 256, base 128 x 256 x 64 for half.
  matmul_tiling::MultiCoreMatmulTiling t;
  t.SetDim(8);
  t.SetShape(512, 1024, 256);
  TCubeTiling kt;
  ASSERT_EQ(t.GetTiling(kt), 0);
  EXPECT_EQ(kt.singleCoreM, 256);
  EXPECT_EQ(kt.singleCoreN, 256);
  EXPECT_EQ(kt.baseM, 128);
  EXPECT_EQ(kt.baseN, 256);
  EXPECT_EQ(kt.baseK, 64);
  t.SetFixSplit(256, 256, 128);  // L0A would need 64 KiB per buffer + L0C 256 KiB
  EXPECT_EQ(t.GetTiling(kt), -1);
  matmul_tiling::MatmulApiTiling single;
  single.SetShape(100, 60, 30);
  ASSERT_EQ(single.GetTiling(kt), 0);
  EXPECT_EQ(kt.usedCoreNum, 1);
  EXPECT_EQ(kt.singleCoreM, 100);
  EXPECT_EQ(kt.baseM, 112);
  EXPECT_EQ(kt.baseK, 32);
}

// ---- a MIX launch: 2 blocks = 2 AIC + 4 AIV; each AIV computes its block through the Matmul object ------------------

int g_aicPastRegister = 0;
int g_aivRuns = 0;

using AIn = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using COut = MatmulType<TPosition::GM, CubeFormat::ND, float>;

void matmulKernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace, GM_ADDR tilingGm) {
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  SetSysWorkspace(workspace);
  TPipe pipe;
  Matmul<AIn, AIn, COut, COut> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  if ASCEND_IS_AIC {
    ++g_aicPastRegister;
  }
  ++g_aivRuns;
  const int mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int idx = static_cast<int>(GetBlockIdx());
  if (idx >= tiling.usedCoreNum) return;
  const int mi = idx % mBlocks, ni = idx / mBlocks;
  const int m0 = mi * tiling.singleCoreM, n0 = ni * tiling.singleCoreN;
  const int tailM = std::min(tiling.singleCoreM, tiling.M - m0), tailN = std::min(tiling.singleCoreN, tiling.N - n0);
  GlobalTensor<half> ga, gb;
  GlobalTensor<float> gbias, gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a) + int64_t(m0) * tiling.Ka);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b) + n0);
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias) + n0);
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c) + int64_t(m0) * tiling.N + n0);
  mm.SetTail(tailM, tailN);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  mm.SetBias(gbias);
  mm.IterateAll(gc);
  mm.End();
}

class MatmulMixTest : public ::testing::Test {
 protected:
  void SetUp() override { tcemu::failHandler() = &tcemu::testing::throwingHandler; }
  void TearDown() override {
    tcemu::failHandler() = nullptr;
    SetKernelMode(KernelMode::MIX_MODE);
  }
};

TEST_F(MatmulMixTest, FourVectorCoresComputeTheirBlocksAndTheCubesReturn) {
  const int M = 100, N = 72, K = 48;
  matmul_tiling::MultiCoreMatmulTiling host;
  host.SetDim(4);
  host.SetShape(M, N, K);
  host.SetOrgShape(M, N, K);
  host.SetBias(true);
  host.SetFixSplit(32, 32, 16);
  TCubeTiling tiling;
  ASSERT_EQ(host.GetTiling(tiling), 0);
  ASSERT_GE(tiling.usedCoreNum, 2);
  ASSERT_LE(tiling.usedCoreNum, 4);
  half* a = gmArray<half>(randomValues(size_t(M) * K, 31));
  half* b = gmArray<half>(randomValues(size_t(K) * N, 32));
  float* bias = gmArray<float>(randomValues(N, 33));
  float* c = static_cast<float*>(GmAlloc(size_t(M) * N * sizeof(float)));
  uint8_t* tilingGm = static_cast<uint8_t*>(GmAlloc(sizeof(tiling)));
  std::memcpy(tilingGm, &tiling, sizeof(tiling));
  uint8_t* ws = static_cast<uint8_t*>(GmAlloc(1024));
  g_aicPastRegister = g_aivRuns = 0;
  SetKernelMode(KernelMode::MIX_MODE);
  ICPU_RUN_KF(matmulKernel, 2, reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b),
              reinterpret_cast<GM_ADDR>(bias), reinterpret_cast<GM_ADDR>(c), ws, tilingGm);
  EXPECT_EQ(g_aicPastRegister, 0);
  EXPECT_EQ(g_aivRuns, 4);
  std::vector<float> want = reference<half, float>(a, b, bias, M, N, K, false, false);
  for (int i = 0; i < M * N; ++i) ASSERT_EQ(c[i], want[i]) << i;
  SetSysWorkspace(nullptr);
  for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(bias), static_cast<void*>(c),
                  static_cast<void*>(tilingGm), static_cast<void*>(ws)})
    GmFree(p);
}

TEST_F(MatmulMixTest, CubeOnlyLaunchComputesOnTheCubes) {
  const int M = 64, N = 48, K = 32;
  matmul_tiling::MultiCoreMatmulTiling host;
  host.SetDim(2);
  host.SetShape(M, N, K);
  host.SetBias(true);
  TCubeTiling tiling;
  ASSERT_EQ(host.GetTiling(tiling), 0);
  half* a = gmArray<half>(randomValues(size_t(M) * K, 51));
  half* b = gmArray<half>(randomValues(size_t(K) * N, 52));
  float* bias = gmArray<float>(randomValues(N, 53));
  float* c = static_cast<float*>(GmAlloc(size_t(M) * N * sizeof(float)));
  uint8_t* tilingGm = static_cast<uint8_t*>(GmAlloc(sizeof(tiling)));
  std::memcpy(tilingGm, &tiling, sizeof(tiling));
  uint8_t* ws = static_cast<uint8_t*>(GmAlloc(1024));
  g_aicPastRegister = g_aivRuns = 0;
  SetKernelMode(KernelMode::AIC_MODE);
  ICPU_RUN_KF(matmulKernel, 2, reinterpret_cast<GM_ADDR>(a), reinterpret_cast<GM_ADDR>(b),
              reinterpret_cast<GM_ADDR>(bias), reinterpret_cast<GM_ADDR>(c), ws, tilingGm);
  EXPECT_EQ(g_aicPastRegister, 2);
  std::vector<float> want = reference<half, float>(a, b, bias, M, N, K, false, false);
  for (int i = 0; i < M * N; ++i) ASSERT_EQ(c[i], want[i]) << i;
  SetSysWorkspace(nullptr);
  for (void* p : {static_cast<void*>(a), static_cast<void*>(b), static_cast<void*>(bias), static_cast<void*>(c),
                  static_cast<void*>(tilingGm), static_cast<void*>(ws)})
    GmFree(p);
}

}  // namespace
