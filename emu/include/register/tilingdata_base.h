// Host tiling data (CANN's register/tilingdata_base.h): BEGIN_TILING_DATA_DEF declares a class in namespace
// optiling with set_/get_ accessors over one byte buffer that SaveToBuffer copies into the tiling. The layout is
// CANN's: each field at the next multiple of its element size (a struct field at the next multiple of 8), the whole
// padded to 8 bytes. The emulator also keeps every field's name, type and offset, from which `tilecraft project run`
// writes the kernel-side struct the CANN build generates. A field macro ends in a declaration without its ';', so
// the ';' written after it (as everyone does) closes it instead of being an empty declaration.
#pragma once

#include <cstddef>
#include <cstring>
#include <iostream>  // CANN's brings it; op_host files print with it
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "emu/host_call.h"

namespace optiling {

class TilingDef;

class FieldInfo {
 public:
  FieldInfo(const char* dtype, const char* name) : dtype_(dtype), name_(name), classType_("0") {}
  FieldInfo(const char* dtype, const char* name, size_t arrSize)
      : dtype_(dtype), name_(name), arrSize_(arrSize), classType_("1") {}
  FieldInfo(const char* dtype, const char* name, const char* structType, size_t structSize)
      : dtype_(dtype), name_(name), structType_(structType), structSize_(structSize), classType_("2") {}

 public:
  const char* dtype_;
  const char* name_;
  size_t arrSize_ = 0;
  const char* structType_ = nullptr;
  size_t structSize_ = 0;
  const char* classType_;
  // The emulator's: where the field is, its element size, and for a struct field how to reach the member.
  size_t tcemuOffset_ = 0;
  size_t tcemuElemSize_ = 0;
  std::ptrdiff_t tcemuMember_ = 0;
  void (*tcemuSave_)(const void* member, uint8_t* dst, size_t bytes) = nullptr;
  const TilingDef* (*tcemuNested_)(const void* member) = nullptr;
};

class TilingDef {
 public:
  virtual ~TilingDef() = default;
  void SaveToBuffer(void* pdata, size_t capacity, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (capacity < data_.size())
      tcemu::host::hostFail(loc, tcemu::format("SaveToBuffer: %s is %zu bytes, the buffer holds %zu; hint: pass "
                                               "context->GetRawTilingData()->GetCapacity()",
                                               class_name_, data_.size(), capacity));
    for (const FieldInfo& f : field_info_) {
      if (f.tcemuSave_)
        f.tcemuSave_(reinterpret_cast<const uint8_t*>(this) + f.tcemuMember_, data_.data() + f.tcemuOffset_,
                     f.structSize_);
    }
    if (!data_.empty()) std::memcpy(pdata, data_.data(), data_.size());
  }
  std::vector<FieldInfo> GetFieldInfo() const { return field_info_; }
  const char* GetTilingClassName() const { return class_name_; }
  size_t GetDataSize() const { return data_size_; }
  void SetDataPtr(void*) {}

 protected:
  explicit TilingDef(const char* className) : class_name_(className) {}
  size_t tcemuAlign(size_t align) {
    if (align > 1 && data_size_ % align != 0) data_size_ += align - data_size_ % align;
    return data_size_;
  }
  size_t tcemuAddField(FieldInfo info, size_t elemSize, size_t count) {
    info.tcemuOffset_ = tcemuAlign(elemSize);
    info.tcemuElemSize_ = elemSize;
    data_size_ += elemSize * count;
    field_info_.push_back(info);
    return info.tcemuOffset_;
  }
  template <typename S>
  size_t tcemuAddStruct(const char* structType, const char* name, const S& member) {
    FieldInfo info("struct", name, structType, member.GetDataSize());
    info.tcemuMember_ = reinterpret_cast<const uint8_t*>(&member) - reinterpret_cast<const uint8_t*>(this);
    info.tcemuSave_ = [](const void* m, uint8_t* dst, size_t bytes) {
      const_cast<S*>(static_cast<const S*>(m))->SaveToBuffer(dst, bytes);
    };
    if constexpr (std::is_base_of_v<TilingDef, S>) {
      info.tcemuNested_ = [](const void* m) -> const TilingDef* { return static_cast<const S*>(m); };
    }
    info.tcemuOffset_ = tcemuAlign(8);
    data_size_ += info.structSize_;
    field_info_.push_back(info);
    return info.tcemuOffset_;
  }
  void tcemuFinish() {
    tcemuAlign(8);
    data_.assign(data_size_, 0);
  }
  void tcemuStore(size_t offset, const void* src, size_t bytes) { std::memcpy(data_.data() + offset, src, bytes); }
  uint8_t* tcemuAt(size_t offset) { return data_.data() + offset; }

  std::vector<FieldInfo> field_info_;
  size_t data_size_ = 0;
  const char* class_name_;
  std::vector<uint8_t> data_;
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

class CTilingDataClassFactory {
 public:
  static CTilingDataClassFactory& GetInstance() {
    static CTilingDataClassFactory instance;
    return instance;
  }
  void RegisterTilingData(const char* op_type, const TilingDataConstructor constructor) {
    instance_.emplace(op_type, constructor);
  }
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type) {
    auto it = instance_.find(op_type);
    return it == instance_.end() ? nullptr : it->second();
  }
  // The emulator's: every registration, by operator type (sorted, so output is deterministic).
  const std::map<std::string, TilingDataConstructor>& tcemuRegistrations() const { return instance_; }

 private:
  CTilingDataClassFactory() = default;
  std::map<std::string, TilingDataConstructor> instance_;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                \
  class class_name : public ::optiling::TilingDef {                      \
   public:                                                               \
    class_name() : ::optiling::TilingDef(#class_name) { tcemuFinish(); } \
    explicit class_name(void* ptr) : class_name() { (void)ptr; }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                     \
 public:                                                                 \
  void set_##field_name(data_type field_name) {                          \
    field_name##_ = field_name;                                          \
    tcemuStore(field_name##_offset_, &field_name##_, sizeof(data_type)); \
  }                                                                      \
  data_type get_##field_name() { return field_name##_; }                 \
                                                                         \
 private:                                                                \
  data_type field_name##_ = 0;                                           \
  size_t field_name##_offset_ = tcemuAddField(::optiling::FieldInfo(#data_type, #field_name), sizeof(data_type), 1)

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                     \
 public:                                                                                              \
  void set_##field_name(arr_type* field_name) {                                                       \
    if (reinterpret_cast<uint8_t*>(field_name) != tcemuAt(field_name##_offset_))                      \
      tcemuStore(field_name##_offset_, field_name, (arr_size) * sizeof(arr_type));                    \
  }                                                                                                   \
  arr_type* get_##field_name() { return reinterpret_cast<arr_type*>(tcemuAt(field_name##_offset_)); } \
                                                                                                      \
 private:                                                                                             \
  size_t field_name##_offset_ =                                                                       \
      tcemuAddField(::optiling::FieldInfo(#arr_type, #field_name, (arr_size)), sizeof(arr_type), (arr_size))

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name) \
 public:                                                      \
  struct_type field_name{};                                   \
                                                              \
 private:                                                     \
  size_t field_name##_offset_ = tcemuAddStruct(#struct_type, #field_name, field_name)

#define END_TILING_DATA_DEF \
  }                         \
  ;

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                               \
  namespace {                                                                                         \
  struct op_type##class_name##Helper {                                                                \
    op_type##class_name##Helper() {                                                                   \
      ::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type, &Create);       \
    }                                                                                                 \
    static std::shared_ptr<::optiling::TilingDef> Create() { return std::make_shared<class_name>(); } \
  };                                                                                                  \
  static op_type##class_name##Helper g_tilingdata_##op_type##class_name##helper;                      \
  }
