// Data type utilities of the host API (CANN's graph/utils/type_utils.h).
#pragma once

#include <cstdint>
#include <string>

#include "graph/types.h"

namespace ge {

class TypeUtils {
 public:
  // False (and length untouched) for a type without a fixed size.
  static bool GetDataTypeLength(const ge::DataType data_type, uint32_t& length) {
    int size = GetSizeByDataType(data_type);
    if (size < 0) return false;
    length = static_cast<uint32_t>(size);
    return true;
  }
};

}  // namespace ge
