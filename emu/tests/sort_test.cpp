// Sort32, Sort<T, isFullSort>, MrgSort, Extract and the sort helpers (emu/sort.h): record layout, order, ties,
// exhausted suspension, and every check message.
#include <algorithm>
#include <functional>
#include <random>

#include "vec2_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::UbTest;

namespace {

class SortTest : public UbTest {
 protected:
  // Reads the (value, index) records of a sorted float buffer.
  std::vector<std::pair<float, uint32_t>> records(const LocalTensor<float>& t, uint32_t n) {
    vToS();
    std::vector<std::pair<float, uint32_t>> out;
    LocalTensor<uint32_t> u = t.ReinterpretCast<uint32_t>();
    for (uint32_t i = 0; i < n; ++i) out.emplace_back(t.GetValue(2 * i), u.GetValue(2 * i + 1));
    return out;
  }
  std::vector<uint32_t> iota(uint32_t n, uint32_t from = 0) {
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = from + i;
    return v;
  }
};

TEST_F(SortTest, SortLenAndOffsetCountEightBytesPerElement) {
  EXPECT_EQ(GetSortLen<float>(32), 64u);
  EXPECT_EQ(GetSortLen<half>(32), 128u);
  EXPECT_EQ(GetSortOffset<float>(5), 10u);
  EXPECT_EQ(GetSortOffset<half>(5), 20u);
}

TEST_F(SortTest, Sort32SortsEachRepeatDescendingWithStableTies) {
  LocalTensor<float> src = ub<float>(64);
  LocalTensor<uint32_t> idx = ub<uint32_t>(64);
  LocalTensor<float> dst = ub<float>(128);
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>((i * 7) % 11);  // many ties
  put(src, v);
  put(idx, iota(64, 100));
  Sort32(dst, src, idx, 2);
  EXPECT_EQ(core().trace().back().repeats, 2u);
  EXPECT_EQ(core().trace().back().elements, 64u);
  auto r = records(dst, 64);
  for (int run = 0; run < 2; ++run) {
    std::vector<std::pair<float, uint32_t>> want;
    for (int i = 0; i < 32; ++i) want.emplace_back(v[run * 32 + i], 100u + run * 32 + i);
    std::stable_sort(want.begin(), want.end(), [](auto a, auto b) { return a.first > b.first; });
    for (int i = 0; i < 32; ++i) EXPECT_EQ(r[run * 32 + i], want[i]) << "run " << run << " position " << i;
  }
}

TEST_F(SortTest, HalfRecordsHoldTheValueThenTheIndexAtByteFour) {
  LocalTensor<half> src = ub<half>(32);
  LocalTensor<uint32_t> idx = ub<uint32_t>(32);
  LocalTensor<half> dst = ub<half>(128);
  std::vector<float> v(32);
  for (int i = 0; i < 32; ++i) v[i] = static_cast<float>(i) - 10.5f;
  put(src, v);
  put(idx, iota(32));
  Sort32(dst, src, idx, 1);
  vToS();
  LocalTensor<uint32_t> u = dst.ReinterpretCast<uint32_t>();
  EXPECT_EQ(f(dst.GetValue(0)), 20.5f);
  EXPECT_EQ(bits(dst.GetValue(1)), 0u);
  EXPECT_EQ(u.GetValue(1), 31u);
  EXPECT_EQ(f(dst.GetValue(4 * 31)), -10.5f);
  EXPECT_EQ(u.GetValue(2 * 31 + 1), 0u);
}

TEST_F(SortTest, FullSortOrdersEveryRepeatAndLeavesACopyInTmp) {
  const uint32_t n = 32 * 5;
  LocalTensor<float> src = ub<float>(n);
  LocalTensor<uint32_t> idx = ub<uint32_t>(n);
  LocalTensor<float> dst = ub<float>(2 * n);
  LocalTensor<float> tmp = ub<float>(2 * n);
  std::mt19937 rng(7);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(static_cast<int>(rng() % 50)) - 25.0f;
  put(src, v);
  put(idx, iota(n));
  LocalTensor<float> concat;
  Concat(concat, src, tmp, 5);
  Sort<float, true>(dst, concat, idx, tmp, 5);
  std::vector<std::pair<float, uint32_t>> want;
  for (uint32_t i = 0; i < n; ++i) want.emplace_back(v[i], i);
  std::stable_sort(want.begin(), want.end(), [](auto a, auto b) { return a.first > b.first; });
  EXPECT_EQ(records(dst, n), want);
  EXPECT_EQ(records(tmp, n), want);
}

TEST_F(SortTest, MrgSortMergesListsStablyByListOrder) {
  LocalTensor<float> a = ub<float>(8), b = ub<float>(8), c = ub<float>(8), dst = ub<float>(24);
  auto rec = [](std::vector<std::pair<float, uint32_t>> r) {
    std::vector<float> out;
    for (auto [v, i] : r) {
      out.push_back(v);
      float fi;
      std::memcpy(&fi, &i, 4);
      out.push_back(fi);
    }
    return out;
  };
  put(a, rec({{9, 0}, {5, 1}, {5, 2}, {1, 3}}));
  put(b, rec({{7, 10}, {5, 11}, {2, 12}, {0, 13}}));
  put(c, rec({{5, 20}, {3, 21}, {-1, 22}, {-2, 23}}));
  MrgSortSrcList<float> list(a, b, c, c);
  uint16_t lens[4] = {4, 4, 4, 0};
  MrgSort(dst, list, MrgSort4Info(lens, false, 7, 1));
  std::vector<std::pair<float, uint32_t>> want = {{9, 0},  {7, 10}, {5, 1}, {5, 2},  {5, 11},  {5, 20},
                                                  {3, 21}, {2, 12}, {1, 3}, {0, 13}, {-1, 22}, {-2, 23}};
  EXPECT_EQ(records(dst, 12), want);
  uint16_t l1, l2, l3, l4;
  GetMrgSortResult(l1, l2, l3, l4);
  EXPECT_EQ(l1, 4);
  EXPECT_EQ(l2, 4);
  EXPECT_EQ(l3, 4);
  EXPECT_EQ(l4, 0);
}

TEST_F(SortTest, ExhaustedSuspensionStopsWhenAListRunsOut) {
  LocalTensor<float> a = ub<float>(8), b = ub<float>(8), dst = ub<float>(16);
  put(a, std::vector<float>{9, 0, 8, 0, 1, 0, 0, 0});  // values 9, 8, 1 (indices 0 as bits)
  put(b, std::vector<float>{7, 0, 6, 0, 5, 0, 4, 0});
  MrgSortSrcList<float> list(a, b, a, a);
  uint16_t lens[4] = {2, 4, 0, 0};
  uint32_t sorted[4] = {99, 99, 99, 99};
  MrgSort<float, true>(dst, list, lens, sorted, 3, 1);
  EXPECT_EQ(sorted[0], 2u);  // 9, 8 went out and list 1 is exhausted: the merge stops
  EXPECT_EQ(sorted[1], 0u);
  auto r = records(dst, 2);
  EXPECT_EQ(r[0].first, 9.0f);
  EXPECT_EQ(r[1].first, 8.0f);
}

TEST_F(SortTest, MrgSortRepeatsMergeContiguousGroups) {
  // Two repeats of four 4-record lists (32 bytes each), laid out back to back.
  LocalTensor<float> src = ub<float>(64), dst = ub<float>(64);
  std::vector<float> v(64, 0.0f);
  for (int list = 0; list < 8; ++list)
    for (int e = 0; e < 4; ++e) v[list * 8 + e * 2] = static_cast<float>(100 * (list / 4) + 40 - 10 * e - list % 4);
  put(src, v);
  MrgSortSrcList<float> list(src, src[8], src[16], src[24]);
  uint16_t lens[4] = {4, 4, 4, 4};
  MrgSort(dst, list, MrgSort4Info(lens, false, 15, 2));
  EXPECT_EQ(core().trace().back().elements, 32u);
  vToS();
  for (int r = 0; r < 2; ++r) {
    std::vector<float> want, got;
    for (int list = 0; list < 4; ++list)
      for (int e = 0; e < 4; ++e) want.push_back(v[(r * 4 + list) * 8 + e * 2]);
    std::sort(want.begin(), want.end(), std::greater<float>());
    for (int i = 0; i < 16; ++i) got.push_back(dst.GetValue(r * 32 + 2 * i));
    EXPECT_EQ(got, want) << "repeat " << r;
  }
}

TEST_F(SortTest, ExtractSplitsValuesAndIndices) {
  LocalTensor<half> src = ub<half>(32);
  LocalTensor<uint32_t> idx = ub<uint32_t>(32);
  LocalTensor<half> sorted = ub<half>(128);
  LocalTensor<half> values = ub<half>(32);
  LocalTensor<uint32_t> indices = ub<uint32_t>(32);
  std::vector<float> v(32);
  for (int i = 0; i < 32; ++i) v[i] = static_cast<float>((i * 13) % 32);
  put(src, v);
  put(idx, iota(32, 1000));
  Sort32(sorted, src, idx, 1);
  Extract(values, indices, sorted, 1);
  vToS();
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(f(values.GetValue(i)), 31.0f - static_cast<float>(i));
    EXPECT_EQ(v[indices.GetValue(i) - 1000], 31.0f - static_cast<float>(i));
  }
  EXPECT_EQ(GetGatherMaskRemainCount(), 32);
}

TEST_F(SortTest, RepeatTimesOutOfRange) {
  LocalTensor<float> src = ub<float>(32), dst = ub<float>(64);
  LocalTensor<uint32_t> idx = ub<uint32_t>(32);
  EXPECT_EQ(checkMessage([&] { Sort32(dst, src, idx, 256); }),
            "Sort32 repeatTimes is 256, outside [0, 255]; hint: one call sorts at most 255 x 32 elements; merge the "
            "sorted runs with MrgSort");
  EXPECT_EQ(checkMessage([&] { Extract(src, idx, dst, -1); }),
            "Extract repeatTimes is -1, outside [0, 255]; hint: one call sorts at most 255 x 32 elements; merge the "
            "sorted runs with MrgSort");
}

TEST_F(SortTest, SortDtypeIsHalfOrFloat) {
  LocalTensor<int32_t> s = ub<int32_t>(32), d = ub<int32_t>(64);
  LocalTensor<uint32_t> idx = ub<uint32_t>(32);
  std::string msg = checkMessage([&] { Sort32(d, s, idx, 1); });
  EXPECT_EQ(msg.rfind("Sort32 does not support int32_t", 0), 0u) << msg;
}

TEST_F(SortTest, OperandsAreNamedInTheMemoryChecks) {
  LocalTensor<float> src = ub<float>(32), dst = ub<float>(64);
  LocalTensor<uint32_t> idx = ub<uint32_t>(32);  // never written
  put(src, std::vector<float>(32, 1.0f));
  std::string msg = checkMessage([&] { Sort32(dst, src, idx, 1); });
  EXPECT_EQ(msg.rfind("Sort32 index reads UB bytes", 0), 0u) << msg;
}

TEST_F(SortTest, MrgSortChecks) {
  LocalTensor<float> a = ub<float>(64), dst = ub<float>(128);
  MrgSortSrcList<float> list(a, a[8], a[16], a[24]);
  uint16_t lens[4] = {4, 4, 4, 4};
  EXPECT_EQ(checkMessage([&] { MrgSort(dst, list, MrgSort4Info(lens, false, 5, 1)); }),
            "MrgSort validBit is 5; it must be 3 (lists 1-2), 7 (lists 1-3) or 15 (lists 1-4)");
  uint16_t big[4] = {4096, 4, 4, 4};
  EXPECT_EQ(checkMessage([&] { MrgSort(dst, list, MrgSort4Info(big, false, 15, 1)); }),
            "MrgSort elementLengths[0] is 4096, outside [0, 4095]; hint: merge lists of at most 4095 elements");
  EXPECT_EQ(checkMessage([&] { MrgSort(dst, list, MrgSort4Info(lens, false, 15, 0)); }),
            "MrgSort repeatTimes is 0, outside [1, 255]; hint: merge at least one group of lists");
  MrgSortSrcList<float> gap(a, a[16], a[24], a[32]);
  EXPECT_EQ(checkMessage([&] { MrgSort(dst, gap, MrgSort4Info(lens, false, 15, 2)); }),
            "MrgSort with repeatTimes 2 needs validBit 15 and four contiguous lists of one length (src2 = src1 + "
            "elementLengths[0] * 8 bytes, ...); got validBit 15, elementLengths {4, 4, 4, 4}; hint: use repeatTimes 1 "
            "for lists of different lengths or places");
}

TEST_F(SortTest, ProposalInstructionsDoNotExistOn910B) {
  LocalTensor<half> a = ub<half>(128), b = ub<half>(128);
  MrgSortSrcList<half> list(a, a, a, a);
  EXPECT_EQ(checkMessage([&] { RpSort16(a, b, 1); }),
            "RpSort16 is not supported on 910B (dav-c220); hint: use Sort32, or Sort<T, true> for a full sort");
  EXPECT_EQ(checkMessage([&] { MrgSort4(a, list, MrgSort4Info()); }),
            "MrgSort4 is not supported on 910B (dav-c220); hint: use MrgSort with the same arguments");
  EXPECT_EQ(checkMessage([&] { ProposalConcat(a, b, 1, 4); }),
            "ProposalConcat is not supported on 910B (dav-c220); hint: use Concat, which sorts values in place");
  EXPECT_EQ(checkMessage([&] { ProposalExtract(a, b, 1, 4); }),
            "ProposalExtract is not supported on 910B (dav-c220); hint: use Extract");
}

}  // namespace
