#include "dsl/types.h"

namespace tilecraft::dsl {

namespace {
constexpr const char* kDTypeNames[] = {"f16", "bf16", "f32", "i8", "u8", "i16", "i32", "i64", "bool"};
constexpr const char* kMemNames[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C"};
}  // namespace

const char* dtypeName(DType dtype) { return kDTypeNames[static_cast<int>(dtype)]; }

std::optional<DType> dtypeFromName(std::string_view name) {
  for (DType t : kAllDTypes) {
    if (name == dtypeName(t)) return t;
  }
  return std::nullopt;
}

int dtypeBits(DType dtype) {
  switch (dtype) {
    case DType::F16:
    case DType::BF16:
    case DType::I16: return 16;
    case DType::F32:
    case DType::I32: return 32;
    case DType::I8:
    case DType::U8: return 8;
    case DType::I64: return 64;
    case DType::Bool: return 1;
  }
  return 8;
}

bool isFloat(DType dtype) { return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32; }

const char* memName(Mem mem) { return kMemNames[static_cast<int>(mem)]; }

std::optional<Mem> memFromName(std::string_view name) {
  for (int i = 0; i < 6; ++i) {
    if (name == kMemNames[i]) return static_cast<Mem>(i);
  }
  return std::nullopt;
}

int64_t memCapacityBytes(Mem mem) {
  switch (mem) {
    case Mem::GM: return INT64_MAX;
    case Mem::UB: return 192 * 1024;
    case Mem::L1: return 512 * 1024;
    case Mem::L0A:
    case Mem::L0B: return 64 * 1024;
    case Mem::L0C: return 128 * 1024;
  }
  return 0;
}

std::string DTypeSet::str() const {
  std::string out;
  for (DType t : kAllDTypes) {
    if (!contains(t)) continue;
    if (!out.empty()) out += ", ";
    out += dtypeName(t);
  }
  return out;
}

bool castSupported(DType from, DType to) {
  if (from == to) return true;
  using D = DType;
  switch (from) {
    case D::F16: return DTypeSet{D::F32, D::I32, D::I16, D::I8, D::U8}.contains(to);
    case D::F32: return DTypeSet{D::F16, D::BF16, D::I32, D::I16, D::I64}.contains(to);
    case D::BF16: return DTypeSet{D::F32, D::I32}.contains(to);
    case D::I32: return DTypeSet{D::F32, D::I16, D::I64}.contains(to);
    case D::I16: return DTypeSet{D::F16, D::F32}.contains(to);
    case D::I8:
    case D::U8: return to == D::F16;
    case D::I64: return DTypeSet{D::I32, D::F32}.contains(to);
    case D::Bool: return false;
  }
  return false;
}

std::optional<DType> castVia(DType from, DType to) {
  for (DType mid : kAllDTypes) {
    if (mid != from && mid != to && castSupported(from, mid) && castSupported(mid, to)) return mid;
  }
  return std::nullopt;
}

std::optional<DType> mmadAccumulator(DType dtype) {
  switch (dtype) {
    case DType::F16:
    case DType::BF16:
    case DType::F32: return DType::F32;
    case DType::I8: return DType::I32;
    default: return std::nullopt;
  }
}

}  // namespace tilecraft::dsl
