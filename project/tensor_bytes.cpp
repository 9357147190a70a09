#include "project/tensor_bytes.h"

#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "interp/numeric.h"

namespace tilecraft::project {

size_t elementBytes(dsl::DType dtype) {
  switch (dtype) {
    case dsl::DType::F16:
    case dsl::DType::BF16:
    case dsl::DType::I16: return 2;
    case dsl::DType::F32:
    case dsl::DType::I32: return 4;
    case dsl::DType::I64: return 8;
    default: return 1;
  }
}

namespace {

template <typename T>
void put(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}

template <typename T>
T get(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

std::string toBytes(const interp::HostTensor& tensor) {
  std::string out;
  out.reserve(tensor.data.size() * elementBytes(tensor.dtype));
  for (double v : tensor.data) {
    switch (tensor.dtype) {
      case dsl::DType::F16: put(out, interp::f16Bits(v)); break;
      case dsl::DType::BF16: put(out, interp::bf16Bits(v)); break;
      case dsl::DType::F32: put(out, static_cast<float>(v)); break;
      case dsl::DType::I8: put(out, static_cast<int8_t>(v)); break;
      case dsl::DType::U8: put(out, static_cast<uint8_t>(v)); break;
      case dsl::DType::I16: put(out, static_cast<int16_t>(v)); break;
      case dsl::DType::I32: put(out, static_cast<int32_t>(v)); break;
      case dsl::DType::I64: put(out, static_cast<int64_t>(v)); break;
      case dsl::DType::Bool: put(out, static_cast<uint8_t>(v != 0)); break;
    }
  }
  return out;
}

interp::HostTensor fromBytes(const std::string& bytes, dsl::DType dtype, const std::vector<int64_t>& shape) {
  interp::HostTensor t = interp::HostTensor::zeros(dtype, shape);
  size_t size = elementBytes(dtype);
  for (size_t i = 0; i < t.data.size() && (i + 1) * size <= bytes.size(); ++i) {
    const char* p = bytes.data() + i * size;
    switch (dtype) {
      case dsl::DType::F16: t.data[i] = interp::f16FromBits(get<uint16_t>(p)); break;
      case dsl::DType::BF16: t.data[i] = interp::bf16FromBits(get<uint16_t>(p)); break;
      case dsl::DType::F32: t.data[i] = get<float>(p); break;
      case dsl::DType::I8: t.data[i] = get<int8_t>(p); break;
      case dsl::DType::U8: t.data[i] = get<uint8_t>(p); break;
      case dsl::DType::I16: t.data[i] = get<int16_t>(p); break;
      case dsl::DType::I32: t.data[i] = get<int32_t>(p); break;
      case dsl::DType::I64: t.data[i] = static_cast<double>(get<int64_t>(p)); break;
      case dsl::DType::Bool: t.data[i] = get<uint8_t>(p) != 0; break;
    }
  }
  return t;
}

size_t elementBytes(const GeType& type) { return type.dtype ? elementBytes(*type.dtype) * (type.complex ? 2 : 1) : 0; }

std::vector<int64_t> OpTensor::shape() const {
  const std::vector<int64_t>& held = data.shape;
  return complex64 ? std::vector<int64_t>(held.begin(), held.end() - 1) : held;
}

std::optional<int> OpTensor::geType() const { return geTypeOf(data.dtype, complex64); }

std::string OpTensor::dtypeName() const { return complex64 ? "c64" : dsl::dtypeName(data.dtype); }

std::string OpTensor::text() const { return fmt::format("{}[{}]", dtypeName(), fmt::join(shape(), ", ")); }

OpTensor fromGm(const std::string& bytes, const GeType& type, const std::vector<int64_t>& shape) {
  std::vector<int64_t> held = shape;
  if (type.complex) held.push_back(2);
  return {fromBytes(bytes, type.dtype.value_or(dsl::DType::F32), held), type.complex};
}

interp::CompareResult compareTensors(const OpTensor& want, const OpTensor& got) {
  if ((want.complex64 || got.complex64) && (want.complex64 != got.complex64 || want.shape() != got.shape())) {
    interp::CompareResult r;
    r.message = fmt::format("got {} but the reference is {}", got.text(), want.text());
    return r;
  }
  interp::HostTensor reference = want.data;
  reference.dtype = got.data.dtype;
  interp::CompareResult r = interp::compare(reference, got.data, interp::Tolerance::forDType(got.data.dtype));
  // The positions compare names are the f32 pairs': one more index than the operator's shape has.
  if (got.complex64 && !r.pass)
    r.message += " (complex64 compared as float32 pairs: [..., 0] real, [..., 1] imaginary)";
  return r;
}

}  // namespace tilecraft::project
