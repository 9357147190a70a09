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
  // Per IR input and output, its instances in the flat lists below (a dynamic parameter has N, others one).
  std::vector<gert::AnchorInstanceInfo> inputInstances;
  std::vector<gert::AnchorInstanceInfo> outputInstances;
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

// The flat instance index of IR parameter `ir`'s `relative`-th instance, or -1 (CANN's contexts give nullptr then).
// Without instance records (a call built by hand) IR indexes are instance indexes.
inline int64_t instanceIndex(const std::vector<gert::AnchorInstanceInfo>& instances, size_t ir, size_t relative) {
  if (instances.empty()) return relative == 0 ? static_cast<int64_t>(ir) : -1;
  if (ir >= instances.size() || relative >= instances[ir].GetInstanceNum()) return -1;
  return static_cast<int64_t>(instances[ir].GetInstanceStart() + relative);
}

}  // namespace tcemu::host

namespace gert {

// What the graph knows of the node: its IR parameters' instances and their compile-time descriptions.
class ComputeNodeInfo {
 public:
  explicit ComputeNodeInfo(const tcemu::host::OpCall* call) : call_(call) {}
  const ge::char_t* GetNodeType() const { return call_->opType.c_str(); }
  const ge::char_t* GetNodeName() const { return call_->opType.c_str(); }
  size_t GetIrInputsNum() const { return call_->inputInstances.size(); }
  size_t GetIrOutputsNum() const { return call_->outputInstances.size(); }
  size_t GetInputsNum() const { return call_->inputDescs.size(); }
  size_t GetOutputsNum() const { return call_->outputDescs.size(); }
  const AnchorInstanceInfo* GetInputInstanceInfo(const size_t ir_index) const {
    return ir_index < call_->inputInstances.size() ? &call_->inputInstances[ir_index] : nullptr;
  }
  const AnchorInstanceInfo* GetOutputInstanceInfo(const size_t ir_index) const {
    return ir_index < call_->outputInstances.size() ? &call_->outputInstances[ir_index] : nullptr;
  }
  const CompileTimeTensorDesc* GetInputTdInfo(const size_t index) const {
    return index < call_->inputDescs.size() ? &call_->inputDescs[index] : nullptr;
  }
  const CompileTimeTensorDesc* GetOutputTdInfo(const size_t index) const {
    return index < call_->outputDescs.size() ? &call_->outputDescs[index] : nullptr;
  }
  const RuntimeAttrs* GetAttrs() const { return &call_->attrs; }

 private:
  const tcemu::host::OpCall* call_;
};

class ExtendedKernelContext {
 public:
  explicit ExtendedKernelContext(tcemu::host::OpCall* call) : call_(call), node_(call) {}
  const CompileTimeTensorDesc* GetInputDesc(const size_t index) const {
    return index < call_->inputDescs.size() ? &call_->inputDescs[index] : nullptr;
  }
  const CompileTimeTensorDesc* GetOptionalInputDesc(const size_t ir_index) const {
    return GetDynamicInputDesc(ir_index, 0);
  }
  const CompileTimeTensorDesc* GetRequiredInputDesc(const size_t ir_index) const {
    return GetDynamicInputDesc(ir_index, 0);
  }
  const CompileTimeTensorDesc* GetDynamicInputDesc(const size_t ir_index, const size_t relative_index) const {
    return at(call_->inputDescs, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
  }
  const ComputeNodeInfo* GetComputeNodeInfo() const { return &node_; }
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
  template <typename T>
  static T* at(std::vector<T>& xs, int64_t index) {
    return index >= 0 && static_cast<size_t>(index) < xs.size() ? &xs[static_cast<size_t>(index)] : nullptr;
  }
  tcemu::host::OpCall* call_;
  ComputeNodeInfo node_;
};

}  // namespace gert
