// .npy round trips, seeded generation and the comparison rule.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "interp/compare.h"
#include "interp/npy.h"
#include "interp/numeric.h"
#include "interp/random.h"

namespace tilecraft::interp {
namespace {

using dsl::DType;

TEST(Npy, EveryDTypeRoundTripsWithItsShape) {
  for (DType dtype : {DType::F16, DType::BF16, DType::F32, DType::I8, DType::U8, DType::I16, DType::I32, DType::I64}) {
    HostTensor t = randomTensor(dtype, {3, 5}, dsl::isFloat(dtype) ? ValueRange{-100, 100} : defaultRange(dtype), 7);
    std::string bytes = encodeNpy(t);
    EXPECT_EQ((bytes.size() - 15 * static_cast<size_t>(dsl::dtypeBits(dtype) / 8)) % 64, 0u) << dtypeName(dtype);
    std::string error;
    auto back = decodeNpy(bytes, &error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->dtype, dtype);
    EXPECT_EQ(back->shape, t.shape);
    EXPECT_EQ(back->data, t.data) << dtypeName(dtype);
  }
}

TEST(Npy, HeaderIsWhatNumpyWrites) {
  HostTensor t = HostTensor::zeros(DType::F16, {4});
  std::string bytes = encodeNpy(t);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_NE(bytes.find("{'descr': '<f2', 'fortran_order': False, 'shape': (4,), }"), std::string::npos);
  EXPECT_EQ(bytes[9 + static_cast<unsigned char>(bytes[8])], '\n');
  EXPECT_NE(encodeNpy(HostTensor::zeros(DType::BF16, {2, 3})).find("'descr': '<V2'"), std::string::npos);
  EXPECT_NE(encodeNpy(HostTensor::zeros(DType::I32, {2, 3})).find("'shape': (2, 3)"), std::string::npos);
}

TEST(Npy, F16IsStoredAsItsBitPattern) {
  HostTensor t{DType::F16, {2}, {1.0, -2.0}};
  std::string bytes = encodeNpy(t);
  std::string data = bytes.substr(bytes.size() - 4);
  EXPECT_EQ(data, std::string("\x00\x3C\x00\xC0", 4));
}

// bf16 has no NumPy type: a NumPy user saves the uint16 bit patterns viewed as 'V2', and np.save writes '|V2'.
// data/bf16_numpy_v2.npy is such a file (np.save of [[1, -2], [0.5, 3]] as bf16 bits .view('V2')).
TEST(Npy, Bf16FromNumpyIsReadWithEitherByteOrderMark) {
  std::ifstream in(std::filesystem::path(TILECRAFT_SOURCE_DIR) / "interp/tests/data/bf16_numpy_v2.npy",
                   std::ios::binary);
  ASSERT_TRUE(in);
  std::string numpyBytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_NE(numpyBytes.find("'descr': '|V2'"), std::string::npos);
  std::string littleBytes = numpyBytes;
  littleBytes.replace(littleBytes.find("|V2"), 3, "<V2");
  for (const std::string& bytes : {numpyBytes, littleBytes}) {
    std::string error;
    std::optional<HostTensor> t = decodeNpy(bytes, &error);
    ASSERT_TRUE(t) << error;
    EXPECT_EQ(t->dtype, DType::BF16);
    EXPECT_EQ(t->shape, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(t->data, (std::vector<double>{1.0, -2.0, 0.5, 3.0}));
  }
  std::string error;
  std::string bigEndian = numpyBytes;
  bigEndian.replace(bigEndian.find("|V2"), 3, ">V2");
  EXPECT_FALSE(decodeNpy(bigEndian, &error));
  EXPECT_EQ(error,
            "unsupported .npy dtype '>V2' (supported: <f2, <V2 or |V2 (bf16), <f4, |i1, |u1, <i2, <i4, <i8, |b1)");
}

// data/c64_numpy.npy's bytes ("" when it cannot be read).
std::string complex64File() {
  std::ifstream in(std::filesystem::path(TILECRAFT_SOURCE_DIR) / "interp/tests/data/c64_numpy.npy", std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// complex64 has no DType: a caller that asks for it gets the array as it lies in memory, f32 (real, imaginary) pairs
// in a trailing dimension 2. data/c64_numpy.npy is np.save of np.array([[1+2j, -3.5+0.25j, -1j]], np.complex64).
TEST(Npy, Complex64IsReadAndWrittenAsFloatPairsWhenAskedFor) {
  std::string numpyBytes = complex64File();
  ASSERT_FALSE(numpyBytes.empty());
  std::string error;
  bool complex64 = false;
  std::optional<HostTensor> t = decodeNpy(numpyBytes, &error, &complex64);
  ASSERT_TRUE(t) << error;
  EXPECT_TRUE(complex64);
  EXPECT_EQ(t->dtype, DType::F32);
  EXPECT_EQ(t->shape, (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(t->data, (std::vector<double>{1, 2, -3.5, 0.25, 0, -1}));
  // Written back, it is the file NumPy wrote, byte for byte.
  EXPECT_EQ(encodeNpy(*t, true), numpyBytes);
  // A one-dimensional complex array keeps NumPy's "(n,)".
  std::string flat = encodeNpy(HostTensor{DType::F32, {2, 2}, {1, 2, 3, 4}}, true);
  EXPECT_NE(flat.find("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }"), std::string::npos);
  // Any other file read by such a caller says it is not complex.
  complex64 = true;
  ASSERT_TRUE(decodeNpy(encodeNpy(HostTensor::zeros(DType::F32, {2})), &error, &complex64)) << error;
  EXPECT_FALSE(complex64);
}

TEST(Npy, Complex64FilesAreRefusedWithTheReason) {
  std::string numpyBytes = complex64File();
  ASSERT_FALSE(numpyBytes.empty());
  std::string error;
  bool complex64 = false;
  // A caller that takes no complex tensors (the DSL's) is told who does.
  EXPECT_FALSE(decodeNpy(numpyBytes, &error));
  EXPECT_EQ(error,
            "complex64 .npy arrays ('<c8') are read only by `tilecraft project run`: no tensor dtype here is complex");
  EXPECT_FALSE(parseNpyHeader(numpyBytes, &error));
  // Truncated data is counted in complex elements, as the file holds them.
  EXPECT_FALSE(decodeNpy(numpyBytes.substr(0, numpyBytes.size() - 4), &error, &complex64));
  EXPECT_EQ(error, "a c64[1, 3] array needs 24 data bytes but the file has 20");
  std::string wide = numpyBytes;
  wide.replace(wide.find("<c8"), 3, "<c16");
  EXPECT_FALSE(decodeNpy(wide, &error, &complex64));
  EXPECT_EQ(error,
            "complex128 .npy arrays ('<c16') are not supported; save the array as complex64 ('<c8': "
            ".astype(numpy.complex64))");
  std::string bigEndian = numpyBytes;
  bigEndian.replace(bigEndian.find("<c8"), 3, ">c8");
  EXPECT_FALSE(decodeNpy(bigEndian, &error, &complex64));
  EXPECT_EQ(error,
            "unsupported .npy dtype '>c8' (supported: <f2, <V2 or |V2 (bf16), <f4, |i1, |u1, <i2, <i4, <i8, |b1, <c8 "
            "(complex64))");
}

TEST(Npy, BadFilesAreRejectedWithTheReason) {
  std::string error;
  EXPECT_FALSE(decodeNpy("hello", &error));
  EXPECT_EQ(error, "not a .npy file (bad magic)");
  std::string bytes = encodeNpy(HostTensor::zeros(DType::F32, {3}));
  EXPECT_FALSE(decodeNpy(bytes.substr(0, bytes.size() - 1), &error));
  EXPECT_EQ(error, "a f32[3] array needs 12 data bytes but the file has 11");
  std::string f64 = bytes;
  f64.replace(f64.find("<f4"), 3, "<f8");
  EXPECT_FALSE(decodeNpy(f64, &error));
  EXPECT_EQ(error,
            "unsupported .npy dtype '<f8' (supported: <f2, <V2 or |V2 (bf16), <f4, |i1, |u1, <i2, <i4, <i8, |b1)");
  EXPECT_FALSE(decodeNpy(bytes.substr(0, 20), &error));
  EXPECT_EQ(error, "truncated .npy header");
  std::string v9 = bytes;
  v9[6] = 9;
  EXPECT_FALSE(decodeNpy(v9, &error));
  EXPECT_EQ(error, "unsupported .npy version 9");
  std::string noShape = bytes;
  noShape.replace(noShape.find("'shape'"), 7, "'shapf'");
  EXPECT_FALSE(decodeNpy(noShape, &error));
  EXPECT_EQ(error.rfind("malformed .npy header: {'descr': '<f4', 'fortran_order': False, 'shapf': (3,), }", 0), 0u)
      << error;
  HostTensor big{DType::I64, {1}, {0}};
  std::string i64 = encodeNpy(big);
  int64_t huge = (int64_t{1} << 53) + 1;
  i64.replace(i64.size() - 8, 8, std::string(reinterpret_cast<const char*>(&huge), 8));
  EXPECT_FALSE(decodeNpy(i64, &error));
  EXPECT_EQ(error, "i64 element 0 is 9007199254740993, beyond the +-2^53 the reference holds exactly");
  std::string fortran = bytes;
  fortran.replace(fortran.find("False"), 5, "True ");
  EXPECT_FALSE(decodeNpy(fortran, &error));
  EXPECT_EQ(error, "Fortran-order .npy arrays are not supported (save with a C-contiguous array)");
}

TEST(Random, SplitMix64MatchesItsReferenceSequence) {
  // The first outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(rng.next(), 0x06C45D188009454Full);
}

TEST(Random, TensorsAreDeterministicInRangeAndRoundedToTheirDType) {
  HostTensor a = randomTensor(DType::F16, {1000}, {-1, 1}, streamSeed(42, 0));
  HostTensor b = randomTensor(DType::F16, {1000}, {-1, 1}, streamSeed(42, 0));
  HostTensor c = randomTensor(DType::F16, {1000}, {-1, 1}, streamSeed(42, 1));
  EXPECT_EQ(a.data, b.data);
  EXPECT_NE(a.data, c.data);
  for (double v : a.data) {
    EXPECT_GE(v, -1);
    EXPECT_LE(v, 1);
    EXPECT_EQ(roundTo(v, DType::F16), v);
  }
  HostTensor i = randomTensor(DType::I32, {1000}, {0, 9}, 3);
  bool sawLo = false, sawHi = false;
  for (double v : i.data) {
    EXPECT_TRUE(v >= 0 && v <= 9 && v == std::trunc(v));
    sawLo = sawLo || v == 0;
    sawHi = sawHi || v == 9;
  }
  EXPECT_TRUE(sawLo && sawHi);
}

TEST(Compare, FloatsPassWithinTheDTypeScaledToleranceAndFailBeyondIt) {
  HostTensor ref{DType::F16, {4}, {1, 2, 0.001, 100}};
  HostTensor got = ref;
  got.data[3] = 100.0625;  // relative error 6.25e-4 < 10 * 2^-10, mean 1.6e-4 < 2^-10
  auto r = compare(ref, got, Tolerance::forDType(DType::F16));
  EXPECT_TRUE(r.pass) << r.message;
  got.data[1] = 2.05;  // 2.5e-2 > 10 tau
  r = compare(ref, got, Tolerance::forDType(DType::F16));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worstIndex, 1);
  EXPECT_EQ(r.message,
            "1 of 4 elements out of tolerance; mean rel error 0.00641 (limit 0.000977), max 0.025 at [1] "
            "(got 2.05, want 2)");
}

TEST(Compare, IntegersMustBeExactAndNaNPositionsMustMatch) {
  HostTensor ref{DType::I32, {2, 2}, {1, 2, 3, 4}};
  HostTensor got = ref;
  EXPECT_TRUE(compare(ref, got, Tolerance::forDType(DType::I32)).pass);
  got.data[3] = 5;
  auto r = compare(ref, got, Tolerance::forDType(DType::I32));
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.message,
            "1 of 4 elements out of tolerance; mean rel error 0.0625 (limit 0), max 0.25 at [1, 1] (got 5, want 4)");
  HostTensor fref{DType::F32, {2}, {NAN, 1}};
  HostTensor fgot{DType::F32, {2}, {1, 1}};
  EXPECT_FALSE(compare(fref, fgot, Tolerance::forDType(DType::F32)).pass);
  fgot.data[0] = NAN;
  EXPECT_TRUE(compare(fref, fgot, Tolerance::forDType(DType::F32)).pass);
  EXPECT_EQ(compare(fref, HostTensor{DType::F32, {3}, {0, 0, 0}}, Tolerance::forDType(DType::F32)).message,
            "got f32[3] but the reference is f32[2]");
}

}  // namespace
}  // namespace tilecraft::interp
