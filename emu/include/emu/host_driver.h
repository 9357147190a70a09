// The host half of `tilecraft project run`: a program made of the project's op_host sources and this header. Its
// main (tcemu::host::hostMain) either describes the operator (`describe OUT`: the OpDef's signature and the layout
// of every registered tiling class, from which the kernel-side struct is written) or runs one case (`case FILE OUT`:
// InferShape, InferDataType and TilingFunc on the case's inputs, then what they set). The records go to OUT, one
// per line (project/operator_info.cpp reads them), since host code prints what it likes on stdout; a mistake in
// host code fails with the host code's FILE:LINE.
#pragma once

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace tcemu::host {

inline const char* optionName(::ops::Option o) {
  switch (o) {
    case ::ops::OPTIONAL: return "optional";
    case ::ops::DYNAMIC: return "dynamic";
    default: return "required";
  }
}

inline const char* attrKindName(AttrKind k) {
  switch (k) {
    case AttrKind::Bool: return "bool";
    case AttrKind::Float: return "float";
    case AttrKind::Int: return "int";
    case AttrKind::Str: return "str";
    case AttrKind::ListBool: return "list_bool";
    case AttrKind::ListFloat: return "list_float";
    case AttrKind::ListInt: return "list_int";
    case AttrKind::ListListInt: return "list_list_int";
    default: return "none";
  }
}

inline void describeClass(const ::optiling::TilingDef& def, std::ostream& out) {
  std::vector<::optiling::FieldInfo> fields = def.GetFieldInfo();
  for (const ::optiling::FieldInfo& f : fields) {
    if (f.tcemuNested_) {
      describeClass(*f.tcemuNested_(reinterpret_cast<const uint8_t*>(&def) + f.tcemuMember_), out);
    }
  }
  out << "class " << def.GetTilingClassName() << ' ' << def.GetDataSize() << '\n';
  for (const ::optiling::FieldInfo& f : fields) {
    if (f.structType_) {
      out << "field struct " << f.structType_ << ' ' << f.name_ << ' ' << f.tcemuOffset_ << ' ' << f.structSize_ << ' '
          << (f.tcemuNested_ ? "def" : "api") << '\n';
    } else {
      out << "field " << (f.arrSize_ ? "array " : "scalar ") << f.dtype_ << ' ' << f.name_ << ' ' << f.tcemuOffset_
          << ' ' << f.tcemuElemSize_ << ' ' << (f.arrSize_ ? f.arrSize_ : 1) << '\n';
    }
  }
  out << "endclass\n";
}

inline void printParam(const char* what, const ::ops::OpParamDef& p, std::ostream& out) {
  out << what << ' ' << p.tcemuName() << ' ' << optionName(p.tcemuParamType());
  for (::ge::DataType t : p.tcemuDataTypes()) out << ' ' << static_cast<int>(t);
  out << '\n';
}

// The operator: exactly one OP_ADD in the project.
inline ::ops::OpDef theOperator(std::string* opLoc) {
  auto& registry = ::ops::OpDefFactory::tcemuRegistry();
  if (registry.size() != 1) {
    std::string names;
    for (const auto& [name, entry] : registry) names += (names.empty() ? "" : ", ") + name;
    std::fprintf(stderr, "error: op_host registers %zu operators with OP_ADD (%s); a project has one\n",
                 registry.size(), names.c_str());
    std::exit(2);
  }
  const auto& entry = registry.begin()->second;
  *opLoc = std::string(entry.loc.file) + ":" + std::to_string(entry.loc.line);
  return entry.creator(registry.begin()->first.c_str());
}

inline int describe(std::ostream& out) {
  std::string loc;
  ::ops::OpDef op = theOperator(&loc);
  out << "op " << op.tcemuType() << ' ' << loc << '\n';
  for (const auto& p : op.tcemuInputs()) printParam("input", p, out);
  for (const auto& p : op.tcemuOutputs()) printParam("output", p, out);
  for (const auto& p : op.tcemuOutputs())
    if (p.tcemuShapeDependsOnCompute()) out << "shapeout " << p.tcemuName() << '\n';
  for (const auto& a : op.tcemuAttrs()) {
    out << "attr " << a.tcemuName() << ' ' << attrKindName(a.tcemuValue().kind) << ' '
        << (a.tcemuHasDefault() ? "default" : "required") << '\n';
  }
  const OpImpl* impl = nullptr;
  if (auto it = opImpls().find(op.tcemuType()); it != opImpls().end()) impl = &it->second;
  out << "infershape " << (op.GetInferShape() || (impl && impl->inferShape) ? 1 : 0) << '\n';
  out << "tiling " << (op.AICore().GetTiling() || (impl && impl->tiling) ? 1 : 0) << '\n';
  for (const auto& [opType, create] : ::optiling::CTilingDataClassFactory::GetInstance().tcemuRegistrations()) {
    std::shared_ptr<::optiling::TilingDef> def = create();
    out << "register " << opType << ' ' << def->GetTilingClassName() << '\n';
    describeClass(*def, out);
  }
  return 0;
}

// A case file: `input IR DTYPE PATH|- RANK DIMS...`, `output IR DTYPE RANK DIMS...` (a shape to use without
// InferShape; RANK -1 for none), `attr INDEX VALUE...` (in OpDef order, the kind's text form). IR is the OpDef
// parameter's index: the lines of a dynamic (tensor-list) parameter are its instances, in order.
struct CaseInput {
  size_t ir = 0;
  ::ge::DataType dtype = ::ge::DT_UNDEFINED;
  std::string path;
  std::vector<int64_t> dims;
};

// Instance records from the IR index of each instance (instances come in IR order).
inline std::vector<::gert::AnchorInstanceInfo> instancesOf(const std::vector<size_t>& irOfInstance, size_t irCount) {
  std::vector<::gert::AnchorInstanceInfo> infos(irCount);
  for (size_t k = irOfInstance.size(); k-- > 0;) {
    if (irOfInstance[k] >= irCount) continue;
    auto& info = infos[irOfInstance[k]];
    info.SetInstanceStart(static_cast<uint32_t>(k));
    info.SetInstantiationNum(static_cast<uint32_t>(info.GetInstanceNum() + 1));
  }
  for (size_t ir = 0, next = 0; ir < irCount; ++ir) {
    if (infos[ir].GetInstanceNum() == 0) infos[ir].SetInstanceStart(static_cast<uint32_t>(next));
    next = infos[ir].GetInstanceStart() + infos[ir].GetInstanceNum();
  }
  return infos;
}

inline ::gert::StorageShape storageShape(const std::vector<int64_t>& dims) {
  ::gert::StorageShape s;
  for (int64_t d : dims) {
    s.MutableOriginShape().AppendDim(d);
    s.MutableStorageShape().AppendDim(d);
  }
  return s;
}

inline std::string dimsText(const ::gert::Shape& s) {
  std::string t;
  for (size_t i = 0; i < s.GetDimNum(); ++i) t += (i ? ", " : "") + std::to_string(s.GetDim(i));
  return "[" + t + "]";
}

inline std::string shapeText(const ::gert::Shape& s) {
  std::string t = std::to_string(s.GetDimNum());
  for (size_t i = 0; i < s.GetDimNum(); ++i) t += ' ' + std::to_string(s.GetDim(i));
  return t;
}

inline AttrValue parseAttr(AttrKind kind, std::istringstream& in) {
  AttrValue v;
  v.kind = kind;
  switch (kind) {
    case AttrKind::Bool: in >> v.b; break;
    case AttrKind::Float: in >> v.f; break;
    case AttrKind::Int: in >> v.i; break;
    case AttrKind::Str: in >> v.s; break;
    case AttrKind::ListInt: {
      std::vector<int64_t> xs;
      for (int64_t x; in >> x;) xs.push_back(x);
      v.ints = ::gert::TypedContinuousVector<int64_t>(xs);
      break;
    }
    case AttrKind::ListFloat: {
      std::vector<float> xs;
      for (float x; in >> x;) xs.push_back(x);
      v.floats = ::gert::TypedContinuousVector<float>(xs);
      break;
    }
    default: break;
  }
  return v;
}

inline int runCase(const std::string& casePath, std::ostream& out) {
  std::string opLoc;
  ::ops::OpDef op = theOperator(&opLoc);
  OpCall call;
  call.opType = op.tcemuType();
  static ::fe::PlatFormInfos platform;
  call.platform = &platform;
  std::vector<AttrValue> attrs;
  for (const auto& a : op.tcemuAttrs()) attrs.push_back(a.tcemuValue());
  std::vector<CaseInput> inputs;
  std::vector<std::vector<int64_t>> givenOutputs;
  std::vector<::ge::DataType> outputTypes;
  std::vector<size_t> outputIr;
  std::ifstream file(casePath);
  for (std::string line; std::getline(file, line);) {
    std::istringstream in(line);
    std::string what;
    in >> what;
    if (what == "input") {
      CaseInput c;
      int dtype = 0, rank = 0;
      in >> c.ir >> dtype >> c.path >> rank;
      c.dtype = static_cast<::ge::DataType>(dtype);
      for (int i = 0; i < rank; ++i) c.dims.push_back(0), in >> c.dims.back();
      inputs.push_back(c);
    } else if (what == "output") {
      int dtype = 0, rank = 0;
      size_t ir = 0;
      in >> ir >> dtype >> rank;
      outputIr.push_back(ir);
      outputTypes.push_back(static_cast<::ge::DataType>(dtype));
      std::vector<int64_t> dims;
      for (int i = 0; i < rank; ++i) dims.push_back(0), in >> dims.back();
      givenOutputs.push_back(rank < 0 ? std::vector<int64_t>{-1} : dims);
    } else if (what == "attr") {
      size_t index = 0;
      in >> index;
      if (index < attrs.size()) attrs[index] = parseAttr(attrs[index].kind, in);
    }
  }
  std::vector<size_t> inputIr;
  for (const CaseInput& c : inputs) inputIr.push_back(c.ir);
  call.inputInstances = instancesOf(inputIr, op.tcemuInputs().size());
  call.outputInstances = instancesOf(outputIr, op.tcemuOutputs().size());
  std::vector<std::vector<char>> data(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    call.inputShapes.push_back(storageShape(inputs[i].dims));
    ::gert::Tensor t(call.inputShapes.back(), ::gert::StorageFormat(), inputs[i].dtype);
    if (inputs[i].path != "-") {
      std::ifstream bytes(inputs[i].path, std::ios::binary);
      data[i].assign(std::istreambuf_iterator<char>(bytes), std::istreambuf_iterator<char>());
    }
    call.inputTensors.push_back(t);
    call.inputDescs.emplace_back(inputs[i].dtype, ::gert::StorageFormat());
  }
  for (size_t i = 0; i < inputs.size(); ++i) call.inputTensors[i].tcemuSetData(data[i].data(), data[i].size());
  for (size_t i = 0; i < outputTypes.size(); ++i) {
    call.outputDescs.emplace_back(outputTypes[i], ::gert::StorageFormat());
    call.outputShapes.push_back(givenOutputs[i] == std::vector<int64_t>{-1} ? ::gert::StorageShape()
                                                                            : storageShape(givenOutputs[i]));
  }
  call.attrs = ::gert::RuntimeAttrs(attrs);
  const OpImpl* impl = nullptr;
  if (auto it = opImpls().find(call.opType); it != opImpls().end()) impl = &it->second;
  if (impl) call.compileInfo = impl->compileInfo.get();
  if (impl && impl->tilingParse) {
    ::gert::TilingParseContext context(&call);
    if (impl->tilingParse(&context) != ::ge::GRAPH_SUCCESS)
      hostFail(impl->loc, "TilingParse of " + call.opType + " failed (it returned GRAPH_FAILED)");
  }
  auto inferShapeFn = op.GetInferShape() ? op.GetInferShape() : impl ? impl->inferShape : nullptr;
  SrcLoc inferShapeLoc = op.GetInferShape() ? op.tcemuInferShapeLoc() : impl ? impl->loc : SrcLoc{};
  if (auto infer = inferShapeFn) {
    std::vector<::gert::StorageShape> given = call.outputShapes;
    for (auto& s : call.outputShapes) s = ::gert::StorageShape();
    ::gert::InferShapeContext context(&call);
    // An aclnn caller allocates the outputs itself and CANN's single-operator path never calls InferShape (graph
    // mode does): an output whose shape is given keeps it, and where InferShape fails or disagrees, the run says so.
    if (infer(&context) != ::ge::GRAPH_SUCCESS) {
      std::string failed = "InferShape of " + call.opType + " failed (it returned GRAPH_FAILED)";
      bool allGiven = std::none_of(givenOutputs.begin(), givenOutputs.end(),
                                   [](const std::vector<int64_t>& d) { return d == std::vector<int64_t>{-1}; });
      if (!allGiven || givenOutputs.empty()) hostFail(inferShapeLoc, failed);
      out << "warning " << inferShapeLoc.file << ':' << inferShapeLoc.line << ": warning: " << failed
          << "; the outputs keep the given shapes, as an aclnn caller allocates them (graph mode would stop here)\n";
      call.outputShapes = given;
    }
    for (size_t i = 0; i < given.size(); ++i) {
      if (givenOutputs[i] == std::vector<int64_t>{-1}) continue;
      const ::gert::Shape& inferred = call.outputShapes[i].GetStorageShape();
      if (inferred == given[i].GetStorageShape()) continue;
      out << "warning " << inferShapeLoc.file << ':' << inferShapeLoc.line << ": warning: InferShape of " << call.opType
          << " gives output '" << op.tcemuOutputs()[outputIr[i]].tcemuName() << "' the shape " << dimsText(inferred)
          << ", the caller's is " << dimsText(given[i].GetStorageShape())
          << "; the output keeps the caller's, as on the aclnn path (graph mode would allocate InferShape's)\n";
      call.outputShapes[i] = given[i];
    }
    for (auto& s : call.outputShapes) s.MutableOriginShape() = s.GetStorageShape();
  }
  auto inferTypeFn = op.GetInferDataType() ? op.GetInferDataType() : impl ? impl->inferDataType : nullptr;
  if (auto inferType = inferTypeFn) {
    ::gert::InferDataTypeContext context(&call);
    if (inferType(&context) != ::ge::GRAPH_SUCCESS) {
      hostFail(op.tcemuInferDataTypeLoc(), "InferDataType of " + call.opType + " failed (it returned GRAPH_FAILED)");
    }
    // As with the shapes: an aclnn caller allocates each output in the dtype of the OpDef's column (aclnn refuses
    // others), and InferDataType runs in graph mode only.
    SrcLoc loc = op.GetInferDataType() ? op.tcemuInferDataTypeLoc() : impl ? impl->loc : SrcLoc{};
    for (size_t i = 0; i < outputTypes.size(); ++i) {
      ::ge::DataType inferred = call.outputDescs[i].GetDataType();
      if (static_cast<int>(outputTypes[i]) < 0 || outputTypes[i] == ::ge::DT_UNDEFINED || inferred == outputTypes[i])
        continue;  // an OpDef output with no dtypes
      out << "warning " << loc.file << ':' << loc.line << ": warning: InferDataType of " << call.opType
          << " gives output '" << op.tcemuOutputs()[outputIr[i]].tcemuName() << "' the dtype "
          << ::ge::TypeUtils::DataTypeToSerialString(inferred) << ", the OpDef's is "
          << ::ge::TypeUtils::DataTypeToSerialString(outputTypes[i])
          << "; the output keeps the OpDef's, as on the aclnn path (graph mode would take InferDataType's)\n";
      call.outputDescs[i].SetDataType(outputTypes[i]);
    }
  }
  auto tiling = op.AICore().GetTiling() ? op.AICore().GetTiling() : impl ? impl->tiling : nullptr;
  SrcLoc tilingLoc = op.AICore().GetTiling() ? op.tcemuAICore().tcemuTilingLoc() : impl ? impl->loc : SrcLoc{};
  if (!tiling) {
    std::fprintf(stderr, "%s: error: %s registers no tiling function; hint: this->AICore().SetTiling(TilingFunc)\n",
                 opLoc.c_str(), call.opType.c_str());
    return 2;
  }
  ::gert::TilingContext context(&call);
  if (tiling(&context) != ::ge::GRAPH_SUCCESS) {
    std::string shapes;
    for (size_t i = 0; i < call.inputShapes.size(); ++i) {
      shapes += (i ? ", " : "") +
                op.tcemuInputs()[inputs[i].ir < op.tcemuInputs().size() ? inputs[i].ir : 0].tcemuName() +
                dimsText(call.inputShapes[i].GetStorageShape());
    }
    hostFail(tilingLoc, "TilingFunc of " + call.opType + " failed (it returned GRAPH_FAILED) for inputs " + shapes);
  }
  if (call.blockDim == 0) {
    hostFail(tilingLoc, "TilingFunc of " + call.opType + " set no block dim; hint: context->SetBlockDim(cores)");
  }
  for (size_t i = 0; i < call.outputShapes.size(); ++i) {
    out << "output " << static_cast<int>(call.outputDescs[i].GetDataType()) << ' '
        << shapeText(call.outputShapes[i].GetStorageShape()) << '\n';
  }
  out << "blockdim " << call.blockDim << '\n';
  out << "tilingkey " << call.tilingKey << '\n';
  out << "workspace";
  for (size_t w : call.workspaces) out << ' ' << w;
  out << '\n';
  const auto* bytes = static_cast<const uint8_t*>(call.tilingData.GetData());
  static const char* hex = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < call.tilingData.GetDataSize(); ++i) {
    text += hex[bytes[i] >> 4];
    text += hex[bytes[i] & 15];
  }
  out << "tilingdata " << call.tilingData.GetDataSize() << ' ' << text << '\n';
  return 0;
}

inline int hostMain(int argc, char** argv) {
  std::ostringstream out;
  int status = 2;
  if (argc == 3 && std::string(argv[1]) == "describe") {
    status = describe(out);
  } else if (argc == 4 && std::string(argv[1]) == "case") {
    status = runCase(argv[2], out);
  } else {
    std::fprintf(stderr, "usage: %s describe OUT | case FILE OUT\n", argv[0]);
    return status;
  }
  std::ofstream records(argv[argc - 1], std::ios::binary);
  records << out.str();
  return records ? status : 2;
}

}  // namespace tcemu::host
