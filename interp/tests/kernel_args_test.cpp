// The kernel arguments of `tilecraft interp` and `tilecraft run` (--shape, --attr, --in), checked against the
// program before anything runs, on an in-memory file system.
#include "interp/kernel_args.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "interp/npy.h"
#include "interp/tests/interp_fixture.h"

namespace tilecraft::interp {
namespace {

using testing::exampleText;

class KernelArgsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // add: x, y -> z, all f16[N]; leaky_relu: x -> y (f32[N]) with the f32 attribute slope.
    add_ = checkProgram("add.tile", exampleText("elementwise/add.tile"));
    leaky_ = checkProgram("leaky.tile", exampleText("elementwise/leaky_relu.tile"));
    ASSERT_TRUE(add_->ok() && leaky_->ok());
  }
  static KernelArgFlags flags(std::vector<std::string> shapes, std::vector<std::string> attrs = {},
                              std::vector<std::string> inputs = {}) {
    KernelArgFlags f;
    f.shapes = std::move(shapes);
    f.attrs = std::move(attrs);
    f.inputs = std::move(inputs);
    return f;
  }
  // The error for these flags on add (or leaky_relu), "" when they are accepted.
  std::string error(const KernelArgFlags& flags, bool leaky = false) {
    const CheckedProgram& p = leaky ? *leaky_ : *add_;
    std::string message;
    std::optional<KernelArgs> args = parseKernelArgs(p, p.sema.kernels[0], flags, files_, &message);
    return args ? "" : message;
  }
  std::unique_ptr<CheckedProgram> add_, leaky_;
  MemoryFiles files_;
};

TEST_F(KernelArgsTest, IntegerAttributesAreWrittenAsWholeNumbers) {
  std::unique_ptr<CheckedProgram> adam = checkProgram("adam.tile", exampleText("optimizer/adam.tile"));
  ASSERT_TRUE(adam->ok());
  auto errorOf = [&](const std::string& step) {
    std::string message;
    KernelArgFlags f = flags({"N=4"}, {"lr=0.1", "beta1=0.9", "beta2=0.99", "eps=1e-8", "step=" + step}, {});
    return parseKernelArgs(*adam, adam->sema.kernels[0], f, files_, &message) ? "" : message;
  };
  EXPECT_EQ(errorOf("-3"), "");
  EXPECT_EQ(errorOf("2.0"),
            "--attr step=2.0: 'step' is an integer attribute (i32): write a whole number in int64 "
            "without a decimal point or exponent (got '2.0')");
  EXPECT_EQ(errorOf("1e3"),
            "--attr step=1e3: 'step' is an integer attribute (i32): write a whole number in int64 "
            "without a decimal point or exponent (got '1e3')");
  EXPECT_EQ(errorOf("two"), "--attr step=two: 'two' is not a number");
}

TEST_F(KernelArgsTest, SizesAreWholeNumbersWithinInt64AndTheTensorLimit) {
  EXPECT_EQ(error(flags({"N=0"})), "");
  EXPECT_EQ(error(flags({"N=1000"})), "");
  EXPECT_EQ(error(flags({"N=99999999999999999999"})),
            "--shape N=99999999999999999999: 99999999999999999999 is past the largest size, 9223372036854775807");
  EXPECT_EQ(error(flags({"N=-3"})), "--shape N=-3: a size is a non-negative integer");
  EXPECT_EQ(error(flags({"N=1e3"})), "--shape N=1e3: a size is a non-negative integer");
  EXPECT_EQ(error(flags({"N=2.5"})), "--shape N=2.5: a size is a non-negative integer");
  EXPECT_EQ(error(flags({"N=ten"})), "--shape N=ten: 'ten' is not a number");
  EXPECT_EQ(error(flags({"N=1000000000000"})),
            "tensor 'x' would be f16[1000000000000]: more than the 268435456 elements a tensor may have");
}

TEST_F(KernelArgsTest, DuplicateAndUnknownNamesAreNamed) {
  EXPECT_EQ(error(flags({"N=16", "N=32"})), "--shape N=32: 'N' is given twice (--shape N=16 and --shape N=32)");
  EXPECT_EQ(error(flags({"N=16", "M=3"})), "--shape M=3: the program has no dim 'M' (its dims: N)");
  EXPECT_EQ(error(flags({})), "missing sizes: pass --shape N=N");
  EXPECT_EQ(error(flags({"N=4"}, {"slope=0.1", "slope=0.2"}), true),
            "--attr slope=0.2: 'slope' is given twice (--attr slope=0.1 and --attr slope=0.2)");
  EXPECT_EQ(error(flags({"N=4"}, {"alpha=1"}), true),
            "--attr alpha=1: kernel 'leaky_relu' has no attribute 'alpha' (its attributes: slope)");
  EXPECT_EQ(error(flags({"N=4"}, {"slope"}), true), "--attr 'slope' is not NAME=VALUE (e.g. --attr alpha=0.5)");
}

TEST_F(KernelArgsTest, AttributesAreFinite) {
  EXPECT_EQ(error(flags({"N=4"}, {"slope=0.25"}), true), "");
  EXPECT_EQ(error(flags({"N=4"}, {"slope=inf"}), true), "--attr slope=inf: 'inf' is not a number");
  EXPECT_EQ(error(flags({"N=4"}, {"slope=1e999"}), true), "--attr slope=1e999: '1e999' is not a finite number");
  EXPECT_EQ(error(flags({"N=4"}, {"slope=nan"}), true), "--attr slope=nan: 'nan' is not a number");
}

TEST_F(KernelArgsTest, InputsMustBeInputsOfTheirExactShapeAndDtype) {
  files_.files["x.npy"] = encodeNpy(HostTensor::zeros(dsl::DType::F16, {1000}));
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"x=x.npy"})), "");
  // A (10, 100) file holds the same number of bytes as a (1000,) one: the shape is what is compared.
  files_.files["wide.npy"] = encodeNpy(HostTensor::zeros(dsl::DType::F16, {10, 100}));
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"x=wide.npy"})),
            "--in x=wide.npy: the file holds f16[10, 100] but tensor 'x' is f16[1000]");
  files_.files["f32.npy"] = encodeNpy(HostTensor::zeros(dsl::DType::F32, {1000}));
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"x=f32.npy"})),
            "--in x=f32.npy: the file holds f32[1000] but tensor 'x' is f16[1000]");
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"z=x.npy"})),
            "--in z=x.npy: 'z' is an output of kernel 'add', not an input (its inputs: x, y)");
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"q=x.npy"})),
            "--in q=x.npy: kernel 'add' reads no tensor 'q' (its inputs: x, y)");
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"x=x.npy", "x=x.npy"})),
            "--in x=x.npy: 'x' is given twice (--in x=x.npy and --in x=x.npy)");
  EXPECT_EQ(error(flags({"N=1000"}, {}, {"x"})), "--in 'x' is not NAME=FILE (e.g. --in x=x.npy)");
}

TEST_F(KernelArgsTest, AHeaderClaimingHugeDataIsRefusedUnread) {
  // The header says 10^12 elements; the file is small. Reading stops at what x needs, and the shape is compared.
  std::string huge = encodeNpy(HostTensor::zeros(dsl::DType::F16, {4}));
  huge.replace(huge.find("(4,)"), 4, "(1000000000000,)");
  files_.files["huge.npy"] = huge;
  EXPECT_EQ(error(flags({"N=4"}, {}, {"x=huge.npy"})),
            "--in x=huge.npy: the file holds f16[1000000000000] but tensor 'x' is f16[4]");
  // A file far larger than the tensor is not read whole.
  files_.files["big.npy"] = encodeNpy(HostTensor::zeros(dsl::DType::F16, {100000}));
  EXPECT_EQ(error(flags({"N=4"}, {}, {"x=big.npy"})),
            "--in x=big.npy: 'big.npy' has 200128 bytes, more than the 65555 it may have");
}

TEST_F(KernelArgsTest, RawFilesHoldExactlyTheTensorsBytes) {
  files_.files["x.bin"] = std::string(8, '\0');
  EXPECT_EQ(error(flags({"N=4"}, {}, {"x=x.bin"})), "");
  files_.files["short.bin"] = std::string(7, '\0');
  EXPECT_EQ(error(flags({"N=4"}, {}, {"x=short.bin"})),
            "--in x=short.bin: tensor 'x' is f16[4], 8 bytes of raw data, but the file has 7");
  files_.files["fake.npy"] = std::string(8, '\0');
  EXPECT_EQ(error(flags({"N=4"}, {}, {"x=fake.npy"})), "--in x=fake.npy: not a .npy file (bad magic)");
}

TEST(NpyHeader, MalformedAndOversizedShapesAreRefused) {
  std::string error;
  // A version 1.0 file of 3 f32 zeros whose header says `shape`, its length field kept right.
  auto withShape = [&](const std::string& shape) {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string b("\x93NUMPY\x01\x00", 8);
    b += static_cast<char>(header.size() & 0xff);
    b += static_cast<char>(header.size() >> 8);
    return b + header + std::string(12, '\0');
  };
  ASSERT_TRUE(decodeNpy(withShape("(3,)"), &error)) << error;
  EXPECT_FALSE(parseNpyHeader(withShape("(-3,)"), &error));
  EXPECT_EQ(error, "malformed .npy header: shape (-3,) is not a tuple of sizes");
  EXPECT_FALSE(parseNpyHeader(withShape("(99999999999999999999,)"), &error));
  EXPECT_EQ(error, "malformed .npy header: shape (99999999999999999999,) is not a tuple of sizes");
  EXPECT_FALSE(parseNpyHeader(withShape("(4294967296, 4294967296)"), &error));
  EXPECT_EQ(error, "the .npy shape (4294967296, 4294967296) is too large");
  EXPECT_FALSE(parseNpyHeader(withShape("(3.0,)"), &error));
  EXPECT_FALSE(decodeNpy(withShape("(3,)junk"), &error));
  EXPECT_EQ(error.rfind("malformed .npy header: {'descr': '<f4', 'fortran_order': False, 'shape': (3,)junk, }", 0), 0u)
      << error;
  std::optional<NpyHeader> scalar = parseNpyHeader(withShape("()"), &error);
  ASSERT_TRUE(scalar) << error;
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->dataBytes, 4u);  // one element: the file's 12 bytes are then the wrong count
  EXPECT_FALSE(decodeNpy(withShape("()"), &error));
  EXPECT_EQ(error, "a f32[] array needs 4 data bytes but the file has 12");
}

}  // namespace
}  // namespace tilecraft::interp
