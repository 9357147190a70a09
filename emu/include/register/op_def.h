// The operator definition (CANN's register/op_def.h, namespace ops): inputs, outputs and attributes with their
// dtypes and formats, and the host functions. The emulator keeps all of it for `tilecraft project run`, which reads
// the signature from here (inputs in order, then outputs: the kernel's arguments) and calls the functions.
#pragma once

#include <cstdint>
#include <deque>
#include <iostream>  // CANN's register headers bring it, and op_host files print with it
#include <map>
#include <string>
#include <vector>

#include "emu/host_call.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/operator.h"
#include "graph/types.h"
#include "register/op_impl_registry.h"

namespace optiling {
// A graph-mode query on the operator node (CheckSupported, OpSelectFormat): it fills `result` with a JSON verdict.
using OP_CHECK_FUNC = ge::graphStatus (*)(const ge::Operator& op, ge::AscendString& result);
}  // namespace optiling

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT = 1, MAX };
enum class CommentSection : uint32_t {
  CATEGORY = 0,
  BRIEF = 1,
  CONSTRAINTS = 2,
  RESTRICTIONS = 3,
  SEE = 4,
  THIRDPARTYFWKCOMPAT = 5,
  SECTION_MAX
};

class OpParamDef {
 public:
  explicit OpParamDef(const char* name) : name_(name) {}
  OpParamDef& ParamType(Option param_type) {
    type_ = param_type;
    return *this;
  }
  OpParamDef& DataType(std::vector<ge::DataType> types) {
    dataTypes_ = std::move(types);
    return *this;
  }
  OpParamDef& DataTypeList(std::vector<ge::DataType> types) { return DataType(std::move(types)); }
  OpParamDef& Format(std::vector<ge::Format> formats) {
    formats_ = std::move(formats);
    return *this;
  }
  OpParamDef& FormatList(std::vector<ge::Format> formats) { return Format(std::move(formats)); }
  OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType>) { return *this; }
  OpParamDef& FormatForBinQuery(std::vector<ge::Format>) { return *this; }
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
  OpParamDef& ValueDepend(Option) { return *this; }
  OpParamDef& ValueDepend(Option, DependScope) { return *this; }
  OpParamDef& IgnoreContiguous(void) { return *this; }
  OpParamDef& AutoContiguous() { return *this; }
  OpParamDef& Scalar() { return *this; }
  OpParamDef& ScalarList() { return *this; }
  OpParamDef& To(const ge::DataType) { return *this; }
  OpParamDef& To(const char*) { return *this; }
  OpParamDef& Version(uint32_t) { return *this; }
  OpParamDef& InitValue(uint64_t) { return *this; }
  OpParamDef& OutputShapeDependOnCompute() {
    shapeDependsOnCompute_ = true;
    return *this;
  }
  OpParamDef& Follow(const char* paramName) { return Follow(paramName, FollowType::ALL); }
  OpParamDef& Follow(const char* paramName, FollowType) {
    follow_ = paramName;
    return *this;
  }
  OpParamDef& Comment(const char*) { return *this; }
  // The emulator's view.
  const std::string& tcemuName() const { return name_; }
  Option tcemuParamType() const { return type_; }
  const std::vector<ge::DataType>& tcemuDataTypes() const { return dataTypes_; }
  const std::string& tcemuFollow() const { return follow_; }
  bool tcemuShapeDependsOnCompute() const { return shapeDependsOnCompute_; }

 private:
  std::string name_;
  Option type_ = REQUIRED;
  std::vector<ge::DataType> dataTypes_;
  std::vector<ge::Format> formats_;
  std::string follow_;
  bool shapeDependsOnCompute_ = false;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name) : name_(name) {}
  OpAttrDef& AttrType(Option attr_type) {
    type_ = attr_type;
    return *this;
  }
  OpAttrDef& Bool(void) { return kind(tcemu::host::AttrKind::Bool); }
  OpAttrDef& Bool(bool value) {
    value_.b = value;
    return withDefault(tcemu::host::AttrKind::Bool);
  }
  OpAttrDef& Float(void) { return kind(tcemu::host::AttrKind::Float); }
  OpAttrDef& Float(float value) {
    value_.f = value;
    return withDefault(tcemu::host::AttrKind::Float);
  }
  OpAttrDef& Int(void) { return kind(tcemu::host::AttrKind::Int); }
  OpAttrDef& Int(int64_t value) {
    value_.i = value;
    return withDefault(tcemu::host::AttrKind::Int);
  }
  OpAttrDef& String(void) { return kind(tcemu::host::AttrKind::Str); }
  OpAttrDef& String(const char* value) {
    value_.s = value;
    return withDefault(tcemu::host::AttrKind::Str);
  }
  OpAttrDef& ListBool(void) { return kind(tcemu::host::AttrKind::ListBool); }
  OpAttrDef& ListBool(std::vector<bool>) { return withDefault(tcemu::host::AttrKind::ListBool); }
  OpAttrDef& ListFloat(void) { return kind(tcemu::host::AttrKind::ListFloat); }
  OpAttrDef& ListFloat(std::vector<float> value) {
    value_.floats = gert::TypedContinuousVector<float>(std::move(value));
    return withDefault(tcemu::host::AttrKind::ListFloat);
  }
  OpAttrDef& ListInt(void) { return kind(tcemu::host::AttrKind::ListInt); }
  OpAttrDef& ListInt(std::vector<int64_t> value) {
    value_.ints = gert::TypedContinuousVector<int64_t>(std::move(value));
    return withDefault(tcemu::host::AttrKind::ListInt);
  }
  OpAttrDef& ListListInt(void) { return kind(tcemu::host::AttrKind::ListListInt); }
  OpAttrDef& ListListInt(std::vector<std::vector<int64_t>>) { return withDefault(tcemu::host::AttrKind::ListListInt); }
  OpAttrDef& Version(uint32_t) { return *this; }
  OpAttrDef& Comment(const char*) { return *this; }
  bool IsRequired(void) { return type_ == REQUIRED; }
  // The emulator's view: the kind, and the default when hasDefault.
  const std::string& tcemuName() const { return name_; }
  const tcemu::host::AttrValue& tcemuValue() const { return value_; }
  bool tcemuHasDefault() const { return hasDefault_; }

 private:
  OpAttrDef& kind(tcemu::host::AttrKind k) {
    value_.kind = k;
    return *this;
  }
  OpAttrDef& withDefault(tcemu::host::AttrKind k) {
    hasDefault_ = true;
    return kind(k);
  }
  std::string name_;
  Option type_ = REQUIRED;
  tcemu::host::AttrValue value_;
  bool hasDefault_ = false;
};

class OpAICoreConfig {
 public:
  OpAICoreConfig() = default;
  OpParamDef& Input(const char* name) { return inputs_.emplace_back(name); }
  OpParamDef& Output(const char* name) { return outputs_.emplace_back(name); }
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
  OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }

 private:
  std::deque<OpParamDef> inputs_, outputs_;
};

class OpAICoreDef {
 public:
  // Kept, not called: graph mode asks them while it builds the graph; a custom operator's aclnn path, the one
  // project run takes, never does.
  OpAICoreDef& SetCheckSupport(optiling::OP_CHECK_FUNC func) {
    checkSupport_ = func;
    return *this;
  }
  OpAICoreDef& SetOpSelectFormat(optiling::OP_CHECK_FUNC func) {
    opSelectFormat_ = func;
    return *this;
  }
  optiling::OP_CHECK_FUNC tcemuCheckSupport() const { return checkSupport_; }
  optiling::OP_CHECK_FUNC tcemuOpSelectFormat() const { return opSelectFormat_; }
  OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc func, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    tiling_ = func;
    tilingLoc_ = loc;
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc) {
    socs_.emplace_back(soc);
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig&) { return AddConfig(soc); }
  gert::OpImplRegisterV2::TilingKernelFunc& GetTiling(void) { return tiling_; }
  const tcemu::SrcLoc& tcemuTilingLoc() const { return tilingLoc_; }
  const std::vector<std::string>& tcemuSocs() const { return socs_; }

 private:
  gert::OpImplRegisterV2::TilingKernelFunc tiling_ = nullptr;
  optiling::OP_CHECK_FUNC checkSupport_ = nullptr, opSelectFormat_ = nullptr;
  tcemu::SrcLoc tilingLoc_;
  std::vector<std::string> socs_;
};

class OpMC2Def {
 public:
  OpMC2Def& HcclGroup(const char*) { return *this; }
  OpMC2Def& HcclGroup(std::vector<const char*>) { return *this; }
};

class OpDef {
 public:
  explicit OpDef(const char* type) : type_(type) {}
  OpParamDef& Input(const char* name) { return inputs_.emplace_back(name); }
  OpParamDef& Output(const char* name) { return outputs_.emplace_back(name); }
  OpAttrDef& Attr(const char* name) { return attrs_.emplace_back(name); }
  OpDef& Comment(CommentSection, const char*) { return *this; }
  OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc func,
                       tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    inferShape_ = func;
    inferShapeLoc_ = loc;
    return *this;
  }
  OpDef& SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc) { return *this; }
  OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc func,
                          tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    inferDataType_ = func;
    inferDataTypeLoc_ = loc;
    return *this;
  }
  gert::OpImplRegisterV2::InferShapeKernelFunc& GetInferShape(void) { return inferShape_; }
  gert::OpImplRegisterV2::InferDataTypeKernelFunc& GetInferDataType(void) { return inferDataType_; }
  OpAICoreDef& AICore(void) { return aicore_; }
  OpMC2Def& MC2(void) { return mc2_; }
  OpDef& FormatMatchMode(FormatCheckOption) { return *this; }
  OpDef& EnableFallBack(void) { return *this; }
  // The emulator's view.
  const std::string& tcemuType() const { return type_; }
  const std::deque<OpParamDef>& tcemuInputs() const { return inputs_; }
  const std::deque<OpParamDef>& tcemuOutputs() const { return outputs_; }
  const std::deque<OpAttrDef>& tcemuAttrs() const { return attrs_; }
  const tcemu::SrcLoc& tcemuInferShapeLoc() const { return inferShapeLoc_; }
  const tcemu::SrcLoc& tcemuInferDataTypeLoc() const { return inferDataTypeLoc_; }
  const OpAICoreDef& tcemuAICore() const { return aicore_; }

 private:
  std::string type_;
  std::deque<OpParamDef> inputs_, outputs_;
  std::deque<OpAttrDef> attrs_;
  gert::OpImplRegisterV2::InferShapeKernelFunc inferShape_ = nullptr;
  gert::OpImplRegisterV2::InferDataTypeKernelFunc inferDataType_ = nullptr;
  tcemu::SrcLoc inferShapeLoc_, inferDataTypeLoc_;
  OpAICoreDef aicore_;
  OpMC2Def mc2_;
};

}  // namespace ops
