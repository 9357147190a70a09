// gert::InferShapeContext, what InferShape reads and fills (CANN's exe_graph/runtime/infer_shape_context.h): input
// shapes are the storage shapes; indexes past the inputs or outputs give nullptr.
#pragma once

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class InferShapeContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  const Shape* GetInputShape(const size_t index) const {
    return index < call_->inputShapes.size() ? &call_->inputShapes[index].GetStorageShape() : nullptr;
  }
  const Tensor* GetInputTensor(const size_t index) const {
    return index < call_->inputTensors.size() ? &call_->inputTensors[index] : nullptr;
  }
  const Tensor* GetOptionalInputTensor(const size_t ir_index) const { return GetDynamicInputTensor(ir_index, 0); }
  const Tensor* GetRequiredInputTensor(const size_t ir_index) const { return GetDynamicInputTensor(ir_index, 0); }
  const Tensor* GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
    return at(call_->inputTensors, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
  }
  const Shape* GetOptionalInputShape(const size_t ir_index) const { return GetDynamicInputShape(ir_index, 0); }
  const Shape* GetRequiredInputShape(const size_t ir_index) const { return GetDynamicInputShape(ir_index, 0); }
  const Shape* GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
    auto* s = at(call_->inputShapes, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
    return s ? &s->GetStorageShape() : nullptr;
  }
  Shape* GetOutputShape(const size_t index) {
    return index < call_->outputShapes.size() ? &call_->outputShapes[index].MutableStorageShape() : nullptr;
  }
};

}  // namespace gert
