// The host function types an OpDef registers (CANN's register/op_impl_registry.h, its gert::OpImplRegisterV2).
#pragma once

#include <cstdint>

namespace gert {
class TilingContext;
class InferShapeContext;
class InferShapeRangeContext;
class InferDataTypeContext;

class OpImplRegisterV2 {
 public:
  using InferShapeKernelFunc = uint32_t (*)(InferShapeContext*);
  using InferShapeRangeKernelFunc = uint32_t (*)(InferShapeRangeContext*);
  using TilingKernelFunc = uint32_t (*)(TilingContext*);
  using InferDataTypeKernelFunc = uint32_t (*)(InferDataTypeContext*);
};
}  // namespace gert
