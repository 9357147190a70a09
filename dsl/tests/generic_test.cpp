// Generic programs (dsl/generic.h) through the front end's driver: each instantiation is checked and printed, a
// diagnostic names its instantiation, and --param bindings are validated against the declarations.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "dsl/driver.h"

namespace tilecraft::dsl {
namespace {

// A row kernel over T with an f32 compute type for bf16 and a const tile size.
constexpr const char* kRowKernel = R"(T = dtype(f16, bf16, f32)
C = f32 if T == bf16 else T
S = const(4)
M = dim()
N = dim(max=1024)

@kernel
def rows(x: Tensor[T, (M, N)], y: Tensor[T, (M, N)], alpha: f32 = 2.0):
    part = split(M, cores=vector_cores())
    for r in tiles(part, size=S):
        with copyin:
            h = load(x[r, :])
        with compute:
            v = cast(h, C) * alpha
        with copyout:
            store(y[r, :], cast(v, T))
)";

class GenericTest : public ::testing::Test {
 protected:
  void TearDown() override { std::remove(path_.c_str()); }
  int run(const std::string& text, std::vector<std::string> params = {}, const std::string& emit = "ast") {
    path_ = ::testing::TempDir() + "generic_test.tile";
    std::ofstream(path_) << text;
    out_.str("");
    err_.str("");
    CompileOptions options;
    options.file = path_;
    options.emit = emit;
    options.params = std::move(params);
    return runCompile(options, out_, err_);
  }
  size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  }

  std::string path_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(GenericTest, EveryInstantiationIsCheckedAndPrinted) {
  ASSERT_EQ(run(kRowKernel), 0) << err_.str();
  std::string out = out_.str();
  EXPECT_EQ(out.rfind("# instantiation T=f16, S=4\n", 0), 0u) << out;
  EXPECT_NE(out.find("# instantiation T=bf16, S=4\n"), std::string::npos);
  EXPECT_NE(out.find("# instantiation T=f32, S=4\n"), std::string::npos);
  EXPECT_EQ(count(out, "# instantiation"), 3u);
  // The parameters leave the module: the kernel reads concrete dtypes, the const is its value.
  EXPECT_EQ(out.find("ConstDef T"), std::string::npos);
  EXPECT_NE(out.find("ConstDef S"), std::string::npos);
  EXPECT_NE(out.find("Param x"), std::string::npos);
  EXPECT_NE(out.find("bf16[M, N] in GM"), std::string::npos) << out;
}

TEST_F(GenericTest, ComputeTypeFollowsTheParameter) {
  ASSERT_EQ(run(kRowKernel, {"T=bf16"}), 0) << err_.str();
  // bf16 rows are computed in f32 (C = f32) and cast back.
  EXPECT_NE(out_.str().find("f32[r, N] in UB"), std::string::npos) << out_.str();
  ASSERT_EQ(run(kRowKernel, {"T=f16"}), 0) << err_.str();
  EXPECT_EQ(out_.str().find("f32[r, N] in UB"), std::string::npos) << out_.str();
  EXPECT_EQ(out_.str().rfind("# instantiation T=f16, S=4\n", 0), 0u);
}

TEST_F(GenericTest, SameDTypeCastIsTheValueItself) {
  // For T=f16 (C = f16) both casts are to the value's own dtype: the checked program has no cast left.
  ASSERT_EQ(run(kRowKernel, {"T=f16"}), 0) << err_.str();
  EXPECT_EQ(out_.str().find("Name cast"), std::string::npos) << out_.str();
  ASSERT_EQ(run(kRowKernel, {"T=bf16"}), 0) << err_.str();
  EXPECT_EQ(count(out_.str(), "Name cast"), 2u) << out_.str();
}

// solutions/mse_loss/mse_loss.tile's f32 instantiation fits UB only because its two casts cost no buffer.
TEST_F(GenericTest, SameDTypeCastsCostNoBuffer) {
  std::ifstream file(std::string(TILECRAFT_SOURCE_DIR) + "/solutions/mse_loss/mse_loss.tile");
  std::stringstream text;
  text << file.rdbuf();
  ASSERT_EQ(run(text.str(), {"T=f32"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("peak bytes: UB 164960/196608"), std::string::npos) << out_.str();
  EXPECT_EQ(out_.str().find("Name cast"), std::string::npos);
}

TEST_F(GenericTest, ConstParameterBindsAtInstantiation) {
  ASSERT_EQ(run(kRowKernel, {"T=f32", "S=8"}), 0) << err_.str();
  EXPECT_EQ(out_.str().rfind("# instantiation T=f32, S=8\n", 0), 0u);
  EXPECT_NE(out_.str().find("IntLit 8"), std::string::npos) << out_.str();
}

TEST_F(GenericTest, DiagnosticNamesItsInstantiation) {
  // f16 -> bf16 has no direct cast: only the instantiation T=bf16 fails.
  std::string text = R"(T = dtype(f16, bf16)
N = dim()

@kernel
def k(x: Tensor[f16, (N,)], y: Tensor[T, (N,)]):
    part = split(N, cores=vector_cores())
    for t in tiles(part, size=256):
        with copyin:
            v = load(x[t])
        with compute:
            w = cast(v, T)
        with copyout:
            store(y[t], w)
)";
  EXPECT_EQ(run(text), 1);
  EXPECT_EQ(out_.str(), "");
  EXPECT_NE(err_.str().find("generic_test.tile:11:17: error: no direct cast from f16 to bf16 on 910B\n"),
            std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("note: in the instantiation T=bf16\n"), std::string::npos) << err_.str();
  EXPECT_EQ(err_.str().find("T=f16"), std::string::npos);
  EXPECT_NE(err_.str().find("1 error generated"), std::string::npos);
  EXPECT_EQ(run(text, {"T=f16"}), 0) << err_.str();
}

TEST_F(GenericTest, BindingOutsideTheChoicesIsAnErrorAtTheDeclaration) {
  EXPECT_EQ(run(kRowKernel, {"T=i8"}), 1);
  EXPECT_NE(err_.str().find("generic_test.tile:1:1: error: T=i8 is not one of the choices of 'T' (f16, bf16, "
                            "f32)\n"),
            std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("hint: bind it to one of them, e.g. --param T=f16"), std::string::npos);
}

TEST_F(GenericTest, BadBindingsAreUsageErrors) {
  EXPECT_EQ(run(kRowKernel, {"X=1"}), 2);
  EXPECT_EQ(err_.str(), "error: --param X=1: the program declares no parameter 'X' (its parameters: T, S)\n");
  EXPECT_EQ(run(kRowKernel, {"T"}), 2);
  EXPECT_EQ(err_.str(), "error: --param T: expected NAME=VALUE, e.g. --param T=f16\n");
  EXPECT_EQ(run(kRowKernel, {"T=half"}), 2);
  EXPECT_EQ(err_.str(), "error: --param T=half: 'half' is not a dtype (f16, bf16, f32, i8, u8, i16, i32, i64)\n");
  EXPECT_EQ(run(kRowKernel, {"S=four"}), 2);
  EXPECT_EQ(err_.str(), "error: --param S=four: 'S' is a const parameter and takes an integer\n");
  EXPECT_EQ(run(kRowKernel, {"T=f16", "T=f32"}), 2);
  EXPECT_EQ(err_.str(), "error: --param T=f32: 'T' is bound twice\n");
}

TEST_F(GenericTest, ConstWithoutDefaultMustBeBound) {
  std::string text = std::string(kRowKernel).replace(std::string(kRowKernel).find("const(4)"), 8, "const()");
  EXPECT_EQ(run(text), 1);
  EXPECT_NE(err_.str().find("generic_test.tile:3:1: error: const parameter 'S' has no default and is not bound\n"),
            std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("hint: pass --param S=VALUE, or give it a default: S = const(3)"), std::string::npos);
  EXPECT_EQ(run(text, {"S=2"}), 0) << err_.str();
  EXPECT_EQ(count(out_.str(), "# instantiation"), 3u);
}

TEST_F(GenericTest, OneInstantiationCommandsNameTheOpenParameters) {
  std::string path = ::testing::TempDir() + "generic_one.tile";
  std::ofstream(path) << kRowKernel;
  std::ostringstream err;
  FrontEndOptions options;
  options.file = path;
  int calls = 0;
  EXPECT_EQ(compileFile(
                options,
                [&](Program&) {
                  ++calls;
                  return std::vector<std::string>{};
                },
                err),
            2);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(err.str(), "error: " + path +
                           " has 3 instantiations and this command runs one: bind T (f16, bf16, f32) with --param "
                           "NAME=VALUE\n");
  err.str("");
  options.params = {"T=bf16"};
  EXPECT_EQ(compileFile(
                options,
                [&](Program& p) {
                  ++calls;
                  EXPECT_EQ(p.instantiation.str(), "T=bf16, S=4");
                  return std::vector<std::string>{};
                },
                err),
            0)
      << err.str();
  EXPECT_EQ(calls, 1);
  std::remove(path.c_str());
}

TEST_F(GenericTest, ConditionsCompareWithInAndLogic) {
  std::string text = std::string(kRowKernel)
                         .replace(std::string(kRowKernel).find("C = f32 if T == bf16 else T"), 27,
                                  "C = f32 if T in (bf16, f16) and not T == f32 else T");
  ASSERT_EQ(run(text, {"T=f16"}), 0) << err_.str();
  EXPECT_NE(out_.str().find("f32[r, N] in UB"), std::string::npos);
  ASSERT_EQ(run(text, {"T=f32"}), 0) << err_.str();
  EXPECT_EQ(out_.str().find("Name cast"), std::string::npos);
}

TEST_F(GenericTest, ProgramsWithoutParametersAreUnchanged) {
  std::string text = R"(N = dim()

@kernel
def k(x: Tensor[f16, (N,)], y: Tensor[f16, (N,)]):
    part = split(N, cores=vector_cores())
    for t in tiles(part, size=256):
        with copyin:
            v = load(x[t])
        with compute:
            w = v * 2.0
        with copyout:
            store(y[t], w)
)";
  ASSERT_EQ(run(text), 0) << err_.str();
  EXPECT_EQ(out_.str().find("# instantiation"), std::string::npos);
  EXPECT_EQ(run(text, {"T=f16"}), 2);
  EXPECT_EQ(err_.str(), "error: --param T=f16: the program declares no parameter 'T' (its parameters: none)\n");
}

TEST_F(GenericTest, InstantiationsAreBounded) {
  // Three parameters of eight dtypes are 512 instantiations: refused at the one that passes the limit.
  std::string params =
      "A = dtype(f16, bf16, f32, i8, u8, i16, i32, i64)\nB = dtype(f16, bf16, f32, i8, u8, i16, "
      "i32, i64)\nC = dtype(f16, bf16, f32, i8, u8, i16, i32, i64)\n";
  std::string text = params + std::string(kRowKernel).substr(std::string(kRowKernel).find("\nC = ") + 1);
  text.replace(text.find("C = f32 if T"), std::string("C = f32 if T == bf16 else T").size(), "D = 1");
  EXPECT_EQ(run(text), 1);
  EXPECT_NE(err_.str().find("generic_test.tile:3:1: error: the parameters up to 'C' have 512 instantiations (the "
                            "limit is 64)\n"),
            std::string::npos)
      << err_.str();
}

}  // namespace
}  // namespace tilecraft::dsl
