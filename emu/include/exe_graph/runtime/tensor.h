// gert::Tensor: shape, format, dtype and (for inputs whose data the case gives) the data (CANN's
// exe_graph/runtime/tensor.h).
#pragma once

#include "exe_graph/runtime/storage_shape.h"

namespace gert {

enum class TensorPlacement { kOnDeviceHbm, kOnHost, kFollowing, kOnDeviceP2p, kTensorPlacementEnd };

class Tensor {
 public:
  Tensor() = default;
  Tensor(const StorageShape& storage_shape, const StorageFormat& storage_format, ge::DataType data_type)
      : storage_shape_(storage_shape), storage_format_(storage_format), data_type_(data_type) {}
  int64_t GetShapeSize() const { return storage_shape_.GetStorageShape().GetShapeSize(); }
  template <class T>
  const T* GetData() const {
    return static_cast<const T*>(addr_);
  }
  template <class T>
  T* GetData() {
    return static_cast<T*>(addr_);
  }
  const void* GetAddr() const { return addr_; }
  void* GetAddr() { return addr_; }
  size_t GetSize() const { return size_; }
  void SetSize(const size_t size) { size_ = size; }
  ge::DataType GetDataType() const { return data_type_; }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
  const Shape& GetStorageShape() const { return storage_shape_.GetStorageShape(); }
  Shape& MutableStorageShape() { return storage_shape_.MutableStorageShape(); }
  const Shape& GetOriginShape() const { return storage_shape_.GetOriginShape(); }
  Shape& MutableOriginShape() { return storage_shape_.MutableOriginShape(); }
  const StorageShape& GetShape() const { return storage_shape_; }
  StorageShape& GetShape() { return storage_shape_; }
  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  void SetStorageFormat(const ge::Format f) { storage_format_.SetStorageFormat(f); }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  void SetOriginFormat(const ge::Format f) { storage_format_.SetOriginFormat(f); }
  const StorageFormat& GetFormat() const { return storage_format_; }
  StorageFormat& MutableFormat() { return storage_format_; }
  TensorPlacement GetPlacement() const { return TensorPlacement::kOnHost; }
  // The emulator's: the case's data of this input (nullptr when the case has none).
  void tcemuSetData(void* addr, size_t size) {
    addr_ = addr;
    size_ = size;
  }

 private:
  StorageShape storage_shape_;
  StorageFormat storage_format_;
  ge::DataType data_type_ = ge::DT_UNDEFINED;
  void* addr_ = nullptr;
  size_t size_ = 0;
};

}  // namespace gert
