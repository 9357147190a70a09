// `tilecraft compile --emit=project`: the golden trees (every file compared; regenerate with
// TILECRAFT_UPDATE_GOLDEN=1 ./codegen_tests --gtest_filter='*GoldenProject*' and review the diff), the kernel
// file type-checked against the emulator headers with the tiling struct the CANN build would generate from the
// tiling header, the host tiling arithmetic against the launcher's, and the command's errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <unistd.h>

#include "codegen/driver.h"
#include "codegen/emit_project.h"
#include "support/process.h"

namespace tilecraft::codegen {
namespace {

namespace fs = std::filesystem;

std::string example(const std::string& name) {
  return (fs::path(TILECRAFT_SOURCE_DIR) / "examples" / (name + ".tile")).string();
}

std::string readText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every regular file under `root`, by '/'-separated relative path.
std::map<std::string, std::string> tree(const fs::path& root) {
  std::map<std::string, std::string> files;
  if (!fs::is_directory(root)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file()) files[fs::relative(entry.path(), root).generic_string()] = readText(entry.path());
  }
  return files;
}

// A fresh, empty folder for one test.
fs::path scratch(const std::string& name) {
  // The process id keeps concurrent runs of this suite (other build folders) apart.
  fs::path dir = fs::temp_directory_path() / ("tilecraft_project_test_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct Result {
  int status = 0;
  std::string out, err;
};

Result project(const std::string& file, const std::string& outDir, bool force = false) {
  std::ostringstream out, err;
  Result r;
  r.status = runCompileProject({file, "text", outDir, force}, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

class GoldenProject : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenProject, EveryFileMatchesTheGoldenTree) {
  std::string name = fs::path(GetParam()).filename().string();
  fs::path dir = scratch("golden_" + name) / name;
  Result r = project(example(GetParam()), dir.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "wrote 6 files to " + dir.string() + "\n");
  fs::path golden = fs::path(TILECRAFT_SOURCE_DIR) / "codegen/tests/golden_project" / name;
  if (std::getenv("TILECRAFT_UPDATE_GOLDEN")) {
    fs::remove_all(golden);
    fs::create_directories(golden.parent_path());
    fs::copy(dir, golden, fs::copy_options::recursive);
    GTEST_SKIP() << "golden tree rewritten: " << golden;
  }
  std::map<std::string, std::string> got = tree(dir), want = tree(golden);
  ASSERT_FALSE(want.empty()) << "missing golden tree " << golden;
  std::vector<std::string> gotNames, wantNames;
  for (const auto& [path, text] : got) gotNames.push_back(path);
  for (const auto& [path, text] : want) wantNames.push_back(path);
  EXPECT_EQ(gotNames, wantNames);
  for (const auto& [path, text] : want) {
    EXPECT_EQ(got[path], text) << path << ": regenerate with TILECRAFT_UPDATE_GOLDEN=1";
  }
  EXPECT_TRUE(fs::status(dir / "build.sh").permissions() != fs::perms::none &&
              (fs::status(dir / "build.sh").permissions() & fs::perms::owner_exec) != fs::perms::none);
  fs::remove_all(dir.parent_path());
}

INSTANTIATE_TEST_SUITE_P(Examples, GoldenProject, ::testing::Values("elementwise/add", "reduction/sum_rows"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return fs::path(info.param).filename().string();
                         });

TEST(Project, OutputIsDeterministicAndHasNoAbsolutePaths) {
  fs::path root = scratch("deterministic");
  ASSERT_EQ(project(example("normalization/layer_norm"), (root / "a").string()).status, 0);
  ASSERT_EQ(project(example("normalization/layer_norm"), (root / "b").string()).status, 0);
  std::map<std::string, std::string> a = tree(root / "a"), b = tree(root / "b");
  EXPECT_EQ(a, b);
  for (const auto& [path, text] : a) {
    EXPECT_EQ(text.find(TILECRAFT_SOURCE_DIR), std::string::npos) << path;
    EXPECT_EQ(text.find(root.string()), std::string::npos) << path;
  }
  fs::remove_all(root);
}

TEST(Project, AttributesBecomeOpDefAttrsTilingFieldsAndMsopgenAttrs) {
  fs::path dir = scratch("attrs");
  ASSERT_EQ(project(example("normalization/layer_norm"), dir.string()).status, 0);
  std::string host = readText(dir / "op_host/layer_norm_custom.cpp");
  EXPECT_NE(host.find("this->Attr(\"eps\").AttrType(OPTIONAL).Float(1e-05f);"), std::string::npos) << host;
  EXPECT_NE(host.find("const float* epsAttr = attrs->GetFloat(0);"), std::string::npos) << host;
  EXPECT_NE(host.find("this->Input(\"gamma\")"), std::string::npos);
  EXPECT_NE(host.find(".DataType({ge::DT_FLOAT16})"), std::string::npos);
  EXPECT_NE(host.find("if (N > 4096) return ge::GRAPH_FAILED;"), std::string::npos) << host;
  EXPECT_NE(host.find("this->SetInferShape(ge::InferShape);"), std::string::npos);
  EXPECT_NE(readText(dir / "op_host/layer_norm_custom_tiling.h").find("TILING_DATA_FIELD_DEF(float, eps);"),
            std::string::npos);
  EXPECT_NE(readText(dir / "layer_norm_custom.json")
                .find("{\"name\": \"eps\", \"param_type\": \"optional\", \"type\": \"float\", \"default_value\": "
                      "\"1e-05\"}"),
            std::string::npos);
  fs::remove_all(dir);
}

// adam: every tensor updated in place, attributes without defaults, an integer attribute.
TEST(Project, InOutTensorsAreInputsAndRequiredAttributesHaveNoDefault) {
  fs::path dir = scratch("inout");
  ASSERT_EQ(project(example("optimizer/adam"), dir.string()).status, 0);
  std::string host = readText(dir / "op_host/adam_custom.cpp");
  EXPECT_NE(host.find("    // Updated in place by the kernel.\n    this->Input(\"param\")"), std::string::npos) << host;
  EXPECT_EQ(host.find("this->Output("), std::string::npos);
  EXPECT_NE(host.find("this->Attr(\"lr\").AttrType(REQUIRED).Float();"), std::string::npos);
  EXPECT_NE(host.find("this->Attr(\"step\").AttrType(REQUIRED).Int();"), std::string::npos);
  EXPECT_NE(host.find("const int64_t* stepAttr = attrs->GetInt(4);"), std::string::npos);
  EXPECT_NE(host.find("// No InferShape: the kernel has no output of its own (its in/out tensors keep their "
                      "shapes)."),
            std::string::npos);
  EXPECT_EQ(host.find("SetInferShape"), std::string::npos);
  EXPECT_NE(
      readText(dir / "adam_custom.json").find("{\"name\": \"step\", \"param_type\": \"required\", \"type\": \"int\"}"),
      std::string::npos);
  fs::remove_all(dir);
}

// The body of `inline NAME ComputeNAME(...) {...}` with NAME replaced by X.
std::string hostTilingFunction(const std::string& text, const std::string& name) {
  size_t start = text.find("inline " + name + " Compute" + name + "(");
  if (start == std::string::npos) return "";
  size_t end = text.find("\n}\n", start);
  return std::regex_replace(text.substr(start, end - start), std::regex(name), "X");
}

TEST(Project, TilingFuncUsesTheLaunchersHostTilingArithmetic) {
  for (const char* name : {"softmax/softmax_rows", "normalization/layer_norm", "optimizer/adam"}) {
    std::ostringstream code, err;
    ASSERT_EQ(runCompileAscendC({example(name), "text"}, code, err), 0) << err.str();
    fs::path dir = scratch("arith");
    ASSERT_EQ(project(example(name), dir.string()).status, 0);
    std::string kernel = fs::path(name).filename().string();
    std::string host = readText(dir / "op_host" / (kernel + "_custom.cpp"));
    std::string op;  // softmax_rows -> SoftmaxRows
    bool upper = true;
    for (char ch : kernel) {
      if (ch == '_') {
        upper = true;
        continue;
      }
      op += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
      upper = false;
    }
    std::string launcher = hostTilingFunction(code.str(), op + "TilingData");
    ASSERT_FALSE(launcher.empty()) << name;
    // The launcher's function is indented as a top-level one; the project's sits in a namespace, also top level.
    EXPECT_EQ(hostTilingFunction(host, op + "CustomTilingValues"), launcher) << name;
    EXPECT_NE(host.find("const " + op + "CustomTilingValues values = Compute" + op + "CustomTilingValues("),
              std::string::npos);
    fs::remove_all(dir);
  }
}

// The kernel file against the emulator headers, as the CANN build compiles it: the tiling struct generated from
// the tiling header's fields, GET_TILING_DATA filling it.
TEST(Project, OpKernelTypeChecksAgainstTheEmulatorHeaders) {
  for (const char* name : {"elementwise/add", "reduction/sum_rows", "normalization/layer_norm"}) {
    fs::path dir = scratch("typecheck");
    ASSERT_EQ(project(example(name), dir.string()).status, 0);
    std::string kernel = fs::path(name).filename().string();
    std::string header = readText(dir / "op_host" / (kernel + "_custom_tiling.h"));
    std::smatch m;
    ASSERT_TRUE(std::regex_search(header, m, std::regex(R"(BEGIN_TILING_DATA_DEF\((\w+)\))"))) << header;
    std::string structName = m[1];
    std::string fields;
    std::regex field(R"(TILING_DATA_FIELD_DEF\((\w+), (\w+)\);)");
    for (auto it = std::sregex_iterator(header.begin(), header.end(), field); it != std::sregex_iterator(); ++it) {
      fields += "  " + (*it)[1].str() + " " + (*it)[2].str() + ";\n";
    }
    ASSERT_FALSE(fields.empty()) << header;
    std::ofstream(dir / "check.cpp") << "#include <cstdint>\nstruct " << structName << " {\n"
                                     << fields << "};\n#define TCEMU_TILING_TYPE " << structName
                                     << "\n#include \"op_kernel/" << kernel << "_custom.cpp\"\n";
    support::ProcessSpec spec;
    spec.argv = {"g++",
                 "-std=c++17",
                 "-fsyntax-only",
                 "-Wall",
                 "-Wextra",
                 "-Werror",
                 "-DASCENDC_CPU_DEBUG",
                 "-I",
                 TILECRAFT_EMU_INCLUDE_DIR,
                 "check.cpp"};
    spec.workdir = dir.string();
    spec.timeoutSeconds = 600;
    support::SystemProcessRunner runner;
    support::ProcessResult r = runner.run(spec);
    EXPECT_EQ(r.exitCode, 0) << name << ":\n" << r.err;
    fs::remove_all(dir);
  }
}

// build.sh with a stand-in msopgen (the real one comes with a CANN toolkit): it must make the skeleton once, put
// the generated sources in place of the skeleton's stubs and run the skeleton's build.sh.
TEST(Project, BuildScriptOverlaysTheSourcesOnMsopgensSkeleton) {
  fs::path root = scratch("build_sh");
  fs::path dir = root / "add";
  ASSERT_EQ(project(example("elementwise/add"), dir.string()).status, 0);
  fs::create_directories(root / "bin");
  std::ofstream(root / "bin/msopgen") << "#!/bin/sh\necho \"$@\" >> ../msopgen.args\nout=\"\"\n"
                                         "while [ $# -gt 0 ]; do if [ \"$1\" = -out ]; then out=$2; fi; shift; done\n"
                                         "mkdir -p $out/op_host $out/op_kernel\n"
                                         "echo stub > $out/op_host/stub.cpp; echo stub > $out/op_host/stub_tiling.h\n"
                                         "echo stub > $out/op_kernel/stub.cpp\n"
                                         "printf '#!/bin/sh\\nls op_host op_kernel\\n' > $out/build.sh\n";
  fs::permissions(root / "bin/msopgen", fs::perms::owner_all);
  support::ProcessSpec spec;
  spec.argv = {"bash", "build.sh"};
  spec.workdir = dir.string();
  spec.env = {{"PATH", (root / "bin").string() + ":/usr/bin:/bin"}, {"SOC_VERSION", "Ascend910B3"}};
  spec.timeoutSeconds = 60;
  support::SystemProcessRunner runner;
  for (int run = 0; run < 2; ++run) {  // the second run reuses the skeleton
    support::ProcessResult r = runner.run(spec);
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out,
              "op_host:\nadd_custom.cpp\nadd_custom_tiling.h\n\nop_kernel:\nadd_custom.cpp\n"
              "package: skeleton/build_out/ (install: bash skeleton/build_out/custom_opp_*.run)\n");
  }
  EXPECT_EQ(readText(root / "msopgen.args"), "gen -i add_custom.json -c ai_core-Ascend910B3 -lan cpp -out skeleton\n");
  EXPECT_EQ(readText(dir / "skeleton/op_kernel/add_custom.cpp"), readText(dir / "op_kernel/add_custom.cpp"));
  fs::remove_all(root);
}

TEST(Project, MissingOutputFolderIsAUsageError) {
  Result r = project(example("elementwise/add"), "");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: --emit=project needs -o DIR, the folder to write the project into\n");
  EXPECT_EQ(r.out, "");
}

TEST(Project, NonEmptyFolderNeedsForce) {
  fs::path dir = scratch("nonempty");
  std::ofstream(dir / "keep.txt") << "mine\n";
  Result r = project(example("elementwise/add"), dir.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: output folder '" + dir.string() +
                       "' is not empty\nhint: pass --force to write into it (files of the same name are replaced)\n");
  EXPECT_EQ(tree(dir).size(), 1u);  // nothing written
  // With --force the project is written next to the file that was there.
  r = project(example("elementwise/add"), dir.string(), true);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(tree(dir).size(), 7u);
  EXPECT_EQ(readText(dir / "keep.txt"), "mine\n");
  fs::remove_all(dir);
}

TEST(Project, OutputThatIsAFileIsAUsageError) {
  fs::path dir = scratch("isfile");
  std::ofstream(dir / "f") << "x";
  Result r = project(example("elementwise/add"), (dir / "f").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: -o '" + (dir / "f").string() + "' is a file, not a folder\n");
  fs::remove_all(dir);
}

// A folder under a regular file cannot be created, even by root (the tests may run as root, so no chmod).
TEST(Project, UnwritableFolderIsReported) {
  fs::path dir = scratch("unwritable");
  std::ofstream(dir / "f") << "x";
  std::string out = (dir / "f" / "proj").string();
  Result r = project(example("elementwise/add"), out);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "error: cannot create folder '" + out + "': Not a directory\n");
  EXPECT_EQ(r.out, "");
  fs::remove_all(dir);
}

std::string testData(const std::string& name) {
  return (fs::path(TILECRAFT_SOURCE_DIR) / "codegen/tests/data" / name).string();
}

TEST(Project, ProgramErrorsWriteNothing) {
  fs::path dir = scratch("errors");
  Result r = project(testData("undefined_name.tile"), (dir / "p").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("undefined_name.tile:10:25: error: name 'b' is not defined\n"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "p"));
  fs::remove_all(dir);
}

TEST(Project, MoreThanOneKernelPerFileIsAnError) {
  fs::path dir = scratch("two_kernels");
  Result r = project(testData("two_kernels.tile"), (dir / "p").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("two_kernels.tile:1:1: error: --emit=project needs exactly one kernel per file; "
                       "two_kernels.tile has 2\n"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "p"));
  fs::remove_all(dir);
}

TEST(Project, OutputFlagsBelongToEmitProject) {
  std::ostringstream err;
  EXPECT_EQ(checkProjectFlags("ascendc", {"f.tile", "text", "out", false}, err), 2);
  EXPECT_EQ(err.str(), "error: -o and --force are for --emit=project only (not --emit=ascendc)\n");
  std::ostringstream err2;
  EXPECT_EQ(checkProjectFlags("ir", {"f.tile", "text", "", true}, err2), 2);
  EXPECT_EQ(err2.str(), "error: -o and --force are for --emit=project only (not --emit=ir)\n");
  std::ostringstream none;
  EXPECT_EQ(checkProjectFlags("project", {"f.tile", "text", "out", true}, none), 0);
  EXPECT_EQ(checkProjectFlags("ascendc", {"f.tile", "text", "", false}, none), 0);
  EXPECT_EQ(none.str(), "");
}

}  // namespace
}  // namespace tilecraft::codegen
