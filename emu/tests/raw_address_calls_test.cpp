// The raw-address calls of emu/raw_address_calls.h against the API calls they stand for: the same values, the same
// trace entries, and the API's checks reached through the address.
#include "vec2_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::Gm;
using tcemu::testing::UbTest;

namespace {

class RawAddressTest : public UbTest {
 protected:
  template <typename T>
  std::vector<T> values(const LocalTensor<T>& t, uint32_t n) {
    vToS();
    std::vector<T> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = t.GetValue(i);
    return v;
  }
};

TEST_F(RawAddressTest, VectorDupFillsTheLanesTheMaskRegisterSelects) {
  // AddLayerNorm's zero block: set_vector_mask(0, 0xffff) selects lanes 0..15 of the 128 int16 lanes.
  LocalTensor<int16_t> viaDup = ub<int16_t>(128), viaApi = ub<int16_t>(128);
  fill<int16_t>(viaDup, 128, 7);
  fill<int16_t>(viaApi, 128, 7);
  set_vector_mask(0x0, 0xffff);
  vector_dup(viaDup.GetPhyAddr(), static_cast<int16_t>(-3), 1, 1, 0, static_cast<uint8_t>(8), static_cast<uint8_t>(0));
  EXPECT_EQ(core().trace().back().name, std::string("Duplicate"));
  Duplicate<int16_t, false>(viaApi, static_cast<int16_t>(-3), uint64_t{0}, 1, 1, 8);
  std::vector<int16_t> got = values(viaDup, 128);
  EXPECT_EQ(got, values(viaApi, 128));
  EXPECT_EQ(got[15], -3);
  EXPECT_EQ(got[16], 7);
}

TEST_F(RawAddressTest, VectorDupRepeatsWithTheWideStrideForm) {
  // Two repeats of 64 floats, 16 blocks apart: the uint16_t repeat-stride overload.
  LocalTensor<float> dst = ub<float>(256);
  fill<float>(dst, 256, 1.0f);
  set_vector_mask(0x0, ~0ULL);
  vector_dup(dst.GetPhyAddr(), 2.5f, 2, 1, 1, static_cast<uint16_t>(16), static_cast<uint16_t>(0));
  std::vector<float> got = values(dst, 256);
  EXPECT_EQ(got[0], 2.5f);
  EXPECT_EQ(got[63], 2.5f);
  EXPECT_EQ(got[64], 1.0f);
  EXPECT_EQ(got[128], 2.5f);
  EXPECT_EQ(got[191], 2.5f);
  EXPECT_EQ(got[192], 1.0f);
}

TEST_F(RawAddressTest, VorIsOrWithItsStrides) {
  // The broadcast step of AddLayerNorm's CCEBroadCastShort: or with a zero block read at stride 0 copies src0,
  // eight repeats of one block each.
  LocalTensor<int16_t> src = ub<int16_t>(8 * 16 * 16), zero = ub<int16_t>(16), viaVor = ub<int16_t>(8 * 128),
                       viaOr = ub<int16_t>(8 * 128);
  std::vector<int16_t> v(8 * 16 * 16);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int16_t>(i * 3 - 500);
  put(src, v);
  fill<int16_t>(zero, 16, 0);
  AscendCUtils::SetMask<half>(128);
  vor(viaVor.GetPhyAddr(), src.GetPhyAddr(), zero.GetPhyAddr(), 8, 1, 1, 0, 8, 16, 0);
  EXPECT_EQ(core().trace().back().name, std::string("Or"));
  Or<int16_t, false>(viaOr, src, zero, uint64_t{0}, 8, BinaryRepeatParams(1, 1, 0, 8, 16, 0));
  std::vector<int16_t> got = values(viaVor, 8 * 128);
  EXPECT_EQ(got, values(viaOr, 8 * 128));
  EXPECT_EQ(got[128 + 5], v[256 + 5]);  // repeat 1 reads src 16 blocks on
  EXPECT_EQ(checkMessage([&] {
              int16_t outside[128] = {};
              vor(viaVor.GetPhyAddr(), outside, zero.GetPhyAddr(), 1, 1, 1, 0, 8, 8, 0);
            }),
            "vor src0 is not a UB address; hint: pass a UB tensor's GetPhyAddr()");
}

TEST_F(RawAddressTest, CopyUbufToUbufMovesBurstsOfBlocks) {
  // Two bursts of one block with a block of gap on each side, as DataCopy's UB -> UB form.
  LocalTensor<float> src = ub<float>(64), viaCopy = ub<float>(64), viaApi = ub<float>(64);
  std::vector<float> v(64);
  for (int i = 0; i < 64; ++i) v[i] = static_cast<float>(i);
  put(src, v);
  fill<float>(viaCopy, 64, -1.0f);
  fill<float>(viaApi, 64, -1.0f);
  copy_ubuf_to_ubuf(viaCopy.GetPhyAddr(), src.GetPhyAddr(), 0, 2, 1, 1, 2);
  DataCopy(viaApi, src, DataCopyParams(2, 1, 1, 2));
  std::vector<float> got = values(viaCopy, 64);
  EXPECT_EQ(got, values(viaApi, 64));
  EXPECT_EQ(got[0], 0.0f);
  EXPECT_EQ(got[8], -1.0f);
  EXPECT_EQ(got[24], 16.0f);  // burst 1: source block 2 to destination block 3
}

TEST_F(RawAddressTest, CopyUbufToUbufRefusesANonUbAddress) {
  LocalTensor<float> dst = ub<float>(8);
  float notUb[8] = {};
  EXPECT_EQ(checkMessage([&] { copy_ubuf_to_ubuf(dst.GetPhyAddr(), notUb, 0, 1, 1, 0, 0); }),
            "copy_ubuf_to_ubuf src is not a UB address; hint: pass a UB tensor's GetPhyAddr()");
}

TEST_F(RawAddressTest, DuplicateImplAndDataCopyUB2GMImplAreTheirApiCalls) {
  // GeGluV2's copy-out of a zero buffer: DuplicateImpl's count form, then bursts to GM.
  LocalTensor<int16_t> buf = ub<int16_t>(64);
  DuplicateImpl<int16_t>(buf.GetPhyAddr(), 0, 48);
  EXPECT_EQ(core().trace().back().name, std::string("Duplicate"));
  EXPECT_EQ(core().trace().back().elements, 48u);
  Gm<int16_t> out(64);
  for (int i = 0; i < 64; ++i) out[i] = 9;
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopyUB2GMImpl(out.p_ + 16, buf.GetPhyAddr(), DataCopyParams(1, 3, 0, 0));
  EXPECT_EQ(core().trace().back().name, std::string("DataCopy"));
  SetFlag<HardEvent::MTE3_S>(0);
  WaitFlag<HardEvent::MTE3_S>(0);
  EXPECT_EQ(out[15], 9);
  EXPECT_EQ(out[16], 0);
  EXPECT_EQ(out[63], 0);
  // The UB source is checked as DataCopy checks it: block 3 of the buffer was never written.
  EXPECT_EQ(checkMessage([&] {
              DataCopyUB2GMImpl(out.p_, buf.GetPhyAddr(), DataCopyParams(1, 4, 0, 0));
            }).rfind("DataCopy", 0),
            0u);
}

}  // namespace
