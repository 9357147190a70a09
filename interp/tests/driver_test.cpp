// `tilecraft interp` through its driver, on an in-memory file system.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "interp/driver.h"
#include "interp/npy.h"
#include "interp/tests/interp_fixture.h"
#include "interp/numeric.h"
#include "interp/random.h"

namespace tilecraft::interp {
namespace {

using testing::exampleText;

struct Result {
  int status;
  std::string out;
  std::string err;
};

Result interp(const InterpOptions& options, MemoryFiles& files) {
  std::ostringstream out, err;
  int status = runInterp(options, files, out, err);
  return {status, out.str(), err.str()};
}

InterpOptions addOptions() {
  InterpOptions o;
  o.file = "add.tile";
  o.shapes = {"N=10"};
  o.seed = 3;
  o.outDir = "o";
  return o;
}

TEST(InterpDriver, WritesEachOutputAsNpyComputedFromTheSeededInputs) {
  MemoryFiles files;
  files.files["add.tile"] = exampleText("elementwise/add.tile");
  Result r = interp(addOptions(), files);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_TRUE(files.files.count("o/z.npy"));
  std::string error;
  auto z = decodeNpy(files.files["o/z.npy"], &error);
  ASSERT_TRUE(z) << error;
  // x is parameter 0 and y parameter 1: their streams are streamSeed(3, 0) and streamSeed(3, 1).
  HostTensor x = randomTensor(dsl::DType::F16, {10}, defaultRange(dsl::DType::F16), streamSeed(3, 0));
  HostTensor y = randomTensor(dsl::DType::F16, {10}, defaultRange(dsl::DType::F16), streamSeed(3, 1));
  for (size_t i = 0; i < 10; ++i) EXPECT_EQ(z->data[i], roundTo(x.data[i] + y.data[i], dsl::DType::F16));
  EXPECT_EQ(r.out.rfind("output z f16[10] min ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(" -> o/z.npy\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(InterpDriver, SavesInputsAndTakesGivenInputs) {
  MemoryFiles files;
  files.files["add.tile"] = exampleText("elementwise/add.tile");
  HostTensor ones{dsl::DType::F16, {10}, std::vector<double>(10, 1.0)};
  files.files["ones.npy"] = encodeNpy(ones);
  InterpOptions o = addOptions();
  o.inputs = {"x=ones.npy", "y=ones.npy"};
  o.saveInputs = true;
  Result r = interp(o, files);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(files.files["o/x.in.npy"], files.files["ones.npy"]);
  std::string error;
  EXPECT_EQ(decodeNpy(files.files["o/z.npy"], &error)->data, std::vector<double>(10, 2.0));
  EXPECT_NE(r.out.find("input  x f16[10] min 1 max 1 mean 1 -> o/x.in.npy\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("output z f16[10] min 2 max 2 mean 2 -> o/z.npy\n"), std::string::npos) << r.out;
}

TEST(InterpDriver, RangesBoundTheGeneratedInputs) {
  MemoryFiles files;
  files.files["add.tile"] = exampleText("elementwise/add.tile");
  InterpOptions o = addOptions();
  o.ranges = {"x=-3:-2", "y=5:6"};
  o.outDir.clear();
  Result r = interp(o, files);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(files.files.size() == 1);  // nothing written without --out
  double lo = 0, hi = 0;
  ASSERT_EQ(std::sscanf(r.out.c_str(), "output z f16[10] min %lf max %lf", &lo, &hi), 2) << r.out;
  EXPECT_GE(lo, 2);
  EXPECT_LE(hi, 4);
}

struct UsageCase {
  std::vector<std::string> shapes, attrs, inputs, ranges;
  std::string file = "leaky.tile";
  std::string message;
};

TEST(InterpDriver, UsageErrorsSayWhatIsWrong) {
  MemoryFiles files;
  files.files["leaky.tile"] = exampleText("elementwise/leaky_relu.tile");
  files.files["bad.npy"] = "not numpy";
  const char* kernel =
      "(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n    for t in tiles(N, size=64):\n"
      "        with copyin:\n            v = load(x[t])\n        with copyout:\n            store(y[t], v)\n";
  files.files["two.tile"] = std::string("N = dim()\n\n@kernel\ndef a") + kernel + "\n@kernel\ndef b" + kernel;
  const UsageCase cases[] = {
      {{"N1000"}, {}, {}, {}, "leaky.tile", "error: --shape 'N1000' is not NAME=VALUE (e.g. --shape N=1000)\n"},
      {{"M=3"}, {}, {}, {}, "leaky.tile", "error: --shape M=3: the program has no dim 'M' (its dims: N)\n"},
      {{"N=-3"}, {}, {}, {}, "leaky.tile", "error: --shape N=-3: a size is a non-negative integer\n"},
      {{"N=abc"}, {}, {}, {}, "leaky.tile", "error: --shape N=abc: 'abc' is not a number\n"},
      {{}, {}, {}, {}, "leaky.tile", "error: missing sizes: pass --shape N=N\n"},
      {{"N=4"},
       {"alpha=2"},
       {},
       {},
       "leaky.tile",
       "error: --attr alpha=2: kernel 'leaky_relu' has no attribute 'alpha' (its attributes: slope)\n"},
      {{"N=4"},
       {},
       {},
       {"y=0:1"},
       "leaky.tile",
       "error: --range y=0:1: kernel 'leaky_relu' reads no tensor 'y' (its inputs: x)\n"},
      {{"N=4"}, {}, {}, {"x=1"}, "leaky.tile", "error: --range x=1: the range is LO:HI (e.g. x=-1:1)\n"},
      {{"N=4"}, {}, {}, {"x=2:1"}, "leaky.tile", "error: --range x=2:1: LO is above HI\n"},
      {{"N=4"},
       {},
       {"x=nope.npy"},
       {},
       "leaky.tile",
       "error: --input x=nope.npy: cannot read 'nope.npy': No such file or directory\n"},
      {{"N=4"}, {}, {}, {}, "missing.tile", "error: cannot read 'missing.tile': No such file or directory\n"},
      {{"N=4"}, {}, {"x=bad.npy"}, {}, "leaky.tile", "error: --input x=bad.npy: not a .npy file (bad magic)\n"},
      {{"N=4"}, {}, {}, {}, "two.tile", "error: two.tile has 2 kernels; choose one with --kernel (a, b)\n"},
  };
  for (const UsageCase& c : cases) {
    InterpOptions o;
    o.file = c.file;
    o.shapes = c.shapes;
    o.attrs = c.attrs;
    o.inputs = c.inputs;
    o.ranges = c.ranges;
    Result r = interp(o, files);
    EXPECT_EQ(r.status, 2) << c.message;
    EXPECT_EQ(r.err, c.message);
    EXPECT_EQ(r.out, "");
  }
  InterpOptions o;
  o.file = "two.tile";
  o.kernel = "c";
  EXPECT_EQ(interp(o, files).err, "error: two.tile has no kernel 'c' (kernels: a, b)\n");
  o.kernel = "b";
  o.shapes = {"N=3"};
  EXPECT_EQ(interp(o, files).status, 0);
}

TEST(InterpDriver, ProgramAndRunTimeErrorsExitOneWithDiagnostics) {
  MemoryFiles files;
  files.files["bad.tile"] = "N = dim()\n\n@kernel\ndef k(x: Tensor[f32, (N,)]):\n    y = nope\n";
  InterpOptions o;
  o.file = "bad.tile";
  Result r = interp(o, files);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("bad.tile:5:9: error: name 'nope' is not defined"), std::string::npos) << r.err;

  files.files["emb.tile"] = exampleText("gather/embedding.tile");
  HostTensor ids{dsl::DType::I32, {2}, {0, 9}};
  files.files["ids.npy"] = encodeNpy(ids);
  o.file = "emb.tile";
  o.shapes = {"T=2", "V=4", "D=3"};
  o.inputs = {"ids=ids.npy"};
  r = interp(o, files);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("emb.tile:13:31: error: gather index 9 (element 0 of 'idx') is out of range for dimension 0 "
                       "of 'table' (extent 4)"),
            std::string::npos)
      << r.err;
  // An input of the wrong shape is refused before the run, as a usage error naming both shapes.
  o.inputs = {"ids=ids.npy", "table=ids.npy"};
  r = interp(o, files);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: --input table=ids.npy: the file holds i32[2] but tensor 'table' is f16[4, 3]\n");
}

}  // namespace
}  // namespace tilecraft::interp
