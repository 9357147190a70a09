#include "dsl/driver.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace tilecraft::dsl {
namespace {

class DriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "driver_test.tile";
    std::ofstream(path_) << "N = dim()\n@kernel\ndef k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                            "    part = split(N, cores=vector_cores())\n    for t in tiles(part, size=64):\n"
                            "        with copyin:\n            v = load(x[t])\n        with compute:\n"
                            "            w = exp(v) + nope\n        with copyout:\n            store(y[t], w)\n";
  }
  void TearDown() override { std::remove(path_.c_str()); }
  int run(const std::string& emit, const std::string& diagnostics = "text") {
    out_.str("");
    err_.str("");
    CompileOptions options;
    options.file = path_;
    options.emit = emit;
    options.diagnostics = diagnostics;
    return runCompile(options, out_, err_);
  }

  std::string path_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(DriverTest, ErrorsGoToStderrWithSummaryAndExitOne) {
  EXPECT_EQ(run("ast"), 1);
  EXPECT_EQ(out_.str(), "");
  EXPECT_NE(err_.str().find("driver_test.tile:9:26: error: name 'nope' is not defined\n"), std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("1 error generated\n"), std::string::npos);
}

TEST_F(DriverTest, JsonDiagnostics) {
  EXPECT_EQ(run("ast", "json"), 1);
  EXPECT_NE(err_.str().find("\"line\":9,\"column\":26"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("\"message\":\"name 'nope' is not defined\""), std::string::npos);
  EXPECT_EQ(err_.str().find("generated"), std::string::npos);
}

TEST_F(DriverTest, TokensNeedOnlyTheLexer) {
  EXPECT_EQ(run("tokens"), 0);
  EXPECT_EQ(out_.str().substr(0, 21), "1:1 Name 'N'\n1:3 Assi");
}

TEST_F(DriverTest, LaterStagesBelongToTheirDrivers) {
  EXPECT_EQ(run("ir-after=tiling"), 2);
  EXPECT_EQ(err_.str(),
            "error: --emit=ir-after=tiling is produced by the IR driver, not the front end "
            "(passes::runCompileIr)\n");
  EXPECT_EQ(run("ascendc"), 2);
  EXPECT_EQ(err_.str(),
            "error: --emit=ascendc is produced by the AscendC driver, not the front end "
            "(codegen::runCompileAscendC)\n");
  EXPECT_EQ(run("project"), 2);
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(err_.str(),
            "error: --emit=project is produced by the project driver, not the front end "
            "(codegen::runCompileProject)\n");
}

TEST_F(DriverTest, UsageErrors) {
  EXPECT_EQ(run("bogus"), 2);
  EXPECT_EQ(err_.str(),
            "error: unknown --emit value 'bogus' (expected tokens, ast, ir, ir-after=PASS, ascendc or "
            "project)\n");
  EXPECT_EQ(run("ast", "xml"), 2);
  EXPECT_EQ(err_.str(), "error: unknown --diagnostics value 'xml' (expected text or json)\n");
  CompileOptions missing;
  missing.file = "/nonexistent/k.tile";
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(runCompile(missing, out, err), 2);
  EXPECT_EQ(err.str().rfind("error: cannot open '/nonexistent/k.tile'", 0), 0u) << err.str();
}

// compileFile: the back end runs only on a clean program; its internal errors come after the diagnostics.
TEST_F(DriverTest, CompileFileSkipsTheBackEndOnErrors) {
  bool ran = false;
  std::ostringstream err;
  EXPECT_EQ(compileFile(
                {path_, "text"},
                [&](Program&) {
                  ran = true;
                  return std::vector<std::string>{};
                },
                err),
            1);
  EXPECT_FALSE(ran);
  EXPECT_NE(err.str().find("error: name 'nope' is not defined\n"), std::string::npos) << err.str();
}

TEST_F(DriverTest, CompileFileLexOnlyAndInternalErrors) {
  std::ostringstream err;
  size_t tokens = 0;
  bool parsed = true;
  EXPECT_EQ(compileFile(
                {path_, "text", true},
                [&](Program& p) {
                  tokens = p.tokens.size();
                  parsed = p.ast.size() > 0;
                  return std::vector<std::string>{"IR verifier: after tiling: broken"};
                },
                err),
            1);
  EXPECT_GT(tokens, 50u);
  EXPECT_FALSE(parsed);
  EXPECT_EQ(err.str(), "internal compiler error: IR verifier: after tiling: broken\n");
}

TEST_F(DriverTest, CompileFileUsageErrors) {
  std::ostringstream err;
  auto never = [](Program&) -> std::vector<std::string> {
    ADD_FAILURE() << "back end ran";
    return {};
  };
  EXPECT_EQ(compileFile({path_, "xml"}, never, err), 2);
  EXPECT_EQ(err.str(), "error: unknown --diagnostics value 'xml' (expected text or json)\n");
  std::ostringstream err2;
  EXPECT_EQ(compileFile({"/nonexistent/k.tile", "json"}, never, err2), 2);
  EXPECT_EQ(err2.str().rfind("error: cannot open '/nonexistent/k.tile'", 0), 0u) << err2.str();
}

}  // namespace
}  // namespace tilecraft::dsl

namespace tilecraft::dsl {
namespace {

// `compile --emit=ast` calls a program fine only after the later stages accepted it; the token stream is the
// lexer's alone.
TEST(DriverWholePipeline, AnErrorOfALaterStageFailsTheAstEmitButNotTheTokens) {
  std::string path = ::testing::TempDir() + "driver_whole_pipeline.tile";
  std::ofstream(path) << "N = dim()\n@kernel\ndef k(x: Tensor[f32, (N,)], y: Tensor[f32, (N,)]):\n"
                         "    part = split(N, cores=vector_cores())\n    for t in tiles(part, size=64):\n"
                         "        with copyin:\n            v = load(x[t])\n        with copyout:\n"
                         "            store(y[t], v)\n";
  int calls = 0;
  CompileOptions options;
  options.file = path;
  options.wholePipeline = [&](Program& p) {
    ++calls;
    p.diagnostics.error(support::Span{p.file, 0, 1}, "refused by a later stage");
    return std::vector<std::string>{};
  };
  std::ostringstream out, err;
  EXPECT_EQ(runCompile(options, out, err), 1);
  EXPECT_EQ(out.str(), "");
  EXPECT_NE(err.str().find("driver_whole_pipeline.tile:1:1: error: refused by a later stage\n"), std::string::npos)
      << err.str();
  options.emit = "tokens";
  std::ostringstream tokens, tokensErr;
  EXPECT_EQ(runCompile(options, tokens, tokensErr), 0) << tokensErr.str();
  EXPECT_EQ(calls, 1);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tilecraft::dsl
