// What `tilecraft project run` learns from a project's host program (emu/include/emu/host_driver.h prints it, one
// record per line): the operator's signature and tiling classes (`describe`), and what the host functions set for a
// case. Also the kernel-side tiling header the CANN build would generate from the tiling classes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dsl/types.h"

namespace tilecraft::project {

// A ge::DataType value (graph/types.h) with the names both sides need.
struct GeType {
  int value = -1;
  const char* name = "?";           // e.g. "float16" (as in msopgen's JSON)
  const char* kernelCode = "";      // the kernel-side code ORIG_DTYPE_<NAME> names, e.g. "DT_FLOAT16"
  const char* kernelType = "";      // the C++ type of DTYPE_<NAME>, e.g. "half"
  std::optional<dsl::DType> dtype;  // the element type a host tensor holds it in, when there is one
  bool complex = false;             // each element is a (real, imaginary) pair of `dtype` (complex64: f32)
};
GeType geType(int value);
std::optional<int> geTypeOf(dsl::DType dtype, bool complex = false);

struct ParamInfo {
  std::string name;
  std::string option;                  // required, optional, dynamic
  std::vector<int> dtypes;             // ge::DataType values, one per supported combination (msopgen's columns)
  bool shapeDependsOnCompute = false;  // an output marked OutputShapeDependOnCompute: the kernel writes its shape
};

struct AttrInfo {
  std::string name;
  std::string kind;  // bool, float, int, str, list_int, list_float, ...
  bool hasDefault = false;
};

struct FieldInfo {
  std::string kind;  // scalar, array, struct
  std::string type;  // the C++ element type, or the struct's name
  std::string name;
  uint64_t offset = 0;
  uint64_t elemSize = 0;  // scalar/array: bytes per element; struct: the whole struct's size
  uint64_t count = 1;
  bool userStruct = false;  // a struct declared with BEGIN_TILING_DATA_DEF (else a high-level API's)
};

struct TilingClass {
  std::string name;
  uint64_t size = 0;
  std::vector<FieldInfo> fields;
};

struct OperatorInfo {
  std::string type;
  std::string location;  // FILE:LINE of OP_ADD
  std::vector<ParamInfo> inputs, outputs;
  std::vector<AttrInfo> attrs;
  bool inferShape = false;
  bool tiling = false;
  std::vector<std::pair<std::string, std::string>> registrations;  // (op type, tiling class)
  std::vector<TilingClass> classes;                                // nested ones first, each once
};

// nullopt with `error` set on text the host driver cannot have printed.
std::optional<OperatorInfo> parseDescription(const std::string& text, std::string* error);

struct HostResult {
  std::vector<int> outputTypes;
  std::vector<std::vector<int64_t>> outputShapes;
  uint32_t blockDim = 0;
  uint64_t tilingKey = 0;
  std::vector<uint64_t> workspaces;
  std::string tilingData;             // raw bytes
  std::vector<std::string> warnings;  // whole lines, `FILE:LINE: warning: ...`
};
std::optional<HostResult> parseHostResult(const std::string& text, std::string* error);

// The tiling class the kernel's GET_TILING_DATA reads: the one registered for the operator's type, else the only
// one registered; "" when there is none to choose.
std::string kernelTilingClass(const OperatorInfo& info);

// The kernel-side header: a plain struct per tiling class with CANN's field layout, and TCEMU_TILING_TYPE naming
// the operator's. Explicit padding members keep each field at the host's offset.
std::string kernelTilingHeader(const OperatorInfo& info);

}  // namespace tilecraft::project
