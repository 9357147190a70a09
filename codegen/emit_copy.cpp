// GM <-> UB copies. A GM view is an element offset plus rows x cols at a GM row stride; UB rows sit at the
// buffer's 32-byte pitch. Copies the tiling pass marked partial or unaligned go through DataCopyPad (bytes, pads
// each row to 32 bytes in UB); the rest use DataCopy in count form or with DataCopyParams (32-byte units).
#include <fmt/format.h>

#include <algorithm>

#include "codegen/emit_context.h"
#include "codegen/emit_cube.h"

namespace tilecraft::codegen::detail {

namespace {

struct GmView {
  std::string offset = "0";
  std::string rows = "1";
  std::string cols = "1";
  std::string rowStride = "0";
  std::string planes = "1";       // a view of 3 or more dimensions: planes of rows x cols, one copy each
  std::string planeStride = "0";  // GM elements between planes (a 3-D view)
  std::string planeOffset = "0";  // GM element offset of plane `k`, an expression in k (any rank)
  std::string ubPlane = "k";      // the UB plane that plane `k` goes to
  std::string ubRows = "1";       // rows of a UB plane (more than `rows` when a bounded slice copies fewer)
  std::string valid;              // the product of the bounded slices' copied extents; empty: none is bounded
  std::string fill;               // when the copy is short of the buffer (a load fills the buffer with pad first)
  bool ok = true;
  std::string problem;
};

std::string product(const std::string& a, const std::string& b) {
  if (a == "1") return b;
  if (b == "1") return a;
  return a + " * " + b;
}

// "(a - b)", or "0" when both sides are the same expression (a row as long as the tensor's, a full-width tile).
std::string minus(const std::string& a, const std::string& b) { return a == b ? "0" : fmt::format("({} - {})", a, b); }

// A dimension of a GM view, outer to inner: the extent copied, its GM stride, and its extent in the UB buffer
// (larger than the copy where a slice is bounded by the tensor's end).
struct ViewDim {
  std::string copy, stride, ub;
};

// Shapes match up to extent-1 dimensions (language §7), so the view's innermost dimension need not be the local
// tile's row. An (r, 1) tile holds one element per 32-byte row: a view whose innermost dimension is longer moves
// those elements as rows of one (DataCopyPad, which the tiling pass chose for the unaligned row). A tile whose
// row is longer than the view's innermost extent 1 (an (n,) tile into an (n, 1) view) moves one row along the
// view's next dimension, which must then be contiguous in GM.
void matchLocalRows(const ir::Buffer& local, std::vector<ViewDim>& dims, GmView& v) {
  if (local.shape.empty() || dims.empty()) return;
  bool localColumn = local.shape.back().kind == ir::Extent::Kind::Const && local.shape.back().value == 1;
  if (localColumn && dims.back().copy != "1") {
    dims.push_back({"1", "1", "1"});
    return;
  }
  if (localColumn || dims.size() < 2 || dims.back().copy != "1") return;
  dims.pop_back();
  if (dims.back().stride != "1") {
    v.ok = false;
    v.problem =
        "a copy of a tile's rows into a strided column of GM (an (n,) tile into an (n, 1) view of a wider "
        "tensor)";
  }
}

GmView gmView(const EmitContext& c, const ir::Node& n) {
  const ir::Param& prm = c.k.params[n.ref];
  size_t rank = prm.shape.size();
  std::vector<std::string> strides(rank, "1");
  for (size_t j = rank - 1; j-- > 0;) strides[j] = product(strides[j + 1], c.extent(prm.shape[j + 1]));
  GmView v;
  std::vector<ViewDim> dims;
  size_t innerDim = rank;
  std::string offset;
  for (size_t j = 0; j < n.access.size() && j < rank; ++j) {
    const ir::GmIndex& g = n.access[j];
    std::string index, ext, ub;
    bool kept = true;
    switch (g.kind) {
      case ir::GmIndex::Kind::Full: ext = c.extent(prm.shape[j]); break;
      case ir::GmIndex::Kind::Tile:
        index = c.loopMember(g.loop, "Start");
        ext = c.loopMember(g.loop, "Len");
        break;
      case ir::GmIndex::Kind::Point:
        index = c.scalar(g.lo, Where::Device);
        kept = false;
        break;
      case ir::GmIndex::Kind::Slice:
        index = c.scalar(g.lo, Where::Device);
        ext = c.extent(g.width);
        if (g.valid != ir::kNone) {
          ub = ext;
          ext = c.scalar(g.valid, Where::Device);
          v.valid = v.valid.empty() ? ext : product(v.valid, ext);
          v.fill += fmt::format("{}{} < {}", v.fill.empty() ? "" : " || ", ext, ub);
        }
        break;
      case ir::GmIndex::Kind::Gather:
        v.ok = false;
        v.problem = "gather loads";
        return v;
    }
    if (!index.empty() && index != "0") offset += (offset.empty() ? "" : " + ") + product(index, strides[j]);
    if (kept) {
      innerDim = j;
      dims.push_back({ext, strides[j], ub.empty() ? ext : ub});
    }
  }
  for (size_t j = n.access.size(); j < rank; ++j) {  // omitted trailing indices are `:`
    innerDim = j;
    std::string ext = c.extent(prm.shape[j]);
    dims.push_back({ext, strides[j], ext});
  }
  // Outer extent-1 dimensions move nothing; the innermost stays, as it is the UB buffer's row.
  for (size_t j = dims.size(); j-- > 1;) {
    if (dims[j - 1].copy == "1") dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(j - 1));
  }
  v.offset = offset.empty() ? "0" : offset;
  if (innerDim != rank - 1 && !dims.empty()) {
    v.ok = false;
    v.problem = "a copy whose innermost index is not the tensor's last dimension (strided columns)";
    return v;
  }
  matchLocalRows(c.k.buffer(n.kind == ir::NodeKind::Load ? n.dst : n.srcs.at(0)), dims, v);
  if (!v.ok) return v;
  if (dims.size() >= 3) {
    // The outer dimensions flatten, row-major, into one plane index k over the copied extents; plane k's GM
    // offset takes each outer coordinate of k times its stride, and its UB plane each coordinate times the UB
    // planes after it.
    size_t outer = dims.size() - 2;
    std::string later = "1", ubLater = "1";
    std::string offset, ubPlane;
    for (size_t j = outer; j-- > 0;) {
      std::string coord = later == "1" ? "k" : fmt::format("(k / ({}))", later);
      if (j > 0) coord = fmt::format("({} % {})", coord, dims[j].copy);
      offset = product(coord, dims[j].stride) + (offset.empty() ? "" : " + " + offset);
      ubPlane = product(coord, ubLater) + (ubPlane.empty() ? "" : " + " + ubPlane);
      later = product(later, dims[j].copy);
      ubLater = product(ubLater, dims[j].ub);
    }
    v.planes = later;
    v.planeStride = outer == 1 ? dims[0].stride : "0";
    v.planeOffset = offset;
    v.ubPlane = outer == 1 ? "k" : fmt::format("({})", ubPlane);
    dims.erase(dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(outer));
  }
  if (dims.empty()) return v;
  v.cols = dims.back().copy;
  if (dims.size() == 2) {
    v.rows = dims[0].copy;
    v.ubRows = dims[0].ub;
    v.rowStride = dims[0].stride;
  }
  return v;
}

}  // namespace

namespace {

// load(table[idx, :]): one DataCopyPad per index, each a whole row of the table. The scalar unit reads the indices;
// the flag that lets it (MTE2_S after a load, V_S after a compute stage) is queue insertion's Flag before this op.
void gatherLoad(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  const ir::Param& prm = c.k.params[n.ref];
  if (prm.shape.size() != 2 || n.access.size() < 1 || n.access[0].kind != ir::GmIndex::Kind::Gather ||
      (n.access.size() > 1 && n.access[1].kind != ir::GmIndex::Kind::Full)) {
    return c.unsupported(n, "gather loads other than whole rows of a 2-D table (table[idx, :])");
  }
  ir::BufferId dst = n.dst, index = n.srcs.at(0);
  const ir::Buffer& b = c.k.buffer(dst);
  std::string type = EmitContext::cppType(b.dtype);
  int64_t be = EmitContext::blockElems(b.dtype);
  std::string cols = c.extent(prm.shape[1]), name = c.localPrefix(c.bufferName(dst));
  std::string aligned = fmt::format("TcAlignUp({}, {})", cols, be);
  p.line(fmt::format("DataCopyExtParams {}Params{{1, static_cast<uint32_t>({} * sizeof({})), 0, 0, 0}};", name, cols,
                     type));
  p.line(fmt::format("DataCopyPadExtParams<{}> {}Pad{{true, 0, static_cast<uint8_t>({} - {}), static_cast<{}>({})}};",
                     type, name, aligned, cols, type, EmitContext::floatLiteral(n.padValue)));
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", c.inner(index)));
  p.line(fmt::format("const int64_t row = {}.GetValue(i);", c.tensor(index)));
  p.line(fmt::format("DataCopyPad({}[i * {}], {}[row * {}], {}Params, {}Pad);", c.tensor(dst), c.pitch(dst),
                     c.gmMember(n.ref), cols, name, name));
  p.close();
}

}  // namespace

static void emitLoadPlane(EmitContext& c, CodePrinter& p, const ir::Node& n, const GmView& v, const std::string& gm,
                          const std::string& local);

// A load whose slice may run past the tensor's end (tiling's `valid`) reads only the elements inside; the rest of
// the buffer reads as the load's pad (docs/language.md §16). When the copy is short, the vector unit fills the
// whole buffer with pad first and MTE2 copies over it (V_MTE2 between the two writes). Opens the block the copy
// runs in, which is skipped when nothing is inside; the caller closes it.
static void boundedLoadFill(EmitContext& c, CodePrinter& p, const ir::Node& n, const GmView& v) {
  const ir::Buffer& b = c.k.buffer(n.dst);
  std::string type = EmitContext::cppType(b.dtype);
  p.open(fmt::format("if ({})", v.fill));
  p.line(fmt::format("Duplicate({}, static_cast<{}>({}), static_cast<int32_t>({}));", c.tensor(n.dst), type,
                     EmitContext::floatLiteral(n.padValue), b.bytes * 8 / std::max(8, dsl::dtypeBits(b.dtype))));
  p.line("SetFlag<HardEvent::V_MTE2>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);");
  p.close();
  p.open(fmt::format("if ({} > 0)", v.valid));
}

void emitLoad(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  if (!n.srcs.empty()) return gatherLoad(c, p, n);
  GmView v = gmView(c, n);
  if (!v.ok) return c.unsupported(n, v.problem);
  if (c.k.buffer(n.dst).mem == dsl::Mem::L1) {
    if (v.planes != "1") return c.unsupported(n, "loads of three-dimensional views to L1");
    return emitNd2Nz(c, p, n, {v.offset, v.rows, v.cols, v.rowStride});  // emit_cube.cpp
  }
  ir::BufferId dst = n.dst;
  std::string gm = fmt::format("{}[{}]", c.gmMember(n.ref), v.offset);
  std::string local = c.tensor(dst);
  if (!v.valid.empty()) boundedLoadFill(c, p, n, v);
  if (v.planes != "1") {
    // One copy per plane of the view; the planes' rows follow each other in UB.
    p.open(fmt::format("for (int64_t k = 0; k < {}; ++k)", v.planes));
    gm = fmt::format("{}[{} + {}]", c.gmMember(n.ref), v.offset, v.planeOffset);
    local = fmt::format("{}[{} * {} * {}]", c.tensor(dst), v.ubPlane, v.ubRows, c.pitch(dst));
  }
  emitLoadPlane(c, p, n, v, gm, local);
  if (v.planes != "1") p.close();
  if (!v.valid.empty()) p.close();
}

static void emitLoadPlane(EmitContext& c, CodePrinter& p, const ir::Node& n, const GmView& v, const std::string& gm,
                          const std::string& local) {
  ir::BufferId dst = n.dst;
  const ir::Buffer& b = c.k.buffer(dst);
  std::string type = EmitContext::cppType(b.dtype);
  int64_t be = EmitContext::blockElems(b.dtype);
  std::string name = c.localPrefix(c.bufferName(dst));
  if (n.tail) {
    std::string aligned = fmt::format("TcAlignUp({}, {})", v.cols, be);
    std::string gmGap = minus(v.rowStride, v.cols), ubGap = minus(c.pitch(dst), aligned);
    std::string srcGap = v.rows == "1" || gmGap == "0" ? "0" : fmt::format("{} * sizeof({})", gmGap, type);
    std::string dstGap = v.rows == "1" || ubGap == "0" ? "0" : fmt::format("{} / {}", ubGap, be);
    p.line(
        fmt::format("DataCopyExtParams {}Params{{static_cast<uint16_t>({}), static_cast<uint32_t>({} * sizeof({})), "
                    "static_cast<uint32_t>({}), static_cast<uint32_t>({}), 0}};",
                    name, v.rows, v.cols, type, srcGap, dstGap));
    p.line(fmt::format("DataCopyPadExtParams<{}> {}Pad{{true, 0, static_cast<uint8_t>({} - {}), {}}};", type, name,
                       aligned, v.cols,
                       fmt::format("static_cast<{}>({})", type, EmitContext::floatLiteral(n.padValue))));
    p.line(fmt::format("DataCopyPad({}, {}, {}Params, {}Pad);", local, gm, name, name));
    return;
  }
  if (v.rows == "1") {
    p.line(fmt::format("DataCopy({}, {}, static_cast<uint32_t>({}));", local, gm, v.cols));
    return;
  }
  p.line(
      fmt::format("DataCopyParams {}Params{{static_cast<uint16_t>({}), static_cast<uint16_t>({} * sizeof({}) / 32), "
                  "static_cast<uint16_t>(({} - {}) * sizeof({}) / 32), static_cast<uint16_t>(({} - {}) / {})}};",
                  name, v.rows, v.cols, type, v.rowStride, v.cols, type, c.pitch(dst), v.cols, be));
  p.line(fmt::format("DataCopy({}, {}, {}Params);", local, gm, name));
}

void emitStore(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  ir::BufferId src = n.srcs.at(0);
  const ir::Buffer& b = c.k.buffer(src);
  if (b.mem == dsl::Mem::L0C) {
    GmView f = gmView(c, n);
    if (!f.ok) return c.unsupported(n, f.problem);
    if (f.planes != "1") return c.unsupported(n, "stores of three-dimensional views");
    return emitFixpipe(c, p, n, {f.offset, f.rows, f.cols, f.rowStride});  // emit_cube.cpp
  }
  if (b.mem != dsl::Mem::UB) return c.unsupported(n, "stores from L0C (Fixpipe, the cube path)");
  if (b.dtype != c.k.params[n.ref].dtype) return c.unsupported(n, "a store that converts its dtype");
  GmView v = gmView(c, n);
  if (!v.ok) return c.unsupported(n, v.problem);
  std::string type = EmitContext::cppType(b.dtype);
  int64_t be = EmitContext::blockElems(b.dtype);
  std::string name = c.localPrefix(c.bufferName(src));
  std::string gm = fmt::format("{}[{}]", c.gmMember(n.ref), v.offset);
  std::string local = c.tensor(src);
  // Outputs stored with accumulate=True start from zero (the launcher's GmAlloc) and add atomically.
  if (n.accumulate) p.line(fmt::format("SetAtomicAdd<{}>();", type));
  // A slice that may run past the tensor's end stores only the elements inside (the rest is dropped).
  if (!v.valid.empty()) p.open(fmt::format("if ({} > 0)", v.valid));
  if (v.planes != "1") {
    // One copy per plane of the view, as loads do: the planes' rows follow each other in UB.
    p.open(fmt::format("for (int64_t k = 0; k < {}; ++k)", v.planes));
    gm = fmt::format("{}[{} + {}]", c.gmMember(n.ref), v.offset, v.planeOffset);
    local = fmt::format("{}[{} * {} * {}]", c.tensor(src), v.ubPlane, v.ubRows, c.pitch(src));
  }
  if (n.tail) {
    std::string aligned = fmt::format("TcAlignUp({}, {})", v.cols, be);
    std::string gmGap = minus(v.rowStride, v.cols), ubGap = minus(c.pitch(src), aligned);
    std::string srcGap = v.rows == "1" || ubGap == "0" ? "0" : fmt::format("{} / {}", ubGap, be);
    std::string dstGap = v.rows == "1" || gmGap == "0" ? "0" : fmt::format("{} * sizeof({})", gmGap, type);
    p.line(
        fmt::format("DataCopyExtParams {}Params{{static_cast<uint16_t>({}), static_cast<uint32_t>({} * sizeof({})), "
                    "static_cast<uint32_t>({}), static_cast<uint32_t>({}), 0}};",
                    name, v.rows, v.cols, type, srcGap, dstGap));
    p.line(fmt::format("DataCopyPad({}, {}, {}Params);", gm, local, name));
  } else if (v.rows == "1") {
    p.line(fmt::format("DataCopy({}, {}, static_cast<uint32_t>({}));", gm, local, v.cols));
  } else {
    p.line(
        fmt::format("DataCopyParams {}Params{{static_cast<uint16_t>({}), static_cast<uint16_t>({} * sizeof({}) / 32), "
                    "static_cast<uint16_t>(({} - {}) / {}), static_cast<uint16_t>(({} - {}) * sizeof({}) / 32)}};",
                    name, v.rows, v.cols, type, c.pitch(src), v.cols, be, v.rowStride, v.cols, type));
    p.line(fmt::format("DataCopy({}, {}, {}Params);", gm, local, name));
  }
  if (v.planes != "1") p.close();
  if (!v.valid.empty()) p.close();
  if (n.accumulate) p.line("SetAtomicNone();");
}

}  // namespace tilecraft::codegen::detail
