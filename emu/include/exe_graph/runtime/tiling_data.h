// gert::TilingData: the tiling buffer TilingFunc fills (CANN's exe_graph/runtime/tiling_data.h). The emulator's has
// the capacity CANN gives a custom operator's tiling, and checks what CANN's leaves to memory corruption.
#pragma once

#include <cstring>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"

namespace gert {

class TilingData {
 public:
  static constexpr size_t kCapacity = 64 * 1024;
  TilingData() : data_(kCapacity, 0) {}
  size_t GetCapacity() const { return data_.size(); }
  size_t GetDataSize() const { return size_; }
  void SetDataSize(const size_t size, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (size > data_.size())
      tcemu::host::hostFail(
          loc, tcemu::format("TilingData::SetDataSize(%zu): beyond the tiling buffer's %zu bytes", size, data_.size()));
    size_ = size;
  }
  void* GetData() { return data_.data(); }
  const void* GetData() const { return data_.data(); }
  template <typename T>
  ge::graphStatus Append(const T& data, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    return Append(&data, 1, loc);
  }
  template <typename T>
  ge::graphStatus Append(const T* data, size_t append_num, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    size_t bytes = sizeof(T) * append_num;
    if (size_ + bytes > data_.size())
      tcemu::host::hostFail(loc, tcemu::format("TilingData::Append of %zu bytes at %zu: beyond the tiling buffer's "
                                               "%zu bytes",
                                               bytes, size_, data_.size()));
    std::memcpy(data_.data() + size_, data, bytes);
    size_ += bytes;
    return ge::GRAPH_SUCCESS;
  }

 private:
  std::vector<uint8_t> data_;
  size_t size_ = 0;
};

template <typename T>
TilingData& operator<<(TilingData& out, const T& data) {
  out.Append(data);
  return out;
}

}  // namespace gert
