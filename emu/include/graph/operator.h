// ge::Operator (CANN's graph/operator.h), the graph-mode view of one operator node that op_host code receives in its
// CheckSupported and OpSelectFormat functions: named input and output descriptions and attributes. CANN builds it
// from the graph; here it holds what was set on it (UpdateInputDesc, UpdateOutputDesc, SetAttr), since a custom
// operator's aclnn path, the one project run takes, never builds one. A description asked for by a name the operator
// lacks is an empty TensorDesc, and GetAttr of a missing name or of another kind is GRAPH_FAILED, as in CANN.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/tensor.h"

namespace ge {

class Operator {
 public:
  using OpInt = int64_t;
  using OpFloat = float32_t;
  using OpString = std::string;
  using OpAscendString = AscendString;

  Operator() {}
  explicit Operator(const std::string& type) : type_(type) {}
  explicit Operator(const char_t* type) : type_(type == nullptr ? "" : type) {}
  Operator(const std::string& name, const std::string& type) : name_(name), type_(type) {}
  Operator(const AscendString& name, const AscendString& type) : name_(name.GetString()), type_(type.GetString()) {}
  Operator(const char_t* name, const char_t* type)
      : name_(name == nullptr ? "" : name), type_(type == nullptr ? "" : type) {}

  graphStatus GetName(AscendString& name) const {
    name = AscendString(name_.c_str());
    return GRAPH_SUCCESS;
  }
  graphStatus GetOpType(AscendString& type) const {
    type = AscendString(type_.c_str());
    return GRAPH_SUCCESS;
  }

  TensorDesc GetInputDescByName(const char_t* name) const { return find(inputs_, name); }
  TensorDesc GetInputDesc(const std::string& name) const { return find(inputs_, name.c_str()); }
  TensorDesc GetInputDesc(uint32_t index) const {
    return index < inputs_.size() ? inputs_[index].second : TensorDesc();
  }
  graphStatus UpdateInputDesc(const char_t* name, const TensorDesc& desc) { return update(inputs_, name, desc); }
  graphStatus UpdateInputDesc(const std::string& name, const TensorDesc& desc) {
    return update(inputs_, name.c_str(), desc);
  }
  TensorDesc GetOutputDescByName(const char_t* name) const { return find(outputs_, name); }
  TensorDesc GetOutputDesc(const std::string& name) const { return find(outputs_, name.c_str()); }
  TensorDesc GetOutputDesc(uint32_t index) const {
    return index < outputs_.size() ? outputs_[index].second : TensorDesc();
  }
  graphStatus UpdateOutputDesc(const char_t* name, const TensorDesc& desc) { return update(outputs_, name, desc); }
  graphStatus UpdateOutputDesc(const std::string& name, const TensorDesc& desc) {
    return update(outputs_, name.c_str(), desc);
  }
  size_t GetInputsSize() const { return inputs_.size(); }
  size_t GetOutputsSize() const { return outputs_.size(); }

  Operator& SetAttr(const char_t* name, int64_t value) { return set(name, value); }
  Operator& SetAttr(const char_t* name, int32_t value) { return set(name, int64_t{value}); }
  Operator& SetAttr(const char_t* name, uint32_t value) { return set(name, int64_t{value}); }
  Operator& SetAttr(const char_t* name, float32_t value) { return set(name, value); }
  Operator& SetAttr(const char_t* name, bool value) { return set(name, value); }
  Operator& SetAttr(const char_t* name, const char_t* value) { return set(name, std::string(value ? value : "")); }
  Operator& SetAttr(const char_t* name, const AscendString& value) { return set(name, std::string(value.GetString())); }
  Operator& SetAttr(const char_t* name, const std::vector<int64_t>& value) { return set(name, value); }
  Operator& SetAttr(const char_t* name, const std::vector<float32_t>& value) { return set(name, value); }

  graphStatus GetAttr(const char_t* name, int64_t& value) const { return get(name, value); }
  graphStatus GetAttr(const char_t* name, int32_t& value) const { return narrow(name, value); }
  graphStatus GetAttr(const char_t* name, uint32_t& value) const { return narrow(name, value); }
  graphStatus GetAttr(const char_t* name, float32_t& value) const { return get(name, value); }
  graphStatus GetAttr(const char_t* name, bool& value) const { return get(name, value); }
  graphStatus GetAttr(const char_t* name, std::vector<int64_t>& value) const { return get(name, value); }
  graphStatus GetAttr(const char_t* name, std::vector<float32_t>& value) const { return get(name, value); }
  graphStatus GetAttr(const char_t* name, AscendString& value) const {
    std::string text;
    if (get(name, text) != GRAPH_SUCCESS) return GRAPH_FAILED;
    value = AscendString(text.c_str());
    return GRAPH_SUCCESS;
  }

 private:
  using Value = std::variant<int64_t, float32_t, bool, std::string, std::vector<int64_t>, std::vector<float32_t>>;
  using Descs = std::vector<std::pair<std::string, TensorDesc>>;

  static TensorDesc find(const Descs& descs, const char_t* name) {
    for (const auto& [n, d] : descs) {
      if (name != nullptr && n == name) return d;
    }
    return TensorDesc();
  }
  static graphStatus update(Descs& descs, const char_t* name, const TensorDesc& desc) {
    if (name == nullptr) return GRAPH_FAILED;
    for (auto& [n, d] : descs) {
      if (n == name) {
        d = desc;
        return GRAPH_SUCCESS;
      }
    }
    descs.emplace_back(name, desc);
    return GRAPH_SUCCESS;
  }
  template <typename T>
  Operator& set(const char_t* name, T value) {
    if (name != nullptr) attrs_[name] = Value(std::move(value));
    return *this;
  }
  template <typename T>
  graphStatus get(const char_t* name, T& value) const {
    auto it = name == nullptr ? attrs_.end() : attrs_.find(name);
    if (it == attrs_.end() || !std::holds_alternative<T>(it->second)) return GRAPH_FAILED;
    value = std::get<T>(it->second);
    return GRAPH_SUCCESS;
  }
  template <typename T>
  graphStatus narrow(const char_t* name, T& value) const {
    int64_t wide = 0;
    if (get(name, wide) != GRAPH_SUCCESS) return GRAPH_FAILED;
    value = static_cast<T>(wide);
    return GRAPH_SUCCESS;
  }

  std::string name_, type_;
  Descs inputs_, outputs_;
  std::map<std::string, Value> attrs_;
};

}  // namespace ge
