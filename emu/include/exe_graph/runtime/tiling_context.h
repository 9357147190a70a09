// gert::TilingContext, what TilingFunc reads and fills (CANN's exe_graph/runtime/tiling_context.h). Indexes past
// the operator's inputs or outputs give nullptr, as CANN's do.
#pragma once

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {

class TilingContext : public ExtendedKernelContext {
 public:
  using ExtendedKernelContext::ExtendedKernelContext;
  // TilingParse<T>'s T, default-constructed: there is no compile-time JSON to parse.
  const void* GetCompileInfo() const { return call_->compileInfo; }
  template <typename T>
  const T* GetCompileInfo() const {
    return static_cast<const T*>(call_->compileInfo);
  }
  const StorageShape* GetInputShape(const size_t index) const {
    return index < call_->inputShapes.size() ? &call_->inputShapes[index] : nullptr;
  }
  const Tensor* GetInputTensor(const size_t index) const {
    return index < call_->inputTensors.size() ? &call_->inputTensors[index] : nullptr;
  }
  const Tensor* GetOptionalInputTensor(const size_t ir_index) const { return GetDynamicInputTensor(ir_index, 0); }
  const Tensor* GetRequiredInputTensor(const size_t ir_index) const { return GetDynamicInputTensor(ir_index, 0); }
  const Tensor* GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const {
    return at(call_->inputTensors, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
  }
  const StorageShape* GetOptionalInputShape(const size_t ir_index) const { return GetDynamicInputShape(ir_index, 0); }
  const StorageShape* GetRequiredInputShape(const size_t ir_index) const { return GetDynamicInputShape(ir_index, 0); }
  const StorageShape* GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const {
    return at(call_->inputShapes, tcemu::host::instanceIndex(call_->inputInstances, ir_index, relative_index));
  }
  const StorageShape* GetOutputShape(const size_t index) const {
    return index < call_->outputShapes.size() ? &call_->outputShapes[index] : nullptr;
  }
  ge::graphStatus SetTilingKey(const uint64_t tiling_key) {
    call_->tilingKey = tiling_key;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return call_->tilingKey; }
  ge::graphStatus SetScheduleMode(const uint32_t schedule_mode) {
    call_->scheduleMode = schedule_mode;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetScheduleMode() const { return call_->scheduleMode; }
  // Whether the caller asked for deterministic computation (aclrtCtxSetSysParamOpt's ACL_OPT_DETERMINISTIC): this
  // runtime never does, which is also CANN's default.
  int32_t GetDeterministic() const { return 0; }
  ge::graphStatus SetBlockDim(const uint32_t block_dim) {
    call_->blockDim = block_dim;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return call_->blockDim; }
  ge::graphStatus SetTilingCond(int32_t) { return ge::GRAPH_SUCCESS; }
  ge::graphStatus SetNeedAtomic(const bool atomic) {
    call_->needAtomic = atomic;
    return ge::GRAPH_SUCCESS;
  }
  bool NeedAtomic() const { return call_->needAtomic; }
  template <typename T>
  auto GetTilingData() -> T* {
    return static_cast<T*>(call_->tilingData.GetData());
  }
  TilingData* GetRawTilingData() { return &call_->tilingData; }
  // CANN gives every operator room for a few workspaces; the emulator's launch passes their sum.
  size_t* GetWorkspaceSizes(const size_t workspace_count) {
    call_->workspaces.assign(workspace_count, 0);
    return workspace_count == 0 ? nullptr : call_->workspaces.data();
  }
  size_t GetWorkspaceNum() const { return call_->workspaces.size(); }
  fe::PlatFormInfos* GetPlatformInfo() const { return call_->platform; }
  ge::graphStatus SetLocalMemorySize(const uint32_t) { return ge::GRAPH_SUCCESS; }
};

}  // namespace gert
