// What the DSL program may put into the generated code (codegen/source_text.h): escaped comments and file names,
// names that C++ can carry, float powers and infinities the kernel computes as the interpreter does. The
// hostile-source run (build, run, compare with the interpreter) is in e2e_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "codegen/driver.h"
#include "codegen/source_text.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

struct Compiled {
  int status;
  std::string out;
  std::string err;
};

// Compiles `program` saved as `name` in a fresh temporary folder.
Compiled compileText(const std::string& program, const std::string& name = "prog.tile") {
  std::string pattern = (fs::temp_directory_path() / "tilecraft-source-text-XXXXXX").string();
  EXPECT_NE(::mkdtemp(pattern.data()), nullptr);
  fs::path file = fs::path(pattern) / name;
  std::ofstream(file, std::ios::binary) << program;
  std::ostringstream out, err;
  int status = runCompileAscendC({file.string(), "text"}, out, err);
  fs::remove_all(pattern);
  return {status, out.str(), err.str()};
}

// An elementwise kernel whose names and middle line the test chooses.
std::string kernel(const std::string& name, const std::string& attr, const std::string& line) {
  return "N = dim()\n\n@kernel\ndef " + name + "(x: Tensor[f32, (N,)], z: Tensor[f32, (N,)], " + attr +
         "):\n"
         "    part = split(N, cores=vector_cores())\n" +
         line +
         "    for t in tiles(part, size=1024):\n"
         "        with copyin:\n"
         "            a = load(x[t])\n"
         "        with compute:\n"
         "            c = a * s\n"
         "        with copyout:\n"
         "            store(z[t], c)\n";
}

TEST(EscapeSourceText, KeepsPrintableAsciiAndWritesEveryOtherByteAsHex) {
  EXPECT_EQ(escapeSourceText("c = a + b  # note"), "c = a + b  # note");
  EXPECT_EQ(escapeSourceText("a\rb\nc"), "a\\x0db\\x0ac");
  EXPECT_EQ(escapeSourceText("x = 1  # \\"), "x = 1  # \\x5c");
  EXPECT_EQ(escapeSourceText(std::string("\0\x1f\x7f", 3)), "\\x00\\x1f\\x7f");
  EXPECT_EQ(escapeSourceText("\xe2\x80\xae"), "\\xe2\\x80\\xae");  // U+202E, a bidirectional override
  for (int byte = 0; byte < 256; ++byte) {
    std::string out = escapeSourceText(std::string(1, static_cast<char>(byte)));
    for (char ch : out) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << byte;
    EXPECT_NE(out.back(), '\\') << byte;
  }
}

TEST(CppNameProblem, KeywordsReservedAndGeneratedNamesAreRefused) {
  EXPECT_STREQ(cppNameProblem("delete"), "a C++ keyword");
  EXPECT_STREQ(cppNameProblem("_x"), "reserved in C++ (a leading or double underscore)");
  EXPECT_STREQ(cppNameProblem("a__b"), "reserved in C++ (a leading or double underscore)");
  EXPECT_STREQ(cppNameProblem("main"), "a name the generated C++ already uses");
  EXPECT_STREQ(cppNameProblem("GM_ADDR"), "a name the generated C++ already uses");
  EXPECT_EQ(cppNameProblem("alpha"), nullptr);
  EXPECT_EQ(cppNameProblem("N"), nullptr);
  EXPECT_EQ(cppNameProblem("a_b"), nullptr);
}

TEST(GeneratedNames, ADslNameThatCppCannotCarryIsAnErrorNamingIt) {
  Compiled c = compileText(kernel("main", "delete: f32 = 1.0", "    s = delete * 2.0\n"));
  EXPECT_EQ(c.status, 1);
  EXPECT_EQ(c.out, "");
  EXPECT_NE(c.err.find("prog.tile:3:1: error: 'main' cannot name a kernel in the generated C++: it is a name the "
                       "generated C++ already uses\n"),
            std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find("error: 'delete' cannot name a parameter in the generated C++: it is a C++ keyword\n"),
            std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find("hint: rename 'delete' in the .tile file\n"), std::string::npos) << c.err;
  std::string reserved = kernel("k", "alpha: f32 = 1.0", "    s = alpha\n");
  for (size_t at = reserved.find('N'); at != std::string::npos; at = reserved.find('N', at + 3)) {
    reserved.replace(at, 1, "__N");
  }
  Compiled dim = compileText(reserved);
  // `t` is the host tiling function's struct: a dim or an attribute beside it cannot be named so; a tensor can.
  std::string named = kernel("k", "t: f32 = 1.0", "    s = t * 2.0\n");
  for (auto [from, to] :
       {std::pair<std::string, std::string>{"for t in", "for i in"}, {"x[t]", "x[i]"}, {"z[t]", "z[i]"}}) {
    named.replace(named.find(from), from.size(), to);
  }
  Compiled attr = compileText(named);
  // The checker refuses it first, at the parameter (dsl/sema.cpp, names of the generated host code).
  EXPECT_NE(attr.err.find("error: parameter 't' has the name the generated host code gives the tiling struct\n"),
            std::string::npos)
      << attr.err;
  EXPECT_NE(dim.err.find("error: '__N' cannot name a dim in the generated C++: it is reserved in C++ (a leading or "
                         "double underscore)\n"),
            std::string::npos)
      << dim.err;
}

TEST(GeneratedComments, TheFileNameIsEscapedInTheBannerAndTheLineComments) {
  Compiled c = compileText(kernel("k", "alpha: f32 = 0.5", "    s = alpha\n    s = s * 2.0  # end\\\n"), "a\nb\\.tile");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("// k: AscendC generated by tilecraft from a\\x0ab\\x5c.tile (kernel 'k')."), std::string::npos)
      << c.out;
  EXPECT_NE(c.out.find("// a\\x0ab\\x5c.tile:7: s = s * 2.0  # end\\x5c\n"), std::string::npos) << c.out;
}

TEST(ScalarPowers, AFloatPowerOfADeviceValueIsMultipliedOut) {
  // A name assigned twice is a device value; 0.5 ** 2 went through the integer TcPow and gave 0.
  Compiled c = compileText(kernel("k", "alpha: f32 = 0.5", "    s = alpha ** 2\n    s = alpha ** -2\n"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.out.find("s_ = (static_cast<float>(1.0f) / (tiling_.alpha * tiling_.alpha));"), std::string::npos)
      << c.out;
  EXPECT_EQ(c.out.find("TcPow(tiling_.alpha"), std::string::npos) << c.out;
}

TEST(ScalarPowers, AFloatPowerTheKernelCannotComputeIsAnError) {
  // A power of a device value (s, assigned before) has no host to compute it.
  Compiled c = compileText(kernel("k", "alpha: f32 = 0.5", "    s = alpha\n    s = alpha * 2.0\n    s = s ** 0.5\n"));
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find("prog.tile:8:5: error: the AscendC emitter does not support float powers computed in the "
                       "kernel other than by a constant integer from -64 to 64 yet\n"),
            std::string::npos)
      << c.err;
  // A power of host values assigned to a device value is hoisted to a host value of its own.
  Compiled hoisted = compileText(kernel("k", "alpha: f32 = 0.5", "    s = alpha ** 0.5\n    s = alpha ** 0.5\n"));
  ASSERT_EQ(hoisted.status, 0) << hoisted.err;
  EXPECT_NE(hoisted.out.find(
                "t.pow_1 = static_cast<float>(std::pow(static_cast<double>(t.alpha), static_cast<double>(0.5f)));"),
            std::string::npos)
      << hoisted.out;
  EXPECT_NE(hoisted.out.find("s_ = tiling_.pow_1;"), std::string::npos) << hoisted.out;
  // Assigned once, it is a host value: std::pow in the host tiling.
  Compiled host = compileText(kernel("k", "alpha: f32 = 0.5", "    s = alpha ** 0.5\n"));
  ASSERT_EQ(host.status, 0) << host.err;
  EXPECT_NE(
      host.out.find("t.s = static_cast<float>(std::pow(static_cast<double>(t.alpha), static_cast<double>(0.5f)));"),
      std::string::npos)
      << host.out;
}

TEST(FloatConstants, AnF32OverflowIsEmittedAsInfinityNotFltMax) {
  Compiled c = compileText(kernel("k", "alpha: f32 = 1e999", "    s = alpha * (3e38 * 10)\n    s = s * -1e39\n"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NE(c.err.find("prog.tile:4:64: warning: float constant overflows f32 and becomes inf\n"), std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find("prog.tile:6:17: warning: float constant overflows f32 and becomes inf\n"), std::string::npos)
      << c.err;
  EXPECT_NE(c.err.find("prog.tile:7:14: warning: float constant overflows f32 and becomes inf\n"), std::string::npos)
      << c.err;
  EXPECT_NE(c.out.find("float alpha = __builtin_huge_valf();"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("t.s = (t.alpha * __builtin_huge_valf());"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("s_ = (tiling_.s * (-__builtin_huge_valf()));"), std::string::npos) << c.out;
  EXPECT_EQ(c.out.find("3.402823466e+38f"), std::string::npos) << c.out;
}

}  // namespace
}  // namespace tilecraft::codegen
