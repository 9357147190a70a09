// Data movement: DataCopy count and strided forms, DataCopyPad in both directions, SetPadValue, GM atomics.
#include <numeric>

#include "emu_test_util.h"

using namespace AscendC;
using tcemu::testing::checkMessage;
using tcemu::testing::CubeTest;
using tcemu::testing::EmuTest;

namespace {

// GM buffers that free themselves; filled with 0, 1, 2, ... unless told otherwise.
template <typename T>
struct Gm {
  explicit Gm(size_t n, bool iota = true) : n_(n), p_(static_cast<T*>(GmAlloc(n * sizeof(T)))) {
    for (size_t i = 0; i < n; ++i) p_[i] = iota ? T(static_cast<float>(i)) : T(0);
    t_.SetGlobalBuffer(p_, n);
  }
  ~Gm() { GmFree(p_); }
  T& operator[](size_t i) { return p_[i]; }
  GlobalTensor<T>& tensor() { return t_; }
  size_t n_;
  T* p_;
  GlobalTensor<T> t_;
};

float f(half h) { return tcemu::toFloat(h); }

class DataCopyTest : public EmuTest {
 protected:
  template <typename T>
  LocalTensor<T> ub(uint32_t bytes) {
    pipe_.InitBuffer(bufs_[used_], bytes);
    return bufs_[used_++].Get<T>();
  }
  const tcemu::Instr& last() { return core().trace().back(); }
  TPipe pipe_;
  TBuf<TPosition::VECCALC> bufs_[4];
  int used_ = 0;
};

TEST_F(DataCopyTest, CountFormRoundTripsThroughUb) {
  Gm<float> in(256), out(256, false);
  LocalTensor<float> t = ub<float>(1024);
  DataCopy(t, in.tensor(), 256);
  const tcemu::Instr& load = last();
  EXPECT_EQ(load.pipe, tcemu::Pipe::MTE2);
  EXPECT_EQ(load.cls, tcemu::OpClass::DmaIn);
  EXPECT_EQ(load.bytes, 1024u);
  EXPECT_EQ(load.bursts, 1u);
  EXPECT_EQ(load.burstBytes, 1024u);
  EXPECT_EQ(load.elements, 256u);
  EXPECT_EQ(load.dtypeBytes, 4u);
  EXPECT_EQ(load.src, tcemu::Space::GM);
  EXPECT_EQ(load.dst, tcemu::Space::UB);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(out.tensor()[64], t, 128);
  EXPECT_EQ(last().pipe, tcemu::Pipe::MTE3);
  EXPECT_EQ(last().gmAlign, 256u);  // 64 floats into a 512-aligned allocation
  for (int i = 0; i < 256; ++i) EXPECT_EQ(out[i], i >= 64 && i < 192 ? float(i - 64) : 0.0f) << i;
}

// The GM footprint the performance model's L2 reads: which buffer, from where, how many accesses how far apart.
TEST_F(DataCopyTest, TraceRecordsTheGmFootprintOfEachCopy) {
  Gm<float> first(64), in(1024), out(1024, false);
  LocalTensor<float> t = ub<float>(2048);
  // 4 bursts of 2 blocks (64 B), 3 blocks (96 B) apart in GM: a strided read from element 8 of the second buffer.
  DataCopy(t, in.tensor()[8], DataCopyParams(4, 2, 1, 0));
  const tcemu::Instr& load = last();
  EXPECT_EQ(load.gmBlock, tcemu::gmFind(reinterpret_cast<uintptr_t>(in.p_))->id);
  EXPECT_EQ(load.gmBlock, tcemu::gmFind(reinterpret_cast<uintptr_t>(first.p_))->id + 1);  // allocation order
  EXPECT_EQ(load.gmOffset, 32u);
  EXPECT_EQ(load.gmLen, 64u);
  EXPECT_EQ(load.gmStride, 96u);
  EXPECT_EQ(load.gmTouches, 4u);
  EXPECT_FALSE(load.gmIrregular);
  EXPECT_FALSE(load.l2Bypass);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(out.tensor(), t, 64);
  EXPECT_EQ(last().gmTouches, 1u);
  EXPECT_EQ(last().gmLen, 256u);
  EXPECT_EQ(last().gmStride, 0u);
}

// SetL2CacheHint(CACHE_MODE_DISABLE) sends the hinted directions of that tensor's bytes around L2, on this core.
TEST_F(DataCopyTest, L2CacheHintMarksTheCopiesThatGoAroundL2) {
  Gm<float> in(256), out(256, false);
  LocalTensor<float> t = ub<float>(1024);
  in.tensor().SetL2CacheHint<CacheRwMode::READ>(CacheMode::CACHE_MODE_DISABLE);
  out.tensor().SetL2CacheHint<CacheRwMode::READ>(CacheMode::CACHE_MODE_DISABLE);
  DataCopy(t, in.tensor()[64], 64);  // a view of a hinted tensor is hinted too
  EXPECT_TRUE(last().l2Bypass);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(out.tensor(), t, 64);  // hinted for reads only: the write goes through L2
  EXPECT_FALSE(last().l2Bypass);
  in.tensor().SetL2CacheHint(CacheMode::CACHE_MODE_NORMAL);
  SetFlag<HardEvent::MTE3_MTE2>(0);
  WaitFlag<HardEvent::MTE3_MTE2>(0);
  DataCopy(t, in.tensor(), 64);
  EXPECT_FALSE(last().l2Bypass);
}

TEST_F(DataCopyTest, CountNotMultipleOf32BytesIsAnError) {
  Gm<half> in(128);
  LocalTensor<half> t = ub<half>(256);
  EXPECT_EQ(checkMessage([&] { DataCopy(t, in.tensor(), 100); }),
            "DataCopy of 100 half (200 bytes) is not a multiple of 32 bytes: the hardware rounds it down to 192 "
            "bytes and silently drops the last 8; hint: copy a multiple of 16 elements, or use DataCopyPad for the "
            "tail");
}

TEST_F(DataCopyTest, CountErrorNamesTheKernelLine) {
  Gm<float> in(64);
  LocalTensor<float> t = ub<float>(256);
  int line = 0;
  try {
    line = TCEMU_LINE_OF_NEXT();
    DataCopy(t, in.tensor(), 9);
    FAIL() << "no check failed";
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.loc.line, line);
    EXPECT_NE(std::string(e.loc.file).find("datacopy_test.cpp"), std::string::npos);
  }
}

TEST_F(DataCopyTest, StridedParamsCountBlocksOnBothSides) {
  Gm<int32_t> in(64);
  LocalTensor<int32_t> t = ub<int32_t>(512);
  // 3 bursts of 1 block (8 ints); GM gap 1 block, UB gap 2 blocks.
  DataCopy(t, in.tensor(), DataCopyParams(3, 1, 1, 2));
  EXPECT_EQ(last().bursts, 3u);
  EXPECT_EQ(last().burstBytes, 32u);
  EXPECT_EQ(last().bytes, 96u);
  const int32_t* u = t.GetPhyAddr();
  for (int b = 0; b < 3; ++b)
    for (int e = 0; e < 8; ++e) EXPECT_EQ(u[b * 24 + e], b * 16 + e);
  // The UB gaps were not written: reading them is caught.
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(checkMessage([&] { t.GetValue(8); }),
            "GetValue reads UB bytes [32, 36) that nothing wrote: byte 32 (0 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
}

TEST_F(DataCopyTest, StridedCopyOutLeavesGmGapsAlone) {
  Gm<float> in(32), out(64, false);
  LocalTensor<float> t = ub<float>(256);
  DataCopy(t, in.tensor(), 32);
  PipeBarrier<PIPE_ALL>();
  DataCopy(out.tensor(), t, DataCopyParams(2, 2, 0, 1));  // 2 bursts of 16 floats, GM gap 8 floats
  for (int i = 0; i < 16; ++i) EXPECT_EQ(out[i], float(i));
  for (int i = 16; i < 24; ++i) EXPECT_EQ(out[i], 0.0f);
  for (int i = 24; i < 40; ++i) EXPECT_EQ(out[i], float(i - 8));
}

TEST_F(DataCopyTest, BlockCountOutOfRange) {
  Gm<float> in(64);
  LocalTensor<float> t = ub<float>(256);
  EXPECT_EQ(checkMessage([&] { DataCopy(t, in.tensor(), DataCopyParams(0, 1, 0, 0)); }),
            "DataCopy blockCount is 0, outside [1, 4095]; hint: split the copy into several DataCopy calls");
  EXPECT_EQ(checkMessage([&] { DataCopy(t, in.tensor(), DataCopyParams(1, 0, 0, 0)); }),
            "DataCopy blockLen is 0, outside [1, 65535]; hint: blockLen counts 32-byte blocks; split the copy into "
            "several bursts");
}

TEST_F(DataCopyTest, UbAddressMustBe32ByteAligned) {
  Gm<half> in(64);
  LocalTensor<half> t = ub<half>(256);
  EXPECT_EQ(checkMessage([&] { DataCopy(t[8], in.tensor(), 16); }),
            "DataCopy dst address UB+16 is not 32-byte aligned (16 bytes past a boundary); hint: offset tensors by "
            "multiples of 32 bytes");
}

TEST_F(DataCopyTest, GmOutOfBoundsIsCaught) {
  Gm<float> in(64);
  LocalTensor<float> t = ub<float>(512);
  EXPECT_EQ(checkMessage([&] { DataCopy(t, in.tensor()[32], 64); }),
            "DataCopy src reads or writes global memory bytes [128, 384) of a 256-byte GmAlloc allocation: 128 bytes "
            "out of bounds; hint: check the offset and count against the tensor's size");
}

TEST_F(DataCopyTest, UbOverflowIsCaught) {
  Gm<float> in(128);
  LocalTensor<float> t = ub<float>(256);
  EXPECT_EQ(checkMessage([&] { DataCopy(t, in.tensor(), 128); }),
            "DataCopy dst accesses UB bytes [0, 512), outside its buffer [0, 256) (256 bytes past the end); hint: "
            "check the count or offset against the tensor's GetSize()");
}

TEST_F(DataCopyTest, UbToUbRunsOnTheVectorPipe) {
  Gm<int16_t> in(32);
  LocalTensor<int16_t> a = ub<int16_t>(64);
  LocalTensor<int16_t> b = ub<int16_t>(64);
  DataCopy(a, in.tensor(), 32);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  DataCopy(b, a, 32);
  EXPECT_EQ(last().pipe, tcemu::Pipe::V);
  EXPECT_EQ(last().cls, tcemu::OpClass::DmaLocal);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(b.GetPhyAddr()[i], i);
}

TEST_F(DataCopyTest, MissingSyncBetweenCopyInAndCopyOutIsAHazard) {
  Gm<float> in(8), out(8, false);
  LocalTensor<float> t = ub<float>(32);
  DataCopy(t, in.tensor(), 8);
  std::string msg = checkMessage([&] { DataCopy(out.tensor(), t, 8); });
  EXPECT_EQ(msg.rfind("cross-pipe hazard: DataCopy src on pipe MTE3 reads data that DataCopy on pipe MTE2 wrote", 0),
            0u)
      << msg;
}

TEST_F(DataCopyTest, VectorCopiesDoNothingOnACubeCore) {
  tcemu::CoreScope aic(tcemu::CoreKind::AIC);
  Gm<float> in(8);
  LocalTensor<float> t;  // never allocated: the copy must not even look at it
  DataCopy(t, in.tensor(), 8);
  DataCopyPad(t, in.tensor(), DataCopyExtParams(1, 4, 0, 0, 0), DataCopyPadExtParams<float>());
  EXPECT_TRUE(aic.core().trace().empty());
}

class DataCopyCubeTest : public CubeTest {};

TEST_F(DataCopyCubeTest, L1ToUbIsNotAPathOn910B) {
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  TBuf<TPosition::VECCALC> u;
  pipe.InitBuffer(l1, 256);
  pipe.InitBuffer(u, 256);
  LocalTensor<float> a = l1.Get<float>(), b = u.Get<float>();
  EXPECT_EQ(checkMessage([&] { DataCopy(b, a, 64); }),
            "DataCopy from L1 (A1) to UB (VECCALC) is not supported on 910B (dav-c220); hint: copy to GM and back, "
            "or keep the data on the vector core");
}

TEST_F(DataCopyCubeTest, GmToL1AndBackOnTheCubeCore) {
  Gm<float> in(64), out(64, false);
  TPipe pipe;
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 256);
  LocalTensor<float> a = l1.Get<float>();
  DataCopy(a, in.tensor(), 64);
  EXPECT_EQ(core().trace().back().dst, tcemu::Space::L1);
  PipeBarrier<PIPE_ALL>();
  DataCopy(out.tensor(), a, 64);
  EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::MTE3);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], float(i));
}

TEST_F(DataCopyCubeTest, PathsThatDoNotExistAreNamed) {
  Gm<float> g(256);
  TPipe pipe;
  TBuf<TPosition::A2> l0a;
  TBuf<TPosition::CO1> l0c;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2> bt;
  pipe.InitBuffer(l0a, 512);
  pipe.InitBuffer(l0c, 1024);
  pipe.InitBuffer(l1, 256);
  pipe.InitBuffer(bt, 256);
  EXPECT_EQ(checkMessage([&] { DataCopy(l0a.Get<float>(), g.tensor(), 64); }),
            "DataCopy from GM to L0A (position A2): GM copies reach only UB (VECIN/VECOUT/VECCALC) and L1 "
            "(A1/B1/C1); hint: move data into L0A/L0B with LoadData and out of L0C with Fixpipe");
  EXPECT_EQ(checkMessage([&] { DataCopy(g.tensor(), l0c.Get<float>(), 64); }),
            "DataCopy from L0C (position CO1) to GM: only UB (VECOUT) and L1 (A1/B1) copy out with DataCopy; hint: "
            "copy L0C out with Fixpipe");
  EXPECT_EQ(checkMessage([&] { DataCopy(bt.Get<float>(), l1.Get<float>(), 8); }),
            "DataCopy of 8 float (32 bytes) into the bias table is not a multiple of 64 bytes; hint: copy a "
            "multiple of 16 elements");
  EXPECT_EQ(checkMessage([&] { DataCopy(l0a.Get<float>(), l1.Get<half>(), DataCopyParams(1, 1, 0, 0)); }),
            "DataCopy from L1 to L0A with different dtypes (half to float): only L1 (C1) to the bias table (C2) "
            "converts, half to float");
  EXPECT_EQ(checkMessage([&] { DataCopy(bt.Get<half>(), l1.Get<float>(), DataCopyParams(1, 1, 0, 0)); }),
            "DataCopy from C1 to C2 converts only half to float, not float to half");
}

TEST_F(DataCopyCubeTest, HalfToFloatIntoTheBiasTable) {
  Gm<half> g(32);
  TPipe pipe;
  TBuf<TPosition::C1> l1;
  TBuf<TPosition::C2> bt;
  pipe.InitBuffer(l1, 64);
  pipe.InitBuffer(bt, 128);
  DataCopy(l1.Get<half>(), g.tensor(), 32);
  PipeBarrier<PIPE_ALL>();
  DataCopy(bt.Get<float>(), l1.Get<half>(), DataCopyParams(1, 2, 0, 0));  // 2 x 64 bytes of float
  EXPECT_EQ(core().trace().back().pipe, tcemu::Pipe::MTE1);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(bt.Get<float>().GetPhyAddr()[i], float(i));
}

TEST_F(DataCopyTest, LocalPathsOfTheVectorCoreThatDoNotExist) {
  TBuf<TPosition::A1> l1;
  pipe_.InitBuffer(l1, 256);
  LocalTensor<float> u = ub<float>(256);
  Gm<float> g(64);
  EXPECT_EQ(checkMessage([&] { DataCopy(l1.Get<float>(), u, 64); }),
            "DataCopy from UB (VECCALC) to L1 (A1) is not a DataCopy path the emulator supports on 910B (supported "
            "local paths: UB->UB, L1->C2 bias table)");
  EXPECT_EQ(checkMessage([&] {
              DataCopyPad(l1.Get<float>(), g.tensor(), DataCopyExtParams(1, 4, 0, 0, 0), DataCopyPadExtParams<float>());
            }),
            "DataCopyPad from GM to L1 (A1): on 910B DataCopyPad reaches only UB (VECIN/VECOUT); hint: use DataCopy "
            "with Nd2NzParams for L1");
  EXPECT_EQ(checkMessage([&] { DataCopyPad(g.tensor(), l1.Get<float>(), DataCopyExtParams(1, 4, 0, 0, 0)); }),
            "DataCopyPad from L1 (A1) to GM: on 910B DataCopyPad copies out only from UB (VECIN/VECOUT)");
}

// --- DataCopyPad ---------------------------------------------------------------------------------------------------

TEST_F(DataCopyTest, PadGmToUbWithPaddingAndGaps) {
  Gm<half> in(32);
  LocalTensor<half> t = ub<half>(256);
  // 3 rows of 7 halves (14 bytes) read 8 halves apart (GM gap 2 bytes); 1 left and 2 right pad elements make 20
  // bytes, rounded to a 32-byte UB block; UB gap 1 block between rows.
  DataCopyPad(t, in.tensor(), DataCopyExtParams(3, 14, 2, 1, 0), DataCopyPadExtParams<half>(true, 1, 2, half(-9.0f)));
  EXPECT_EQ(last().pipe, tcemu::Pipe::MTE2);
  EXPECT_EQ(last().bursts, 3u);
  EXPECT_EQ(last().burstBytes, 14u);
  const half* u = t.GetPhyAddr();
  for (int r = 0; r < 3; ++r) {
    const half* row = u + r * 32;  // 32-byte block + 32-byte gap
    EXPECT_EQ(f(row[0]), -9.0f);
    for (int e = 0; e < 7; ++e) EXPECT_EQ(f(row[1 + e]), float(r * 8 + e)) << r << "," << e;
    for (int e = 8; e < 16; ++e) EXPECT_EQ(f(row[e]), -9.0f) << "pads and dummies take the pad value";
  }
}

TEST_F(DataCopyTest, PadWithoutPaddingFillsDummiesWithTheFirstElement) {
  Gm<float> in(16);
  LocalTensor<float> t = ub<float>(128);
  DataCopyPad(t, in.tensor()[3], DataCopyExtParams(2, 12, 4, 0, 0), DataCopyPadExtParams<float>());
  const float* u = t.GetPhyAddr();
  // Row 0 is GM floats 3, 4, 5; row 1 starts 16 bytes later: 7, 8, 9. Dummies repeat each row's first element.
  const float want[16] = {3, 4, 5, 3, 3, 3, 3, 3, 7, 8, 9, 7, 7, 7, 7, 7};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(u[i], want[i]) << i;
}

TEST_F(DataCopyTest, SetPadValueFillsPaddingWhenIsPadIsFalse) {
  Gm<int32_t> in(8);
  LocalTensor<int32_t> t = ub<int32_t>(64);
  SetPadValue<int32_t>(-5);
  DataCopyPad(t, in.tensor(), DataCopyExtParams(1, 8, 0, 0, 0), DataCopyPadExtParams<int32_t>(false, 2, 0, 77));
  const int32_t want[8] = {-5, -5, 0, 1, -5, -5, -5, -5};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(t.GetPhyAddr()[i], want[i]) << i;
}

TEST_F(DataCopyTest, OlderPadParamsFormUsesTheSameUnits) {
  Gm<int16_t> in(32);
  LocalTensor<int16_t> t = ub<int16_t>(64);
  DataCopyPad(t, in.tensor(), DataCopyParams(1, 6, 0, 0), DataCopyPadParams(true, 0, 1, 0x7fff));
  const int16_t want[16] = {0,      1,      2,      0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff,
                            0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff, 0x7fff};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(t.GetPhyAddr()[i], want[i]) << i;
}

TEST_F(DataCopyTest, PadUbToGmWritesOnlyBlockLenBytes) {
  Gm<half> in(64), out(32, false);
  LocalTensor<half> t = ub<half>(128);
  DataCopy(t, in.tensor(), 64);
  PipeBarrier<PIPE_ALL>();
  // 2 rows of 5 halves; UB rows 32 bytes apart plus a 1-block gap; GM gap of 4 bytes (2 halves).
  DataCopyPad(out.tensor(), t, DataCopyExtParams(2, 10, 1, 4, 0));
  EXPECT_EQ(last().pipe, tcemu::Pipe::MTE3);
  for (int e = 0; e < 5; ++e) EXPECT_EQ(f(out[e]), float(e));
  EXPECT_EQ(f(out[5]), 0.0f);
  EXPECT_EQ(f(out[6]), 0.0f);
  for (int e = 0; e < 5; ++e) EXPECT_EQ(f(out[7 + e]), float(32 + e)) << "the second UB row starts 64 bytes in";
  EXPECT_EQ(f(out[12]), 0.0f);
}

TEST_F(DataCopyTest, PadBlockLenMustBeWholeElements) {
  Gm<float> in(16);
  LocalTensor<float> t = ub<float>(64);
  EXPECT_EQ(checkMessage(
                [&] { DataCopyPad(t, in.tensor(), DataCopyExtParams(1, 10, 0, 0, 0), DataCopyPadExtParams<float>()); }),
            "DataCopyPad blockLen is 10 bytes, not a multiple of sizeof(float) = 4; hint: blockLen counts bytes, so "
            "pass count * sizeof(float)");
}

TEST_F(DataCopyTest, PadRangesAndPaddingLimits) {
  Gm<half> in(16);
  LocalTensor<half> t = ub<half>(64);
  EXPECT_EQ(checkMessage([&] { DataCopyPad(in.tensor(), t, DataCopyExtParams(4096, 2, 0, 0, 0)); }),
            "DataCopyPad blockCount is 4096, outside [0, 4095]; hint: split the copy into several DataCopyPad calls");
  EXPECT_EQ(checkMessage([&] { DataCopyPad(in.tensor(), t, DataCopyExtParams(1, 2097152, 0, 0, 0)); }),
            "DataCopyPad blockLen is 2097152, outside [0, 2097151]; hint: blockLen counts bytes; split long rows");
  EXPECT_EQ(checkMessage([&] {
              DataCopyPad(t, in.tensor(), DataCopyExtParams(1, 2, 0, 0, 0), DataCopyPadExtParams<half>(true, 17, 0, 0));
            }),
            "DataCopyPad padding of 17 left and 0 right half elements exceeds 32 bytes on a side (at most 16 "
            "elements); hint: pad at most one 32-byte block per side");
}

TEST_F(DataCopyTest, PadWithZeroCountIsANoOp) {
  Gm<half> in(16);
  LocalTensor<half> t = ub<half>(64);
  size_t before = core().trace().size();
  DataCopyPad(t, in.tensor(), DataCopyExtParams(0, 2, 0, 0, 0), DataCopyPadExtParams<half>());
  EXPECT_EQ(core().trace().size(), before);
}

// --- Copy (masked UB -> UB on the vector pipe) ----------------------------------------------------------------------

TEST_F(DataCopyTest, CopyWithAContinuousMaskAndRepeats) {
  Gm<half> in(256);
  LocalTensor<half> a = ub<half>(512), b = ub<half>(1024);
  DataCopy(a, in.tensor(), 256);
  PipeBarrier<PIPE_ALL>();
  // 2 repeats of the first 100 lanes; the destination repeats 16 blocks apart.
  Copy(b, a, 100, 2, CopyRepeatParams(1, 1, 16, 8));
  EXPECT_EQ(last().pipe, tcemu::Pipe::V);
  EXPECT_EQ(last().repeats, 2u);
  for (int r = 0; r < 2; ++r)
    for (int l = 0; l < 100; ++l) EXPECT_EQ(f(b.GetPhyAddr()[r * 256 + l]), float(r * 128 + l)) << r << "," << l;
  PipeBarrier<PIPE_ALL>();
  EXPECT_EQ(checkMessage([&] { b.GetValue(100); }),
            "GetValue reads UB bytes [712, 714) that nothing wrote: byte 712 (0 into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading");
}

TEST_F(DataCopyTest, CopyWithABitMaskTakesOnlyTheSetLanes) {
  Gm<float> in(64), zero(64, false);
  LocalTensor<float> a = ub<float>(256), b = ub<float>(256);
  DataCopy(a, in.tensor(), 64);
  DataCopy(b, zero.tensor(), 64);
  PipeBarrier<PIPE_ALL>();
  const uint64_t mask[2] = {0x5555555555555555ULL, 0};  // even lanes of the 64 a float repeat holds
  Copy(b, a, mask, 1, CopyRepeatParams(1, 1, 8, 8));
  for (int l = 0; l < 64; ++l) EXPECT_EQ(b.GetPhyAddr()[l], l % 2 == 0 ? float(l) : 0.0f) << l;
}

TEST_F(DataCopyTest, CopyChecksItsRepeatSizes) {
  LocalTensor<int16_t> a = ub<int16_t>(256);
  EXPECT_EQ(checkMessage([&] { Copy(a, a, 128, 1, CopyRepeatParams(1, 1, 4096, 8)); }),
            "Copy dstRepeatSize is 4096, outside [0, 4095]; hint: use a repeat stride below 4096 blocks");
  LocalTensor<int8_t> c = ub<int8_t>(256);
  EXPECT_EQ(checkMessage([&] { Copy(c, c, 128, 1, CopyRepeatParams()); }),
            "Copy does not support int8_t on 910B (supported: int16_t, uint16_t, half, bfloat16_t, int32_t, "
            "uint32_t, float)");
}

TEST_F(DataCopyTest, CountFormWithNoElementsIsOutOfRange) {
  Gm<float> in(8);
  LocalTensor<float> t = ub<float>(32);
  EXPECT_EQ(checkMessage([&] { DataCopy(t, in.tensor(), 0); }),
            "DataCopy calCount * sizeof(T) / 32 is 0, outside [1, 65535]; hint: a count-form copy moves 1 to 65535 "
            "blocks of 32 bytes; split larger copies");
}

// --- atomics -------------------------------------------------------------------------------------------------------

TEST_F(DataCopyTest, AtomicAddAccumulatesCopyOuts) {
  Gm<float> in(8), out(8, false);
  for (int i = 0; i < 8; ++i) out[i] = 100.0f;
  LocalTensor<float> t = ub<float>(32);
  DataCopy(t, in.tensor(), 8);
  PipeBarrier<PIPE_ALL>();
  SetAtomicAdd<float>();
  DataCopy(out.tensor(), t, 8);
  DataCopyPad(out.tensor(), t, DataCopyExtParams(1, 16, 0, 0, 0));
  SetAtomicNone();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 100.0f + i + (i < 4 ? i : 0)) << i;
  DataCopy(out.tensor(), t, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], float(i)) << "SetAtomicNone restores plain stores";
}

TEST_F(DataCopyTest, AtomicMaxAndMinCompareInTheAtomicDtype) {
  Gm<int32_t> in(8), out(8, false);
  for (int i = 0; i < 8; ++i) out[i] = 3;
  LocalTensor<int32_t> t = ub<int32_t>(32);
  DataCopy(t, in.tensor(), 8);
  PipeBarrier<PIPE_ALL>();
  SetAtomicMax<int32_t>();
  DataCopy(out.tensor(), t, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], std::max(3, i));
  SetAtomicMin<int32_t>();
  for (int i = 0; i < 8; ++i) out[i] = 3;
  DataCopy(out.tensor(), t, 8);
  SetAtomicNone();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], std::min(3, i));
}

TEST_F(DataCopyTest, AtomicAddOnHalfRoundsOnce) {
  Gm<half> in(16), out(16, false);
  for (int i = 0; i < 16; ++i) {
    in[i] = half(1.0f / 3.0f);
    out[i] = half(2048.0f);
  }
  LocalTensor<half> t = ub<half>(32);
  DataCopy(t, in.tensor(), 16);
  PipeBarrier<PIPE_ALL>();
  SetAtomicAdd<half>();
  DataCopy(out.tensor(), t, 16);
  SetAtomicNone();
  EXPECT_EQ(f(out[0]), 2048.0f);  // 2048 + 0.333 rounds back to 2048 (half spacing is 2 there)
}

TEST_F(DataCopyTest, AtomicDtypeIsChecked) {
  EXPECT_EQ(checkMessage([&] { SetAtomicAdd<uint32_t>(); }),
            "SetAtomicAdd does not support uint32_t on 910B (supported: half, float, int16_t, int32_t, int8_t, "
            "bfloat16_t)");
}

}  // namespace
