// gert::InferDataTypeContext, what InferDataType reads and fills (CANN's
// exe_graph/runtime/infer_datatype_context.h).
#pragma once

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class InferDataTypeContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  ge::DataType GetInputDataType(const size_t index) const {
    return index < call_->inputDescs.size() ? call_->inputDescs[index].GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(const size_t ir_index) const { return GetDynamicInputDataType(ir_index, 0); }
  ge::DataType GetRequiredInputDataType(const size_t ir_index) const { return GetDynamicInputDataType(ir_index, 0); }
  ge::DataType GetDynamicInputDataType(const size_t ir_index, const size_t relative_index) const {
    auto* d = at(call_->inputDescs, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
    return d ? d->GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOutputDataType(const size_t index) const {
    return index < call_->outputDescs.size() ? call_->outputDescs[index].GetDataType() : ge::DT_UNDEFINED;
  }
  ge::graphStatus SetOutputDataType(const size_t index, const ge::DataType datatype) {
    if (index >= call_->outputDescs.size()) return ge::GRAPH_FAILED;
    call_->outputDescs[index].SetDataType(datatype);
    return ge::GRAPH_SUCCESS;
  }
};

}  // namespace gert
