// The source check of untrusted kernels: every rule, its exact message, and what it lets through.
#include "runner/source_check.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace tilecraft::runner {
namespace {

namespace fs = std::filesystem;

const std::string kApi = std::string(TILECRAFT_SOURCE_DIR) + "/emu/include";
const std::string kIncludeHint =
    "hint: a kernel may include kernel_operator.h, lib/..., tiling/..., kernel_tiling/... (the kernel API), "
    "a few "
    "standard headers without I/O (<cstdint>, <cmath>, ...) and its own project's files by a relative path "
    "inside "
    "its folder";

std::vector<std::string> check(const std::string& text) { return checkKernelText("k.cpp", text, kApi); }

TEST(SourceCheck, AnOrdinaryKernelPasses) {
  EXPECT_EQ(check("#include \"kernel_operator.h\"\n#include \"lib/matmul_intf.h\"\n#include <cstdint>\n"
                  "// main() in a comment, and \"tcemu\" in a string, are not code\n"
                  "const char* s = \"main(\";\n"
                  "extern \"C\" __global__ __aicore__ void add(GM_ADDR x) { int domain = 1'000; (void)domain; }\n"),
            std::vector<std::string>{});
}

TEST(SourceCheck, Main) {
  EXPECT_EQ(check("#include \"kernel_operator.h\"\n\nint main(int argc, char** argv) { return 0; }\n"),
            std::vector<std::string>{"k.cpp:3: error: a submitted kernel must not define 'main'\n"
                                     "hint: submit the kernel only; the harness builds its own launcher around it"});
}

TEST(SourceCheck, EmulatorInternals) {
  std::vector<std::string> expected = {
      "k.cpp:2: error: 'tcemu' names the emulator's internals, which a kernel must not touch\n"
      "hint: use the AscendC API (AscendC::...) only"};
  EXPECT_EQ(check("// handler\nvoid f() { tcemu::failHandler() = nullptr; }\n"), expected);
  // Split by a line splice, it is still the name.
  EXPECT_EQ(check("// handler\nusing namespace tce\\\nmu;\n"), expected);
}

TEST(SourceCheck, IncludesOutsideTheApi) {
  EXPECT_EQ(check("#include \"/etc/hostname\"\n"),
            std::vector<std::string>{"k.cpp:1: error: '#include \"/etc/hostname\"' is outside the kernel API\n" +
                                     kIncludeHint});
  EXPECT_EQ(
      check("\n  #  include <unistd.h>\n"),
      std::vector<std::string>{"k.cpp:2: error: '#include <unistd.h>' is outside the kernel API\n" + kIncludeHint});
  EXPECT_EQ(check("#include \"../secret.h\"\n"),
            std::vector<std::string>{"k.cpp:1: error: '#include \"../secret.h\"' is outside the kernel API\n" +
                                     kIncludeHint});
  EXPECT_EQ(
      check("%:include <fstream>\n"),
      std::vector<std::string>{"k.cpp:1: error: '#include <fstream>' is outside the kernel API\n" + kIncludeHint});
  EXPECT_EQ(check("#define H <cstdio>\n#include H\n"),
            std::vector<std::string>{"k.cpp:2: error: '#include H' does not name a header literally\n" + kIncludeHint});
}

TEST(SourceCheck, TokenPasting) {
  EXPECT_EQ(check("#define CAT(a, b) a##b\n"),
            std::vector<std::string>{"k.cpp:1: error: token pasting ('##') is not allowed in a submitted kernel\n"
                                     "hint: it can build names the check forbids; write the names out"});
}

TEST(SourceCheck, ProjectFilesAreAllowedAndCheckedToo) {
  std::string pattern = (fs::temp_directory_path() / "tilecraft-source-check-XXXXXX").string();
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  fs::path dir = pattern;
  fs::create_directories(dir / "inc");
  std::ofstream(dir / "kernel.cpp") << "#include \"kernel_operator.h\"\n#include \"inc/tiling.h\"\n";
  std::ofstream(dir / "inc" / "tiling.h") << "#pragma once\nint main() { return 0; }\n";
  EXPECT_EQ(checkKernelSource((dir / "kernel.cpp").string(), kApi),
            std::vector<std::string>{(dir / "kernel.cpp").parent_path().string() +
                                     "/inc/tiling.h:2: error: a submitted kernel must not define 'main'\n"
                                     "hint: submit the kernel only; the harness builds its own launcher around it"});
  std::ofstream(dir / "inc" / "tiling.h") << "#pragma once\nconstexpr int kTile = 64;\n";
  EXPECT_EQ(checkKernelSource((dir / "kernel.cpp").string(), kApi), std::vector<std::string>{});
  EXPECT_EQ(checkKernelSource((dir / "missing.cpp").string(), kApi),
            std::vector<std::string>{(dir / "missing.cpp").string() +
                                     ": error: cannot read the kernel source: No such file or directory"});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilecraft::runner
