// gert::StorageShape: a tensor's origin and storage shapes (CANN's exe_graph/runtime/storage_shape.h).
#pragma once

#include "exe_graph/runtime/shape.h"

namespace gert {

struct StorageShape {
 public:
  StorageShape() = default;
  StorageShape(const std::initializer_list<int64_t>& origin_shape, const std::initializer_list<int64_t>& storage_shape)
      : origin_shape_(origin_shape), storage_shape_(storage_shape) {}
  const Shape& GetOriginShape() const { return origin_shape_; }
  const Shape& GetStorageShape() const { return storage_shape_; }
  Shape& MutableOriginShape() { return origin_shape_; }
  Shape& MutableStorageShape() { return storage_shape_; }
  bool operator==(const StorageShape& o) const {
    return origin_shape_ == o.origin_shape_ && storage_shape_ == o.storage_shape_;
  }
  bool operator!=(const StorageShape& o) const { return !(*this == o); }

 private:
  Shape origin_shape_;
  Shape storage_shape_;
};

}  // namespace gert
