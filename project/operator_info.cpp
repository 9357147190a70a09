#include "project/operator_info.h"

#include <set>
#include <sstream>

#include <fmt/format.h>

namespace tilecraft::project {

GeType geType(int value) {
  using D = dsl::DType;
  switch (value) {
    case 0: return {0, "float32", "DT_FLOAT", "float", D::F32};
    case 1: return {1, "float16", "DT_FLOAT16", "half", D::F16};
    case 2: return {2, "int8", "DT_INT8", "int8_t", D::I8};
    case 3: return {3, "int32", "DT_INT32", "int32_t", D::I32};
    case 4: return {4, "uint8", "DT_UINT8", "uint8_t", D::U8};
    case 6: return {6, "int16", "DT_INT16", "int16_t", D::I16};
    case 7: return {7, "uint16", "DT_UINT16", "uint16_t", std::nullopt};
    case 8: return {8, "uint32", "DT_UINT32", "uint32_t", std::nullopt};
    case 9: return {9, "int64", "DT_INT64", "int64_t", D::I64};
    case 10: return {10, "uint64", "DT_UINT64", "uint64_t", std::nullopt};
    case 11: return {11, "double", "DT_DOUBLE", "double", std::nullopt};
    case 12: return {12, "bool", "DT_BOOL", "bool", D::Bool};
    // CANN's build defines DTYPE_<NAME> as the token `unknown` for complex types: a kernel that names it does
    // not compile there either; the answers address such tensors as float pairs.
    case 16: return {16, "complex64", "DT_COMPLEX64", "unknown", D::F32, true};
    case 27: return {27, "bfloat16", "DT_BF16", "bfloat16_t", D::BF16};
    default: return {value, "unknown", "DT_UNDEFINED", "", std::nullopt};
  }
}

std::optional<int> geTypeOf(dsl::DType dtype, bool complex) {
  for (int v : {0, 1, 2, 3, 4, 6, 9, 12, 16, 27}) {
    if (geType(v).dtype == dtype && geType(v).complex == complex) return v;
  }
  return std::nullopt;
}

namespace {

bool fail(std::string* error, const std::string& line) {
  *error = fmt::format("the host program printed a line it cannot have printed: '{}'", line);
  return false;
}

}  // namespace

std::optional<OperatorInfo> parseDescription(const std::string& text, std::string* error) {
  OperatorInfo info;
  std::istringstream lines(text);
  TilingClass* current = nullptr;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string what;
    in >> what;
    bool ok = true;
    if (what == "op") {
      ok = static_cast<bool>(in >> info.type >> info.location);
    } else if (what == "input" || what == "output") {
      ParamInfo p;
      ok = static_cast<bool>(in >> p.name >> p.option);
      for (int t; in >> t;) p.dtypes.push_back(t);
      (what == "input" ? info.inputs : info.outputs).push_back(p);
    } else if (what == "shapeout") {
      std::string name;
      ok = static_cast<bool>(in >> name);
      for (ParamInfo& p : info.outputs) p.shapeDependsOnCompute = p.shapeDependsOnCompute || p.name == name;
    } else if (what == "attr") {
      AttrInfo a;
      std::string dflt;
      ok = static_cast<bool>(in >> a.name >> a.kind >> dflt);
      a.hasDefault = dflt == "default";
      info.attrs.push_back(a);
    } else if (what == "infershape") {
      int v = 0;
      ok = static_cast<bool>(in >> v);
      info.inferShape = v != 0;
    } else if (what == "tiling") {
      int v = 0;
      ok = static_cast<bool>(in >> v);
      info.tiling = v != 0;
    } else if (what == "register") {
      std::string op, cls;
      ok = static_cast<bool>(in >> op >> cls);
      info.registrations.emplace_back(op, cls);
    } else if (what == "class") {
      TilingClass c;
      ok = static_cast<bool>(in >> c.name >> c.size);
      bool seen = false;
      for (const TilingClass& k : info.classes) seen = seen || k.name == c.name;
      info.classes.push_back(c);
      current = &info.classes.back();
      if (seen) current->name.clear();  // a class described twice (nested in two) is kept once
    } else if (what == "field" && current) {
      FieldInfo f;
      ok = static_cast<bool>(in >> f.kind >> f.type >> f.name >> f.offset >> f.elemSize);
      if (f.kind == "struct") {
        std::string origin;
        ok = ok && static_cast<bool>(in >> origin);
        f.userStruct = origin == "def";
      } else {
        ok = ok && static_cast<bool>(in >> f.count);
      }
      current->fields.push_back(f);
    } else if (what == "endclass") {
      current = nullptr;
    } else if (!what.empty()) {
      ok = false;
    }
    if (!ok) {
      fail(error, line);
      return std::nullopt;
    }
  }
  std::vector<TilingClass> kept;
  for (TilingClass& c : info.classes) {
    if (!c.name.empty()) kept.push_back(std::move(c));
  }
  info.classes = std::move(kept);
  if (info.type.empty()) {
    *error = "the host program printed no operator";
    return std::nullopt;
  }
  return info;
}

std::optional<HostResult> parseHostResult(const std::string& text, std::string* error) {
  HostResult r;
  std::istringstream lines(text);
  bool sawTiling = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream in(line);
    std::string what;
    in >> what;
    bool ok = true;
    if (what == "output") {
      int type = 0;
      size_t rank = 0;
      ok = static_cast<bool>(in >> type >> rank);
      std::vector<int64_t> dims(rank);
      for (int64_t& d : dims) ok = ok && static_cast<bool>(in >> d);
      r.outputTypes.push_back(type);
      r.outputShapes.push_back(dims);
    } else if (what == "warning") {
      std::string rest;
      std::getline(in >> std::ws, rest);
      r.warnings.push_back(rest);
    } else if (what == "blockdim") {
      ok = static_cast<bool>(in >> r.blockDim);
    } else if (what == "tilingkey") {
      ok = static_cast<bool>(in >> r.tilingKey);
    } else if (what == "workspace") {
      for (uint64_t w; in >> w;) r.workspaces.push_back(w);
    } else if (what == "tilingdata") {
      size_t size = 0;
      std::string hex;
      ok = static_cast<bool>(in >> size);
      in >> hex;
      ok = ok && hex.size() == 2 * size;
      for (size_t i = 0; ok && i < size; ++i) {
        r.tilingData.push_back(static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16)));
      }
      sawTiling = true;
    } else if (!what.empty()) {
      ok = false;
    }
    if (!ok) {
      fail(error, line);
      return std::nullopt;
    }
  }
  if (!sawTiling) {
    *error = "the host program printed no tiling data";
    return std::nullopt;
  }
  return r;
}

std::string kernelTilingClass(const OperatorInfo& info) {
  for (const auto& [op, cls] : info.registrations) {
    if (op == info.type) return cls;
  }
  std::set<std::string> classes;
  for (const auto& reg : info.registrations) classes.insert(reg.second);
  return classes.size() == 1 ? *classes.begin() : "";
}

namespace {

uint64_t alignOf(const FieldInfo& f, const OperatorInfo& info) {
  if (f.kind != "struct") return f.elemSize;
  for (const TilingClass& c : info.classes) {
    if (c.name == f.type) {
      uint64_t a = 1;
      for (const FieldInfo& g : c.fields) a = std::max(a, alignOf(g, info));
      return a;
    }
  }
  return 4;  // the high-level APIs' structs (kernel_tiling.h) hold 32-bit fields
}

}  // namespace

std::string kernelTilingHeader(const OperatorInfo& info) {
  std::string out =
      "// Generated by tilecraft project run: the kernel-side tiling structs the CANN build generates from op_host's\n"
      "// BEGIN_TILING_DATA_DEF, each field at the offset SaveToBuffer writes it to.\n"
      "#pragma once\n\n#include <cstdint>\n#include <cstring>\n\n#include \"kernel_tiling/kernel_tiling.h\"\n\n";
  for (const TilingClass& c : info.classes) {
    out += fmt::format("struct {} {{\n", c.name);
    uint64_t at = 0;
    int pad = 0;
    for (const FieldInfo& f : c.fields) {
      uint64_t align = alignOf(f, info);
      uint64_t natural = align > 1 ? (at + align - 1) / align * align : at;
      if (f.offset > natural) out += fmt::format("  uint8_t tcPad{}_[{}];\n", pad++, f.offset - at);
      if (f.kind == "array") {
        out += fmt::format("  {} {}[{}];\n", f.type, f.name, f.count);
        at = f.offset + f.elemSize * f.count;
      } else {
        out += fmt::format("  {} {};\n", f.type, f.name);
        at = f.offset + f.elemSize;
      }
    }
    if (c.size > at) {
      uint64_t maxAlign = 1;
      for (const FieldInfo& f : c.fields) maxAlign = std::max(maxAlign, alignOf(f, info));
      uint64_t natural = (at + maxAlign - 1) / maxAlign * maxAlign;
      if (c.size > natural) out += fmt::format("  uint8_t tcPad{}_[{}];\n", pad++, c.size - natural);
    }
    out += "};\n\n";
  }
  std::string main = kernelTilingClass(info);
  if (!main.empty()) out += fmt::format("#define TCEMU_TILING_TYPE {}\n", main);
  return out;
}

}  // namespace tilecraft::project
