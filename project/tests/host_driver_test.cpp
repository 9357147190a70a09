// The host driver (emu/include/emu/host_driver.h) in process: the records `describe` and `case` write for an
// operator whose tiling is registered through IMPL_OP_OPTILING rather than the OpDef, with a TilingParse function.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "emu/host_driver.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DriverProbeTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DriverProbe, DriverProbeTiling)

struct DriverProbeCompileInfo {
  uint32_t cores = 5;
};

static ge::graphStatus DriverProbeTilingFunc(gert::TilingContext* context) {
  DriverProbeTiling tiling;
  tiling.set_total(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
  tiling.set_alpha(*context->GetAttrs()->GetFloat(0));
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetBlockDim(context->GetCompileInfo<DriverProbeCompileInfo>()->cores);
  // An optional input the case leaves out has no instance, as in CANN: nullptr, and one input in all.
  bool noBias = context->GetOptionalInputShape(1) == nullptr && context->GetComputeNodeInputNum() == 1;
  context->SetTilingKey(noBias ? 7 : 8);
  context->GetWorkspaceSizes(2)[1] = 64;
  return ge::GRAPH_SUCCESS;
}

// Run before TilingFunc, as CANN runs it when the operator is loaded: the compile info it fills is what TilingFunc
// reads (AddRmsNorm's answer takes its core count from there).
static ge::graphStatus DriverProbeParse(gert::TilingParseContext* context) {
  auto* info = context->GetCompiledInfo<DriverProbeCompileInfo>();
  info->cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv() / 8;
  return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(DriverProbe).Tiling(DriverProbeTilingFunc).TilingParse<DriverProbeCompileInfo>(DriverProbeParse);
}  // namespace optiling

namespace ge {
static graphStatus DriverProbeInferShape(gert::InferShapeContext* context) {
  gert::Shape* y = context->GetOutputShape(0);
  y->SetDimNum(1);
  y->SetDim(0, context->GetInputShape(0)->GetShapeSize());
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class DriverProbe : public OpDef {
 public:
  explicit DriverProbe(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Attr("alpha").AttrType(OPTIONAL).Float(0.5f);
    this->SetInferShape(ge::DriverProbeInferShape);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(DriverProbe);
}  // namespace ops

namespace {

TEST(HostDriver, DescribeWritesTheSignatureAndTheTilingLayout) {
  std::ostringstream out;
  EXPECT_EQ(tcemu::host::describe(out), 0);
  std::string text = out.str();
  EXPECT_EQ(text.substr(text.find('\n') + 1),
            "input x required 1 0\n"
            "input bias optional 1 0\n"
            "output y required 1 0\n"
            "attr alpha float default\n"
            "infershape 1\n"
            "tiling 1\n"
            "register DriverProbe DriverProbeTiling\n"
            "class DriverProbeTiling 8\n"
            "field scalar uint32_t total 0 4 1\n"
            "field scalar float alpha 4 4 1\n"
            "endclass\n"
            // host_api_test.cpp's class, in the same binary: a nested class is described before its user.
            "register ProbeOp ProbeTiling\n"
            "class ProbeInner 8\n"
            "field scalar uint16_t a 0 2 1\n"
            "endclass\n"
            "class ProbeTiling 32\n"
            "field scalar uint8_t small 0 1 1\n"
            "field scalar uint32_t word 4 4 1\n"
            "field array uint16_t halves 8 2 3\n"
            "field scalar int64_t wide 16 8 1\n"
            "field struct ProbeInner inner 24 8 def\n"
            "endclass\n");
  EXPECT_EQ(text.rfind("op DriverProbe ", 0), 0u) << text;
}

TEST(HostDriver, CaseRunsInferShapeAndTheImplRegisteredTiling) {
  std::string path = (std::filesystem::temp_directory_path() / "tilecraft-host-driver-case.txt").string();
  std::ofstream(path) << "input 0 1 - 2 3 4\noutput 0 1 -1\nattr 0 2.5\n";
  std::ostringstream out;
  EXPECT_EQ(tcemu::host::runCase(path, out), 0);
  std::remove(path.c_str());
  // total 12 = 0c000000, alpha 2.5f = 00002040; 6 cores from the TilingParse function; workspace {0, 64}.
  EXPECT_EQ(out.str(),
            "output 1 1 12\n"
            "blockdim 6\n"
            "tilingkey 7\n"  // no bias
            "workspace 0 64\n"
            "tilingdata 8 0c00000000002040\n");
}

TEST(HostDriver, AGivenOptionalInputHasItsInstance) {
  std::string path = (std::filesystem::temp_directory_path() / "tilecraft-host-driver-bias.txt").string();
  std::ofstream(path) << "input 0 1 - 2 3 4\ninput 1 1 - 1 4\noutput 0 1 -1\n";
  std::ostringstream out;
  EXPECT_EQ(tcemu::host::runCase(path, out), 0);
  std::remove(path.c_str());
  EXPECT_NE(out.str().find("tilingkey 8\n"), std::string::npos) << out.str();
}

}  // namespace
