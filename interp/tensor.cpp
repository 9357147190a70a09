#include "interp/tensor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace tilecraft::interp {

std::string describe(const HostTensor& tensor) {
  return fmt::format("{}[{}]", dsl::dtypeName(tensor.dtype), fmt::join(tensor.shape, ", "));
}

}  // namespace tilecraft::interp
