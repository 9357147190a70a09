// Operator sugar on LocalTensor (ascendc_api.md §3.7): `dst = a + b` runs the count form over dst.GetSize(),
// as CANN's kernel_operator_symbol_override_impl.h does; `dst = a < b` runs Compare over src0.GetSize() into
// a bit mask (Compare of emu/vec_cast_cmp.h, with its alignment rules).
#pragma once

#include "emu/vec_cast_cmp.h"
#include "emu/vec_elementwise.h"

namespace tcemu {

// Operators cannot take a defaulted source location, so checks inside name the operator instead of a line.
template <typename T, typename U>
void applySymbolOverride(const AscendC::LocalTensor<T>& dst, const AscendC::SymbolOverride<U>& expr) {
  using AscendC::SymbolOp;
  static const char* const names[] = {"+", "-", "*", "/", "|", "&", "<", ">", "==", "<=", ">=", "!="};
  const char* opName = names[static_cast<int>(expr.op)];
  SrcLoc loc{"<LocalTensor operator>", 0};
  const bool compare = expr.op >= SymbolOp::LT;
  if (!compare) {
    if constexpr (std::is_same_v<T, U>) {
      const auto& a = *expr.src0;
      const auto& b = *expr.src1;
      int32_t n = static_cast<int32_t>(dst.GetSize());
      switch (expr.op) {
        case SymbolOp::Add: AscendC::Add(dst, a, b, n, loc); return;
        case SymbolOp::Sub: AscendC::Sub(dst, a, b, n, loc); return;
        case SymbolOp::Mul: AscendC::Mul(dst, a, b, n, loc); return;
        case SymbolOp::Div: AscendC::Div(dst, a, b, n, loc); return;
        // 32-bit And/Or run on 16-bit lanes (see BitCountTypes): CANN passes twice the element count.
        case SymbolOp::Or: AscendC::Or(dst, a, b, sizeof(T) == 4 ? 2 * n : n, loc); return;
        case SymbolOp::And: AscendC::And(dst, a, b, sizeof(T) == 4 ? 2 * n : n, loc); return;
        default: break;
      }
    } else {
      fail(loc,
           "LocalTensor operator %s needs dst and sources of one dtype, but dst is %s and the sources are %s; "
           "hint: Cast the sources to %s first",
           opName, dtypeName<T>(), dtypeName<U>(), dtypeName<T>());
    }
    return;
  }
  static const AscendC::CMPMODE modes[] = {AscendC::CMPMODE::LT, AscendC::CMPMODE::GT, AscendC::CMPMODE::EQ,
                                           AscendC::CMPMODE::LE, AscendC::CMPMODE::GE, AscendC::CMPMODE::NE};
  AscendC::Compare(dst, *expr.src0, *expr.src1, modes[static_cast<int>(expr.op) - static_cast<int>(SymbolOp::LT)],
                   expr.src0->GetSize(), loc);
}

}  // namespace tcemu
