// A host tensor as the raw little-endian bytes a kernel's GM buffer holds, and back.
#pragma once

#include <string>
#include <vector>

#include "interp/tensor.h"

namespace tilecraft::project {

std::string toBytes(const interp::HostTensor& tensor);
interp::HostTensor fromBytes(const std::string& bytes, dsl::DType dtype, const std::vector<int64_t>& shape);
size_t elementBytes(dsl::DType dtype);

}  // namespace tilecraft::project
