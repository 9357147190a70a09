// gert::ExtendedKernelContext, the base of the tiling and inference contexts (CANN's
// exe_graph/runtime/extended_kernel_context.h), over the emulator's record of one operator call.
#pragma once

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/tiling_data.h"

namespace fe {
class PlatFormInfos;
}

namespace tcemu::host {

// One call of the operator: what the graph would know (inputs, attrs, dtypes) and what the host functions set.
struct OpCall {
  std::string opType;
  std::vector<gert::StorageShape> inputShapes;
  std::vector<gert::Tensor> inputTensors;
  std::vector<gert::CompileTimeTensorDesc> inputDescs;
  std::vector<gert::StorageShape> outputShapes;
  std::vector<gert::CompileTimeTensorDesc> outputDescs;
  gert::RuntimeAttrs attrs;
  fe::PlatFormInfos* platform = nullptr;
  const void* compileInfo = nullptr;
  // Set by TilingFunc.
  uint32_t blockDim = 0;
  uint64_t tilingKey = 0;
  uint32_t scheduleMode = 0;
  bool needAtomic = false;
  gert::TilingData tilingData;
  std::vector<size_t> workspaces;
};

}  // namespace tcemu::host

namespace gert {

class ExtendedKernelContext {
 public:
  explicit ExtendedKernelContext(tcemu::host::OpCall* call) : call_(call) {}
  const CompileTimeTensorDesc* GetInputDesc(const size_t index) const {
    return index < call_->inputDescs.size() ? &call_->inputDescs[index] : nullptr;
  }
  const CompileTimeTensorDesc* GetOptionalInputDesc(const size_t ir_index) const { return GetInputDesc(ir_index); }
  const CompileTimeTensorDesc* GetRequiredInputDesc(const size_t ir_index) const { return GetInputDesc(ir_index); }
  const CompileTimeTensorDesc* GetDynamicInputDesc(const size_t ir_index, const size_t relative_index) const {
    return relative_index == 0 ? GetInputDesc(ir_index) : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputDesc(const size_t index) const {
    return index < call_->outputDescs.size() ? &call_->outputDescs[index] : nullptr;
  }
  size_t GetComputeNodeInputNum() const { return call_->inputDescs.size(); }
  size_t GetComputeNodeOutputNum() const { return call_->outputDescs.size(); }
  const RuntimeAttrs* GetAttrs() const { return &call_->attrs; }
  const ge::char_t* GetNodeType() const { return call_->opType.c_str(); }
  const ge::char_t* GetNodeName() const { return call_->opType.c_str(); }
  const ge::char_t* GetKernelName() const { return call_->opType.c_str(); }
  const ge::char_t* GetKernelType() const { return call_->opType.c_str(); }

 protected:
  tcemu::host::OpCall* call_;
};

}  // namespace gert
