// Vector tile ops in count form (comparisons and Select: emit_compare.cpp). A buffer's rows sit at a 32-byte pitch
// in UB (DataCopyPad lays them out that way), so an op over a buffer whose rows are padded runs once per row on the
// valid elements (padding is never read, and the emulator's never-written-memory check holds by construction),
// unless the legalize pass chose another form: flat (one call over rows * pitch elements, whose sources' padding
// that pass proved written), repeat, column, column-flat or first-lanes (docs/compiler.md §3).
#include <fmt/format.h>

#include <functional>

#include "codegen/emit_context.h"
#include "codegen/emit_cube.h"
#include "ir/row_form.h"

namespace tilecraft::codegen::detail {

using ir::BufferId;
using ir::Op;

// The scalar unit reads what the vector unit wrote (V_S), and the vector unit then reads what the scalar unit
// wrote (S_V): the event pair around every stretch of GetValue/SetValue work.
void vectorToScalar(CodePrinter& p) {
  p.line("SetFlag<HardEvent::V_S>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::V_S>(EVENT_ID0);");
}
void scalarToVector(CodePrinter& p) {
  p.line("SetFlag<HardEvent::S_V>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::S_V>(EVENT_ID0);");
}

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

// The high-level activations and math calls take a temporary buffer: the op's work buffer (sized at least to
// the API's minimum, dsl::mathWorkBytes). Silu has no sharedTmpBuffer parameter.
const char* highLevelApi(Op op) {
  switch (op) {
    case Op::Tanh: return "Tanh";
    case Op::Sigmoid: return "Sigmoid";
    case Op::Gelu: return "Gelu";
    case Op::Sin: return "Sin";
    case Op::Cos: return "Cos";
    case Op::Erf: return "Erf";
    default: return nullptr;
  }
}

std::string tmpBuffer(EmitContext& c, const ir::Node& n) { return c.tensor(n.work) + ".ReinterpretCast<uint8_t>()"; }

const char* binaryApi(Op op) {
  switch (op) {
    case Op::Pow: return "Power";
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

// CAST_NONE where the pair accepts it (widening, f32 -> f16); float -> integer truncates toward zero, as the
// language defines cast (CAST_TRUNC, saturating); f32 -> bf16 and i64 -> f32, which have no CAST_NONE on 910B,
// round to nearest even as torch does.
const char* roundMode(ir::DType from, ir::DType to) {
  if (dsl::isFloat(from) && !dsl::isFloat(to)) return "CAST_TRUNC";
  if (from == ir::DType::F32 && to == ir::DType::BF16) return "CAST_RINT";
  if (from == ir::DType::I64 && to == ir::DType::F32) return "CAST_RINT";
  return "CAST_NONE";
}

bool isOne(const ir::Extent& e) { return e.kind == ir::Extent::Kind::Const && e.value == 1; }

// A reduction or scan over row axis `axis` of `b` sees its rows as (outer, count, innerRows) in row-major order:
// `outer` groups of `count` rows along the axis, consecutive rows of one chain `innerRows` apart. Each is the C++
// product of its extents ("1" when empty), extents of 1 left out.
struct RowAxis {
  std::string outer, count, innerRows;
};
RowAxis rowAxis(EmitContext& c, const ir::Buffer& b, int axis) {
  int rank = static_cast<int>(b.shape.size());
  auto product = [&](int from, int to) {
    std::string out;
    for (int d = from; d < to; ++d) {
      if (isOne(b.shape[d])) continue;
      out += (out.empty() ? "" : " * ") + c.extent(b.shape[d]);
    }
    return out.empty() ? std::string("1") : out;
  };
  return {product(0, axis), product(axis, axis + 1), product(axis + 1, rank - 1)};
}

using CallFn = std::function<std::string(const std::vector<std::string>& refs, const std::string& count)>;

// One call over all of dst when every operand is dense (or a single row), or when the legalize pass made the op
// flat (rows * pitch elements, padding included); else one call per row.
void forRows(EmitContext& c, CodePrinter& p, const ir::Node& n, const std::vector<BufferId>& operands,
             const CallFn& call) {
  BufferId dst = operands.front();
  bool dense = true;
  for (BufferId b : operands) dense = dense && c.dense(b);
  std::vector<std::string> refs;
  if (dense || n.form == ir::VecForm::Flat) {
    for (BufferId b : operands) refs.push_back(c.tensor(b));
    std::string count = c.oneRow(dst) ? c.inner(dst)
                        : dense       ? c.rows(dst) + " * " + c.inner(dst)
                                      : c.rows(dst) + " * " + c.pitch(dst);
    p.line(call(refs, fmt::format("static_cast<int32_t>({})", count)) + ";");
    return;
  }
  for (BufferId b : operands) refs.push_back(fmt::format("{}[i * {}]", c.tensor(b), c.pitch(b)));
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.line(call(refs, fmt::format("static_cast<int32_t>({})", c.inner(dst))) + ";");
  p.close();
}

// legalize's first-lanes form for (r, 1) columns: each row is one 32-byte block holding its value first, so a
// level-0 call under a mask of every block's first lane covers eight rows a repeat (repeat stride 8 blocks); the
// rows past the last multiple of 8 take one more repeat under a shorter mask, so no unwritten block is read.
// `call(refs, mask, repeats)` prints the call.
using Level0Fn = std::function<std::string(const std::vector<std::string>& refs, const std::string& mask,
                                           const std::string& repeats)>;
void firstLanes(EmitContext& c, CodePrinter& p, const ir::Node& n, const std::vector<BufferId>& operands,
                const Level0Fn& call) {
  bool half = dsl::dtypeBits(c.k.buffer(n.dst).dtype) == 16;
  std::string name = c.bufferName(n.dst), rows = name + "Rows", lanes = name + "Lanes";
  std::string word = half ? "0x0001000100010001ULL" : "0x0101010101010101ULL";
  auto refs = [&](const std::string& row) {
    std::vector<std::string> out;
    for (BufferId b : operands) out.push_back(fmt::format("{}[({}) * {}]", c.tensor(b), row, c.pitch(b)));
    return out;
  };
  p.line("{");
  p.indent();
  p.line(fmt::format("const int64_t {} = {};", rows, c.rows(n.dst)));
  p.line(fmt::format("uint64_t {}[2] = {{{}, {}}};", lanes, word, half ? word : "0"));
  p.open(fmt::format("for (int64_t g = 0; g < {} / 8; g += 255)", rows));
  p.line(call(refs("g * 8"), lanes, fmt::format("static_cast<uint8_t>(TcMin({} / 8 - g, 255))", rows)) + ";");
  p.close();
  p.open(fmt::format("if ({} % 8 != 0)", rows));
  p.line(fmt::format("const int64_t left = {} % 8;", rows));
  if (half) {
    p.line(fmt::format("{}[0] = left >= 4 ? {} : {} >> (16 * (4 - left));", lanes, word, word));
    p.line(fmt::format("{}[1] = left > 4 ? {} >> (16 * (8 - left)) : 0;", lanes, word));
  } else {
    p.line(fmt::format("{}[0] = {} >> (8 * (8 - left));", lanes, word));
  }
  p.line(call(refs(fmt::format("{} / 8 * 8", rows)), lanes, "1") + ";");
  p.close();
  p.dedent();
  p.line("}");
}

// The row of `src` that row `i` (an expression) of `dst` reads when src broadcasts to dst: a coordinate along an
// outer dimension where src has extent 1 (or no dimension, numpy-aligned from the last) stays 0.
std::string sourceRow(EmitContext& c, BufferId src, BufferId dst, const std::string& i) {
  const std::vector<ir::Extent>& s = c.k.buffer(src).shape;
  const std::vector<ir::Extent>& d = c.k.buffer(dst).shape;
  if (s == d) return i;
  size_t rank = d.size();
  std::string out, dstLater = "1", srcLater = "1";
  auto times = [](const std::string& a, const std::string& b) { return a == "1" ? b : b == "1" ? a : a + " * " + b; };
  for (size_t j = rank - 1; j-- > 0;) {
    const ir::Extent* se = j + s.size() >= rank ? &s[j + s.size() - rank] : nullptr;
    bool stretched = se == nullptr || isOne(*se);
    if (!stretched) {
      std::string coord = dstLater == "1" ? i : fmt::format("({} / ({}))", i, dstLater);
      if (j > 0) coord = fmt::format("({} % {})", coord, c.extent(d[j]));
      out += (out.empty() ? "" : " + ") + (srcLater == "1" ? coord : fmt::format("{} * {}", coord, srcLater));
    }
    if (!isOne(d[j])) dstLater = times(dstLater, c.extent(d[j]));
    if (se && !isOne(*se)) srcLater = times(srcLater, c.extent(*se));
  }
  return out.empty() ? "0" : out;
}

std::string rowAt(EmitContext& c, BufferId b, const std::string& row) {
  return row == "0" ? c.tensor(b) : fmt::format("{}[({}) * {}]", c.tensor(b), row, c.pitch(b));
}

// A bool mask stretched: bits are not addressable by the vector unit, so the scalar unit composes each byte.
void broadcastMask(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  bool innerStretch = isOne(c.k.buffer(src).shape.back()) && !isOne(c.k.buffer(dst).shape.back());
  std::string len = c.inner(dst), srcRow = sourceRow(c, src, dst, "i");
  std::string col = innerStretch ? "0" : "j";
  std::string srcByte =
      srcRow == "0" ? fmt::format("{} / 8", col) : fmt::format("({}) * {} + {} / 8", srcRow, c.pitch(src), col);
  vectorToScalar(p);
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.open(fmt::format("for (int64_t byte = 0; byte < TcCdiv({}, 8); ++byte)", len));
  p.line("uint8_t bits = 0;");
  p.open(fmt::format("for (int64_t j = byte * 8; j < byte * 8 + 8 && j < {}; ++j)", len));
  p.line(
      fmt::format("if (((static_cast<uint32_t>({}.GetValue({})) >> ({} % 8)) & 1u) != 0) bits |= "
                  "static_cast<uint8_t>(1u << (j % 8));",
                  c.tensor(src), srcByte, col));
  p.close();
  p.line(fmt::format("{}.SetValue(i * {} + byte, bits);", c.tensor(dst), c.pitch(dst)));
  p.close();
  p.close();
  scalarToVector(p);
}

void broadcast(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& d = c.k.buffer(dst);
  const ir::Buffer& s = c.k.buffer(src);
  if (d.dtype == ir::DType::Bool) return broadcastMask(c, p, n);
  std::string type = EmitContext::cppType(d.dtype);
  bool innerStretch = isOne(s.shape.back()) && !isOne(d.shape.back());
  std::string srcRow = sourceRow(c, src, dst, "i");
  if (innerStretch) {
    // One value per row: the scalar unit reads it once the vector pipe has written it (V_S).
    vectorToScalar(p);
    if (c.oneRow(dst)) {
      p.line(fmt::format("Duplicate({}, {}.GetValue(0), static_cast<int32_t>({}));", c.tensor(dst), c.tensor(src),
                         c.inner(dst)));
      return;
    }
    std::string at = srcRow == "0"   ? "0"
                     : srcRow == "i" ? fmt::format("i * {}", c.pitch(src))
                                     : fmt::format("({}) * {}", srcRow, c.pitch(src));
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
    p.line(fmt::format("Duplicate({}[i * {}], {}.GetValue({}), static_cast<int32_t>({}));", c.tensor(dst), c.pitch(dst),
                       c.tensor(src), at, c.inner(dst)));
    p.close();
    return;
  }
  // Rows stretched (or nothing to stretch): copy each source row into its rows of dst on the vector pipe.
  std::string one = fmt::format("static_cast<{}>(1)", type);
  if (srcRow != "i") {
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
    p.line(fmt::format("Muls({}[i * {}], {}, {}, static_cast<int32_t>({}));", c.tensor(dst), c.pitch(dst),
                       rowAt(c, src, srcRow), one, c.inner(dst)));
    p.close();
    return;
  }
  forRows(c, p, n, {dst, src}, [&](const std::vector<std::string>& r, const std::string& count) {
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

// legalize's column form: the column's values are spread across their 32-byte blocks in place (BlockReduceMax of
// each block's first lane packs them, exactly; Brcb spreads each packed value over a block, in calls ordered so
// that no group overwrites a packed block a later group reads), then each row is one repeat of a level-0 op
// that reads its block with block stride 0, 64 lanes a call.
void columnBinary(EmitContext& c, CodePrinter& p, const ir::Node& n, const char* api) {
  BufferId dst = n.dst, tile = ir::columnTileOperand(c.k, n);
  BufferId column = n.srcs[0] == tile ? n.srcs[1] : n.srcs[0];
  std::string d = c.tensor(dst), x = c.tensor(tile), m = c.tensor(column), name = c.bufferName(dst);
  std::string rows = name + "Rows", pack = name + "Pack", pitch = c.pitch(dst);
  std::string lanes = n.form == ir::VecForm::ColumnFlat ? pitch : c.inner(dst);
  p.line("{");
  p.indent();
  p.line(fmt::format("const int64_t {} = {};", rows, c.rows(dst)));
  p.line(fmt::format("uint64_t {}[2] = {{0x0101010101010101ULL, 0}};", pack));
  p.open(fmt::format("if ({} >= 8)", rows));
  p.line(fmt::format("BlockReduceMax<float>({}, {}, static_cast<int32_t>({} / 8), {}, 1, 1, 8);", m, m, rows, pack));
  p.close();
  p.open(fmt::format("if ({} % 8 != 0)", rows));
  p.line(fmt::format("{}[0] = 0x0101010101010101ULL >> (8 * (8 - {} % 8));", pack, rows));
  p.line(
      fmt::format("BlockReduceMax<float>({}[{} / 8 * 8], {}[{} / 8 * 64], 1, {}, 1, 1, 8);", m, rows, m, rows, pack));
  p.close();
  p.open(fmt::format("for (int64_t hi = TcCdiv({}, 8); hi > 0;)", rows));
  p.line("const int64_t lo = hi == 1 ? 0 : TcCdiv(hi, 8);");
  p.line(fmt::format("Brcb({}[lo * 64], {}[lo * 8], static_cast<uint8_t>(hi - lo), BrcbRepeatParams(1, 8));", m, m));
  p.line("hi = lo;");
  p.close();
  p.open(fmt::format("for (int64_t i = 0; i < {}; i += 255)", rows));
  p.line(fmt::format("const uint8_t repeats = static_cast<uint8_t>(TcMin({} - i, 255));", rows));
  p.line(fmt::format("const uint8_t blocks = static_cast<uint8_t>(({}) / 8);", pitch));
  p.open(fmt::format("for (int64_t j = 0; j < {}; j += 64)", lanes));
  std::string at = fmt::format("[i * {} + j]", pitch);
  std::string mask = fmt::format("static_cast<uint64_t>(TcMin({} - j, 64))", lanes);
  bool left = n.srcs[0] == column;
  std::string a = left ? m + "[i * 8]" : x + at, b = left ? x + at : m + "[i * 8]";
  std::string params =
      left ? "BinaryRepeatParams(1, 0, 1, blocks, 1, blocks)" : "BinaryRepeatParams(1, 1, 0, blocks, blocks, 1)";
  p.line(fmt::format("{}({}{}, {}, {}, {}, repeats, {});", api, d, at, a, b, mask, params));
  p.close();
  p.close();
  p.dedent();
  p.line("}");
}

// A binary op with a column (or single-value) operand becomes the scalar form per row: the scalar unit reads the
// value once the vector pipe has written it (V_S), and AscendC's missing scalar forms are composed
// (x - s = Adds(-s), s - x = Muls(-1) then Adds(s), x / s = Muls(1/s), s / x = Reciprocal then Muls(s)).
void binary(EmitContext& c, CodePrinter& p, const ir::Node& n, const char* api) {
  if (n.form == ir::VecForm::Column || n.form == ir::VecForm::ColumnFlat) return columnBinary(c, p, n, api);
  if (n.form == ir::VecForm::FirstLanes) {
    return firstLanes(c, p, n, {n.dst, n.srcs[0], n.srcs[1]},
                      [&](const std::vector<std::string>& r, auto& mask, auto& repeats) {
                        return fmt::format("{}({}, {}, {}, {}, {}, BinaryRepeatParams(1, 1, 1, 8, 8, 8))", api, r[0],
                                           r[1], r[2], mask, repeats);
                      });
  }
  BufferId dst = n.dst, a = n.srcs[0], b = n.srcs[1];
  Spread sa = spreadOf(c, a, dst), sb = spreadOf(c, b, dst);
  bool pow = n.op == Op::Pow;  // Power (high-level API) takes the work buffer as its sharedTmpBuffer
  std::string tmp = pow ? tmpBuffer(c, n) + ", " : "";
  // Which row of each operand row i of dst reads: "i" for the same rows; an operand stretched along a middle
  // dimension ((b, 1, n) with (b, 4, n)) maps rows through sourceRow.
  std::string rowA = sourceRow(c, a, dst, "i"), rowB = sourceRow(c, b, dst, "i");
  if (sa == Spread::Full && sb == Spread::Full && rowA == "i" && rowB == "i") {
    forRows(c, p, n, {dst, a, b}, [&](const std::vector<std::string>& r, const std::string& count) {
      return fmt::format("{}({}, {}, {}, {}{})", api, r[0], r[1], r[2], tmp, count);
    });
    return;
  }
  bool loop = !c.oneRow(dst);
  auto ref = [&](BufferId x, Spread sp) {
    if (!loop || sp == Spread::Row) return c.tensor(x);
    std::string row = sourceRow(c, x, dst, "i");
    if (row == "i") return fmt::format("{}[i * {}]", c.tensor(x), c.pitch(x));
    return rowAt(c, x, row);
  };
  std::string count = fmt::format("static_cast<int32_t>({})", c.inner(dst));
  bool aScalar = sa == Spread::Column || sa == Spread::Scalar;
  bool bScalar = sb == Spread::Column || sb == Spread::Scalar;
  if (aScalar && bScalar) return c.unsupported(n, "a binary op of two per-row values stretched along a row");
  if (aScalar || bScalar) {
    vectorToScalar(p);
  }
  // The scalar `s` gets a block of its own when no row loop gives it one: two such ops in one stage method must
  // not redeclare it.
  bool scope = !loop && (aScalar || bScalar);
  if (loop) p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  if (scope) {
    p.line("{");
    p.indent();
  }
  std::string d = ref(dst, Spread::Full);
  if (!aScalar && !bScalar) {
    p.line(fmt::format("{}({}, {}, {}, {}{});", api, d, ref(a, sa), ref(b, sb), tmp, count));
  } else {
    BufferId sc = aScalar ? a : b, vec = aScalar ? b : a;
    Spread sv = aScalar ? sb : sa;
    std::string type = EmitContext::cppType(c.k.buffer(dst).dtype);
    std::string scRow = loop ? sourceRow(c, sc, dst, "i") : "0";
    std::string index = scRow == "0"   ? "0"
                        : scRow == "i" ? fmt::format("i * {}", c.pitch(sc))
                                       : fmt::format("({}) * {}", scRow, c.pitch(sc));
    p.line(fmt::format("const float s = static_cast<float>({}.GetValue({}));", c.tensor(sc), index));
    auto as = [&](const std::string& v) { return fmt::format("static_cast<{}>({})", type, v); };
    std::string x = ref(vec, sv);
    switch (n.op) {
      case Op::Add: p.line(fmt::format("Adds({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Mul: p.line(fmt::format("Muls({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Max: p.line(fmt::format("Maxs({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Min: p.line(fmt::format("Mins({}, {}, {}, {});", d, x, as("s"), count)); break;
      case Op::Pow:
        if (bScalar) {
          p.line(fmt::format("Power({}, {}, {}, {}{});", d, x, as("s"), tmp, count));
        } else {
          p.line(fmt::format("Power({}, {}, {}, {}{});", d, as("s"), x, tmp, count));
        }
        break;
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
  if (scope) {
    p.dedent();
    p.line("}");
  }
  if (loop) p.close();
}

// 16-bit floats: the reference sums in double and rounds once, so reductions and scans of f16/bf16 tiles may not
// round at every step as f16 vector adds would (fuzz finding F3).
bool halfWidthFloat(ir::DType t) { return t == ir::DType::F16 || t == ir::DType::BF16; }

// A sum (or mean), cumsum or cumprod of a 16-bit float tile over a row axis, on the scalar unit with a float
// accumulator: each result element rounds to T once. The rows are (outer, axis, inner) in row-major order.
void foldRowsInFloat(EmitContext& c, CodePrinter& p, const ir::Node& n, const std::string& outer,
                     const std::string& count, const std::string& innerRows) {
  BufferId dst = n.dst, src = n.srcs[0];
  std::string type = EmitContext::cppType(c.k.buffer(dst).dtype);
  bool scan = ir::isScan(n.op), product = n.op == Op::Cumprod;
  std::string dp = c.pitch(dst), sp = c.pitch(src);
  vectorToScalar(p);
  p.open(fmt::format("for (int64_t o = 0; o < {}; ++o)", outer));
  p.open(fmt::format("for (int64_t r = 0; r < {}; ++r)", innerRows));
  p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(src)));
  p.line(fmt::format("float acc = {};", product ? "1.0f" : "0.0f"));
  p.open(fmt::format("for (int64_t k = 0; k < {}; ++k)", count));
  p.line(fmt::format("const int64_t row = (o * {} + k) * {} + r;", count, innerRows));
  p.line(fmt::format("acc = acc {} static_cast<float>({}.GetValue(row * {} + j));", product ? "*" : "+", c.tensor(src),
                     sp));
  if (scan) p.line(fmt::format("{}.SetValue(row * {} + j, static_cast<{}>(acc));", c.tensor(dst), dp, type));
  p.close();
  if (!scan) {
    std::string value = n.op == Op::ReduceMean ? fmt::format("acc / static_cast<float>({})", count) : "acc";
    p.line(fmt::format("{}.SetValue((o * {} + r) * {} + j, static_cast<{}>({}));", c.tensor(dst), innerRows, dp, type,
                       value));
  }
  p.close();
  p.close();
  p.close();
  scalarToVector(p);
}

// argmax/argmin, the first index of the extreme value. Along the last axis: ReduceMax/Min with calIndex writes
// the value and its index (the index's bits in the second T slot: uint16 for half, uint32 for float) into the
// i32 result row, reinterpreted as T (a row is 32 bytes, room for both); the scalar unit then moves the index to
// the row's first element. Along a row axis the scalar unit walks the rows of each group (ties keep the first).
void argReduce(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& s = c.k.buffer(src);
  std::string type = EmitContext::cppType(s.dtype);
  int rank = static_cast<int>(s.shape.size());
  int axis = n.axis < 0 ? n.axis + rank : n.axis;
  bool max = n.op == Op::Argmax;
  std::string dp = c.pitch(dst), sp = c.pitch(src);
  if (axis == rank - 1) {
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(src)));
    p.line(fmt::format(
        "Reduce{}<{}>({}[i * {}].ReinterpretCast<{}>(), {}[i * {}], {}, static_cast<int32_t>({}), true);",
        max ? "Max" : "Min", type, c.tensor(dst), dp, type, c.tensor(src), sp, c.tensor(n.work), c.inner(src)));
    p.close();
    vectorToScalar(p);
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(src)));
    if (dsl::dtypeBits(s.dtype) == 16) {
      p.line(fmt::format("const uint32_t pair = static_cast<uint32_t>({}.GetValue(i * {}));", c.tensor(dst), dp));
      p.line(fmt::format("{}.SetValue(i * {}, static_cast<int32_t>(pair >> 16));", c.tensor(dst), dp));
    } else {
      p.line(fmt::format("{}.SetValue(i * {}, {}.GetValue(i * {} + 1));", c.tensor(dst), dp, c.tensor(dst), dp));
    }
    p.close();
    scalarToVector(p);
    return;
  }
  auto [outer, count, innerRows] = rowAxis(c, s, axis);
  vectorToScalar(p);
  p.open(fmt::format("for (int64_t o = 0; o < {}; ++o)", outer));
  p.open(fmt::format("for (int64_t r = 0; r < {}; ++r)", innerRows));
  p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(src)));
  p.line(fmt::format("float best = static_cast<float>({}.GetValue((o * {} * {} + r) * {} + j));", c.tensor(src), count,
                     innerRows, sp));
  p.line("int32_t at = 0;");
  p.open(fmt::format("for (int64_t k = 1; k < {}; ++k)", count));
  p.line(fmt::format("const float v = static_cast<float>({}.GetValue(((o * {} + k) * {} + r) * {} + j));",
                     c.tensor(src), count, innerRows, sp));
  p.open(fmt::format("if (v {} best)", max ? ">" : "<"));
  p.line("best = v;");
  p.line("at = static_cast<int32_t>(k);");
  p.close();
  p.close();
  p.line(fmt::format("{}.SetValue((o * {} + r) * {} + j, at);", c.tensor(dst), innerRows, dp));
  p.close();
  p.close();
  p.close();
  scalarToVector(p);
}

// Short rows (legalize's repeat form): one WholeReduce per 255 rows, a row per repeat (mask: the row's elements;
// source repeat stride: its pitch in blocks), each result at the first element of its row of dst (destination
// repeat stride: dst's pitch, in results). A mean scales the results with one masked Muls, a row per repeat.
void repeatedReduce(EmitContext& c, CodePrinter& p, const ir::Node& n, const char* api) {
  BufferId dst = n.dst, src = n.srcs[0];
  std::string type = EmitContext::cppType(c.k.buffer(src).dtype);
  int64_t be = EmitContext::blockElems(c.k.buffer(src).dtype);
  std::string order = api == std::string("Sum") ? "" : ", ReduceOrder::ORDER_ONLY_VALUE";
  p.open(fmt::format("for (int64_t i = 0; i < {}; i += 255)", c.rows(src)));
  p.line(fmt::format("const int32_t repeats = static_cast<int32_t>(TcMin({} - i, 255));", c.rows(src)));
  p.line(
      fmt::format("WholeReduce{}<{}>({}[i * {}], {}[i * {}], static_cast<int32_t>({}), repeats, {}, 1, "
                  "static_cast<int32_t>(({}) / {}){});",
                  api, type, c.tensor(dst), c.pitch(dst), c.tensor(src), c.pitch(src), c.inner(src), c.pitch(dst),
                  c.pitch(src), be, order));
  if (n.op == Op::ReduceMean) {
    p.line(
        fmt::format("Muls({}[i * {}], {}[i * {}], static_cast<{}>(1.0f / static_cast<float>({})), "
                    "static_cast<uint64_t>(1), static_cast<uint8_t>(repeats), UnaryRepeatParams(1, 1, 1, 1));",
                    c.tensor(dst), c.pitch(dst), c.tensor(dst), c.pitch(dst), type, c.inner(src)));
  }
  p.close();
}

void reduce(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& s = c.k.buffer(src);
  std::string type = EmitContext::cppType(s.dtype);
  int rank = static_cast<int>(s.shape.size());
  int axis = n.axis < 0 ? n.axis + rank : n.axis;
  const char* api = n.op == Op::ReduceSum || n.op == Op::ReduceMean ? "Sum" : n.op == Op::ReduceMax ? "Max" : "Min";
  if (n.op == Op::Argmax || n.op == Op::Argmin) return argReduce(c, p, n);
  if (n.form == ir::VecForm::Repeat) return repeatedReduce(c, p, n, api);
  if (axis == rank - 1 && halfWidthFloat(s.dtype) && api == std::string("Sum")) {
    // f16 ReduceSum rounds its partial sums to f16; the reference sums in double and rounds once (F3).
    vectorToScalar(p);
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(src)));
    p.line("float acc = 0.0f;");
    p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(src)));
    p.line(fmt::format("acc = acc + static_cast<float>({}.GetValue(i * {} + j));", c.tensor(src), c.pitch(src)));
    p.close();
    std::string value = n.op == Op::ReduceMean ? fmt::format("acc / static_cast<float>({})", c.inner(src)) : "acc";
    p.line(fmt::format("{}.SetValue(i * {}, static_cast<{}>({}));", c.tensor(dst), c.pitch(dst), type, value));
    p.close();
    scalarToVector(p);
    return;
  }
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
  auto [outer, count, innerRows] = rowAxis(c, s, axis);
  if (halfWidthFloat(s.dtype) && api == std::string("Sum")) return foldRowsInFloat(c, p, n, outer, count, innerRows);
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
    vectorToScalar(p);
    // 16-bit floats accumulate in float, each output rounded once (F3); f32 and integers step in their own type.
    std::string acc = halfWidthFloat(s.dtype) ? "float" : type;
    p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(src)));
    p.line(fmt::format("{} acc = static_cast<{}>({});", acc, acc, sum ? 0 : 1));
    p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(src)));
    p.line(fmt::format("acc = static_cast<{}>(acc {} static_cast<{}>({}.GetValue(i * {} + j)));", acc, sum ? "+" : "*",
                       acc, c.tensor(src), c.pitch(src)));
    p.line(fmt::format("{}.SetValue(i * {} + j, static_cast<{}>(acc));", c.tensor(dst), c.pitch(dst), type));
    p.close();
    p.close();
    scalarToVector(p);
    return;
  }
  std::string cols = fmt::format("static_cast<int32_t>({})", c.inner(src));
  if (halfWidthFloat(s.dtype)) {
    auto extents = [&](int from, int to) {
      std::string out;
      for (int d = from; d < to; ++d) {
        if (isOne(s.shape[d])) continue;
        out += (out.empty() ? "" : " * ") + c.extent(s.shape[d]);
      }
      return out.empty() ? std::string("1") : out;
    };
    return foldRowsInFloat(c, p, n, extents(0, axis), extents(axis, axis + 1), extents(axis + 1, rank - 1));
  }
  if (rank == 2 && axis == 0) {
    p.line(fmt::format("Muls({}, {}, static_cast<{}>(1), {});", c.tensor(dst), c.tensor(src), type, cols));
    p.open(fmt::format("for (int64_t i = 1; i < {}; ++i)", c.rows(src)));
    p.line(fmt::format("{}({}[i * {}], {}[(i - 1) * {}], {}[i * {}], {});", sum ? "Add" : "Mul", c.tensor(dst),
                       c.pitch(dst), c.tensor(dst), c.pitch(dst), c.tensor(src), c.pitch(src), cols));
    p.close();
    return;
  }
  // Any other row axis: the rows are (outer, axis, inner) in row-major order; each (outer, inner) pair is a chain
  // of rows `inner` apart.
  auto [outer, count, innerRows] = rowAxis(c, s, axis);
  std::string dp = c.pitch(dst), sp = c.pitch(src);
  p.open(fmt::format("for (int64_t o = 0; o < {}; ++o)", outer));
  p.open(fmt::format("for (int64_t r = 0; r < {}; ++r)", innerRows));
  p.line(fmt::format("const int64_t first = o * {} * {} + r;", count, innerRows));
  p.line(fmt::format("Muls({}[first * {}], {}[first * {}], static_cast<{}>(1), {});", c.tensor(dst), dp, c.tensor(src),
                     sp, type, cols));
  p.open(fmt::format("for (int64_t k = 1; k < {}; ++k)", count));
  p.line(fmt::format("const int64_t row = first + k * {};", innerRows));
  p.line(fmt::format("{}({}[row * {}], {}[(row - {}) * {}], {}[row * {}], {});", sum ? "Add" : "Mul", c.tensor(dst), dp,
                     c.tensor(dst), innerRows, dp, c.tensor(src), sp, cols));
  p.close();
  p.close();
  p.close();
}

// gather(table, index) along the last axis, on the scalar unit: out[i][j] = table[i][index[i][j]]. (The vector
// Gather takes byte offsets in a uint32 tensor the IR does not plan yet.)
void gather(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, table = n.srcs[0], index = n.srcs[1];
  std::string tableRow = c.oneRow(table) ? "" : fmt::format("i * {} + ", c.pitch(table));
  vectorToScalar(p);
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.rows(dst)));
  p.open(fmt::format("for (int64_t j = 0; j < {}; ++j)", c.inner(dst)));
  p.line(fmt::format("const int64_t at = {}.GetValue(i * {} + j);", c.tensor(index), c.pitch(index)));
  p.line(fmt::format("{}.SetValue(i * {} + j, {}.GetValue({}at));", c.tensor(dst), c.pitch(dst), c.tensor(table),
                     tableRow));
  p.close();
  p.close();
  scalarToVector(p);
}

}  // namespace

void emitTileOp(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  using ir::NodeKind;
  if (isCubeOp(c, n)) return emitCubeOp(c, p, n);  // emit_cube.cpp
  if (n.dst != ir::kNone && c.k.buffer(n.dst).mem != dsl::Mem::UB && n.kind != NodeKind::Store &&
      n.kind != NodeKind::Load) {
    return c.unsupported(n, fmt::format("{} results in {} (the cube path)", ir::nodeKindName(n.kind),
                                        dsl::memName(c.k.buffer(n.dst).mem)));
  }
  switch (n.kind) {
    case NodeKind::Load: return emitLoad(c, p, n);
    case NodeKind::Store: return emitStore(c, p, n);
    case NodeKind::Cast: {
      const char* mode = roundMode(c.k.buffer(n.srcs[0]).dtype, c.k.buffer(n.dst).dtype);
      forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("Cast({}, {}, RoundMode::{}, {})", r[0], r[1], mode, count);
      });
      return;
    }
    case NodeKind::Unary: {
      if (const char* api = unaryApi(n.op); api && n.form == ir::VecForm::FirstLanes) {
        firstLanes(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, auto& mask, auto& repeats) {
          return fmt::format("{}({}, {}, {}, {}, UnaryRepeatParams(1, 1, 8, 8))", api, r[0], r[1], mask, repeats);
        });
        return;
      }
      if (const char* api = unaryApi(n.op)) {
        forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
          return fmt::format("{}({}, {}, {})", api, r[0], r[1], count);
        });
        return;
      }
      if (n.op == Op::Silu) {
        forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
          return fmt::format("Silu({}, {}, {})", r[0], r[1], count);
        });
        return;
      }
      if (const char* api = highLevelApi(n.op)) {
        std::string tmp = tmpBuffer(c, n);
        forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
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
      std::string value = c.scalarAs(n.args[0], c.k.buffer(n.dst).dtype);
      if (n.op == Op::Pows) {
        std::string tmp = tmpBuffer(c, n);
        forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
          return fmt::format("Power({}, {}, {}, {}, {})", r[0], r[1], value, tmp, count);
        });
        return;
      }
      const char* api = scalarApi(n.op);
      if (!api) return c.unsupported(n, fmt::format("the tile operator '{}' with a scalar", ir::opName(n.op)));
      if (n.form == ir::VecForm::FirstLanes) {
        firstLanes(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, auto& mask, auto& repeats) {
          return fmt::format("{}({}, {}, {}, {}, {}, UnaryRepeatParams(1, 1, 8, 8))", api, r[0], r[1], value, mask,
                             repeats);
        });
        return;
      }
      forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("{}({}, {}, {}, {})", api, r[0], r[1], value, count);
      });
      return;
    }
    case NodeKind::Fill: {
      std::string value = c.scalarAs(n.args[0], c.k.buffer(n.dst).dtype);
      forRows(c, p, n, {n.dst}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("Duplicate({}, {}, {})", r[0], value, count);
      });
      return;
    }
    case NodeKind::Copy: {
      if (c.k.buffer(n.srcs[0]).mem != dsl::Mem::UB) return c.unsupported(n, "copies out of L0C (mixed kernels)");
      std::string one = fmt::format("static_cast<{}>(1)", EmitContext::cppType(c.k.buffer(n.dst).dtype));
      forRows(c, p, n, {n.dst, n.srcs[0]}, [&](const std::vector<std::string>& r, const std::string& count) {
        return fmt::format("Muls({}, {}, {}, {})", r[0], r[1], one, count);
      });
      return;
    }
    case NodeKind::Broadcast: return broadcast(c, p, n);
    case NodeKind::Reduce: return reduce(c, p, n);
    case NodeKind::Compare: return emitCompare(c, p, n);  // emit_compare.cpp
    case NodeKind::Select: return emitSelect(c, p, n);
    case NodeKind::Scan: return scan(c, p, n);
    case NodeKind::Gather: return gather(c, p, n);
    case NodeKind::Matmul: return c.unsupported(n, "matmul (the cube path)");
    default: return c.unsupported(n, ir::nodeKindName(n.kind));
  }
}

}  // namespace tilecraft::codegen::detail
