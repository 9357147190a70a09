// ge::Shape, the tensor shape of the graph API and of the host tiling functions (CANN declares it in graph/tensor.h,
// which includes it from here). A header of its own because the host tiling queries take it without the rest of
// the graph types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ge {
class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  std::vector<int64_t> GetDims() const { return dims_; }
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  bool operator==(const Shape& o) const { return dims_ == o.dims_; }

 private:
  std::vector<int64_t> dims_;
};
}  // namespace ge
