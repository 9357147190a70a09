// Readable, deterministic text of the IR for `--emit=ir`, `--emit=ir-after=PASS` and golden tests. Everything
// is printed in definition order by id; no pointers, no addresses, no timestamps.
#pragma once

#include <string>

#include "ir/ir.h"

namespace tilecraft::ir {

std::string printModule(const Module& module);
std::string printKernel(const Kernel& kernel);
/// A scalar expression in DSL-like syntax: `cdiv(rows.len, 2)`, `(M / 48)`.
std::string printScalar(const Kernel& kernel, NodeId id);
/// "f16[r, N]"
std::string printShape(const Kernel& kernel, DType dtype, const std::vector<Extent>& shape);

}  // namespace tilecraft::ir
