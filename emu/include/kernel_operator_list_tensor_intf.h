// AscendC::ListTensorDesc and TensorDesc<T> (CANN's kernel_operator_list_tensor_intf.h): the kernel's reading of
// a tensor-list argument, the GM layout CANN passes for an msopgen DYNAMIC parameter (emu/project_launch.h writes
// it, tcemu::project::listTensorLayout): word 0 the byte offset of the pointer table; per tensor i a word
// (dim | i << 32) and its dim sizes (a 0-dim tensor: one 0xffffffff word); then the data pointers. CANN's
// hardware asserts are checks here, with the kernel's FILE:LINE.
#pragma once

#include "kernel_operator.h"

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
 public:
  TensorDesc() {}
  ~TensorDesc() {}
  // GetDesc writes the (dim | index) word and the dim sizes here.
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    need(loc);
    return shape_[0] & 0xffffffffu;
  }
  uint64_t GetIndex(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    need(loc);
    return shape_[0] >> 32;
  }
  uint64_t GetShape(uint32_t offset, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    need(loc);
    if (offset >= GetDim(loc)) {
      tcemu::fail(loc, "TensorDesc::GetShape(%u) of a %llu-dim tensor", offset,
                  static_cast<unsigned long long>(GetDim(loc)));
    }
    return shape_[1 + offset];
  }
  __gm__ T* GetDataPtr() { return data_; }
  GlobalTensor<T> GetDataObj() {
    GlobalTensor<T> t;
    uint64_t elements = 1;
    for (uint64_t i = 0; shape_ && i < (shape_[0] & 0xffffffffu); ++i) elements *= shape_[1 + i];
    t.SetGlobalBuffer(reinterpret_cast<__gm__ typename GlobalTensor<T>::PrimType*>(data_), elements);
    return t;
  }

  friend class ListTensorDesc;

 private:
  void need(const tcemu::SrcLoc& loc) const {
    if (!shape_ || !filled_) {
      tcemu::fail(loc,
                  "TensorDesc read before ListTensorDesc::GetDesc filled it; hint: desc.SetShapeAddr(buf), then "
                  "list.GetDesc(desc, index)");
    }
  }
  uint64_t* shape_ = nullptr;
  __gm__ T* data_ = nullptr;
  bool filled_ = false;
};

class ListTensorDesc {
 public:
  ListTensorDesc() {}
  ~ListTensorDesc() {}
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    Init(data, length, shapeSize, loc);
  }
  // length (bytes of the whole descriptor) and shapeSize (its pointer count) are only checked, as in CANN.
  void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (data == nullptr) tcemu::fail(loc, "ListTensorDesc::Init of a null address");
    base_ = reinterpret_cast<__gm__ uint64_t*>(data);
    uint64_t ptrOffset = base_[0];
    if (ptrOffset < 2 * sizeof(uint64_t) || ptrOffset % sizeof(uint64_t) != 0) {
      tcemu::fail(loc, "ListTensorDesc::Init: %llu is no pointer-table offset (a multiple of 8, at least 16)",
                  static_cast<unsigned long long>(ptrOffset));
    }
    pointers_ = base_ + ptrOffset / sizeof(uint64_t);
    count_ = 0;
    for (__gm__ uint64_t* at = base_ + 1; at < pointers_; ++count_) {
      uint64_t dim = *at & 0xffffffffu;
      at += 1 + (dim == 0 ? 1 : dim);
    }
    if (length != 0xffffffff && shapeSize != 0xffffffff) {
      if (count_ != shapeSize || length != ptrOffset + count_ * sizeof(uint64_t)) {
        tcemu::fail(loc, "ListTensorDesc::Init(length %u, shapeSize %u): the list holds %u tensors in %llu bytes",
                    length, shapeSize, count_, static_cast<unsigned long long>(ptrOffset + count_ * sizeof(uint64_t)));
      }
    }
  }
  template <class T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    __gm__ uint64_t* at = descriptor(index, "GetDesc", loc);
    if (desc.shape_ == nullptr) {
      tcemu::fail(loc, "ListTensorDesc::GetDesc into a TensorDesc with no shape buffer; hint: desc.SetShapeAddr(buf)");
    }
    uint64_t dim = *at & 0xffffffffu;
    desc.shape_[0] = *at;
    for (uint64_t i = 0; i < dim; ++i) desc.shape_[1 + i] = at[1 + i];
    desc.data_ = reinterpret_cast<__gm__ T*>(pointers_[index]);
    desc.filled_ = true;
  }
  template <class T>
  __gm__ T* GetDataPtr(uint32_t index, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    descriptor(index, "GetDataPtr", loc);
    return reinterpret_cast<__gm__ T*>(pointers_[index]);
  }
  uint32_t GetSize() { return count_; }

 private:
  __gm__ uint64_t* descriptor(uint32_t index, const char* what, const tcemu::SrcLoc& loc) {
    if (base_ == nullptr) tcemu::fail(loc, "ListTensorDesc::%s before Init", what);
    if (index >= count_) tcemu::fail(loc, "ListTensorDesc::%s(%u) of a list of %u tensors", what, index, count_);
    __gm__ uint64_t* at = base_ + 1;
    for (uint32_t i = 0; i < index; ++i) at += 1 + ((*at & 0xffffffffu) == 0 ? 1 : (*at & 0xffffffffu));
    return at;
  }
  __gm__ uint64_t* base_ = nullptr;
  __gm__ uint64_t* pointers_ = nullptr;
  uint32_t count_ = 0;
};

}  // namespace AscendC
