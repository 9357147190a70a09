// gert::InferShapeRangeContext, what an operator's InferShapeRange reads and fills (CANN's
// exe_graph/runtime/infer_shape_range_context.h). A run's shapes are all known, so an input's range is its shape at
// both ends; each output's range is [min, max] over two shapes the context holds, empty until filled. `tilecraft
// project run` does not call InferShapeRange (InferShape gives the outputs); the context is here for op_host code
// that defines one, and for tests.
#pragma once

#include <vector>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/range.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tensor.h"

namespace gert {

using TensorRange = Range<Tensor>;

class InferShapeRangeContext : public ExtendedKernelContext {
 public:
  explicit InferShapeRangeContext(tcemu::host::OpCall* call)
      : ExtendedKernelContext(call), outputMin_(call->outputShapes.size()), outputMax_(call->outputShapes.size()) {
    for (StorageShape& s : call->inputShapes) inputShapes_.emplace_back(&s.MutableStorageShape());
    for (Tensor& t : call->inputTensors) inputTensors_.emplace_back(&t);
    for (size_t i = 0; i < outputMin_.size(); ++i) outputs_.emplace_back(&outputMin_[i], &outputMax_[i]);
  }
  const Range<Shape>* GetInputShapeRange(const size_t index) const {
    return index < inputShapes_.size() ? &inputShapes_[index] : nullptr;
  }
  const TensorRange* GetInputTensorRange(const size_t index) const {
    return index < inputTensors_.size() ? &inputTensors_[index] : nullptr;
  }
  const TensorRange* GetOptionalInputTensorRange(const size_t ir_index) const {
    return GetDynamicInputTensorRange(ir_index, 0);
  }
  const Range<Shape>* GetRequiredInputShapeRange(const size_t ir_index) const {
    return GetDynamicInputShapeRange(ir_index, 0);
  }
  const TensorRange* GetRequiredInputTensorRange(const size_t ir_index) const {
    return GetDynamicInputTensorRange(ir_index, 0);
  }
  const TensorRange* GetDynamicInputTensorRange(const size_t ir_index, const size_t relative_index) const {
    return at(inputTensors_, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
  }
  const Range<Shape>* GetOptionalInputShapeRange(const size_t ir_index) const {
    return GetDynamicInputShapeRange(ir_index, 0);
  }
  const Range<Shape>* GetDynamicInputShapeRange(const size_t ir_index, const size_t relative_index) const {
    return at(inputShapes_, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
  }
  Range<Shape>* GetOutputShapeRange(const size_t index) { return index < outputs_.size() ? &outputs_[index] : nullptr; }

 private:
  template <typename T>
  static const T* at(const std::vector<T>& xs, int64_t index) {
    return index >= 0 && static_cast<size_t>(index) < xs.size() ? &xs[static_cast<size_t>(index)] : nullptr;
  }
  std::vector<Range<Shape>> inputShapes_;
  std::vector<TensorRange> inputTensors_;
  std::vector<Shape> outputMin_;
  std::vector<Shape> outputMax_;
  std::vector<Range<Shape>> outputs_;
};

}  // namespace gert
