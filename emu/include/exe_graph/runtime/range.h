// gert::Range<T>, a [min, max] pair of pointers (CANN's exe_graph/runtime/range.h), what InferShapeRange reads and
// fills for shapes and tensors.
#pragma once

#include <cstdint>
#include <cstring>

#include "exe_graph/runtime/shape.h"

namespace gert {

template <typename T>
class Range {
 public:
  Range() : min_(nullptr), max_(nullptr) {}
  Range(T* min, T* max) : min_(min), max_(max) {}
  explicit Range(T* same_ele) : min_(same_ele), max_(same_ele) {}
  // The same pointers, or equal bounds.
  bool operator==(const Range<T>& rht) const {
    if (min_ == rht.min_ && max_ == rht.max_) return true;
    return *min_ == *rht.min_ && *max_ == *rht.max_;
  }
  void SetMin(T* min) { min_ = min; }
  void SetMax(T* max) { max_ = max; }
  const T* GetMin() const { return min_; }
  const T* GetMax() const { return max_; }
  T* GetMin() { return min_; }
  T* GetMax() { return max_; }

 private:
  T* min_;
  T* max_;
  uint8_t reserved_[40] = {};  // CANN's layout
};

}  // namespace gert
