// Reductions: per-repeat (WholeReduce*), per-block, pairwise, whole-tensor (ReduceSum/Max/Min), the special
// registers, the counter-mode idiom, the summation order and the checks.
#include <algorithm>
#include <cmath>

#include "vec2_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::UbTest;

namespace {

class ReduceTest : public UbTest {
 protected:
  template <typename T>
  LocalTensor<T> iota(uint32_t n, float scale = 1.0f, float offset = 0.0f) {
    LocalTensor<T> t = ub<T>(n);
    std::vector<float> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale + offset;
    put(t, v);
    return t;
  }
  template <typename I, typename T>
  static I indexBits(T v) {
    I i;
    std::memcpy(&i, &v, sizeof(I));
    return i;
  }
};

TEST_F(ReduceTest, WholeReduceSumOneResultPerRepeat) {
  LocalTensor<float> src = iota<float>(128);
  LocalTensor<float> dst = ub<float>(8);
  WholeReduceSum(dst, src, 64, 2, 1, 1, 8);
  const tcemu::Instr& in = core().trace().back();
  EXPECT_EQ(in.repeats, 2u);
  EXPECT_EQ(in.elements, 128u);
  vToS();
  EXPECT_EQ(dst.GetValue(0), 2016.0f);  // 0 + ... + 63
  EXPECT_EQ(dst.GetValue(1), 6112.0f);  // 64 + ... + 127
}

// bisheng's vcadd on raw UB addresses, as kernels call it: WholeReduceSum with the mask register, or, in its
// accumulate mode, the repeats' total in the ACC register and no dst.
TEST_F(ReduceTest, VcaddIsWholeReduceSumOnAddressesOrAccumulates) {
  LocalTensor<float> src = iota<float>(128);
  LocalTensor<float> dst = ub<float>(8);
  AscendCUtils::SetMask<float>(64);
  vcadd((__ubuf__ float*)dst.GetPhyAddr(), (__ubuf__ float*)src.GetPhyAddr(), 2, 1, 1, 8, false);
  EXPECT_STREQ(core().trace().back().name, "vcadd");
  vToS();
  EXPECT_EQ(dst.GetValue(0), 2016.0f);
  EXPECT_EQ(dst.GetValue(1), 6112.0f);
  AscendCUtils::SetMask<float>(8);
  vcadd(nullptr, (__ubuf__ float*)src.GetPhyAddr(), 2, 1, 1, 8, true);  // lanes 0..7 of each repeat
  vToS();
  uint64_t acc = get_acc_val();
  float total;
  std::memcpy(&total, &acc, sizeof(total));
  EXPECT_EQ(total, 28.0f + 540.0f);  // 0 + ... + 7, then 64 + ... + 71
  float outside[8] = {};
  EXPECT_EQ(checkMessage([&] { vcadd(outside, (__ubuf__ float*)src.GetPhyAddr(), 1, 1, 1, 8, false); }),
            "vcadd dst is not a UB address; hint: pass a UB tensor's GetPhyAddr()");
  EXPECT_EQ(checkMessage([&] {
              vcadd(dst.GetPhyAddr(), (__ubuf__ float*)src.GetPhyAddr(), 3, 1, 1, 8, false);
            }).rfind("vcadd src", 0),
            0u);  // the third repeat reads bytes nothing wrote: the checks of WholeReduceSum itself
}

TEST_F(ReduceTest, WholeReduceSumAddsAsABinaryTreeRoundingEachStep) {
  LocalTensor<half> src = ub<half>(128);
  LocalTensor<half> dst = ub<half>(16);
  std::vector<float> v(128, 0.0f);
  v[0] = 2048.0f, v[2] = 1.0f,
  v[3] = 1.0f;  // in order: 2048 + 1 rounds back to 2048 twice; as a tree: 2048 + 2
  put(src, v);
  WholeReduceSum(dst, src, 128, 1, 1, 1, 8);
  vToS();
  EXPECT_EQ(f(dst.GetValue(0)), 2050.0f);
}

TEST_F(ReduceTest, WholeReduceSumMaskLeavesOtherLanesOut) {
  LocalTensor<float> src = iota<float>(64);
  LocalTensor<float> dst = ub<float>(8);
  uint64_t mask[2] = {0x8000000000000005ULL, 0};  // lanes 0, 2, 63
  WholeReduceSum(dst, src, mask, 1, 1, 1, 8);
  vToS();
  EXPECT_EQ(dst.GetValue(0), 65.0f);
}

TEST_F(ReduceTest, WholeReduceMaxEveryOrder) {
  LocalTensor<half> src = ub<half>(128);
  std::vector<float> v(128, 1.0f);
  v[52] = 11.0f, v[90] = 11.0f;  // a tie: the smaller index wins
  put(src, v);
  LocalTensor<half> vi = ub<half>(16), iv = ub<half>(16), ov = ub<half>(16);
  LocalTensor<uint32_t> oi = ub<uint32_t>(8);
  WholeReduceMax(vi, src, 128, 1, 1, 1, 8);
  WholeReduceMax(iv, src, 128, 1, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE);
  WholeReduceMax(ov, src, 128, 1, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
  WholeReduceMax(oi.ReinterpretCast<half>(), src, 128, 1, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
  vToS();
  EXPECT_EQ(f(vi.GetValue(0)), 11.0f);
  EXPECT_EQ(bits(vi.GetValue(1)), 52);
  EXPECT_EQ(bits(iv.GetValue(0)), 52);
  EXPECT_EQ(f(iv.GetValue(1)), 11.0f);
  EXPECT_EQ(f(ov.GetValue(0)), 11.0f);
  EXPECT_EQ(oi.GetValue(0), 52u);  // ORDER_ONLY_INDEX stores 32 bits even for half
}

TEST_F(ReduceTest, WholeReduceMinDstRepStrideCountsValueIndexPairs) {
  LocalTensor<float> src = iota<float>(192, -1.0f);  // minimum at the last lane of each repeat
  LocalTensor<float> dst = ub<float>(16);
  fill(dst, 16, 99.0f);
  WholeReduceMin(dst, src, 64, 3, 2, 1, 8);  // pairs of 8 bytes, every other pair
  vToS();
  EXPECT_EQ(dst.GetValue(0), -63.0f);
  EXPECT_EQ(indexBits<uint32_t>(dst.GetValue(1)), 63u);
  EXPECT_EQ(dst.GetValue(2), 99.0f);
  EXPECT_EQ(dst.GetValue(4), -127.0f);
  EXPECT_EQ(dst.GetValue(8), -191.0f);
  float value = 0, index = 0;
  GetReduceMaxMinCount<float>(value, index);
  EXPECT_EQ(value, -191.0f);
  EXPECT_EQ(indexBits<uint32_t>(index), 191u);  // counted over all repeats
}

TEST_F(ReduceTest, CounterModeIdiomSumsAnyLength) {
  LocalTensor<float> src = iota<float>(200);
  LocalTensor<float> tmp = ub<float>(8);
  LocalTensor<float> dst = ub<float>(8);
  SetMaskCount();
  SetVectorMask<float>(0, 200);
  WholeReduceSum<float, false>(tmp, src, MASK_PLACEHOLDER, 1, 1, 1, 8);
  PipeBarrier<PIPE_V>();
  SetVectorMask<float>(0, 4);
  WholeReduceSum<float, false>(dst, tmp, MASK_PLACEHOLDER, 1, 1, 1, 8);
  SetMaskNorm();
  vToS();
  EXPECT_EQ(tmp.GetValue(3), 1564.0f);  // 192 + ... + 199
  EXPECT_EQ(dst.GetValue(0), 19900.0f);
}

TEST_F(ReduceTest, ScalarReadOfAPerRepeatResultNeedsAFlag) {
  LocalTensor<float> src = iota<float>(64);
  LocalTensor<float> dst = ub<float>(8);
  WholeReduceSum(dst, src, 64, 1, 1, 1, 8);
  std::string msg = checkMessage([&] { dst.GetValue(0); });
  EXPECT_EQ(msg, tcemu::format(
                     "cross-pipe hazard: GetValue on pipe S reads data that WholeReduceSum on pipe V wrote, with no "
                     "queue, flag or barrier between them (block at byte %u); hint: pass the tensor through a TQue "
                     "(EnQue/DeQue), or SetFlag<HardEvent::V_S>/WaitFlag<HardEvent::V_S> between the two calls",
                     dst.ref_.offset));
}

TEST_F(ReduceTest, SingleRepeatReduceMaxWithIndexHasNoInternalFlags) {
  LocalTensor<float> src = iota<float>(64);
  LocalTensor<float> work = ub<float>(8);
  LocalTensor<float> dst = ub<float>(8);
  ReduceMax(dst, src, work, 64, 1, 8, true);
  std::string msg = checkMessage([&] { dst.GetValue(0); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: GetValue on pipe S reads data that ReduceMax on pipe V wrote", 0), 0u) << msg;
  vToS();
  EXPECT_EQ(dst.GetValue(0), 63.0f);
  EXPECT_EQ(indexBits<uint32_t>(dst.GetValue(1)), 63u);
}

TEST_F(ReduceTest, ReduceSumCountFormSyncsAndSetsAccVal) {
  LocalTensor<half> src = iota<half>(300, 0.0f, 1.0f);  // 300 ones
  LocalTensor<half> work = ub<half>(16);
  LocalTensor<half> dst = ub<half>(16);
  ReduceSum(dst, src, work, 300);
  EXPECT_EQ(f(dst.GetValue(0)), 300.0f);  // no V_S flag needed: CANN's ReduceSum synchronises inside
  EXPECT_EQ(f(GetAccVal<half>()), 300.0f);
  EXPECT_EQ(bits(half(300.0f)), static_cast<uint16_t>(GetAccVal()));
}

TEST_F(ReduceTest, ReduceSumCountFormAccumulatesRepeatSumsInOrder) {
  LocalTensor<half> src = ub<half>(384);
  std::vector<float> v(384, 0.0f);
  v[0] = 2048.0f, v[128] = 1.0f, v[256] = 1.0f;
  put(src, v);
  LocalTensor<half> work = ub<half>(16);
  LocalTensor<half> dst = ub<half>(16);
  ReduceSum(dst, src, work, 384);
  EXPECT_EQ(f(dst.GetValue(0)), 2048.0f);  // (2048 + 1) + 1, each add rounded to half
}

TEST_F(ReduceTest, ReduceSumMaskFormUsesTheWorkspace) {
  LocalTensor<float> src = iota<float>(192);
  LocalTensor<float> work = ub<float>(8);
  LocalTensor<float> dst = ub<float>(8);
  ReduceSum(dst, src, work, 64, 3, 8);
  EXPECT_EQ(dst.GetValue(0), 18336.0f);
  EXPECT_EQ(work.GetValue(2), 10208.0f);  // 128 + ... + 191
}

TEST_F(ReduceTest, ReduceMaxCountFormWithIndex) {
  LocalTensor<float> src = iota<float>(100, 0.0f, 1.0f);
  src.SetValue(77, 5.0f);
  src.SetValue(90, 5.0f);
  sToV();
  LocalTensor<float> work = ub<float>(8);
  LocalTensor<float> dst = ub<float>(8);
  ReduceMax(dst, src, work, 100, true);
  EXPECT_EQ(dst.GetValue(0), 5.0f);
  EXPECT_EQ(indexBits<uint32_t>(dst.GetValue(1)), 77u);
  uint32_t value = 0, index = 0;
  GetReduceMaxMinCount<float>(value, index);
  EXPECT_EQ(value, indexBits<uint32_t>(5.0f));
  EXPECT_EQ(index, 77u);
}

TEST_F(ReduceTest, ReduceMinMaskFormIndexCountsElementsFromSrc) {
  LocalTensor<half> src = iota<half>(512, 0.0f, 3.0f);
  src.SetValue(256 + 5, half(-2.0f));  // repeat 1 starts at element 256 with srcRepStride 16
  sToV();
  LocalTensor<half> work = ub<half>(16);
  LocalTensor<half> dst = ub<half>(16);
  ReduceMin(dst, src, work, 128, 2, 16, true);
  EXPECT_EQ(f(dst.GetValue(0)), -2.0f);
  EXPECT_EQ(bits(dst.GetValue(1)), 261);
}

TEST_F(ReduceTest, WorkspaceTooSmall) {
  LocalTensor<float> src = iota<float>(1000);
  LocalTensor<float> work = ub<float>(8);
  LocalTensor<float> dst = ub<float>(8);
  EXPECT_EQ(checkMessage([&] { ReduceMax(dst, src, work, 1000); }),
            "ReduceMax workLocal holds 8 elements of float; this call needs at least 32; hint: allocate "
            "workLocal with 32 elements");
}

TEST_F(ReduceTest, BlockReduceOneResultPerBlock) {
  LocalTensor<half> src = iota<half>(128);
  LocalTensor<half> sum = ub<half>(16);
  LocalTensor<half> mx = ub<half>(16);
  fill(mx, 16, half(-1.0f));
  BlockReduceSum(sum, src, 1, 128, 1, 1, 8);
  BlockReduceMax(mx, src, 1, 40, 1, 1, 8);  // blocks 0, 1 full, block 2 lanes 32..39, blocks 3..7 untouched
  vToS();
  EXPECT_EQ(f(sum.GetValue(0)), 120.0f);
  EXPECT_EQ(f(sum.GetValue(7)), 1912.0f);  // 112 + ... + 127
  EXPECT_EQ(f(mx.GetValue(1)), 31.0f);
  EXPECT_EQ(f(mx.GetValue(2)), 39.0f);
  EXPECT_EQ(f(mx.GetValue(3)), -1.0f);
}

TEST_F(ReduceTest, BlockReduceMinFloatAndPairReduceSumHalf) {
  LocalTensor<float> src = iota<float>(64, -1.0f, 100.0f);  // 100, 99, ..., 37
  LocalTensor<float> mn = ub<float>(8);
  BlockReduceMin(mn, src, 1, 64, 1, 1, 8);
  LocalTensor<half> hsrc = ub<half>(128);
  std::vector<float> v(128, 0.0f);
  v[0] = 2048.0f, v[1] = 1.0f, v[2] = 0.5f, v[3] = 0.25f;
  put(hsrc, v);
  LocalTensor<half> pairs = ub<half>(64);
  PairReduceSum(pairs, hsrc, 1, 128, 1, 1, 8);
  vToS();
  EXPECT_EQ(mn.GetValue(0), 93.0f);
  EXPECT_EQ(mn.GetValue(7), 37.0f);
  EXPECT_EQ(f(pairs.GetValue(0)), 2048.0f);  // 2049 rounds to even in half
  EXPECT_EQ(f(pairs.GetValue(1)), 0.75f);
  EXPECT_EQ(f(pairs.GetValue(63)), 0.0f);
}

TEST_F(ReduceTest, BlockReduceDstRepStrideCountsEightResults) {
  LocalTensor<float> src = iota<float>(128);
  LocalTensor<float> dst = ub<float>(32);
  fill(dst, 32, -1.0f);
  BlockReduceSum(dst, src, 2, 64, 2, 1, 8);
  vToS();
  EXPECT_EQ(dst.GetValue(7), 476.0f);  // 56 + ... + 63
  EXPECT_EQ(dst.GetValue(8), -1.0f);
  EXPECT_EQ(dst.GetValue(16), 540.0f);  // 64 + ... + 71
}

TEST_F(ReduceTest, RangeChecksOfTheOtherFamilies) {
  LocalTensor<float> src = iota<float>(64);
  LocalTensor<float> dst = ub<float>(64);
  LocalTensor<float> work = ub<float>(8);
  EXPECT_EQ(checkMessage([&] { BlockReduceMax(dst, src, 256, 64, 1, 1, 8); }),
            "BlockReduceMax repeat 256 is out of range [0, 255]; hint: split the work into calls of at most "
            "255 repeats");
  EXPECT_EQ(checkMessage([&] { PairReduceSum(dst, src, -1, 64, 1, 1, 8); }),
            "PairReduceSum repeat -1 is out of range [0, 255]; hint: split the work into calls of at most "
            "255 repeats");
  EXPECT_EQ(checkMessage([&] { WholeReduceMax(dst, src, 64, 1, 1, 1, 8, static_cast<ReduceOrder>(4)); }),
            "WholeReduceMax order 4 is out of range [0, 3]");
  EXPECT_EQ(checkMessage([&] { ReduceSum(dst, src, work, 64, 256, 8); }),
            "ReduceSum repeatTimes 256 is out of range [0, 255]; hint: use the count form ReduceSum(dst, "
            "src, work, count) for long inputs");
  EXPECT_EQ(checkMessage([&] { ReduceMin(dst, src, work, 50000); }),
            "ReduceMin count 50000 is out of range [1, 49152]");
}

TEST_F(ReduceTest, PairAndRepeatReduceSum) {
  LocalTensor<float> src = iota<float>(128);
  LocalTensor<float> pairs = ub<float>(64);
  LocalTensor<float> rep = ub<float>(8);
  PairReduceSum(pairs, src, 2, 64, 1, 1, 8);  // 32 results per repeat, 128 bytes apart
  RepeatReduceSum(rep, src, 2, 10, 1, 1, 1, 8);
  vToS();
  EXPECT_EQ(pairs.GetValue(0), 1.0f);
  EXPECT_EQ(pairs.GetValue(31), 125.0f);
  EXPECT_EQ(pairs.GetValue(32), 129.0f);
  EXPECT_EQ(rep.GetValue(0), 45.0f);
  EXPECT_EQ(rep.GetValue(1), 685.0f);  // 64 + ... + 73
}

TEST_F(ReduceTest, ChecksNameTheRule) {
  LocalTensor<int32_t> isrc = ub<int32_t>(64);
  LocalTensor<half> src = iota<half>(128);
  LocalTensor<half> dst = ub<half>(32);
  LocalTensor<float> fsrc = iota<float>(64);
  EXPECT_EQ(checkMessage([&] { WholeReduceSum(isrc, isrc, 64, 1, 1, 1, 8); }),
            "WholeReduceSum does not support int32_t on 910B (supported: half, float)");
  EXPECT_EQ(checkMessage([&] { WholeReduceSum(dst, src, 128, 300, 1, 1, 8); }),
            "WholeReduceSum repeatTimes 300 is out of range [0, 255]; hint: split the work into calls of at "
            "most 255 repeats");
  EXPECT_EQ(checkMessage([&] { WholeReduceSum(dst, src, 128, 1, 1, 1, -8); }),
            "WholeReduceSum srcRepStride -8 is out of range [0, 65535]; hint: strides are unsigned 16-bit counts");
  EXPECT_EQ(checkMessage([&] { WholeReduceMax(dst[1], src, 128, 1, 1, 1, 8); }),
            tcemu::format("WholeReduceMax dst address UB+%u is not 4-byte aligned (2 bytes past a boundary); "
                          "hint: offset tensors by multiples of 4 bytes",
                          dst.ref_.offset + 2));
  EXPECT_EQ(checkMessage([&] { WholeReduceSum(dst, src, 129, 1, 1, 1, 8); }),
            "WholeReduceSum mask 129 is out of range [1, 128] for 2-byte elements (the first `mask` elements "
            "of each repeat); hint: for a longer or shorter row use the count form or more repeats");
  LocalTensor<float> work = ub<float>(8);
  LocalTensor<float> fdst = ub<float>(8);
  EXPECT_EQ(checkMessage([&] { ReduceSum(fdst, fsrc, work, 0); }), "ReduceSum count 0 is out of range [1, 49152]");
}

// A whole kernel: half rows in, softmax in float (Cast, ReduceMax, Adds, Exp, ReduceSum, Muls), half out,
// through queues and ICPU-style launch; checks that the families work together under the hazard model.
TEST(ReduceKernelTest, SoftmaxRowThroughQueues) {
  constexpr uint32_t n = 256;
  std::vector<float> input(n);
  for (uint32_t i = 0; i < n; ++i) input[i] = static_cast<float>(static_cast<int>(i * 37 % 23) - 11) * 0.25f;
  half* x = static_cast<half*>(GmAlloc(n * sizeof(half)));
  half* y = static_cast<half*>(GmAlloc(n * sizeof(half)));
  for (uint32_t i = 0; i < n; ++i) x[i] = half(input[i]);
  SetKernelMode(KernelMode::AIV_MODE);
  tcemu::runKernel("softmax_row", 1, [&] {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> calc;
    pipe.InitBuffer(inQ, 1, n * sizeof(half));
    pipe.InitBuffer(outQ, 1, n * sizeof(half));
    pipe.InitBuffer(calc, n * sizeof(float) + 64 + 64);
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer(x, n);
    yg.SetGlobalBuffer(y, n);
    LocalTensor<half> xl = inQ.AllocTensor<half>();
    DataCopy(xl, xg, n);
    inQ.EnQue(xl);
    xl = inQ.DeQue<half>();
    LocalTensor<float> xf = calc.GetWithOffset<float>(n, 0);
    LocalTensor<float> red = calc.GetWithOffset<float>(8, n * sizeof(float));
    LocalTensor<float> total = calc.GetWithOffset<float>(8, n * sizeof(float) + 32);
    LocalTensor<float> work = calc.GetWithOffset<float>(16, n * sizeof(float) + 64);
    Cast(xf, xl, RoundMode::CAST_NONE, n);
    inQ.FreeTensor(xl);
    ReduceMax(red, xf, work, n);
    float mx = red.GetValue(0);
    Adds(xf, xf, -mx, n);
    Exp(xf, xf, n);
    ReduceSum(total, xf, work, n);
    float sum = total.GetValue(0);
    Muls(xf, xf, 1.0f / sum, n);
    LocalTensor<half> yl = outQ.AllocTensor<half>();
    Cast(yl, xf, RoundMode::CAST_RINT, n);
    outQ.EnQue(yl);
    yl = outQ.DeQue<half>();
    DataCopy(yg, yl, n);
    outQ.FreeTensor(yl);
  });
  float mx = *std::max_element(input.begin(), input.end());
  double sum = 0;
  for (float v : input) sum += std::exp(static_cast<double>(v - mx));
  for (uint32_t i = 0; i < n; ++i) {
    double want = std::exp(static_cast<double>(input[i] - mx)) / sum;
    EXPECT_NEAR(tcemu::toFloat(y[i]), want, want * 2e-3 + 1e-7) << i;
  }
  GmFree(x);
  GmFree(y);
}

}  // namespace
