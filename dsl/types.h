// Element types, memories and the 910B (A2) facts the checker needs: which dtypes each operation supports,
// which casts exist, which data paths exist between memories, and how much each memory holds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilecraft::dsl {

enum class DType : unsigned char { F16, BF16, F32, I8, U8, I16, I32, I64, Bool };
inline constexpr DType kAllDTypes[] = {DType::F16, DType::BF16, DType::F32, DType::I8,  DType::U8,
                                       DType::I16, DType::I32,  DType::I64, DType::Bool};

const char* dtypeName(DType dtype);
std::optional<DType> dtypeFromName(std::string_view name);
/// Bits per element (a Bool mask is one bit per element, as Compare writes it).
int dtypeBits(DType dtype);
bool isFloat(DType dtype);

/// Where a value lives. GM is global memory; the rest are per-core on-chip buffers.
enum class Mem : unsigned char { GM, UB, L1, L0A, L0B, L0C };
const char* memName(Mem mem);
std::optional<Mem> memFromName(std::string_view name);
/// Capacity per core on 910B (A2): UB 192 KiB, L1 512 KiB, L0A/L0B 64 KiB, L0C 128 KiB.
int64_t memCapacityBytes(Mem mem);

/// Physical core counts of 910B2: 24 cube cores (AIC), 48 vector cores (AIV).
inline constexpr int64_t kCubeCores = 24;
inline constexpr int64_t kVectorCores = 48;
/// On-chip buffers are allocated in 32-byte units.
inline constexpr int64_t kBufferAlignBytes = 32;

/// A set of dtypes, for the per-operation support tables.
class DTypeSet {
 public:
  constexpr DTypeSet() = default;
  constexpr DTypeSet(std::initializer_list<DType> types) {
    for (DType t : types) bits_ |= 1u << static_cast<unsigned>(t);
  }
  constexpr bool contains(DType t) const { return bits_ & (1u << static_cast<unsigned>(t)); }
  /// "f16, f32" in enum order.
  std::string str() const;

 private:
  unsigned bits_ = 0;
};

/// Direct Cast instructions on A2 (ascendc_api.md §3.6). Same-dtype casts are no-ops and always allowed.
bool castSupported(DType from, DType to);
/// A dtype X with from->X and X->to both direct, for the hint of an unsupported cast.
std::optional<DType> castVia(DType from, DType to);

/// The cube unit's accumulator dtype for operands of `dtype` (f16, bf16, f32 -> f32; i8 -> i32).
std::optional<DType> mmadAccumulator(DType dtype);

}  // namespace tilecraft::dsl
