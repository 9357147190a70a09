// A host tensor as the raw little-endian bytes a kernel's GM buffer holds, and back; the tensors of an OpDef's
// parameters, complex64 among them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "interp/compare.h"
#include "interp/tensor.h"
#include "project/operator_info.h"

namespace tilecraft::project {

std::string toBytes(const interp::HostTensor& tensor);
interp::HostTensor fromBytes(const std::string& bytes, dsl::DType dtype, const std::vector<int64_t>& shape);
size_t elementBytes(dsl::DType dtype);
size_t elementBytes(const GeType& type);

// A tensor of an OpDef parameter, as its GM buffer holds it. complex64 is no dsl::DType (the DSL's types are the
// DSL's, and it has no complex arithmetic): such a tensor is held as what the kernel reads, its float32 (real,
// imaginary) pairs, `data` an f32 tensor whose last dimension is that 2. The operator sees ge::DT_COMPLEX64 and
// the shape without the 2 (InferShape, TilingFunc, the OpDef's dtype columns, messages); its .npy is '<c8'.
struct OpTensor {
  interp::HostTensor data;
  bool complex64 = false;

  std::vector<int64_t> shape() const;  // the operator's
  std::optional<int> geType() const;   // a ge::DataType value
  std::string dtypeName() const;       // "c64", else the DSL's name ("f32")
  std::string text() const;            // "c64[1536]", "f32[2, 33]"
};

// What a GM buffer of `type` (one with a host dtype) and the operator's `shape` holds; bytes it lacks read as 0.
OpTensor fromGm(const std::string& bytes, const GeType& type, const std::vector<int64_t>& shape);

// `got` against the reference `want` by interp::compare's dtype-scaled rule. A reference of another dtype (a golden
// computed in int32 for a bool output) is compared by value; complex64 on its float32 parts, with float32's
// tolerance, as the kernel wrote them.
interp::CompareResult compareTensors(const OpTensor& want, const OpTensor& got);

}  // namespace tilecraft::project
