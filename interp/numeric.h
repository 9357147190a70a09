// The reference numerics of the Tile DSL: how a value computed in double becomes a value of a dtype, how casts
// convert, and the bit encodings of the 2-byte float formats. docs/language.md "Reference semantics" is the spec.
#pragma once

#include <cstdint>

#include "dsl/types.h"

namespace tilecraft::interp {

/// Rounds a double to the nearest value of `dtype`: f16/bf16/f32 round to nearest, ties to even, overflowing to
/// +-inf; integers wrap two's complement at their width (the value is truncated toward zero first); bool is v != 0.
double roundTo(double value, dsl::DType dtype);

/// cast(x, to) on one element already of dtype `from`: float -> float and int -> float round to nearest even;
/// float -> int truncates toward zero and saturates at the integer range (NaN -> 0); int -> int wraps.
double castValue(double value, dsl::DType from, dsl::DType to);

/// Largest and smallest finite values of an integer dtype (as doubles; i64 is approximate beyond 2^53).
double intMax(dsl::DType dtype);
double intMin(dsl::DType dtype);

/// IEEE binary16 and bfloat16 bit patterns (round to nearest even from double).
uint16_t f16Bits(double value);
double f16FromBits(uint16_t bits);
uint16_t bf16Bits(double value);
double bf16FromBits(uint16_t bits);

}  // namespace tilecraft::interp
