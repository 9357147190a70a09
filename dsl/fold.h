// The constant folder's integer arithmetic: exact or nothing. Each returns nullopt when the exact result does
// not fit in int64, so the checker can say "integer constant overflows int64" instead of folding a wrapped value
// (dsl/sema_expr.cpp). Python's semantics for // and %.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "dsl/sema.h"

namespace tilecraft::dsl::detail {

std::optional<int64_t> checkedAdd(int64_t x, int64_t y);
std::optional<int64_t> checkedSub(int64_t x, int64_t y);
std::optional<int64_t> checkedMul(int64_t x, int64_t y);
// Python's floor division and modulo (the sign of the divisor); y is not 0.
std::optional<int64_t> checkedFloorDiv(int64_t x, int64_t y);
int64_t floorMod(int64_t x, int64_t y);
// x ** y for y >= 0.
std::optional<int64_t> checkedPow(int64_t x, int64_t y);

// a + sign * b, and a * k, over the symbolic (affine) forms of integer values; nullopt when either is unknown or a
// coefficient overflows.
std::optional<Affine> affineCombine(const std::optional<Affine>& a, const std::optional<Affine>& b, int64_t sign);
std::optional<Affine> affineScale(const std::optional<Affine>& a, int64_t k);
// "2*i + N - 1".
std::string affineStr(const Affine& a);

}  // namespace tilecraft::dsl::detail
