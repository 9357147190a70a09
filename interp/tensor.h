// Host tensors: what the interpreter reads and writes, what .npy files hold, what comparisons take.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/types.h"

namespace tilecraft::interp {

/// A dense row-major array. Every element is held as a double that is exactly a value of `dtype` (i64 exactly
/// only within +-2^53, which the interpreter checks on input).
struct HostTensor {
  dsl::DType dtype = dsl::DType::F32;
  std::vector<int64_t> shape;
  std::vector<double> data;

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
  static HostTensor zeros(dsl::DType dtype, std::vector<int64_t> shape) {
    HostTensor t{dtype, std::move(shape), {}};
    t.data.assign(static_cast<size_t>(t.numel()), 0.0);
    return t;
  }
};

/// "f16[4, 100]".
std::string describe(const HostTensor& tensor);

}  // namespace tilecraft::interp
