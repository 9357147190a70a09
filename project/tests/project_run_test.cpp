// `tilecraft project run` as a library: the pieces (names, modes, the host protocol, the kernel-side tiling
// header) and, through the real sandboxed service, a hand-written project that uses every tiling feature, and the
// exact text and status of each error.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "interp/npy.h"
#include "project/driver_source.h"
#include "project/operator_info.h"
#include "project/project_run.h"
#include "runner/tests/service_fixture.h"
#include "support/files.h"

namespace tilecraft::project {
namespace {

namespace fs = std::filesystem;

TEST(ProjectNames, KernelEntryIsTheSnakeCaseOfTheType) {
  EXPECT_EQ(kernelEntryName("AddCustom"), "add_custom");
  EXPECT_EQ(kernelEntryName("SumRowsCustom"), "sum_rows_custom");
  EXPECT_EQ(kernelEntryName("MatMulV2"), "mat_mul_v2");
  EXPECT_EQ(kernelEntryName("GELUCustom"), "gelu_custom");
}

TEST(ProjectNames, ModeFromTheKernelTaskTypeOrTheCube) {
  EXPECT_EQ(kernelMode("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);"), "aiv");
  EXPECT_EQ(kernelMode("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);"), "mix");
  EXPECT_EQ(kernelMode("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);"), "mix11");
  EXPECT_EQ(kernelMode("#include \"lib/matmul_intf.h\""), "mix");
  EXPECT_EQ(kernelMode("Add(z, x, y, n);"), "aiv");
}

const char* kDescription =
    "op KeyedScale p/op_host/k.cpp:54\n"
    "input x required 0 1\n"
    "output y required 0 1\n"
    "attr scale float default\n"
    "infershape 1\n"
    "tiling 1\n"
    "register KeyedScale KeyedScaleTilingData\n"
    "class Inner 8\n"
    "field scalar float scale 0 4 1\n"
    "field scalar uint8_t negate 4 1 1\n"
    "endclass\n"
    "class KeyedScaleTilingData 48\n"
    "field scalar uint8_t flag 0 1 1\n"
    "field array uint32_t chunk 4 4 5\n"
    "field scalar int64_t marker 24 8 1\n"
    "field struct Inner params 32 8 def\n"
    "field struct TCubeTiling mm 40 8 api\n"
    "endclass\n";

TEST(ProjectProtocol, DescriptionParses) {
  std::string error;
  auto info = parseDescription(kDescription, &error);
  ASSERT_TRUE(info) << error;
  EXPECT_EQ(info->type, "KeyedScale");
  EXPECT_EQ(info->location, "p/op_host/k.cpp:54");
  ASSERT_EQ(info->inputs.size(), 1u);
  EXPECT_EQ(info->inputs[0].dtypes, (std::vector<int>{0, 1}));
  ASSERT_EQ(info->attrs.size(), 1u);
  EXPECT_TRUE(info->attrs[0].hasDefault);
  ASSERT_EQ(info->classes.size(), 2u);
  EXPECT_EQ(info->classes[1].fields[3].userStruct, true);
  EXPECT_EQ(kernelTilingClass(*info), "KeyedScaleTilingData");
}

TEST(ProjectProtocol, KernelHeaderPadsToTheHostOffsets) {
  std::string error;
  auto info = parseDescription(kDescription, &error);
  ASSERT_TRUE(info) << error;
  std::string header = kernelTilingHeader(*info);
  EXPECT_NE(header.find("struct Inner {\n  float scale;\n  uint8_t negate;\n};\n"), std::string::npos) << header;
  // chunk[5] ends at 24, where int64 is naturally aligned; flag needs 3 bytes before chunk (natural too).
  EXPECT_NE(header.find("struct KeyedScaleTilingData {\n  uint8_t flag;\n  uint32_t chunk[5];\n  int64_t marker;\n"
                        "  Inner params;\n  TCubeTiling mm;\n};\n"),
            std::string::npos)
      << header;
  EXPECT_NE(header.find("#define TCEMU_TILING_TYPE KeyedScaleTilingData\n"), std::string::npos);
}

TEST(ProjectProtocol, KernelHeaderAddsPaddingWhereTheNaturalLayoutDiffers) {
  OperatorInfo info;
  info.type = "Op";
  info.registrations = {{"Op", "T"}};
  TilingClass c{"T", 24, {}};
  c.fields.push_back({"scalar", "uint32_t", "a", 0, 4, 1, false});
  c.fields.push_back({"struct", "Inner", "s", 8, 8, 1, true});  // CANN puts a struct at 8; Inner aligns to 4
  info.classes = {TilingClass{"Inner", 8, {{"scalar", "uint32_t", "x", 0, 4, 1, false}}}, c};
  std::string header = kernelTilingHeader(info);
  EXPECT_NE(header.find("struct Inner {\n  uint32_t x;\n  uint8_t tcPad0_[4];\n};\n"), std::string::npos) << header;
  EXPECT_NE(header.find("struct T {\n  uint32_t a;\n  uint8_t tcPad0_[4];\n  Inner s;\n  uint8_t tcPad1_[8];\n};\n"),
            std::string::npos)
      << header;
}

TEST(ProjectProtocol, ALineTheHostCannotHavePrintedIsAnError) {
  std::string error;
  EXPECT_FALSE(parseHostResult("blockdim 4\nbogus 1\n", &error));
  EXPECT_EQ(error, "the host program printed a line it cannot have printed: 'bogus 1'");
  EXPECT_FALSE(parseHostResult("blockdim 4\n", &error));
  EXPECT_EQ(error, "the host program printed no tiling data");
}

// End to end through the real service.
class ProjectRunTest : public runner::testing::ServiceTest {
 protected:
  std::string writeNpy(const std::string& name, const interp::HostTensor& t) {
    fs::path p = tmp_ / name;
    std::string error;
    EXPECT_TRUE(support::writeFileAtomically(p, interp::encodeNpy(t), &error)) << error;
    return p.string();
  }
  int run(ProjectOptions options) {
    out_.str("");
    err_.str("");
    return runProject(options, *service_, out_, err_);
  }

  // A copy of keyed_scale in tmp_/name whose `file` has `find` replaced by `replacement` (which may hold `find`
  // again) and `more` appended; empty on a failure, which it reports.
  fs::path editedCopy(const std::string& name, const std::string& file, const std::string& find,
                      const std::string& replacement, const std::string& more = "") {
    fs::copy(dir_, tmp_ / name, fs::copy_options::recursive);
    fs::path path = tmp_ / name / file;
    std::string text = support::readFile(path.string()).value_or("");
    size_t at = text.find(find);
    if (at == std::string::npos) {
      ADD_FAILURE() << file << " has no " << find;
      return {};
    }
    text.replace(at, find.size(), replacement);
    std::string error;
    if (!support::writeFileAtomically(path, text + more, &error)) {
      ADD_FAILURE() << error;
      return {};
    }
    return tmp_ / name;
  }

  std::ostringstream out_, err_;
  const std::string dir_ = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/keyed_scale";
};

interp::HostTensor ramp(int64_t n, double scale) {
  interp::HostTensor t = interp::HostTensor::zeros(dsl::DType::F32, {n});
  for (int64_t i = 0; i < n; ++i) t.data[static_cast<size_t>(i)] = (static_cast<double>(i) * 0.5 - 100) * scale;
  return t;
}

TEST_F(ProjectRunTest, TilingKeyArraysStructsAttrsAndWorkspaceReachTheKernel) {
  std::string x = writeNpy("x.npy", ramp(1003, 1));
  std::string y1 = writeNpy("y1.npy", ramp(1003, 1.5)), y2 = writeNpy("y2.npy", ramp(1003, -1.5));
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale=1.5"}, {"y=" + y1}, (tmp_ / "out").string(), "", 120}), 0) << err_.str();
  EXPECT_NE(out_.str().find("host: block dim 4, tiling key 1, tiling data 48 bytes, workspace 16781228 bytes\n"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("PASS "), std::string::npos) << out_.str();
  EXPECT_TRUE(fs::is_regular_file(tmp_ / "out" / "y.npy"));
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale=1.5", "negate=true"}, {"y=" + y2}, "", "", 120}), 0) << err_.str();
  EXPECT_NE(out_.str().find("tiling key 2"), std::string::npos) << out_.str();
  // Python's spelling of a bool (what a binding's str(True) gives) is the same attribute.
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale=1.5", "negate=True"}, {"y=" + y2}, "", "", 120}), 0) << err_.str();
  EXPECT_NE(out_.str().find("tiling key 2"), std::string::npos) << out_.str();
  // The default scale (2.0) is not 1.5: the comparison fails.
  EXPECT_EQ(run({dir_, {"x=" + x}, {}, {"y=" + y1}, "", "", 120}), 1);
  EXPECT_NE(out_.str().find("MISMATCH"), std::string::npos) << out_.str();
}

TEST_F(ProjectRunTest, AFailedInferShapeStopsTheRunUnlessTheCallerGaveEveryOutputsShape) {
  // keyed_scale's InferShape refuses a rank above 4. Given the output's shape (by --expect or --shape), the run
  // goes on as an aclnn caller's would, with a warning at the registration; without it, the error.
  interp::HostTensor x5 = ramp(64, 1), y5 = ramp(64, 1.5);
  x5.shape = y5.shape = {1, 2, 2, 2, 8};
  std::string x = writeNpy("x5.npy", x5), y = writeNpy("y5.npy", y5);
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale=1.5"}, {}, "", "", 120}), 3);
  EXPECT_EQ(err_.str(), dir_ +
                            "/op_host/keyed_scale.cpp:52: error: InferShape of KeyedScale failed (it returned "
                            "GRAPH_FAILED)\n");
  const std::string warning = dir_ +
                              "/op_host/keyed_scale.cpp:52: warning: InferShape of KeyedScale failed (it returned "
                              "GRAPH_FAILED); the outputs keep the given shapes, as an aclnn caller allocates them "
                              "(graph mode would stop here)\n";
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale=1.5"}, {"y=" + y}, "", "", 120}), 0) << err_.str();
  EXPECT_EQ(err_.str(), warning);
  EXPECT_NE(out_.str().find("y: f32[1, 2, 2, 2, 8], matches"), std::string::npos) << out_.str();
  ProjectOptions shaped{dir_, {"x=" + x}, {"scale=1.5"}, {}, (tmp_ / "shaped").string(), "", 120};
  shaped.shapes = {"y=1,2,2,2,8"};
  EXPECT_EQ(run(shaped), 0) << err_.str();
  EXPECT_EQ(err_.str(), warning);
  EXPECT_NE(out_.str().find("  y: f32[1, 2, 2, 2, 8] -> "), std::string::npos) << out_.str();
  EXPECT_EQ(out_.str().find("PASS"), std::string::npos) << out_.str();  // nothing was compared
}

TEST_F(ProjectRunTest, AnOutputKeepsTheCallersShapeWhereInferShapeGivesAnother) {
  // keyed_scale's InferShape gives y x's shape, [64]; the caller allocates y as [8, 8] (Fill's answer gives its
  // output the shape of its dims tensor, and its binding allocates the filled shape). On the aclnn path the
  // caller's shape stands, with a warning at the registration.
  interp::HostTensor x = ramp(64, 1), y = ramp(64, 1.5);
  y.shape = {8, 8};
  EXPECT_EQ(run({dir_, {"x=" + writeNpy("x64.npy", x)}, {"scale=1.5"}, {"y=" + writeNpy("y88.npy", y)}, "", "", 120}),
            0)
      << err_.str();
  EXPECT_EQ(err_.str(), dir_ +
                            "/op_host/keyed_scale.cpp:52: warning: InferShape of KeyedScale gives output 'y' the "
                            "shape [64], the caller's is [8, 8]; the output keeps the caller's, as on the aclnn path "
                            "(graph mode would allocate InferShape's)\n");
  EXPECT_NE(out_.str().find("y: f32[8, 8], matches"), std::string::npos) << out_.str();
}

TEST_F(ProjectRunTest, AnOutputKeepsTheOpDefsDtypeWhereInferDataTypeGivesAnother) {
  // Isamax's answer declares its index output DT_INT32 and its InferDataType copies the input's float: the aclnn
  // caller allocates the OpDef's int32, which the kernel writes. Here a copy of keyed_scale says int32.
  const std::string infer = "    this->SetInferShape(ge::InferShape);";
  ASSERT_FALSE(editedCopy("typed", "op_host/keyed_scale.cpp", infer,
                          infer + "\n    this->SetInferDataType([](gert::InferDataTypeContext* c) {\n"
                                  "      return c->SetOutputDataType(0, ge::DT_INT32);\n    });")
                   .empty());
  interp::HostTensor x = ramp(64, 1), y = ramp(64, 1.5);
  EXPECT_EQ(run({(tmp_ / "typed").string(),
                 {"x=" + writeNpy("x64.npy", x)},
                 {"scale=1.5"},
                 {"y=" + writeNpy("y64.npy", y)},
                 "",
                 "",
                 120}),
            0)
      << err_.str();
  EXPECT_EQ(err_.str(), (tmp_ / "typed").string() +
                            "/op_host/keyed_scale.cpp:53: warning: InferDataType of KeyedScale gives output 'y' the "
                            "dtype DT_INT32, the OpDef's is DT_FLOAT; the output keeps the OpDef's, as on the aclnn "
                            "path (graph mode would take InferDataType's)\n");
  EXPECT_NE(out_.str().find("y: f32[64], matches"), std::string::npos) << out_.str();
}

TEST(DriverSource, ALaunchConfigIsBlankedInPlace) {
  EXPECT_EQ(withoutLaunchConfigs("k<<<dim, l2, s>>>(x, y);\nint a = b >> 2;"),
            "k" + std::string(16, ' ') + "(x, y);\nint a = b >> 2;");
  EXPECT_EQ(withoutLaunchConfigs("k<<<dim,\n  s>>>(x);"), "k       \n      (x);");  // lines stay
  EXPECT_EQ(withoutLaunchConfigs("a << 1; b<<<c"), "a << 1; b<<<c");                // no closing >>>: as written
}

TEST_F(ProjectRunTest, TheKernelIsBuiltAsForTheDeviceWithItsLaunchStub) {
  // CANN's CPU-debug build defines __CCE_KT_TEST__ and the device build does not: GroupNormSwish's answer copies
  // its input only under #ifndef __CCE_KT_TEST__, and AddLayerNormGrad's keeps a <<<>>> launch stub there. A copy
  // of keyed_scale that stages x the same way, with a stub, then a line g++ refuses.
  const std::string stage = "  for (uint32_t i = 0; i < count; ++i) wsGm.SetValue(i, xGm.GetValue(i));\n";
  const std::string stub =
      "#ifndef __CCE_KT_TEST__\n"
      "void keyed_scale_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* ws, uint8_t* tiling) {\n"
      "  keyed_scale<<<blockDim, nullptr,\n      stream>>>(x, y, ws, tiling);\n"
      "}\n"
      "#endif\n";
  ASSERT_FALSE(
      editedCopy("device", "op_kernel/keyed_scale.cpp", stage, "#ifndef __CCE_KT_TEST__\n" + stage + "#endif\n", stub)
          .empty());
  fs::path kernel = tmp_ / "device" / "op_kernel" / "keyed_scale.cpp";
  std::string text = support::readFile(kernel.string()).value_or("");
  std::string error;
  interp::HostTensor x = ramp(1003, 1), y = ramp(1003, 1.5);
  ProjectOptions options{(tmp_ / "device").string(),
                         {"x=" + writeNpy("x.npy", x)},
                         {"scale=1.5"},
                         {"y=" + writeNpy("y.npy", y)},
                         "",
                         "",
                         120};
  EXPECT_EQ(run(options), 0) << err_.str() << out_.str();
  EXPECT_NE(out_.str().find("PASS "), std::string::npos) << out_.str();
  int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  ASSERT_TRUE(support::writeFileAtomically(kernel, text + "int tc_after_the_stub = not_declared_here;\n", &error));
  EXPECT_EQ(run(options), 1);
  // The copy g++ compiled is named by the file as written, at the stub-free line and column of the mistake.
  EXPECT_NE(err_.str().find(fmt::format("{}:{}:25: error: ", kernel.string(), lines + 1)), std::string::npos)
      << err_.str();
  EXPECT_NE(err_.str().find("not_declared_here"), std::string::npos) << err_.str();
}

TEST_F(ProjectRunTest, AnOutputWhoseShapeDependsOnTheComputeTakesTheShapeTheKernelWrote) {
  // keep_positive's y is marked OutputShapeDependOnCompute: the kernel gets one more argument after the outputs
  // and writes y's shape there; project run trims y to it (InferShape gave x's length, the bound).
  const std::string project = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/keep_positive";
  interp::HostTensor x = ramp(40, 1);  // -100, -99.5, ...: none positive
  for (int64_t i = 0; i < 40; i += 3) x.data[static_cast<size_t>(i)] = static_cast<double>(i + 1);
  interp::HostTensor y = interp::HostTensor::zeros(dsl::DType::F32, {14});
  for (int64_t k = 0; k < 14; ++k) y.data[static_cast<size_t>(k)] = static_cast<double>(3 * k + 1);
  std::string xs = writeNpy("kp_x.npy", x), ys = writeNpy("kp_y.npy", y);
  EXPECT_EQ(run({project, {"x=" + xs}, {}, {"y=" + ys}, "", "", 120}), 0) << err_.str();
  EXPECT_NE(out_.str().find("  y: f32[14], matches"), std::string::npos) << out_.str();
  // A rank past 8 does not fit CANN's 9 words.
  EXPECT_EQ(run({project, {"x=" + xs}, {"rank=9"}, {"y=" + ys}, "", "", 120}), 1);
  EXPECT_EQ(err_.str(),
            "error: the kernel wrote a shape of rank 9 (14 elements) for output 'y', which depends on the compute; "
            "its buffer holds 40 elements of rank at most 8; hint: write the rank, then the dims, into the shape "
            "argument after the outputs\n");
}

TEST_F(ProjectRunTest, ShapeUsageErrors) {
  std::string x = writeNpy("x.npy", ramp(8, 1));
  ProjectOptions o{dir_, {"x=" + x}, {}, {}, "", "", 120};
  for (const auto& [spec, message] : std::vector<std::pair<std::string, std::string>>{
           {"y=2,x", "error: --shape takes NAME=D0,D1,... (whole numbers), got 'y=2,x'\n"},
           {"y=", "error: --shape takes NAME=D0,D1,... (whole numbers), got 'y='\n"},
           {"y=8,", "error: --shape takes NAME=D0,D1,... (whole numbers), got 'y=8,'\n"},
           {"y=-8", "error: --shape takes NAME=D0,D1,... (whole numbers), got 'y=-8'\n"},
           {"z=8", "error: --shape z: KeyedScale has no output 'z' that is one tensor (its outputs: y)\n"}}) {
    o.shapes = {spec};
    EXPECT_EQ(run(o), 2) << spec;
    EXPECT_NE(err_.str().find(message), std::string::npos) << spec << ": " << err_.str();
  }
}

TEST_F(ProjectRunTest, AFailedTilingFuncNamesItsSetTilingLine) {
  std::string x = writeNpy("x.npy", ramp(1003, 1));
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale=0"}, {}, "", "", 120}), 3);
  EXPECT_EQ(err_.str(), dir_ +
                            "/op_host/keyed_scale.cpp:53: error: TilingFunc of KeyedScale failed (it returned "
                            "GRAPH_FAILED) for inputs x[1003]\n");
}

TEST_F(ProjectRunTest, UsageErrors) {
  std::string x = writeNpy("x.npy", ramp(8, 1));
  interp::HostTensor half = ramp(8, 1);
  half.dtype = dsl::DType::F16;
  std::string h = writeNpy("h.npy", half);
  EXPECT_EQ(run({(tmp_ / "none").string(), {}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: " + (tmp_ / "none").string() + ": no such folder\n");
  fs::create_directories(tmp_ / "p" / "op_host");
  EXPECT_EQ(run({(tmp_ / "p").string(), {}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: " + (tmp_ / "p").string() +
                            ": no op_kernel/ folder (a CANN operator project, as msopgen lays it out, has op_host/ "
                            "and op_kernel/)\n");
  fs::create_directories(tmp_ / "p" / "op_kernel");
  EXPECT_EQ(run({(tmp_ / "p").string(), {}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: " + (tmp_ / "p").string() +
                            "/op_host: no .cpp or .cc file with the OpDef, TilingFunc and InferShape\n");
  EXPECT_EQ(run({dir_, {}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: input 'x' of KeyedScale has no data: pass --in x=FILE.npy\n");
  EXPECT_EQ(run({dir_, {"w=" + x}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --in w: KeyedScale has no input 'w' (its inputs: x)\n");
  EXPECT_EQ(run({dir_, {"x=" + x}, {"alpha=1"}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --attr alpha: KeyedScale has no attribute 'alpha' (its attributes: scale, negate)\n");
  EXPECT_EQ(run({dir_, {"x=" + x}, {"scale="}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --attr scale: an empty value is not a float\n");
  EXPECT_EQ(run({dir_, {"x=" + x}, {"negate=yes"}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --attr negate: 'yes' is not a bool; hint: pass true or false\n");
  EXPECT_EQ(run({dir_, {"x=" + h}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: KeyedScale takes no inputs x f16 (" + dir_ +
                            "/op_host/keyed_scale.cpp:57: OpDef dtype combinations: x float32)\n");
  EXPECT_EQ(run({dir_, {"x"}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --in takes NAME=FILE.npy, got 'x'\n");
  EXPECT_EQ(run({dir_, {"x=" + x}, {}, {"z=" + x}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --expect z: KeyedScale has no output or input 'z' (its outputs: y)\n");
  EXPECT_EQ(run({dir_, {"x=" + tmp_.string() + "/missing.npy"}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --in x: no such file '" + tmp_.string() + "/missing.npy'\n");
}

TEST_F(ProjectRunTest, HostProblemsBeforeAnyCase) {
  const std::string data = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/";
  EXPECT_EQ(run({data + "no_op", {}, {}, {}, "", "", 120}), 2);
  EXPECT_NE(err_.str().find("error: op_host registers 0 operators with OP_ADD (); a project has one\n"),
            std::string::npos)
      << err_.str();
  EXPECT_EQ(run({data + "broken_host", {}, {}, {}, "", "", 120}), 1);
  EXPECT_NE(err_.str().find(data + "broken_host/op_host/broken_host.cpp:5:"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find("error: " + data + "broken_host/op_host does not build against the emulator's host API\n"),
            std::string::npos)
      << err_.str();
}

// Cross-pipe flags as CANN builds a project: bisheng's --cce-auto-sync inserts them unless the project's
// CMakeLists.txt turns it off, or --sync says otherwise.
TEST_F(ProjectRunTest, AutoSyncInsertsTheFlagsTheKernelLeftOut) {
  const fs::path project = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/unsynced_double";
  std::string x = writeNpy("x.npy", ramp(64, 1));
  std::string y = writeNpy("y.npy", ramp(64, 2));
  ProjectOptions options{project.string(), {"x=" + x}, {}, {"y=" + y}, "", "", 120};
  EXPECT_EQ(run(options), 0) << err_.str();
  EXPECT_NE(out_.str().find("PASS "), std::string::npos) << out_.str();
  const std::string hazard = project.string() +
                             "/op_kernel/unsynced_double.cpp:17: error: cross-pipe hazard: Muls src on pipe V reads "
                             "data that DataCopy on pipe MTE2 wrote";
  options.sync = "strict";
  EXPECT_EQ(run(options), 3);
  EXPECT_EQ(err_.str().rfind(hazard, 0), 0u) << err_.str();
  // The project's own build turns auto-sync off (a copy of it with that CMakeLists.txt; the last mention wins).
  fs::copy(project, tmp_ / "off", fs::copy_options::recursive);
  std::string error;
  ASSERT_TRUE(support::writeFileAtomically(
      tmp_ / "off" / "CMakeLists.txt",
      "add_ops_compile_options(ALL OPTIONS --cce-auto-sync=on)\nadd_ops_compile_options(ALL OPTIONS "
      "--cce-auto-sync=off)\n",
      &error))
      << error;
  options.dir = (tmp_ / "off").string();
  options.sync = "project";
  EXPECT_EQ(run(options), 3);
  EXPECT_NE(err_.str().find("error: cross-pipe hazard: Muls src on pipe V reads data that DataCopy on pipe MTE2"),
            std::string::npos)
      << err_.str();
  // --faults warn: the hazard is a warning at its line, the run goes on in program order and its output matches.
  options.faults = "warn";
  EXPECT_EQ(run(options), 0) << err_.str();
  EXPECT_NE(err_.str().find("op_kernel/unsynced_double.cpp:"), std::string::npos) << err_.str();
  EXPECT_NE(err_.str().find(": warning: cross-pipe hazard: Muls src on pipe V reads data that DataCopy on pipe MTE2"),
            std::string::npos)
      << err_.str();
  EXPECT_NE(out_.str().find("checks passed with 2 fault(s) the device runs through, reported as warnings (--faults "
                            "warn)"),
            std::string::npos)
      << out_.str();
  options.faults = "lax";
  EXPECT_EQ(run(options), 2);
  EXPECT_EQ(err_.str(), "error: --faults lax: not a fault mode; hint: error or warn\n");
  options.faults = "error";
  options.sync = "auto";
  EXPECT_EQ(run(options), 0) << err_.str();
  options.sync = "fast";
  EXPECT_EQ(run(options), 2);
  EXPECT_EQ(err_.str(), "error: --sync fast: not a sync mode; hint: project, auto or strict\n");
  options.sync = "project";
  // --include: a header the project takes from elsewhere (cann-ops' common includes), for host and kernel alike.
  fs::copy(project, tmp_ / "inc", fs::copy_options::recursive);
  fs::create_directories(tmp_ / "hdr");
  for (const char* file : {"op_host/unsynced_double.cpp", "op_kernel/unsynced_double.cpp"}) {
    std::string text = support::readFile((tmp_ / "inc" / file).string()).value_or("");
    ASSERT_TRUE(support::writeFileAtomically(tmp_ / "inc" / file, "#include \"tc_extra.h\"\n" + text, &error));
  }
  ASSERT_TRUE(support::writeFileAtomically(tmp_ / "hdr" / "tc_extra.h", "#pragma once\n", &error));
  options.dir = (tmp_ / "inc").string();
  EXPECT_EQ(run(options), 1);
  EXPECT_NE(err_.str().find("tc_extra.h: No such file or directory"), std::string::npos) << err_.str();
  options.includeDirs = {(tmp_ / "hdr").string()};
  EXPECT_EQ(run(options), 0) << err_.str();
  options.includeDirs = {(tmp_ / "nowhere").string()};
  EXPECT_EQ(run(options), 2);
  EXPECT_EQ(err_.str(), "error: --include " + (tmp_ / "nowhere").string() + ": no such folder\n");
}

// complex64 in and out (the conjugate project): the files are '<c8', the host sees DT_COMPLEX64 and the complex
// shape (its TilingFunc refuses any other dtype, and a count of floats would take the kernel past its buffers), the
// kernel the float32 (real, imaginary) pairs. Its op_host is two files that build only as CANN builds them: one
// translation unit each, linked allowing the header function both define.
TEST_F(ProjectRunTest, Complex64TensorsReachTheKernelAsFloatPairs) {
  const std::string project = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/conjugate";
  interp::HostTensor x = interp::HostTensor::zeros(dsl::DType::F32, {64, 2});
  for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = (static_cast<double>(i) - 50) * 0.25;
  interp::HostTensor y = x;
  for (size_t i = 1; i < y.data.size(); i += 2) y.data[i] = -y.data[i];
  auto writeComplex = [&](const std::string& name, const interp::HostTensor& t) {
    std::string error;
    EXPECT_TRUE(support::writeFileAtomically(tmp_ / name, interp::encodeNpy(t, true), &error)) << error;
    return (tmp_ / name).string();
  };
  std::string xs = writeComplex("x.npy", x), ys = writeComplex("y.npy", y);
  EXPECT_EQ(run({project, {"x=" + xs}, {}, {"y=" + ys}, (tmp_ / "out").string(), "", 120}), 0) << err_.str();
  EXPECT_NE(out_.str().find("  y: c64[64] -> " + (tmp_ / "out" / "y.npy").string() + ", matches"), std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("PASS "), std::string::npos) << out_.str();
  std::string error;
  bool complex64 = false;
  auto written =
      interp::decodeNpy(support::readFile((tmp_ / "out" / "y.npy").string()).value_or(""), &error, &complex64);
  ASSERT_TRUE(written) << error;
  EXPECT_TRUE(complex64);
  EXPECT_EQ(written->shape, y.shape);
  EXPECT_EQ(written->data, y.data);
  // One imaginary part left as it was is found at its pair's place.
  interp::HostTensor wrong = y;
  wrong.data[7] = -wrong.data[7];
  std::string ws = writeComplex("wrong.npy", wrong);
  EXPECT_EQ(run({project, {"x=" + xs}, {}, {"y=" + ws}, "", "", 120}), 1);
  EXPECT_NE(out_.str().find("  y: c64[64], MISMATCH: 1 of 128 elements out of tolerance; mean rel error 0.0156 "
                            "(limit 0.000122), max 2 at [3, 1] (got 10.75, want -10.75) (complex64 compared as "
                            "float32 pairs: [..., 0] real, [..., 1] imaginary)\n"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(out_.str().find("FAIL "), std::string::npos) << out_.str();
  // A real reference of the pairs' shape is not a complex one.
  EXPECT_EQ(run({project, {"x=" + xs}, {}, {"y=" + writeNpy("pairs.npy", y)}, "", "", 120}), 1);
  EXPECT_NE(out_.str().find("  y: c64[64], MISMATCH: got c64[64] but the reference is f32[64, 2]\n"), std::string::npos)
      << out_.str();
  // The dtype columns: complex64 where the OpDef takes float32, and the reverse.
  EXPECT_EQ(run({dir_, {"x=" + xs}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: KeyedScale takes no inputs x c64 (" + dir_ +
                            "/op_host/keyed_scale.cpp:57: OpDef dtype combinations: x float32)\n");
  EXPECT_EQ(run({project, {"x=" + writeNpy("real.npy", x)}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: Conjugate takes no inputs x f32 (" + project +
                            "/op_host/conjugate_def.cc:17: OpDef dtype combinations: x complex64)\n");
  // complex128 is refused, with what to do instead.
  std::string wide = support::readFile(xs).value_or("");
  wide.replace(wide.find("<c8"), 3, "<c16");
  ASSERT_TRUE(support::writeFileAtomically(tmp_ / "wide.npy", wide, &error)) << error;
  EXPECT_EQ(run({project, {"x=" + (tmp_ / "wide.npy").string()}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --in x: " + (tmp_ / "wide.npy").string() +
                            ": complex128 .npy arrays ('<c16') are not supported; save the array as complex64 ('<c8': "
                            ".astype(numpy.complex64))\n");
}

// A ref output (the output `y` of an input `y`) is the input's buffer: what the kernel leaves alone keeps the
// input's values. The kernel also checks CANN's ORIG_DTYPE_/FORMAT_ defines at preprocessing time, per dtype.
TEST_F(ProjectRunTest, ARefOutputSharesItsInputsBufferAndTheKernelSeesCannsTypeDefines) {
  const std::string project = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/set_diagonal";
  for (dsl::DType dtype : {dsl::DType::F16, dsl::DType::F32}) {
    const std::string tag = dsl::dtypeName(dtype);
    interp::HostTensor x = interp::HostTensor::zeros(dtype, {8}), y = interp::HostTensor::zeros(dtype, {8, 8});
    for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = -1.0 - static_cast<double>(i);
    for (size_t i = 0; i < y.data.size(); ++i) y.data[i] = static_cast<double>(i) * 0.5;
    interp::HostTensor want = y;
    for (size_t i = 0; i < 8; ++i) want.data[i * 8 + i] = x.data[i];
    std::string xs = writeNpy("x" + tag + ".npy", x), ys = writeNpy("y" + tag + ".npy", y);
    EXPECT_EQ(run({project, {"x=" + xs, "y=" + ys}, {}, {"y=" + writeNpy("want" + tag + ".npy", want)}, "", "", 120}),
              0)
        << err_.str();
    EXPECT_NE(out_.str().find("  y: " + tag + "[8, 8], matches"), std::string::npos) << out_.str();
    // Without the shared buffer the off-diagonal elements would be unwritten (or zero): the input's values are
    // what tells the two apart.
    interp::HostTensor zeroed = want;
    zeroed.data[1] = 0;
    EXPECT_EQ(
        run({project, {"x=" + xs, "y=" + ys}, {}, {"y=" + writeNpy("zeroed" + tag + ".npy", zeroed)}, "", "", 120}), 1);
    EXPECT_NE(out_.str().find("  y: " + tag + "[8, 8], MISMATCH: 1 of 64 elements out of tolerance"), std::string::npos)
        << out_.str();
  }
}

// Tensor lists (msopgen DYNAMIC) in and out: the list_axpy project checks the instance records, the ListTensorDesc
// and raw readings of the GM layout, and the per-tensor shapes (a wrong one leaves its output unwritten).
class ListProjectTest : public ProjectRunTest {
 protected:
  std::string list_ = std::string(TILECRAFT_SOURCE_DIR) + "/project/tests/data/list_axpy";
  interp::HostTensor filled(std::vector<int64_t> shape, double scale) {
    interp::HostTensor t = interp::HostTensor::zeros(dsl::DType::F32, shape);
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = (static_cast<double>(i) - 20) * scale;
    return t;
  }
};

TEST_F(ListProjectTest, ListInputsAndAListOutputRunThroughTheSandbox) {
  std::vector<std::vector<int64_t>> shapes = {{5}, {2, 33}, {7, 1, 3}};
  std::string xs, ys, zs, wrong;
  interp::HostTensor bias = interp::HostTensor::zeros(dsl::DType::F32, {1});
  bias.data[0] = 0.25;
  for (size_t k = 0; k < shapes.size(); ++k) {
    interp::HostTensor x = filled(shapes[k], 1), y = filled(shapes[k], -0.5 * static_cast<double>(k + 1)), z = x;
    for (size_t i = 0; i < z.data.size(); ++i) z.data[i] = x.data[i] + 2.0 * y.data[i] + 0.25;
    std::string sep = k ? "," : "";
    xs += sep + writeNpy("x" + std::to_string(k) + ".npy", x);
    ys += sep + writeNpy("y" + std::to_string(k) + ".npy", y);
    zs += sep + writeNpy("z" + std::to_string(k) + ".npy", z);
    z.data[0] += k == 2 ? 1.0 : 0.0;
    wrong += sep + writeNpy("w" + std::to_string(k) + ".npy", z);
  }
  std::string b = writeNpy("bias.npy", bias);
  EXPECT_EQ(
      run({list_, {"x=" + xs, "bias=" + b, "y=" + ys}, {"alpha=2"}, {"z=" + zs}, (tmp_ / "out").string(), "", 120}), 0)
      << err_.str() << out_.str();
  EXPECT_NE(out_.str().find("host: block dim 3, tiling key 0, tiling data 40 bytes"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("  z[1]: f32[2, 33] -> "), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("PASS "), std::string::npos) << out_.str();
  EXPECT_TRUE(fs::is_regular_file(tmp_ / "out" / "z_2.npy"));
  // Without --expect the output list is as long as the first input list, its shapes from InferShape.
  EXPECT_EQ(run({list_, {"#0=" + xs, "#1=" + b, "#2=" + ys}, {"alpha=2"}, {}, (tmp_ / "out2").string(), "", 120}), 0)
      << err_.str();
  EXPECT_NE(out_.str().find("  z[2]: f32[7, 1, 3] -> "), std::string::npos) << out_.str();
  // One wrong element of the last tensor is found in that tensor.
  EXPECT_EQ(run({list_, {"x=" + xs, "bias=" + b, "y=" + ys}, {"alpha=2"}, {"z=" + wrong}, "", "", 120}), 1);
  EXPECT_NE(out_.str().find("  z[2]: f32[7, 1, 3], MISMATCH"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find("  z[1]: f32[2, 33], matches"), std::string::npos) << out_.str();
}

TEST_F(ListProjectTest, ListUsageErrors) {
  std::string x = writeNpy("x.npy", filled({4}, 1));
  EXPECT_EQ(run({list_, {"x=" + x + ",", "bias=" + x, "y=" + x}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: --in x: an empty file name in '" + x + ",' (a tensor list is FILE,FILE,...)\n");
  EXPECT_EQ(run({list_, {"bias=" + x, "y=" + x}, {}, {}, "", "", 120}), 2);
  EXPECT_EQ(err_.str(), "error: input 'x' of ListAxpy is a tensor list with no data: pass --in x=FILE.npy,...\n");
}

}  // namespace
}  // namespace tilecraft::project
