// The emulator's CANN host API (emu/include/register, exe_graph/runtime) in process: CANN's tiling layout, the
// accessors, and the errors that name the host code's line.
#include <gtest/gtest.h>

#include <cstring>

#include "emu/host_driver.h"
#include "exe_graph/runtime/tiling_context.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ProbeInner)
TILING_DATA_FIELD_DEF(uint16_t, a);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(ProbeTiling)
TILING_DATA_FIELD_DEF(uint8_t, small);
TILING_DATA_FIELD_DEF(uint32_t, word);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, halves);
TILING_DATA_FIELD_DEF(int64_t, wide);
TILING_DATA_FIELD_DEF_STRUCT(ProbeInner, inner);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ProbeOp, ProbeTiling)
}  // namespace optiling

namespace {

[[noreturn]] void throwing(const tcemu::CheckError& e) { throw e; }

struct Throwing {
  Throwing() { tcemu::failHandler() = &throwing; }
  ~Throwing() { tcemu::failHandler() = nullptr; }
};

TEST(HostApi, TilingLayoutIsCannsNaturalAlignmentPaddedToEight) {
  optiling::ProbeTiling t;
  std::vector<optiling::FieldInfo> fields = t.GetFieldInfo();
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_EQ(fields[0].tcemuOffset_, 0u);   // uint8
  EXPECT_EQ(fields[1].tcemuOffset_, 4u);   // uint32 after 3 bytes of padding
  EXPECT_EQ(fields[2].tcemuOffset_, 8u);   // uint16[3]: 8..14
  EXPECT_EQ(fields[3].tcemuOffset_, 16u);  // int64 at the next multiple of 8
  EXPECT_EQ(fields[4].tcemuOffset_, 24u);  // a struct at a multiple of 8, 8 bytes (2 padded to 8)
  EXPECT_EQ(fields[4].structSize_, 8u);
  EXPECT_EQ(t.GetDataSize(), 32u);
  EXPECT_STREQ(t.GetTilingClassName(), "ProbeTiling");
}

TEST(HostApi, SaveToBufferWritesEveryFieldAtItsOffset) {
  optiling::ProbeTiling t;
  t.set_small(0xAB);
  t.set_word(0x01020304u);
  uint16_t halves[3] = {7, 8, 9};
  t.set_halves(halves);
  t.set_wide(-2);
  t.inner.set_a(0x5566);
  EXPECT_EQ(t.get_word(), 0x01020304u);
  EXPECT_EQ(t.get_halves()[2], 9);
  std::vector<uint8_t> buffer(64, 0xEE);
  t.SaveToBuffer(buffer.data(), buffer.size());
  uint32_t word = 0;
  int64_t wide = 0;
  uint16_t a = 0, h2 = 0;
  std::memcpy(&word, buffer.data() + 4, 4);
  std::memcpy(&h2, buffer.data() + 12, 2);
  std::memcpy(&wide, buffer.data() + 16, 8);
  std::memcpy(&a, buffer.data() + 24, 2);
  EXPECT_EQ(buffer[0], 0xAB);
  EXPECT_EQ(buffer[1], 0);  // padding is zero
  EXPECT_EQ(word, 0x01020304u);
  EXPECT_EQ(h2, 9);
  EXPECT_EQ(wide, -2);
  EXPECT_EQ(a, 0x5566);
  EXPECT_EQ(buffer[32], 0xEE);  // nothing past GetDataSize()
}

TEST(HostApi, FactoryCreatesTheRegisteredClass) {
  auto def = optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("ProbeOp");
  ASSERT_NE(def, nullptr);
  EXPECT_STREQ(def->GetTilingClassName(), "ProbeTiling");
  EXPECT_EQ(optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("Nope"), nullptr);
}

TEST(HostApi, SaveToBufferIntoASmallBufferNamesTheCall) {
  Throwing guard;
  optiling::ProbeTiling t;
  uint8_t small[8];
  const int line = __LINE__ + 2;
  try {
    t.SaveToBuffer(small, sizeof(small));
    FAIL() << "no error";
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.render(), std::string(__FILE__) + ":" + std::to_string(line) +
                              ": error: SaveToBuffer: ProbeTiling is 32 bytes, the buffer holds 8; hint: pass "
                              "context->GetRawTilingData()->GetCapacity()\n");
  }
}

TEST(HostApi, TilingContextReadsTheCallAndRecordsWhatTilingSets) {
  tcemu::host::OpCall call;
  call.opType = "ProbeOp";
  call.inputShapes.push_back(gert::StorageShape({4, 5}, {4, 5}));
  call.inputDescs.emplace_back(ge::DT_FLOAT16, gert::StorageFormat());
  tcemu::host::AttrValue eps;
  eps.kind = tcemu::host::AttrKind::Float;
  eps.f = 0.5f;
  call.attrs = gert::RuntimeAttrs({eps});
  gert::TilingContext context(&call);
  ASSERT_NE(context.GetInputShape(0), nullptr);
  EXPECT_EQ(context.GetInputShape(0)->GetStorageShape().GetShapeSize(), 20);
  EXPECT_EQ(context.GetInputShape(1), nullptr);
  EXPECT_EQ(context.GetInputDesc(0)->GetDataType(), ge::DT_FLOAT16);
  ASSERT_NE(context.GetAttrs()->GetFloat(0), nullptr);
  EXPECT_EQ(*context.GetAttrs()->GetFloat(0), 0.5f);
  // CANN's getters do not check the kind: GetInt of a float reads its bits (zero-filled), as CANN's bytes hold it.
  ASSERT_NE(context.GetAttrs()->GetInt(0), nullptr);
  EXPECT_EQ(static_cast<uint64_t>(*context.GetAttrs()->GetInt(0)), 0x3f000000u);
  EXPECT_EQ(context.GetAttrs()->GetListInt(0), nullptr);  // a list of a scalar: CANN would read past it
  EXPECT_EQ(context.GetAttrs()->GetInt(1), nullptr);      // past the last attribute
  context.SetBlockDim(8);
  context.SetTilingKey(3);
  size_t* ws = context.GetWorkspaceSizes(2);
  ws[1] = 99;
  EXPECT_EQ(call.blockDim, 8u);
  EXPECT_EQ(call.tilingKey, 3u);
  EXPECT_EQ(call.workspaces, (std::vector<size_t>{0, 99}));
  EXPECT_EQ(context.GetDeterministic(), 0);  // never asked for: CANN's default
}

TEST(HostApi, UnknownDimsHaveCannsValues) {
  EXPECT_EQ(ge::UNKNOWN_DIM, -1);
  EXPECT_EQ(ge::UNKNOWN_DIM_NUM, -2);
  EXPECT_EQ(ge::UNKNOWN_SHAPE, (std::vector<int64_t>{-1}));
  EXPECT_EQ(ge::UNKNOWN_RANK, (std::vector<int64_t>{-2}));
}

// A call of (x: DYNAMIC with 3 tensors, bias: REQUIRED, y: DYNAMIC with none): the flat instance list is x[0..2],
// bias; IR-indexed queries map through the instance records, as CANN's do.
TEST(HostApi, DynamicInputsAreInstancesInIrOrder) {
  tcemu::host::OpCall call;
  call.opType = "ListOp";
  for (int64_t n : {3, 5, 7, 1}) {
    call.inputShapes.push_back(gert::StorageShape({n}, {n}));
    call.inputTensors.emplace_back(call.inputShapes.back(), gert::StorageFormat(), ge::DT_FLOAT);
    call.inputDescs.emplace_back(n == 1 ? ge::DT_INT32 : ge::DT_FLOAT, gert::StorageFormat());
  }
  call.inputInstances = tcemu::host::instancesOf({0, 0, 0, 1}, 3);
  call.outputShapes.resize(2);
  call.outputDescs.resize(2);
  call.outputInstances = tcemu::host::instancesOf({0, 0}, 1);
  gert::TilingContext tiling(&call);
  EXPECT_EQ(tiling.GetDynamicInputShape(0, 2)->GetStorageShape().GetDim(0), 7);
  EXPECT_EQ(tiling.GetDynamicInputShape(0, 3), nullptr);
  EXPECT_EQ(tiling.GetDynamicInputTensor(0, 1)->GetStorageShape().GetDim(0), 5);
  EXPECT_EQ(tiling.GetRequiredInputShape(1)->GetStorageShape().GetDim(0), 1);
  EXPECT_EQ(tiling.GetInputShape(3)->GetStorageShape().GetDim(0), 1);  // the flat index
  EXPECT_EQ(tiling.GetRequiredInputDesc(1)->GetDataType(), ge::DT_INT32);
  EXPECT_EQ(tiling.GetDynamicInputShape(2, 0), nullptr);
  const gert::ComputeNodeInfo* node = tiling.GetComputeNodeInfo();
  EXPECT_EQ(node->GetIrInputsNum(), 3u);
  EXPECT_EQ(node->GetInputsNum(), 4u);
  EXPECT_EQ(node->GetInputInstanceInfo(0)->GetInstanceNum(), 3u);
  EXPECT_EQ(node->GetInputInstanceInfo(1)->GetInstanceStart(), 3u);
  EXPECT_EQ(node->GetInputInstanceInfo(2)->GetInstanceNum(), 0u);
  EXPECT_EQ(node->GetInputInstanceInfo(2)->GetInstanceStart(), 4u);
  EXPECT_EQ(node->GetInputInstanceInfo(3), nullptr);
  EXPECT_EQ(node->GetOutputInstanceInfo(0)->GetInstanceNum(), 2u);
  EXPECT_EQ(node->GetInputTdInfo(3)->GetDataType(), ge::DT_INT32);
  gert::InferShapeContext infer(&call);
  EXPECT_EQ(infer.GetDynamicInputShape(0, 1)->GetDim(0), 5);
  EXPECT_EQ(infer.GetDynamicInputShape(0, 3), nullptr);
  EXPECT_NE(infer.GetOutputShape(1), nullptr);
  gert::InferDataTypeContext types(&call);
  EXPECT_EQ(types.GetDynamicInputDataType(0, 2), ge::DT_FLOAT);
  EXPECT_EQ(types.GetRequiredInputDataType(1), ge::DT_INT32);
  EXPECT_EQ(types.GetDynamicInputDataType(2, 0), ge::DT_UNDEFINED);
}

TEST(HostApi, PlatFormInfosAnswersForThe910B2) {
  fe::PlatFormInfos infos;
  uint64_t ub = 0, l1 = 0;
  infos.GetLocalMemSize(fe::LocalMemType::UB, ub);
  infos.GetLocalMemSize(fe::LocalMemType::L1, l1);
  EXPECT_EQ(ub, 192u * 1024);
  EXPECT_EQ(l1, 512u * 1024);
  EXPECT_EQ(infos.GetCoreNum(), platform_ascendc::PlatformAscendC(&infos).GetCoreNum());
}

TEST(HostApi, TilingDataSetDataSizeBeyondCapacityNamesTheCall) {
  Throwing guard;
  gert::TilingData data;
  const int line = __LINE__ + 2;
  try {
    data.SetDataSize(1 << 20);
    FAIL() << "no error";
  } catch (const tcemu::CheckError& e) {
    EXPECT_EQ(e.render(), std::string(__FILE__) + ":" + std::to_string(line) +
                              ": error: TilingData::SetDataSize(1048576): beyond the tiling buffer's 65536 bytes\n");
  }
}

// ge::Operator holds what was set on it; a missing description is empty, a missing or other-kind attribute
// GRAPH_FAILED; a CheckSupported function on it runs as graph mode would call it.
ge::graphStatus NeedsRankTwo(const ge::Operator& op, ge::AscendString& result) {
  int64_t axis = 0;
  bool ok = op.GetInputDescByName("x").GetShape().GetDimNum() == 2 && op.GetAttr("axis", axis) == ge::GRAPH_SUCCESS;
  result = ge::AscendString(ok ? "{\"isSupported\": \"True\"}" : "{\"isSupported\": \"False\"}");
  return ok ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}

TEST(HostApi, OperatorHoldsItsDescriptionsAndAttributes) {
  ge::Operator op("rev", "ReverseSequence");
  ge::AscendString name, type;
  op.GetName(name);
  op.GetOpType(type);
  EXPECT_STREQ(name.GetString(), "rev");
  EXPECT_STREQ(type.GetString(), "ReverseSequence");
  EXPECT_EQ(op.UpdateInputDesc("x", ge::TensorDesc(ge::Shape({4, 6}), ge::FORMAT_ND, ge::DT_FLOAT16)),
            ge::GRAPH_SUCCESS);
  op.UpdateOutputDesc("y", ge::TensorDesc(ge::Shape({4, 6})));
  op.UpdateInputDesc("x", ge::TensorDesc(ge::Shape({4, 7}), ge::FORMAT_ND, ge::DT_BF16));  // replaces, not adds
  EXPECT_EQ(op.GetInputsSize(), 1u);
  EXPECT_EQ(op.GetInputDescByName("x").GetShape().GetDims(), (std::vector<int64_t>{4, 7}));
  EXPECT_EQ(op.GetInputDesc(0).GetDataType(), ge::DT_BF16);
  EXPECT_EQ(op.GetOutputDescByName("y").GetDataType(), ge::DT_FLOAT);
  EXPECT_EQ(op.GetInputDescByName("z").GetShape().GetDimNum(), 0u);
  EXPECT_EQ(op.GetOutputDesc(3).GetShape().GetDimNum(), 0u);

  op.SetAttr("seq_dim", int64_t{-2}).SetAttr("scale", 0.5f).SetAttr("mode", "sum").SetAttr("keep", true);
  op.SetAttr("dims", std::vector<int64_t>{1, 2});
  int64_t seq = 0;
  int32_t seq32 = 0;
  float scale = 0;
  bool keep = false;
  ge::AscendString mode;
  std::vector<int64_t> dims;
  EXPECT_EQ(op.GetAttr("seq_dim", seq), ge::GRAPH_SUCCESS);
  EXPECT_EQ(seq, -2);
  EXPECT_EQ(op.GetAttr("seq_dim", seq32), ge::GRAPH_SUCCESS);
  EXPECT_EQ(seq32, -2);
  EXPECT_EQ(op.GetAttr("scale", scale), ge::GRAPH_SUCCESS);
  EXPECT_EQ(scale, 0.5f);
  EXPECT_EQ(op.GetAttr("mode", mode), ge::GRAPH_SUCCESS);
  EXPECT_STREQ(mode.GetString(), "sum");
  EXPECT_EQ(op.GetAttr("keep", keep), ge::GRAPH_SUCCESS);
  EXPECT_TRUE(keep);
  EXPECT_EQ(op.GetAttr("dims", dims), ge::GRAPH_SUCCESS);
  EXPECT_EQ(dims, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(op.GetAttr("batch_dim", seq), ge::GRAPH_FAILED);  // never set
  EXPECT_EQ(op.GetAttr("scale", seq), ge::GRAPH_FAILED);      // a float, not an int
  EXPECT_EQ(seq, -2);                                         // left as it was

  ops::OpDef def("ReverseSequence");
  def.AICore().SetCheckSupport(NeedsRankTwo).SetOpSelectFormat(NeedsRankTwo);
  ASSERT_EQ(def.AICore().tcemuCheckSupport(), &NeedsRankTwo);
  ge::AscendString verdict;
  EXPECT_EQ(def.AICore().tcemuCheckSupport()(op, verdict), ge::GRAPH_FAILED);  // no axis attribute
  op.SetAttr("axis", int64_t{0});
  EXPECT_EQ(def.AICore().tcemuOpSelectFormat()(op, verdict), ge::GRAPH_SUCCESS);
  EXPECT_STREQ(verdict.GetString(), "{\"isSupported\": \"True\"}");
}

}  // namespace
