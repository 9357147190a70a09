// Data type utilities of the host API (CANN's graph/utils/type_utils.h).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_set>

#include "graph/types.h"

namespace ge {

class TypeUtils {
 public:
  // CANN's names: "DT_FLOAT16", ...; "UNDEFINED" for a value that is no data type.
  static std::string DataTypeToSerialString(const DataType data_type) {
    switch (data_type) {
      case DT_FLOAT: return "DT_FLOAT";
      case DT_FLOAT16: return "DT_FLOAT16";
      case DT_INT8: return "DT_INT8";
      case DT_INT32: return "DT_INT32";
      case DT_UINT8: return "DT_UINT8";
      case DT_INT16: return "DT_INT16";
      case DT_UINT16: return "DT_UINT16";
      case DT_UINT32: return "DT_UINT32";
      case DT_INT64: return "DT_INT64";
      case DT_UINT64: return "DT_UINT64";
      case DT_DOUBLE: return "DT_DOUBLE";
      case DT_BOOL: return "DT_BOOL";
      case DT_STRING: return "DT_STRING";
      case DT_COMPLEX64: return "DT_COMPLEX64";
      case DT_COMPLEX128: return "DT_COMPLEX128";
      case DT_BF16: return "DT_BF16";
      case DT_UNDEFINED: return "DT_UNDEFINED";
      case DT_INT4: return "DT_INT4";
      default: return "UNDEFINED";
    }
  }
  // CANN's names of the primary format ("ND", "FRACTAL_NZ", ...), then ":SUB" when there is a sub-format;
  // "RESERVED" for a value that is no format.
  static std::string FormatToSerialString(const Format format) {
    std::string name;
    switch (static_cast<Format>(GetPrimaryFormat(format))) {
      case FORMAT_NCHW: name = "NCHW"; break;
      case FORMAT_NHWC: name = "NHWC"; break;
      case FORMAT_ND: name = "ND"; break;
      case FORMAT_NC1HWC0: name = "NC1HWC0"; break;
      case FORMAT_FRACTAL_Z: name = "FRACTAL_Z"; break;
      case FORMAT_FRACTAL_NZ: name = "FRACTAL_NZ"; break;
      case FORMAT_NCDHW: name = "NCDHW"; break;
      case FORMAT_NDHWC: name = "NDHWC"; break;
      case FORMAT_ALL: name = "ALL"; break;
      default: return "RESERVED";
    }
    return HasSubFormat(format) ? name + ":" + std::to_string(GetSubFormat(format)) : name;
  }
  // False (and length untouched) for a type without a fixed size.
  static bool GetDataTypeLength(const ge::DataType data_type, uint32_t& length) {
    int size = GetSizeByDataType(data_type);
    if (size < 0) return false;
    length = static_cast<uint32_t>(size);
    return true;
  }
};

}  // namespace ge
