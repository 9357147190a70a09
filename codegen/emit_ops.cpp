// Vector tile ops in count form. A buffer's rows sit at a 32-byte pitch in UB (DataCopyPad lays them out that way),
// so an op over a buffer whose rows are padded runs once per row on the valid elements: padding is never read,
// and the emulator's never-written-memory check holds by construction.
#include <fmt/format.h>

#include <functional>

#include "codegen/emit_context.h"

namespace tilecraft::codegen::detail {

using ir::BufferId;
using ir::Op;

namespace {

const char* unaryApi(Op op) {
  switch (op) {
    case Op::Exp: return "Exp";
    case Op::Ln: return "Ln";
    case Op::Abs: return "Abs";
    case Op::Sqrt: return "Sqrt";
    case Op::Rsqrt: return "Rsqrt";
    case Op::Reciprocal: return "Reciprocal";
    case Op::Relu: return "Relu";
    default: return nullptr;
  }
}

// The high-level activations take a temporary buffer: the op's work buffer.
const char* highLevelApi(Op op) {
  switch (op) {
    case Op::Tanh: return "Tanh";
    case Op::Sigmoid: return "Sigmoid";
    case Op::Gelu: return "Gelu";
    default: return nullptr;
  }
}

const char* binaryApi(Op op) {
  switch (op) {
    case Op::Add: return "Add";
    case Op::Sub: return "Sub";
    case Op::Mul: return "Mul";
    case Op::Div: return "Div";
    case Op::Max: return "Max";
    case Op::Min: return "Min";
    default: return nullptr;
  }
}

const char* scalarApi(Op op) {
  switch (op) {
    case Op::Adds: return "Adds";
    case Op::Muls: return "Muls";
    case Op::Maxs: return "Maxs";
    case Op::Mins: return "Mins";
    case Op::LeakyRelu: return "LeakyRelu";
    default: return nullptr;
  }
}

// CAST_NONE where the pair accepts it (widening, f32 -> f16); the directed pairs round to nearest even.
const char* roundMode(ir::DType from, ir::DType to) {
  bool toInt = !dsl::isFloat(to);
  if ((dsl::isFloat(from) && toInt) || (from == ir::DType::F32 && to == ir::DType::BF16)) return "CAST_RINT";
  return "CAST_NONE";
}

using CallFn = std::function<std::string(const std::vector<std::string>& refs, const std::string& count)>;

// One call over all of dst when every operand is dense (or a single row), else one call per row.
void forRows(EmitContext& c, CodePrinter& p, const std::vector<BufferId>& operands, const CallFn& call) {
  BufferId dst = operands.front();
  bool dense = true;
  for (BufferId b : operands) dense = dense && c.dense(b);
  std::vector<std::string> refs;
  if (dense) {
    for (BufferId b : operands) refs.push_back(c.tensor(b));
    std::string count = c.oneRow(dst) ? c.inner(dst) : c.rows(dst) + " * " + c.inner(dst);
    p.line(call(refs, fmt::format("static_cast<int32_t>({})", count)) + ";");
    return;
  }
  for (BufferId b : operands) refs.push_back(fmt::format("{}[i * {}]", c.tensor(b), c.pitch(b)));
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.line(call(refs, fmt::format("static_cast<int32_t>({})", c.inner(dst))) + ";");
  p.close();
}

bool isOne(const ir::Extent& e) { return e.kind == ir::Extent::Kind::Const && e.value == 1; }

void broadcast(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& d = c.k.buffer(dst);
  const ir::Buffer& s = c.k.buffer(src);
  std::string type = EmitContext::cppType(d.dtype);
  bool innerStretch = isOne(s.shape.back()) && !isOne(d.shape.back());
  if (innerStretch) {
    // One value per row: the scalar unit reads it once the vector pipe has written it (V_S).
    p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
    p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
    std::string srcRow = c.oneRow(src) ? "0" : fmt::format("i * {}", c.pitch(src));
    if (c.oneRow(dst)) {
      p.line(fmt::format("Duplicate({}, {}.GetValue(0), static_cast<int32_t>({}));", c.tensor(dst), c.tensor(src),
                         c.inner(dst)));
      return;
    }
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
    p.line(fmt::format("Duplicate({}[i * {}], {}.GetValue({}), static_cast<int32_t>({}));", c.tensor(dst),
                       c.pitch(dst), c.tensor(src), srcRow, c.inner(dst)));
    p.close();
    return;
  }
  // Rows stretched (or nothing to stretch): copy the source row into every row of dst on the vector pipe.
  std::string one = fmt::format("static_cast<{}>(1)", type);
  if (c.oneRow(src) && !c.oneRow(dst)) {
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
    p.line(fmt::format("Muls({}[i * {}], {}, {}, static_cast<int32_t>({}));", c.tensor(dst), c.pitch(dst),
                       c.tensor(src), one, c.inner(dst)));
    p.close();
    return;
  }
  forRows(c, p, {dst, src}, [&](const std::vector<std::string>& r, const std::string& count) {
    return fmt::format("Muls({}, {}, {}, {})", r[0], r[1], one, count);
  });
}

// How an operand of a binary op meets dst: the same shape, one row read for every row, one value per row (a
// column, read by the scalar unit), or one value for all.
enum class Spread { Full, Row, Column, Scalar };

Spread spreadOf(EmitContext& c, BufferId operand, BufferId dst) {
  const ir::Buffer& o = c.k.buffer(operand);
  const ir::Buffer& d = c.k.buffer(dst);
  bool column = isOne(o.shape.back()) && !isOne(d.shape.back());
  bool row = c.oneRow(operand) && !c.oneRow(dst);
  if (column) return row || c.oneRow(operand) ? Spread::Scalar : Spread::Column;
  return row ? Spread::Row : Spread::Full;
}

// A binary op with a column (or single-value) operand becomes the scalar form per row: the scalar unit reads the
// value once the vector pipe has written it (V_S), and AscendC's missing scalar forms are composed
// (x - s = Adds(-s), s - x = Muls(-1) then Adds(s), x / s = Muls(1/s), s / x = Reciprocal then Muls(s)).
void binary(EmitContext& c, CodePrinter& p, const ir::Node& n, const char* api) {
  BufferId dst = n.dst, a = n.srcs[0], b = n.srcs[1];
  Spread sa = spreadOf(c, a, dst), sb = spreadOf(c, b, dst);
  if (sa == Spread::Full && sb == Spread::Full) {
    forRows(c, p, {dst, a, b}, [&](const std::vector<std::string>& r, const std::string& count) {
      return fmt::format("{}({}, {}, {}, {})", api, r[0], r[1], r[2], count);
    });
    return;
  }
  bool loop = !c.oneRow(dst);
  auto ref = [&](BufferId x, Spread sp) {
    if (!loop || sp == Spread::Row) return c.tensor(x);
    return fmt::format("{}[i * {}]", c.tensor(x), c.pitch(x));
  };
  std::string count = fmt::format("static_cast<int32_t>({})", c.inner(dst));
  bool aScalar = sa == Spread::Column || sa == Spread::Scalar;
  bool bScalar = sb == Spread::Column || sb == Spread::Scalar;
  if (aScalar && bScalar) return c.unsupported(n, "a binary op of two per-row values stretched along a row");
  if (n.op == Op::Pow && (aScalar || bScalar)) return c.unsupported(n, "'**' with a per-row exponent or base");
  if (aScalar || bScalar) {
    p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
    p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
  }
  if (loop) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  std::string d = ref(dst, Spread::Full);
  if (!aScalar && !bScalar) {
    p.line(fmt::format("{}({}, {}, {}, {});", api, d, ref(a, sa), ref(b, sb), count));
  } else {
    BufferId sc = aScalar ? a : b, vec = aScalar ? b : a;
    Spread sv = aScalar ? sb : sa;
    std::string type = EmitContext::cppType(c.k.buffer(dst).dtype);
    std::string index = loop && spreadOf(c, sc, dst) == Spread::Column ? fmt::format("i * {}", c.pitch(sc)) : "0";
    p.line(fmt::format("const float s = static_cast<float>({}.GetValue({}));", c.tensor(sc), index));
    auto as = [&](const std::string& v) { return fmt::format("static_cast<{}>({})", type, v); };
    std::string x = ref(vec, sv);
    switch (n.op) {
      case Op::Add: p.line(fmt::format("Adds({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Mul: p.line(fmt::format("Muls({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Max: p.line(fmt::format("Maxs({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Min: p.line(fmt::format("Mins({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Sub:
        if (bScalar) {
          p.line(fmt::format("Adds({}, {}, {}, {});", d, x, as("-s"), count));
        } else {
          p.line(fmt::format("Muls({}, {}, {}, {});", d, x, as("-1.0f"), count));
          p.line(fmt::format("Adds({}, {}, {}, {});", d, d, as("s"), count));
        }
        break;
      case Op::Div:
        if (bScalar) {
          p.line(fmt::format("Muls({}, {}, {}, {});", d, x, as("1.0f / s"), count));
        } else {
          p.line(fmt::format("Reciprocal({}, {}, {});", d, x, count));
          p.line(fmt::format("Muls({}, {}, {}, {});", d, d, as("s"), count));
        }
        break;
      default: break;
    }
  }
  if (loop) p.close();
}

void reduce(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& s = c.k.buffer(src);
  std::string type = EmitContext::cppType(s.dtype);
  int rank = static_cast<int>(s.shape.size());
  int axis = n.axis < 0 ? n.axis + rank : n.axis;
  const char* api = n.op == Op::ReduceSum || n.op == Op::ReduceMean ? "Sum" : n.op == Op::ReduceMax ? "Max" : "Min";
  if (n.op == Op::Argmax || n.op == Op::Argmin) return c.unsupported(n, "argmax/argmin");
  if (axis == rank - 1) {
    std::string work = c.tensor(n.work);
    std::string dstRow = c.oneRow(src) ? c.tensor(dst) : fmt::format("{}[i * {}]", c.tensor(dst), c.pitch(dst));
    std::string srcRow = c.oneRow(src) ? c.tensor(src) : fmt::format("{}[i * {}]", c.tensor(src), c.pitch(src));
    if (!c.oneRow(src)) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(src)));
    p.line(fmt::format("Reduce{}<{}>({}, {}, {}, static_cast<int32_t>({}));", api, type, dstRow, srcRow, work,
                       c.inner(src)));
    if (n.op == Op::ReduceMean) {
      p.line(fmt::format("Muls({}, {}, static_cast<{}>(1.0f / static_cast<float>({})), 1);", dstRow, dstRow, type,
                         c.inner(src)));
    }
    if (!c.oneRow(src)) p.close();
    return;
  }
  // Over a row axis: the rows of the tile are (outer, axis, inner) in row-major order; each result row starts
  // from the first row of its group (a copy) and folds the others in elementwise.
  auto product = [&](int from, int to) {
    std::string out;
    for (int d = from; d < to; ++d) {
      const ir::Extent& e = s.shape[d];
      if (e.kind == ir::Extent::Kind::Const && e.value == 1) continue;
      out += (out.empty() ? "" : " * ") + c.extent(e);
    }
    return out.empty() ? std::string("1") : out;
  };
  std::string outer = product(0, axis), count = product(axis, axis + 1), innerRows = product(axis + 1, rank - 1);
  std::string cols = fmt::format("static_cast<int32_t>({})", c.inner(src));
  std::string op = api == std::string("Sum") ? "Add" : api;
  std::string dp = c.pitch(dst), sp = c.pitch(src);
  bool loops = outer != "1" || innerRows != "1";
  std::string dRow = "0", sRow = "0";
  if (loops) {
    p.open(fmt::format("for (int64_t o = 0; o < {}; ++o)", outer));
    p.open(fmt::format("for (int64_t r = 0; r < {}; ++r)", innerRows));
    dRow = fmt::format("(o * {} + r)", innerRows);
    sRow = fmt::format("(o * {} * {} + r)", count, innerRows);
  }
  std::string d = loops ? fmt::format("{}[{} * {}]", c.tensor(dst), dRow, dp) : c.tensor(dst);
  std::string first = loops ? fmt::format("{}[{} * {}]", c.tensor(src), sRow, sp) : c.tensor(src);
  p.line(fmt::format("Muls({}, {}, static_cast<{}>(1), {});", d, first, type, cols));
  p.open(fmt::format("for (int64_t k = 1; k < {}; ++k)", count));
  std::string step = innerRows == "1" ? "k" : fmt::format("k * {}", innerRows);
  std::string row = sRow == "0" ? step : fmt::format("({} + {})", sRow, step);
  p.line(fmt::format("{}({}, {}, {}[{} * {}], {});", op, d, d, c.tensor(src), row, sp, cols));
  p.close();
  if (n.op == Op::ReduceMean) {
    p.line(fmt::format("Muls({}, {}, static_cast<{}>(1.0f / static_cast<float>({})), {});", d, d, type, count, cols));
  }
  if (loops) {
    p.close();
    p.close();
  }
}

// A scan along the rows is one vector op per row (row i = row i-1 op x[i]). Along a row it is sequential: the
// scalar unit walks the elements (V_S before it reads what the vector pipe wrote, S_V before vector ops read what
// it wrote), each step rounded to the element type as the hardware's adds would.
void scan(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& s = c.k.buffer(src);
  std::string type = EmitContext::cppType(s.dtype);
  int rank = static_cast<int>(s.shape.size());
  int axis = n.axis < 0 ? n.axis + rank : n.axis;
  bool sum = n.op == Op::Cumsum;
  if (axis == rank - 1) {
    p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
    p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(src)));
    p.line(fmt::format("{} acc = static_cast<{}>({});", type, type, sum ? 0 : 1));
    p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(src)));
    p.line(fmt::format("acc = static_cast<{}>(acc {} {}.GetValue(i * {} + j));", type, sum ? "+" : "*", c.tensor(src),
                       c.pitch(src)));
    p.line(fmt::format("{}.SetValue(i * {} + j, acc);", c.tensor(dst), c.pitch(dst)));
    p.close();
    p.close();
    p.line("SetFlag<HardEvent::S_V>(EVENT_ID0);");
    p.line("WaitFlag<HardEvent::S_V>(EVENT_ID0);");
    return;
  }
  if (rank != 2 || axis != 0) return c.unsupported(n, "a scan over a middle axis");
  std::string cols = fmt::format("static_cast<int32_t>({})", c.inner(src));
  p.line(fmt::format("Muls({}, {}, static_cast<{}>(1), {});", c.tensor(dst), c.tensor(src), type, cols));
  p.open(fmt::format("for (int64_t i = 1; i < {}; ++i)", c.rows(src)));
  p.line(fmt::format("{}({}[i * {}], {}[(i - 1) * {}], {}[i * {}], {});", sum ? "Add" : "Mul", c.tensor(dst),
                     c.pitch(dst), c.tensor(dst), c.pitch(dst), c.tensor(src), c.pitch(src), cols));
  p.close();
}

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

// Compare writes one bit per element and works on whole 256-byte repeats, so the vector unit takes the first
// len / 256 * 256 elements (whole 32-byte blocks of bits: aligned offsets, and never a read past written data) and
// the scalar unit the rest, composing each mask byte from up to eight comparisons.
void compare(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, a = n.srcs[0];
  const ir::Buffer& x = c.k.buffer(a);
  if (!c.oneRow(a)) return c.unsupported(n, "comparisons of tiles with more than one row");
  if (!dsl::isFloat(x.dtype) && n.op != Op::Eq) return c.unsupported(n, "integer comparisons other than ==");
  bool withScalar = n.srcs.size() == 1;
  CmpSpelling cmp = cmpSpelling(n.op);
  std::string len = c.inner(a), vec = c.bufferName(dst) + "Vec";
  std::string rhs = withScalar ? c.scalarAs(n.args[0], x.dtype) : "";
  p.line(fmt::format("const int64_t {} = {} / 256 * 256;", vec, len));
  p.open(fmt::format("if ({} > 0)", vec));
  if (withScalar) {
    p.line(fmt::format("CompareScalar({}, {}, {}, CMPMODE::{}, static_cast<uint32_t>({}));", c.tensor(dst),
                       c.tensor(a), rhs, cmp.mode, vec));
  } else {
    p.line(fmt::format("Compare({}, {}, {}, CMPMODE::{}, static_cast<uint32_t>({}));", c.tensor(dst), c.tensor(a),
                       c.tensor(n.srcs[1]), cmp.mode, vec));
  }
  p.close();
  p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
  p.open(fmt::format("for (int64_t byte = {} / 8; byte < TcCdiv({}, 8); ++byte)", vec, len));
  p.line("uint8_t bits = 0;");
  p.open(fmt::format("for (int64_t j = byte * 8; j < byte * 8 + 8 && j < {}; ++j)", len));
  std::string right = withScalar ? fmt::format("static_cast<float>({})", rhs)
                                 : fmt::format("static_cast<float>({}.GetValue(j))", c.tensor(n.srcs[1]));
  p.line(fmt::format("if (static_cast<float>({}.GetValue(j)) {} {}) bits |= static_cast<uint8_t>(1u << (j % 8));",
                     c.tensor(a), cmp.cpp, right));
  p.close();
  p.line(fmt::format("{}.SetValue(byte, bits);", c.tensor(dst)));
  p.close();
  p.line("SetFlag<HardEvent::S_V>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::S_V>(EVENT_ID0);");
}

// Select in tensor-tensor mode over the elements whose mask bits the vector Compare wrote; the scalar unit picks
// the rest.
void select(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, mask = n.srcs[0], a = n.srcs[1], b = n.srcs[2];
  if (!c.oneRow(dst)) return c.unsupported(n, "where() on tiles with more than one row");
  std::string len = c.inner(dst), vec = c.bufferName(dst) + "Vec";
  p.line(fmt::format("const int64_t {} = {} / 256 * 256;", vec, len));
  p.open(fmt::format("if ({} > 0)", vec));
  p.line(fmt::format("Select({}, {}, {}, {}, SELMODE::VSEL_TENSOR_TENSOR_MODE, static_cast<uint32_t>({}));",
                     c.tensor(dst), c.tensor(mask), c.tensor(a), c.tensor(b), vec));
  p.close();
  p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
  p.open(fmt::format("for (int64_t j = {}; j < {}; ++j)", vec, len));
  p.line(fmt::format("const bool take = ((static_cast<uint32_t>({}.GetValue(j / 8)) >> (j % 8)) & 1u) != 0;",
                     c.tensor(mask)));
  p.line(fmt::format("{}.SetValue(j, take ? {}.GetValue(j) : {}.GetValue(j));", c.tensor(dst), c.tensor(a),
                     c.tensor(b)));
  p.close();
  p.line("SetFlag<HardEvent::S_V>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::S_V>(EVENT_ID0);");
}

// gather(table, index) along the last axis, on the scalar unit: out[i][j] = table[i][index[i][j]]. (The vector
// Gather takes byte offsets in a uint32 tensor the IR does not plan yet.)
void gather(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, table = n.srcs[0], index = n.srcs[1];
  std::string tableRow = c.oneRow(table) ? "" : fmt::format("i * {} + ", c.pitch(table));
  p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(dst)));
  p.line(fmt::format("const int64_t at = {}.GetValue(i * {} + j);", c.tensor(index), c.pitch(index)));
  p.line(fmt::format("{}.SetValue(i * {} + j, {}.GetValue({}at));", c.tensor(dst), c.pitch(dst), c.tensor(table),
                     tableRow));
  p.close();
  p.close();
  p.line("SetFlag<HardEvent::S_V>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::S_V>(EVENT_ID0);");
}

}  // namespace

void emitTileOp(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  using ir::NodeKind;
  if (n.dst != ir::kNone && c.k.buffer(n.dst).mem != dsl::Mem::UB && n.kind != NodeKind::Store) {
    return c.unsupported(n, fmt::format("{} results in {} (the cube path)", ir::nodeKindName(n.kind),
                                        dsl::memName(c.k.buffer(n.dst).mem)));
  }
  switch (n.kind) {
    case NodeKind::Load: return emitLoad(c, p, n);
    case NodeKind::Store: return emitStore(c, p, n);
    case NodeKind::Cast: {
      const char* mode = roundMode(c.k.buffer(n.srcs[0]).dtype, c.k.buffer(n.dst).dtype);
      forRows(c, p, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("Cast({}, {}, RoundMode::{}, {})", r[0], r[1], mode, count);
      });
      return;
    }
    case NodeKind::Unary: {
      if (const char* api = unaryApi(n.op)) {
        forRows(c, p, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
          return fmt::format("{}({}, {}, {})", api, r[0], r[1], count);
        });
        return;
      }
      if (const char* api = highLevelApi(n.op)) {
        std::string tmp = c.tensor(n.work) + ".ReinterpretCast<uint8_t>()";
        forRows(c, p, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
          return fmt::format("{}({}, {}, {}, {})", api, r[0], r[1], tmp, count);
        });
        return;
      }
      return c.unsupported(n, fmt::format("the '{}' builtin", ir::opName(n.op)));
    }
    case NodeKind::Binary: {
      const char* api = binaryApi(n.op);
      if (!api) return c.unsupported(n, fmt::format("the tile operator '{}'", ir::opName(n.op)));
      return binary(c, p, n, api);
    }
    case NodeKind::BinaryScalar: {
      const char* api = scalarApi(n.op);
      if (!api) return c.unsupported(n, fmt::format("the tile operator '{}' with a scalar", ir::opName(n.op)));
      std::string value = c.scalarAs(n.args[0], c.k.buffer(n.dst).dtype);
      forRows(c, p, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("{}({}, {}, {}, {})", api, r[0], r[1], value, count);
      });
      return;
    }
    case NodeKind::Fill: {
      std::string value = c.scalarAs(n.args[0], c.k.buffer(n.dst).dtype);
      forRows(c, p, {n.dst}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("Duplicate({}, {}, {})", r[0], value, count);
      });
      return;
    }
    case NodeKind::Copy: {
      if (c.k.buffer(n.srcs[0]).mem != dsl::Mem::UB) return c.unsupported(n, "copies out of L0C (mixed kernels)");
      std::string one = fmt::format("static_cast<{}>(1)", EmitContext::cppType(c.k.buffer(n.dst).dtype));
      forRows(c, p, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("Muls({}, {}, {}, {})", r[0], r[1], one, count);
      });
      return;
    }
    case NodeKind::Broadcast: return broadcast(c, p, n);
    case NodeKind::Reduce: return reduce(c, p, n);
    case NodeKind::Compare: return compare(c, p, n);
    case NodeKind::Select: return select(c, p, n);
    case NodeKind::Scan: return scan(c, p, n);
    case NodeKind::Gather: return gather(c, p, n);
    case NodeKind::Matmul: return c.unsupported(n, "matmul (the cube path)");
    default: return c.unsupported(n, ir::nodeKindName(n.kind));
  }
}

}  // namespace tilecraft::codegen::detail
