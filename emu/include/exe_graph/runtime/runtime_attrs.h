// gert::RuntimeAttrs: the operator's attributes by index in OpDef order (CANN's exe_graph/runtime/runtime_attrs.h).
// A getter of the wrong kind or an index past the last attribute returns nullptr, as CANN's does.
#pragma once

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

}  // namespace tcemu::host

namespace gert {

class RuntimeAttrs {
 public:
  RuntimeAttrs() = default;
  explicit RuntimeAttrs(std::vector<tcemu::host::AttrValue> values) : values_(std::move(values)) {}
  const int64_t* GetInt(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::Int);
    return v ? &v->i : nullptr;
  }
  const TypedContinuousVector<int64_t>* GetListInt(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::ListInt);
    return v ? &v->ints : nullptr;
  }
  const char* GetStr(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::Str);
    return v ? v->s.c_str() : nullptr;
  }
  const float* GetFloat(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::Float);
    return v ? &v->f : nullptr;
  }
  const bool* GetBool(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::Bool);
    return v ? &v->b : nullptr;
  }
  const TypedContinuousVector<float>* GetListFloat(const size_t index) const {
    const auto* v = find(index, tcemu::host::AttrKind::ListFloat);
    return v ? &v->floats : nullptr;
  }
  template <typename T>
  const T* GetAttrPointer(size_t index) const {
    if (index >= values_.size()) return nullptr;
    const tcemu::host::AttrValue& v = values_[index];
    switch (v.kind) {
      case tcemu::host::AttrKind::Bool: return reinterpret_cast<const T*>(&v.b);
      case tcemu::host::AttrKind::Float: return reinterpret_cast<const T*>(&v.f);
      case tcemu::host::AttrKind::Int: return reinterpret_cast<const T*>(&v.i);
      case tcemu::host::AttrKind::Str: return reinterpret_cast<const T*>(v.s.c_str());
      default: return nullptr;
    }
  }
  size_t GetAttrNum() const { return values_.size(); }

 private:
  const tcemu::host::AttrValue* find(size_t index, tcemu::host::AttrKind kind) const {
    if (index >= values_.size() || values_[index].kind != kind) return nullptr;
    return &values_[index];
  }
  std::vector<tcemu::host::AttrValue> values_;
};

}  // namespace gert
