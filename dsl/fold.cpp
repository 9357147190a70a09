// The constant folder's checked integer and affine arithmetic (dsl/fold.h).
#include "dsl/fold.h"

#include <fmt/format.h>

#include <limits>

namespace tilecraft::dsl::detail {

std::optional<int64_t> checkedAdd(int64_t x, int64_t y) {
  int64_t r;
  if (__builtin_add_overflow(x, y, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> checkedSub(int64_t x, int64_t y) {
  int64_t r;
  if (__builtin_sub_overflow(x, y, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> checkedMul(int64_t x, int64_t y) {
  int64_t r;
  if (__builtin_mul_overflow(x, y, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> checkedFloorDiv(int64_t x, int64_t y) {
  if (x == std::numeric_limits<int64_t>::min() && y == -1) return std::nullopt;
  return (x / y) - ((x % y != 0) && ((x < 0) != (y < 0)));
}

int64_t floorMod(int64_t x, int64_t y) {
  if (y == -1) return 0;  // INT64_MIN % -1 is undefined in C++
  int64_t r = x % y;
  return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
}

// x ** y for y >= 0 by squaring, so a large exponent of 0, 1 or -1 folds too.
std::optional<int64_t> checkedPow(int64_t x, int64_t y) {
  if (x == 0 || x == 1) return y == 0 ? 1 : x;
  if (x == -1) return y % 2 == 0 ? 1 : -1;
  int64_t result = 1;
  std::optional<int64_t> base = x;
  while (y > 0) {
    if (!base) return std::nullopt;  // |x| >= 2 squared past int64 with exponent bits left
    if (y & 1) {
      auto r = checkedMul(result, *base);
      if (!r) return std::nullopt;
      result = *r;
    }
    y >>= 1;
    if (y > 0) base = checkedMul(*base, *base);
  }
  return result;
}

// The symbolic (affine) forms give up, rather than wrap, when a coefficient overflows.
std::optional<Affine> affineCombine(const std::optional<Affine>& a, const std::optional<Affine>& b, int64_t sign) {
  if (!a || !b) return std::nullopt;
  Affine r = *a;
  auto addScaled = [&](int64_t& into, int64_t c) {
    auto scaled = checkedMul(sign, c);
    auto sum = scaled ? checkedAdd(into, *scaled) : std::nullopt;
    if (!sum) return false;
    into = *sum;
    return true;
  };
  if (!addScaled(r.constant, b->constant)) return std::nullopt;
  for (const auto& [atom, c] : b->terms) {
    if (!addScaled(r.terms[atom], c)) return std::nullopt;
    if (r.terms[atom] == 0) r.terms.erase(atom);
  }
  return r;
}

std::optional<Affine> affineScale(const std::optional<Affine>& a, int64_t k) {
  if (!a) return std::nullopt;
  Affine r;
  auto constant = checkedMul(a->constant, k);
  if (!constant) return std::nullopt;
  r.constant = *constant;
  if (k != 0) {
    for (const auto& [atom, c] : a->terms) {
      auto scaled = checkedMul(c, k);
      if (!scaled) return std::nullopt;
      r.terms[atom] = *scaled;
    }
  }
  return r;
}

std::string affineStr(const Affine& a) {
  std::string out;
  for (const auto& [atom, c] : a.terms) {
    if (!out.empty()) out += c < 0 ? " - " : " + ";
    else if (c < 0) out += "-";
    int64_t m = c < 0 ? -c : c;
    out += m == 1 ? atom : fmt::format("{}*{}", m, atom);
  }
  if (a.constant != 0 || out.empty()) {
    if (out.empty()) return std::to_string(a.constant);
    out += a.constant < 0 ? fmt::format(" - {}", -a.constant) : fmt::format(" + {}", a.constant);
  }
  return out;
}

}  // namespace tilecraft::dsl::detail
