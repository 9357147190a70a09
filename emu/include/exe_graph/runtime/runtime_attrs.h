// gert::RuntimeAttrs: the operator's attributes by index in OpDef order (CANN's exe_graph/runtime/runtime_attrs.h).
// An index past the last attribute returns nullptr. CANN's getters do not check the kind: each returns the
// attribute's bytes as the type asked for (GetInt of a float reads its bits, GetInt of a list the list's
// capacity, which is its length), and so do the scalar getters here, over the bytes CANN would hold. A list getter
// of a scalar attribute returns nullptr: CANN's would read the scalar as a list header, past the attribute.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/tensor.h"

namespace tcemu::host {

enum class AttrKind { None, Bool, Float, Int, Str, ListBool, ListFloat, ListInt, ListListInt };

struct AttrValue {
  AttrKind kind = AttrKind::None;
  bool b = false;
  float f = 0;
  int64_t i = 0;
  std::string s;
  gert::TypedContinuousVector<float> floats;
  gert::TypedContinuousVector<int64_t> ints;
};

// The first bytes CANN stores for an attribute: a scalar's value, zero-filled; a list's capacity and size.
struct AttrBytes {
  alignas(8) unsigned char bytes[16] = {};
  explicit AttrBytes(const AttrValue& v) {
    uint64_t n = v.kind == AttrKind::ListFloat ? v.floats.GetSize() : v.ints.GetSize();
    switch (v.kind) {
      case AttrKind::Bool: std::memcpy(bytes, &v.b, sizeof v.b); break;
      case AttrKind::Float: std::memcpy(bytes, &v.f, sizeof v.f); break;
      case AttrKind::Int: std::memcpy(bytes, &v.i, sizeof v.i); break;
      case AttrKind::ListBool:
      case AttrKind::ListFloat:
      case AttrKind::ListInt:
      case AttrKind::ListListInt:
        std::memcpy(bytes, &n, sizeof n);
        std::memcpy(bytes + 8, &n, sizeof n);
        break;
      default: break;
    }
  }
};

}  // namespace tcemu::host

namespace gert {

class RuntimeAttrs {
 public:
  RuntimeAttrs() = default;
  explicit RuntimeAttrs(std::vector<tcemu::host::AttrValue> values) : values_(std::move(values)) {
    for (const tcemu::host::AttrValue& v : values_) bytes_.emplace_back(v);
  }
  const int64_t* GetInt(const size_t index) const { return GetAttrPointer<int64_t>(index); }
  const TypedContinuousVector<int64_t>* GetListInt(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::ListInt);
    return v ? &v->ints : nullptr;
  }
  const char* GetStr(const size_t index) const { return GetAttrPointer<char>(index); }
  const float* GetFloat(const size_t index) const { return GetAttrPointer<float>(index); }
  const bool* GetBool(const size_t index) const { return GetAttrPointer<bool>(index); }
  const TypedContinuousVector<float>* GetListFloat(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::ListFloat);
    return v ? &v->floats : nullptr;
  }
  template <typename T>
  const T* GetAttrPointer(size_t index) const {
    if (index >= values_.size()) return nullptr;
    const tcemu::host::AttrValue& v = values_[index];
    switch (v.kind) {
      case tcemu::host::AttrKind::None: return nullptr;
      case tcemu::host::AttrKind::Str: return reinterpret_cast<const T*>(v.s.c_str());
      default: return reinterpret_cast<const T*>(bytes_[index].bytes);
    }
  }
  size_t GetAttrNum() const { return values_.size(); }

 private:
  const tcemu::host::AttrValue* find(size_t index, tcemu::host::AttrKind kind) const {
    if (index >= values_.size() || values_[index].kind != kind) return nullptr;
    return &values_[index];
  }
  std::vector<tcemu::host::AttrValue> values_;
  std::vector<tcemu::host::AttrBytes> bytes_;
};

}  // namespace gert
