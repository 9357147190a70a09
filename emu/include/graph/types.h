// Data types and formats of the host API (CANN's graph/types.h): the values are CANN's, since msopgen's JSON and
// the kernel build name them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "emu/host_type_enums.h"
#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"

namespace ge {

using float32_t = float;

// A dimension or rank not known before the shapes of a run (CANN's values).
static const int64_t UNKNOWN_DIM = -1;
static const int64_t UNKNOWN_DIM_NUM = -2;
static const std::vector<int64_t> UNKNOWN_SHAPE = {-1};
static const std::vector<int64_t> UNKNOWN_RANK = {-2};

// clang-format off
enum DataType {
  DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
  DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
  DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_MAX = 42
};

enum Format {
  FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4,
  FORMAT_FRACTAL_NZ = 29, FORMAT_NCDHW = 30, FORMAT_NDHWC = 27, FORMAT_RESERVED = 40, FORMAT_ALL = 41
};
// clang-format on

// A format's parts (CANN's layout of the int32: primary format in bits 0-7, sub-format in 8-23, C0 in 24-27).
inline int32_t GetPrimaryFormat(int32_t format) { return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xffU); }
inline int32_t GetSubFormat(int32_t format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffff00U) >> 8);
}
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }

// Bytes per element; -1 for types without a fixed size.
inline int GetSizeByDataType(DataType data_type) {
  switch (data_type) {
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32: return 4;
    case DT_FLOAT16:
    case DT_BF16:
    case DT_INT16:
    case DT_UINT16: return 2;
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL: return 1;
    case DT_INT64:
    case DT_UINT64:
    case DT_DOUBLE:
    case DT_COMPLEX64: return 8;
    case DT_COMPLEX128: return 16;
    default: return -1;
  }
}

}  // namespace ge
