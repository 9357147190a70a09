// gert::CompileTimeTensorDesc: a tensor's dtype and format as the graph fixes them before shapes are known (CANN's
// exe_graph/runtime/compute_node_info.h).
#pragma once

#include "exe_graph/runtime/runtime_attrs.h"

namespace gert {

class CompileTimeTensorDesc {
 public:
  CompileTimeTensorDesc() = default;
  CompileTimeTensorDesc(ge::DataType data_type, StorageFormat format) : data_type_(data_type), format_(format) {}
  ge::DataType GetDataType() const { return data_type_; }
  const StorageFormat& GetFormat() const { return format_; }
  ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
  void SetStorageFormat(const ge::Format format) { format_.SetStorageFormat(format); }
  void SetOriginFormat(const ge::Format format) { format_.SetOriginFormat(format); }

 private:
  ge::DataType data_type_ = ge::DT_UNDEFINED;
  StorageFormat format_;
};

// Which compute-node instances an IR input or output has: one for a required input, N for a dynamic (tensor-list)
// one, starting at GetInstanceStart() in the flat instance order GetInputShape(index) and GetInputDesc(index) use.
class AnchorInstanceInfo {
 public:
  AnchorInstanceInfo() = default;
  AnchorInstanceInfo(const uint32_t instance_start, const uint32_t instantiation_num)
      : instance_start_(instance_start), instantiation_num_(instantiation_num) {}
  size_t GetInstanceNum() const { return instantiation_num_; }
  size_t GetInstanceStart() const { return instance_start_; }
  void SetInstanceStart(const uint32_t instance_start) { instance_start_ = instance_start; }
  void SetInstantiationNum(const uint32_t instantiation_num) { instantiation_num_ = instantiation_num; }

 private:
  uint32_t instance_start_ = 0;
  uint32_t instantiation_num_ = 0;
};

}  // namespace gert
