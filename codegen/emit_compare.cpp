// Comparisons and Select (the emitter's side of ir::NodeKind::Compare and Select): a bit mask per element, written
// by the vector Compare over whole 256-byte repeats and by the scalar unit past them, or, in legalize's padded form,
// by the vector unit alone.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "codegen/emit_context.h"
#include "dsl/types.h"
#include "ir/row_form.h"

namespace tilecraft::codegen::detail {

using ir::BufferId;
using ir::Op;

namespace {

struct CmpSpelling {
  const char* mode;
  const char* cpp;
};

CmpSpelling cmpSpelling(Op op) {
  switch (op) {
    case Op::Eq: return {"EQ", "=="};
    case Op::Ne: return {"NE", "!="};
    case Op::Lt: return {"LT", "<"};
    case Op::Le: return {"LE", "<="};
    case Op::Gt: return {"GT", ">"};
    case Op::Ge: return {"GE", ">="};
    default: return {"EQ", "=="};
  }
}

// The padded form (legalize): each row's count rounded up to whole repeats. The lanes of the last repeat past the
// row's elements are set to 0 first, by one Duplicate whose mask holds just those lanes (the vector pipe's own write:
// nothing is read unwritten and no flag is needed); the bits they give lie past the row, where no reader looks.
template <typename Call>
void paddedCompare(EmitContext& c, CodePrinter& p, const ir::Node& n, const std::string& vec, Call call) {
  const ir::Buffer& x = c.k.buffer(n.srcs[0]);
  bool multi = !c.oneRow(n.srcs[0]);
  int64_t lanes = ir::repeatLanes(x.dtype);
  std::string len = c.inner(n.srcs[0]), name = c.bufferName(n.dst);
  std::string used = name + "Used", mask = name + "Lanes";
  std::string zero = fmt::format("static_cast<{}>(0)", EmitContext::cppType(x.dtype));
  p.line(fmt::format("const int64_t {} = TcAlignUp({}, {});", vec, len, lanes));
  p.open(fmt::format("if ({} > {})", vec, len));
  p.line(fmt::format("const int64_t {} = {} % {};", used, len, lanes));
  if (lanes == 64) {
    p.line(fmt::format("uint64_t {}[2] = {{~0ULL << {}, 0}};", mask, used));
  } else {
    p.line(fmt::format("uint64_t {}[2] = {{{} < 64 ? ~0ULL << {} : 0, {} < 64 ? ~0ULL : ~0ULL << ({} - 64)}};", mask,
                       used, used, used, used));
  }
  if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(n.srcs[0])));
  std::vector<BufferId> filled;
  for (BufferId s : n.srcs) {
    if (std::find(filled.begin(), filled.end(), s) != filled.end()) continue;
    filled.push_back(s);
    std::string last = fmt::format("{} - {}", len, used);
    std::string at = multi ? fmt::format("i * {} + {}", c.pitch(s), last) : last;
    p.line(fmt::format("Duplicate({}[{}], {}, {}, 1, 1, 8);", c.tensor(s), at, zero, mask));
  }
  if (multi) p.close();
  p.close();
  if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(n.srcs[0])));
  p.open(fmt::format("if ({} > 0)", vec));
  p.line(call(vec));
  p.close();
  if (multi) p.close();
}

// Compare writes one bit per element and works on whole 256-byte repeats, so per row the vector unit takes the
// first len / 256 * 256 elements (whole 32-byte blocks of bits: aligned, and never a read past written data) and
// the scalar unit the rest, composing each mask byte from up to eight comparisons. Mask rows sit at a 32-byte
// pitch like any tile's. The vector Compare takes half and float, and int32 for == only (the A2 rule); other
// integer comparisons are the scalar unit's alone, exact in int64.
}  // namespace

void emitCompare(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, a = n.srcs[0];
  const ir::Buffer& x = c.k.buffer(a);
  bool withScalar = n.srcs.size() == 1;
  bool multi = !c.oneRow(a);
  bool vector = x.dtype == ir::DType::F16 || x.dtype == ir::DType::F32 || (x.dtype == ir::DType::I32 && n.op == Op::Eq);
  CmpSpelling cmp = cmpSpelling(n.op);
  std::string len = c.inner(a), vec = vector ? c.bufferName(dst) + "Vec" : "0";
  std::string rhs = withScalar ? c.scalarAs(n.args[0], x.dtype) : "";
  auto row = [&](BufferId b) { return multi ? fmt::format("{}[i * {}]", c.tensor(b), c.pitch(b)) : c.tensor(b); };
  auto at = [&](BufferId b, const char* j) {
    return multi ? fmt::format("i * {} + {}", c.pitch(b), j) : std::string(j);
  };
  p.line("{");  // a block of its own: a mask written twice in one stage declares its count again
  p.indent();
  if (n.form == ir::VecForm::Padded) {
    paddedCompare(c, p, n, vec, [&](const std::string& count) {
      if (withScalar) {
        return fmt::format("CompareScalar({}, {}, {}, CMPMODE::{}, static_cast<uint32_t>({}));", row(dst), row(a), rhs,
                           cmp.mode, count);
      }
      return fmt::format("Compare({}, {}, {}, CMPMODE::{}, static_cast<uint32_t>({}));", row(dst), row(a),
                         row(n.srcs[1]), cmp.mode, count);
    });
    p.dedent();
    p.line("}");
    return;
  }
  if (vector) {
    p.line(fmt::format("const int64_t {} = {} / 256 * 256;", vec, len));
    p.open(fmt::format("if ({} > 0)", vec));
    if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(a)));
    if (withScalar) {
      p.line(fmt::format("CompareScalar({}, {}, {}, CMPMODE::{}, static_cast<uint32_t>({}));", row(dst), row(a), rhs,
                         cmp.mode, vec));
    } else {
      p.line(fmt::format("Compare({}, {}, {}, CMPMODE::{}, static_cast<uint32_t>({}));", row(dst), row(a),
                         row(n.srcs[1]), cmp.mode, vec));
    }
    if (multi) p.close();
    p.close();
  }
  vectorToScalar(p);
  if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(a)));
  p.open(fmt::format("for (int64_t byte = {} / 8; byte < TcCdiv({}, 8); ++byte)", vec, len));
  p.line("uint8_t bits = 0;");
  p.open(fmt::format("for (int64_t j = byte * 8; j < byte * 8 + 8 && j < {}; ++j)", len));
  const char* wide = dsl::isFloat(x.dtype) ? "float" : "int64_t";
  std::string right =
      withScalar ? fmt::format("static_cast<{}>({})", wide, rhs)
                 : fmt::format("static_cast<{}>({}.GetValue({}))", wide, c.tensor(n.srcs[1]), at(n.srcs[1], "j"));
  p.line(fmt::format("if (static_cast<{}>({}.GetValue({})) {} {}) bits |= static_cast<uint8_t>(1u << (j % 8));", wide,
                     c.tensor(a), at(a, "j"), cmp.cpp, right));
  p.close();
  p.line(fmt::format("{}.SetValue({}, bits);", c.tensor(dst), at(dst, "byte")));
  p.close();
  if (multi) p.close();
  scalarToVector(p);
  p.dedent();
  p.line("}");
}

// Select in tensor-tensor mode over the elements whose mask bits the vector Compare wrote; the scalar unit picks
// the rest. Per row when the tile has several.
void emitSelect(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, mask = n.srcs[0], a = n.srcs[1], b = n.srcs[2];
  bool multi = !c.oneRow(dst);
  auto row = [&](BufferId x) { return multi ? fmt::format("{}[i * {}]", c.tensor(x), c.pitch(x)) : c.tensor(x); };
  auto at = [&](BufferId x, const std::string& j) { return multi ? fmt::format("i * {} + {}", c.pitch(x), j) : j; };
  std::string len = c.inner(dst), vec = c.bufferName(dst) + "Vec";
  if (n.form == ir::VecForm::Padded) {  // every mask bit a count-mode Select reads was written (legalize)
    if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
    p.line(fmt::format("Select({}, {}, {}, {}, SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>({}));", row(dst),
                       row(mask), row(a), row(b), len));
    if (multi) p.close();
    return;
  }
  p.line("{");  // a block of its own: a value selected into twice in one stage declares its count again
  p.indent();
  p.line(fmt::format("const int64_t {} = {} / 256 * 256;", vec, len));
  p.open(fmt::format("if ({} > 0)", vec));
  if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.line(fmt::format("Select({}, {}, {}, {}, SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>({}));", row(dst),
                     row(mask), row(a), row(b), vec));
  if (multi) p.close();
  p.close();
  vectorToScalar(p);
  if (multi) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.open(fmt::format("for (int64_t j = {}; j < {}; ++j)", vec, len));
  p.line(fmt::format("const bool take = ((static_cast<uint32_t>({}.GetValue({})) >> (j % 8)) & 1u) != 0;",
                     c.tensor(mask), at(mask, "j / 8")));
  p.line(fmt::format("{}.SetValue({}, take ? {}.GetValue({}) : {}.GetValue({}));", c.tensor(dst), at(dst, "j"),
                     c.tensor(a), at(a, "j"), c.tensor(b), at(b, "j")));
  p.close();
  if (multi) p.close();
  scalarToVector(p);
  p.dedent();
  p.line("}");
}

}  // namespace tilecraft::codegen::detail
