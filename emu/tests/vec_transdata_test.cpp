// TransDataTo5HD in its three spellings (the API on LocalTensor lists, CANN's TransDataTo5HDImpl on pointers, the
// VA registers with scatter_vnchwconv_*), checked against the 16x16 Transpose and against the index formulas.
#include "vec2_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::UbTest;

namespace {

class TransDataTest : public UbTest {
 protected:
  // 16 tensors, entry i at `base` + i * stride elements.
  template <typename T>
  void rows(LocalTensor<T> (&out)[16], const LocalTensor<T>& base, uint32_t stride) {
    for (uint32_t i = 0; i < 16; ++i) out[i] = base[i * stride];
  }
  template <typename T>
  std::vector<T> values(const LocalTensor<T>& t, uint32_t n) {
    vToS();
    std::vector<T> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = t.GetValue(i);
    return v;
  }
  // A UB address as the byte offset the emulator's messages print.
  uint64_t ubOffset(const void* p) {
    return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - core().arena(tcemu::Mem::UB).data.data());
  }
};

TEST_F(TransDataTest, SixteenBitListsTransposeAsTransposeDoes) {
  LocalTensor<uint16_t> src = ub<uint16_t>(256), viaList = ub<uint16_t>(256), viaTranspose = ub<uint16_t>(256);
  std::vector<uint16_t> v(256);
  for (uint16_t i = 0; i < 256; ++i) v[i] = static_cast<uint16_t>(1000 + i * 7);
  put(src, v);
  LocalTensor<uint16_t> d[16], s[16];
  rows(d, viaList, 16);
  rows(s, src, 16);
  TransDataTo5HD(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
  EXPECT_EQ(core().trace().back().name, std::string("TransDataTo5HD"));
  EXPECT_EQ(core().trace().back().elements, 256u);
  Transpose(viaTranspose, src);
  EXPECT_EQ(values(viaList, 256), values(viaTranspose, 256));
  EXPECT_EQ(viaList.GetValue(3 * 16 + 5), v[5 * 16 + 3]);
}

TEST_F(TransDataTest, ThirtyTwoBitFillsTwoBlocksPerSourceElement) {
  // Two repeats: the second reads the 16 source blocks one block on and writes 16 blocks further on.
  LocalTensor<float> src = ub<float>(16 * 16), dst = ub<float>(2 * 16 * 8);
  std::vector<float> v(256);
  for (int i = 0; i < 256; ++i) v[i] = static_cast<float>(i);
  put(src, v);
  LocalTensor<float> d[16], s[16];
  rows(d, dst, 8);
  rows(s, src, 16);  // source row i is 16 floats: blocks i*2 and i*2+1
  TransDataTo5HD(d, s, TransDataTo5HDParams(false, false, 2, 16, 1));
  std::vector<float> out = values(dst, 256);
  for (int r = 0; r < 2; ++r) {
    for (int k = 0; k < 8; ++k) {
      for (int i = 0; i < 16; ++i) {
        // Element k of source block i (repeat r: one block on) lands in dst block 2k + i/8, slot i%8.
        float want = v[i * 16 + r * 8 + k];
        EXPECT_EQ(out[r * 128 + (2 * k + i / 8) * 8 + i % 8], want) << "r=" << r << " k=" << k << " i=" << i;
      }
    }
  }
}

TEST_F(TransDataTest, EightBitHalvesMakeAThirtyTwoSquareTranspose) {
  // ScatterList's byte transpose: four calls over the low and high halves of 32 rows of 32 bytes.
  LocalTensor<uint8_t> src = ub<uint8_t>(1024), dst = ub<uint8_t>(1024);
  std::vector<uint8_t> v(1024);
  for (int i = 0; i < 1024; ++i) v[i] = static_cast<uint8_t>(i * 5 + i / 32);
  put(src, v);
  __ubuf__ uint8_t* s = src.GetPhyAddr();
  __ubuf__ uint8_t* d = dst.GetPhyAddr();
  for (int rowHalf = 0; rowHalf < 2; ++rowHalf) {
    for (int colHalf = 0; colHalf < 2; ++colHalf) {
      __ubuf__ uint8_t* sl[16];
      __ubuf__ uint8_t* dl[16];
      for (int i = 0; i < 16; ++i) {
        sl[i] = s + (rowHalf * 16 + i) * 32;
        dl[i] = d + (colHalf * 16 + i) * 32;
      }
      TransDataTo5HDImpl(dl, sl, TransDataTo5HDParams(rowHalf == 1, colHalf == 1, 1, 0, 0));
    }
  }
  std::vector<uint8_t> out = values(dst, 1024);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) EXPECT_EQ(out[r * 32 + c], v[c * 32 + r]) << r << "," << c;
}

TEST_F(TransDataTest, TheIntrinsicsOnVaRegistersAreTheSameInstruction) {
  LocalTensor<half> src = ub<half>(256), viaApi = ub<half>(256), viaRegs = ub<half>(256);
  std::vector<float> v(256);
  for (int i = 0; i < 256; ++i) v[i] = static_cast<float>(i % 37) - 9.5f;
  put(src, v);
  uint64_t dl[16], sl[16], rl[16];
  for (int i = 0; i < 16; ++i) {
    dl[i] = reinterpret_cast<uintptr_t>(viaApi[i * 16].GetPhyAddr());
    rl[i] = reinterpret_cast<uintptr_t>(viaRegs[i * 16].GetPhyAddr());
    sl[i] = reinterpret_cast<uintptr_t>(src[i * 16].GetPhyAddr());
  }
  TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams());
  set_va_reg_sb(VA4, rl);
  set_va_reg_sb(VA5, rl + 8);
  set_va_reg_sb(VA6, sl);
  set_va_reg_sb(VA7, sl + 8);
  scatter_vnchwconv_b16(VA4, VA6, 1, 0, 0);
  std::vector<half> a = values(viaApi, 256), b = values(viaRegs, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(bits(a[i]), bits(b[i])) << i;
  EXPECT_EQ(f(a[16 * 2 + 1]), v[16 + 2]);
}

TEST_F(TransDataTest, RegistersMustBeSetAndPaired) {
  LocalTensor<half> t = ub<half>(256);
  uint64_t l[8];
  for (int i = 0; i < 8; ++i) l[i] = reinterpret_cast<uintptr_t>(t[i * 16].GetPhyAddr());
  set_va_reg_sb(VA0, l);
  EXPECT_EQ(checkMessage([&] { scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0); }),
            "scatter_vnchwconv_b16 dst list reads VA1, which no set_va_reg_sb wrote; hint: set VA0 and VA1 to the "
            "16 block addresses first");
  EXPECT_EQ(checkMessage([&] { scatter_vnchwconv_b32(VA7, VA0, 1, 0, 0); }),
            "scatter_vnchwconv_b32 dst register VA7 has no next register for list entries 8..15; hint: pass "
            "VA0..VA6 (CANN: VA0 for dst, VA2 for src)");
}

TEST_F(TransDataTest, AddressesAreCheckedOneByOne) {
  LocalTensor<half> src = ub<half>(256), dst = ub<half>(256);
  fill(src, 256, half(1.0f));
  LocalTensor<half> d[16], s[16];
  rows(d, dst, 16);
  rows(s, src, 16);
  s[3] = src[3 * 16 + 4];  // 8 bytes past a block boundary
  EXPECT_EQ(checkMessage([&] { TransDataTo5HD(d, s, TransDataTo5HDParams()); }),
            "TransDataTo5HD src list entry 3 address UB+" + std::to_string(ubOffset(src.GetPhyAddr()) + 104) +
                " is not 32-byte aligned (8 bytes past a boundary); hint: offset tensors by multiples of 32 bytes");
  rows(s, src, 16);
  // A repeat stride of 3072 blocks puts the second repeat 96 KB on, past the end of the tests' TBuf.
  std::string past = checkMessage([&] { TransDataTo5HD(d, s, TransDataTo5HDParams(false, false, 2, 0, 3072)); });
  EXPECT_NE(past.find("TransDataTo5HD src list entry 0 accesses UB bytes"), std::string::npos) << past;
  EXPECT_NE(past.find("outside its buffer"), std::string::npos) << past;
  __ubuf__ half* stray[16];
  __ubuf__ half* ds[16];
  for (int i = 0; i < 16; ++i) {
    stray[i] = src[i * 16].GetPhyAddr();
    ds[i] = dst[i * 16].GetPhyAddr();
  }
  half outside[16];
  stray[9] = outside;
  EXPECT_EQ(checkMessage([&] { TransDataTo5HDImpl(ds, stray, TransDataTo5HDParams()); }),
            "TransDataTo5HDImpl src list entry 9 is not a UB address; hint: pass a UB tensor's GetPhyAddr()");
  LocalTensor<float> fl[16];
  EXPECT_EQ(checkMessage([&] { TransDataTo5HD(fl, fl, TransDataTo5HDParams()); }),
            "TransDataTo5HD dstLocalList entry uses a LocalTensor that was never allocated (default-constructed)");
}

TEST_F(TransDataTest, UnwrittenBytesTravelWithTheTranspose) {
  // Every element but the last of row 15: the move goes through (each block holds written data), and the one
  // unwritten element lands where the transpose puts it, element 15 of destination block 15.
  LocalTensor<half> src = ub<half>(256), dst = ub<half>(256), sum = ub<half>(256);
  fill(src, 255, half(2.0f));
  LocalTensor<half> d[16], s[16];
  rows(d, dst, 16);
  rows(s, src, 16);
  TransDataTo5HD(d, s, TransDataTo5HDParams());
  Add(sum, dst, dst, 255);
  std::string err = checkMessage([&] { Add(sum, dst, dst, 256); });
  EXPECT_NE(err.find("that nothing wrote: byte " + std::to_string(ubOffset(dst.GetPhyAddr()) + 510)), std::string::npos)
      << err;
  // A source block nothing wrote at all is an error of the move itself, as for DataCopy.
  LocalTensor<half> fresh = ub<half>(256);
  rows(s, fresh, 16);
  std::string none = checkMessage([&] { TransDataTo5HD(d, s, TransDataTo5HDParams()); });
  EXPECT_NE(none.find("TransDataTo5HD src list entry 0 reads UB bytes"), std::string::npos) << none;
  EXPECT_NE(none.find("nothing wrote any of the 32-byte block"), std::string::npos) << none;
}

TEST_F(TransDataTest, VtransposeIsTranspose) {
  LocalTensor<uint16_t> src = ub<uint16_t>(256), a = ub<uint16_t>(256), b = ub<uint16_t>(256);
  std::vector<uint16_t> v(256);
  for (uint16_t i = 0; i < 256; ++i) v[i] = static_cast<uint16_t>(i * 3);
  put(src, v);
  vtranspose(a.GetPhyAddr(), src.GetPhyAddr());
  Transpose(b, src);
  EXPECT_EQ(values(a, 256), values(b, 256));
  EXPECT_EQ(a.GetValue(16), v[1]);
}

}  // namespace
