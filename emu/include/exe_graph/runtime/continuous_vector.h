// gert::TypedContinuousVector, the list attributes' type (CANN's exe_graph/runtime/continuous_vector.h).
#pragma once

#include <cstddef>
#include <vector>

namespace gert {

template <typename T>
class TypedContinuousVector {
 public:
  TypedContinuousVector() = default;
  explicit TypedContinuousVector(std::vector<T> values) : values_(std::move(values)) {}
  size_t GetSize() const { return values_.size(); }
  size_t GetCapacity() const { return values_.size(); }
  const T* GetData() const { return values_.data(); }
  T* MutableData() { return values_.data(); }

 private:
  std::vector<T> values_;
};

}  // namespace gert
