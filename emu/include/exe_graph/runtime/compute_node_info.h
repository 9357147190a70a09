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

}  // namespace gert
