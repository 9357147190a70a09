// gert::Shape, the runtime shape of the host API (CANN's exe_graph/runtime/shape.h): up to 25 dims inline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "emu/host_call.h"

namespace gert {

struct Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = INT64_MIN;

  Shape() = default;
  Shape(const std::initializer_list<int64_t>& args) {
    if (args.size() > kMaxDimNum) return;
    for (int64_t d : args) dims_[dim_num_++] = d;
  }
  bool operator==(const Shape& rht) const {
    if (dim_num_ != rht.dim_num_) return false;
    for (size_t i = 0; i < dim_num_; ++i)
      if (dims_[i] != rht.dims_[i]) return false;
    return true;
  }
  bool operator!=(const Shape& rht) const { return !(*this == rht); }
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] < 0) return -1;
      n *= dims_[i];
    }
    return n;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  size_t GetDimNum() const { return dim_num_; }
  void SetDimNum(const size_t dim_num, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (dim_num > kMaxDimNum)
      tcemu::host::hostFail(loc, tcemu::format("Shape::SetDimNum(%zu): a shape has at most 25 dims", dim_num));
    dim_num_ = dim_num;
  }
  // Out-of-range reads give kInvalidDimValue, as CANN's; dims between GetDimNum() and 25 read as stored.
  int64_t GetDim(const size_t idx) const { return idx < kMaxDimNum ? dims_[idx] : kInvalidDimValue; }
  const int64_t& operator[](const size_t idx) const { return dims_[idx < kMaxDimNum ? idx : 0]; }
  int64_t& operator[](const size_t idx) { return dims_[idx < kMaxDimNum ? idx : 0]; }
  void SetDim(size_t idx, const int64_t dim_value, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (idx >= kMaxDimNum)
      tcemu::host::hostFail(loc, tcemu::format("Shape::SetDim(%zu, ...): a shape has at most 25 dims", idx));
    dims_[idx] = dim_value;
  }
  Shape& AppendDim(const int64_t value, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (dim_num_ >= kMaxDimNum)
      tcemu::host::hostFail(loc, "Shape::AppendDim: the shape already has 25 dims (the most a shape holds)");
    dims_[dim_num_++] = value;
    return *this;
  }

 private:
  size_t dim_num_ = 0;
  int64_t dims_[kMaxDimNum] = {};
};

}  // namespace gert
