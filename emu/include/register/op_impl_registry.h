// The host function registry (CANN's register/op_impl_registry.h): gert::OpImplRegisterV2 and IMPL_OP /
// IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE, the other way to register TilingFunc and InferShape than the OpDef's.
// The emulator keeps the functions by operator type; `tilecraft project run` uses them when the OpDef has none.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "emu/host_call.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/infer_shape_range_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"

namespace gert {
class KernelContext;
}  // namespace gert

namespace tcemu::host {

struct OpImpl {
  uint32_t (*tiling)(gert::TilingContext*) = nullptr;
  uint32_t (*inferShape)(gert::InferShapeContext*) = nullptr;
  uint32_t (*inferDataType)(gert::InferDataTypeContext*) = nullptr;
  std::shared_ptr<void> compileInfo;  // TilingParse<T>'s T: default-constructed, then filled by tilingParse
  // Run once before TilingFunc, as CANN runs it when it loads the operator (there is no compile JSON: "{}").
  uint32_t (*tilingParse)(gert::TilingParseContext*) = nullptr;
  SrcLoc loc;  // the registration
};

inline std::map<std::string, OpImpl>& opImpls() {
  static std::map<std::string, OpImpl> impls;
  return impls;
}

}  // namespace tcemu::host

namespace gert {

enum class TilingPlacement { TILING_ON_HOST = 0, TILING_ON_AICPU = 1 };

class OpImplRegisterV2 {
 public:
  using InferShapeKernelFunc = uint32_t (*)(InferShapeContext*);
  using InferShapeRangeKernelFunc = uint32_t (*)(InferShapeRangeContext*);
  using TilingKernelFunc = uint32_t (*)(TilingContext*);
  using InferDataTypeKernelFunc = uint32_t (*)(InferDataTypeContext*);
  using KernelFunc = uint32_t (*)(KernelContext* context);
  using TilingParseFunc = uint32_t (*)(TilingParseContext* context);

  explicit OpImplRegisterV2(const ge::char_t* op_type, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) : type_(op_type) {
    impl().loc = loc;
  }
  OpImplRegisterV2& InferShape(InferShapeKernelFunc f) {
    impl().inferShape = f;
    return *this;
  }
  OpImplRegisterV2& InferShapeRange(InferShapeRangeKernelFunc) { return *this; }
  OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f) {
    impl().inferDataType = f;
    return *this;
  }
  OpImplRegisterV2& Tiling(TilingKernelFunc f, size_t max_tiling_data_size = 2048) {
    (void)max_tiling_data_size;
    impl().tiling = f;
    return *this;
  }
  template <typename T>
  OpImplRegisterV2& TilingParse(KernelFunc const) {
    impl().compileInfo = std::make_shared<T>();
    return *this;
  }
  template <typename T>
  OpImplRegisterV2& TilingParse(TilingParseFunc const f) {
    impl().compileInfo = std::make_shared<T>();
    impl().tilingParse = f;
    return *this;
  }
  OpImplRegisterV2& PrivateAttr(const ge::char_t*) { return *this; }
  OpImplRegisterV2& PrivateAttr(const ge::char_t*, int64_t) { return *this; }
  OpImplRegisterV2& PrivateAttr(const ge::char_t*, const std::vector<int64_t>&) { return *this; }
  OpImplRegisterV2& PrivateAttr(const ge::char_t*, const ge::char_t*) { return *this; }
  OpImplRegisterV2& PrivateAttr(const ge::char_t*, float) { return *this; }
  OpImplRegisterV2& PrivateAttr(const ge::char_t*, bool) { return *this; }
  OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& HostInputs(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
  OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>, std::initializer_list<TilingPlacement>) {
    return *this;
  }
  OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }

 private:
  tcemu::host::OpImpl& impl() { return tcemu::host::opImpls()[type_]; }
  std::string type_;
};

}  // namespace gert

#ifndef VAR_UNUSED
#define VAR_UNUSED __attribute__((unused))
#endif
#define IMPL_OP_COUNTER(op_type, name, counter) \
  static gert::OpImplRegisterV2 VAR_UNUSED name##counter = gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_COUNTER_NUMBER(op_type, name, counter) IMPL_OP_COUNTER(op_type, name, counter)
#define IMPL_OP(op_type) IMPL_OP_COUNTER_NUMBER(op_type, op_impl_register_##op_type, __COUNTER__)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)
#define IMPL_OP_INFERSHAPE(op_type) \
  gert::OpImplRegisterV2 VAR_UNUSED op_impl_register_infershape_##op_type = gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) \
  gert::OpImplRegisterV2 VAR_UNUSED op_impl_register_optiling_##op_type = gert::OpImplRegisterV2(#op_type)
