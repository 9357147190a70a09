// The cube path. Layouts (C0 = 32 bytes of elements; a fractal is 16 rows x C0 = 512 bytes):
//   L1   NZ: an (R, C) tile as C0-column strips of alignUp(R_max, 16) rows each (Nd2Nz, dstNzC0Stride = the
//        padded row bound, so the fractal of row block r and strip s is number s * R_max / 16 + r whatever the
//        tile's current length). Nd2Nz zero-fills each row up to its strip's end; padding rows stay unwritten.
//   L0A  Zz over the current tile: A(i, k) in fractal (i / 16) * K1 + k / 16, rows of 16 inside.
//   L0B  Zn over the current tile: B(k, j) in fractal (k / 16) * N1 + j / 16, each fractal transposed (j, k).
//   L0C  NZ: C(i, j) at (j / 16) * M1 * 256 + i * 16 + j % 16.
// M1, N1, K1 are the current tile's extents rounded up to 16, so LoadData packs exactly what Mmad reads and Fixpipe
// writes only the valid m x n. The pipes are ordered by the TQue protocol the official samples use: A1/B1 (MTE2 ->
// MTE1, from queue insertion), A2/B2 (MTE1 -> M) and CO1 (M -> FIX) around each LoadData, Mmad and Fixpipe here.
#include "codegen/emit_cube.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/check.h"

namespace tilecraft::codegen::detail {

using ir::BufferId;
using ir::NodeKind;

namespace {

bool onCube(dsl::Mem m) { return m == dsl::Mem::L1 || m == dsl::Mem::L0A || m == dsl::Mem::L0B || m == dsl::Mem::L0C; }

// The upper bound of an extent (tile size, dim max or constant).
int64_t bound(const ir::Extent& e) { return e.value; }

std::string u16(const std::string& v) { return fmt::format("static_cast<uint16_t>({})", v); }

// The fractal count of a current extent: TcCdiv(len, 16).
std::string blocks16(const std::string& len) {
  if (len.find_first_not_of("0123456789") == std::string::npos) return std::to_string((std::stoll(len) + 15) / 16);
  return fmt::format("TcCdiv({}, 16)", len);
}

std::string padded16(const std::string& len) {
  if (len.find_first_not_of("0123456789") == std::string::npos) return std::to_string((std::stoll(len) + 15) / 16 * 16);
  return fmt::format("TcAlignUp({}, 16)", len);
}

const char* quantFor(ir::DType to) {
  switch (to) {
    case ir::DType::F16: return "QuantMode_t::F322F16";
    case ir::DType::BF16: return "QuantMode_t::F322BF16";
    default: return nullptr;
  }
}

// L1 -> L0A / L0B. `transpose` means the L1 tile holds the operand turned around ((K, M) for A, (N, K) for B).
void loadToL0(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, src = n.srcs[0];
  const ir::Buffer& d = c.k.buffer(dst);
  const ir::Buffer& s = c.k.buffer(src);
  std::string type = EmitContext::cppType(d.dtype);
  std::string name = c.localPrefix(c.bufferName(dst)), local = c.tensor(dst), from = c.tensor(src);
  int64_t srcBlocks = bound(s.shape[0]) / 16;  // fractals per strip in L1 (its padded row bound / 16)
  bool toA = d.mem == dsl::Mem::L0A;
  // Zz (L0A) walks row blocks of the (M, K) operand, Zn (L0B) the K blocks of the (K, N) operand; each row of the
  // walk is one LoadData of `inner` fractals.
  std::string outer = blocks16(c.extent(d.shape[0])), inner = blocks16(c.extent(d.shape[1]));
  // In L1 NZ the fractal of row block r and strip s is s * srcBlocks + r. A (i, k) walks i with stride srcBlocks
  // along k; a transposed A^T (k, i) starts at i * srcBlocks and steps by 1. B (k, j) walks k with stride srcBlocks
  // along j, each fractal transposed into Zn's (j, k); a transposed B^T (j, k) already holds Zn's fractal content.
  std::string start = n.transpose ? fmt::format("i * {}", srcBlocks) : "i";
  std::string stride = n.transpose ? "1" : std::to_string(srcBlocks);
  bool fractalTranspose = toA ? n.transpose : !n.transpose;
  p.line(fmt::format("{} = {}.AllocTensor<{}>();", local, c.queueMember(dst), type));
  p.line(fmt::format("const int64_t {}Inner = {};", name, inner));
  p.open(fmt::format("for (int64_t i = 0; i < {}; ++i)", outer));
  p.line(fmt::format("LoadData2DParams {}Load;", name));
  p.line(fmt::format("{}Load.startIndex = {};", name, u16(start)));
  p.line(fmt::format("{}Load.repeatTimes = static_cast<uint8_t>({}Inner);", name, name));
  p.line(fmt::format("{}Load.srcStride = {};", name, stride));
  p.line(fmt::format("{}Load.ifTranspose = {};", name, fractalTranspose ? "true" : "false"));
  p.line(fmt::format("LoadData({}[i * {}Inner * 256], {}, {}Load);", local, name, from, name));
  p.close();
  p.line(fmt::format("{}.EnQue({});", c.queueMember(dst), local));
}

void matmul(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, a = n.srcs[0], b = n.srcs[1];
  const ir::Buffer& bufA = c.k.buffer(a);
  const ir::Buffer& bufB = c.k.buffer(b);
  std::string ta = EmitContext::cppType(bufA.dtype), tb = EmitContext::cppType(bufB.dtype);
  std::string name = c.localPrefix(c.bufferName(dst));
  if (!n.accumulate) {
    p.line(fmt::format("{} = {}.AllocTensor<{}>();", c.tensor(dst), c.queueMember(dst),
                       EmitContext::cppType(c.k.buffer(dst).dtype)));
    p.line(fmt::format("{}Fresh_ = true;", name));
  }
  p.line(fmt::format("{} = {}.DeQue<{}>();", c.tensor(a), c.queueMember(a), ta));
  p.line(fmt::format("{} = {}.DeQue<{}>();", c.tensor(b), c.queueMember(b), tb));
  p.line(fmt::format("MmadParams {}Mmad;", name));
  p.line(fmt::format("{}Mmad.m = {};", name, u16(c.extent(bufA.shape[0]))));
  p.line(fmt::format("{}Mmad.n = {};", name, u16(c.extent(bufB.shape[1]))));
  p.line(fmt::format("{}Mmad.k = {};", name, u16(c.extent(bufA.shape[1]))));
  p.line(fmt::format("{}Mmad.cmatrixInitVal = {}Fresh_;  // the first product starts from zero", name, name));
  p.line(fmt::format("Mmad({}, {}, {}, {}Mmad);", c.tensor(dst), c.tensor(a), c.tensor(b), name));
  p.line(fmt::format("{}Fresh_ = false;", name));
  p.line(fmt::format("{}.FreeTensor({});", c.queueMember(a), c.tensor(a)));
  p.line(fmt::format("{}.FreeTensor({});", c.queueMember(b), c.tensor(b)));
}

// The accumulator's M -> FIX hand-over before a Fixpipe reads it.
void dequeAcc(EmitContext& c, CodePrinter& p, BufferId acc) {
  p.line(fmt::format("{}.EnQue({});", c.queueMember(acc), c.tensor(acc)));
  p.line(fmt::format("{} = {}.DeQue<{}>();", c.tensor(acc), c.queueMember(acc),
                     EmitContext::cppType(c.k.buffer(acc).dtype)));
}

// The vector side of copy(acc, to=UB): this vector core's rows of the cube core's tile, from its workspace slot.
void workspaceLoad(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  BufferId dst = n.dst, acc = n.srcs[0];
  const ir::Buffer& a = c.k.buffer(acc);
  std::string name = c.localPrefix(c.bufferName(dst)), cols = c.extent(a.shape.back());
  std::string aligned = fmt::format("TcAlignUp({}, 8)", cols);
  int64_t slotCols = bound(a.shape.back());
  std::string rows = c.rows(dst);
  // The vector pipe may still read this UB (the previous tile); the vector ops below read what MTE2 writes.
  p.line("SetFlag<HardEvent::V_MTE2>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);");
  p.line(
      fmt::format("DataCopyExtParams {}Params{{static_cast<uint16_t>({}), static_cast<uint32_t>({} * sizeof(float)), "
                  "static_cast<uint32_t>(({} - {}) * sizeof(float)), static_cast<uint32_t>(({} - {}) / 8), 0}};",
                  name, rows, cols, slotCols, cols, c.pitch(dst), aligned));
  p.line(fmt::format("DataCopyPadExtParams<float> {}Pad{{true, 0, static_cast<uint8_t>({} - {}), 0.0f}};", name,
                     aligned, cols));
  p.line(fmt::format("DataCopyPad({}, workspaceGm_[cubeBlock_ * {} + subRowOffset_ * {}], {}Params, {}Pad);",
                     c.tensor(dst), workspaceSlotElems(c.k), slotCols, name, name));
  p.line("SetFlag<HardEvent::MTE2_V>(EVENT_ID0);");
  p.line("WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);");
}

}  // namespace

bool isCubeOp(const EmitContext& c, const ir::Node& n) {
  switch (n.kind) {
    case NodeKind::Matmul: return true;
    case NodeKind::Fill: return c.k.buffer(n.dst).mem == dsl::Mem::L0C;
    case NodeKind::Copy: return onCube(c.k.buffer(n.dst).mem) || c.k.buffer(n.srcs[0]).mem == dsl::Mem::L0C;
    default: return false;
  }
}

void emitCubeOp(EmitContext& c, CodePrinter& p, const ir::Node& n) {
  switch (n.kind) {
    case NodeKind::Fill: {
      const ir::Node& v = c.k.node(n.args[0]);
      bool zero =
          (v.kind == NodeKind::FloatConst && v.floatValue == 0.0) || (v.kind == NodeKind::IntConst && v.intValue == 0);
      if (!zero) return c.unsupported(n, "an L0C accumulator that starts from a value other than zero");
      // zeros(mem=L0C) is no instruction: the next Mmad starts from zero (cmatrixInitVal).
      p.line(fmt::format("{} = {}.AllocTensor<{}>();", c.tensor(n.dst), c.queueMember(n.dst),
                         EmitContext::cppType(c.k.buffer(n.dst).dtype)));
      p.line(fmt::format("{}Fresh_ = true;", c.bufferName(n.dst)));
      return;
    }
    case NodeKind::Copy: {
      const ir::Buffer& src = c.k.buffer(n.srcs[0]);
      if (src.mem == dsl::Mem::L0C) return workspaceLoad(c, p, n);
      if (dsl::dtypeBits(src.dtype) != 16) {
        return c.unsupported(n, fmt::format("matmul operands of type {} (LoadData transposes 2-byte fractals only)",
                                            dsl::dtypeName(src.dtype)));
      }
      return loadToL0(c, p, n);
    }
    case NodeKind::Matmul: return matmul(c, p, n);
    default: return c.unsupported(n, fmt::format("a {} on the cube", ir::nodeKindName(n.kind)));
  }
}

void emitNd2Nz(EmitContext& c, CodePrinter& p, const ir::Node& load, const CubeView& v) {
  BufferId dst = load.dst;
  const ir::Buffer& b = c.k.buffer(dst);
  std::string name = c.localPrefix(c.bufferName(dst));
  std::string srcD = v.rows == "1" ? v.cols : v.rowStride;
  // ndNum 1; nValue rows; dValue cols; srcNdMatrixStride 0; srcDValue the GM row pitch; dstNzC0Stride the padded
  // row bound (strip pitch in 32-byte rows); dstNzNStride 1; dstNzMatrixStride 0.
  p.line(fmt::format("Nd2NzParams {}Nd2Nz{{1, {}, {}, 0, {}, {}, 1, 0}};", name, u16(v.rows), u16(v.cols), u16(srcD),
                     bound(b.shape[0])));
  p.line(fmt::format("DataCopy({}, {}[{}], {}Nd2Nz);", c.tensor(dst), c.gmMember(load.ref), v.offset, name));
}

void emitFixpipe(EmitContext& c, CodePrinter& p, const ir::Node& store, const CubeView& v) {
  BufferId acc = store.srcs[0];
  const ir::Buffer& a = c.k.buffer(acc);
  ir::DType to = c.k.params[store.ref].dtype;
  if (store.accumulate) return c.unsupported(store, "accumulate=True stores from L0C");
  const char* quant = nullptr;
  if (to != a.dtype) {
    quant = a.dtype == ir::DType::F32 ? quantFor(to) : nullptr;
    if (!quant) {
      return c.unsupported(
          store, fmt::format("a store from L0C converting {} to {}", dsl::dtypeName(a.dtype), dsl::dtypeName(to)));
    }
  }
  std::string name = c.localPrefix(c.bufferName(acc) + "Fix");
  std::string dstStride = v.rows == "1" ? v.cols : v.rowStride;
  dequeAcc(c, p, acc);
  // NZ -> ND: nSize columns of mSize rows; srcStride is the L0C strip height (the Mmad's m rounded up to 16).
  p.line(fmt::format("FixpipeParamsV220 {}{{{}, {}, {}, static_cast<uint32_t>({}), false}};", name, u16(v.cols),
                     u16(v.rows), u16(padded16(c.extent(a.shape[0]))), dstStride));
  if (quant) p.line(fmt::format("{}.quantPre = {};", name, quant));
  p.line(fmt::format("Fixpipe({}[{}], {}, {});", c.gmMember(store.ref), v.offset, c.tensor(acc), name));
  p.line(fmt::format("{}.FreeTensor({});", c.queueMember(acc), c.tensor(acc)));
}

bool isCubeStage(const ir::Kernel& k, ir::NodeId stage) {
  for (ir::NodeId id : k.node(stage).body) {
    const ir::Node& n = k.node(id);
    if (ir::isSyncKind(n.kind)) {
      if (onCube(k.buffer(n.srcs[0]).mem)) return true;
      continue;
    }
    if (!ir::isTileOpKind(n.kind)) continue;
    if (n.kind == NodeKind::Copy && k.buffer(n.srcs[0]).mem == dsl::Mem::L0C) continue;
    if (n.dst != ir::kNone && onCube(k.buffer(n.dst).mem)) return true;
    for (BufferId s : n.srcs) {
      if (onCube(k.buffer(s).mem)) return true;
    }
  }
  return false;
}

ir::NodeId workspaceCopy(const ir::Kernel& k, ir::NodeId stage) {
  for (ir::NodeId id : k.node(stage).body) {
    const ir::Node& n = k.node(id);
    if (n.kind == NodeKind::Copy && k.buffer(n.srcs[0]).mem == dsl::Mem::L0C) return id;
  }
  return ir::kNone;
}

void emitWorkspaceStore(EmitContext& c, CodePrinter& p, const ir::Node& copy) {
  BufferId acc = copy.srcs[0];
  const ir::Buffer& a = c.k.buffer(acc);
  std::string name = c.localPrefix(c.bufferName(acc) + "Fix"), rows = c.extent(a.shape[0]),
              cols = c.extent(a.shape.back());
  int64_t slotCols = bound(a.shape.back());
  dequeAcc(c, p, acc);
  p.line(fmt::format("FixpipeParamsV220 {}{{{}, {}, {}, {}, false}};", name, u16(cols), u16(rows), u16(padded16(rows)),
                     slotCols));
  p.line(fmt::format("Fixpipe(workspaceGm_[cubeBlock_ * {}], {}, {});", workspaceSlotElems(c.k), c.tensor(acc), name));
  p.line(fmt::format("{}.FreeTensor({});", c.queueMember(acc), c.tensor(acc)));
}

uint32_t sharedRowLoop(const ir::Kernel& k) {
  for (const ir::Node& n : k.nodes) {
    if (n.kind != NodeKind::Copy || k.buffer(n.srcs[0]).mem != dsl::Mem::L0C) continue;
    const ir::Buffer& a = k.buffer(n.srcs[0]);
    if (a.shape.size() == 2 && a.shape[0].kind == ir::Extent::Kind::Tile) return a.shape[0].ref;
  }
  return ir::kNone;
}

int64_t workspaceSlotElems(const ir::Kernel& k) {
  int64_t most = 0;
  for (const ir::Node& n : k.nodes) {
    if (n.kind != NodeKind::Copy || k.buffer(n.srcs[0]).mem != dsl::Mem::L0C) continue;
    int64_t elems = 1;
    for (const ir::Extent& e : k.buffer(n.srcs[0]).shape) elems *= bound(e);
    most = std::max(most, elems);
  }
  return most;
}

bool checkCubeBuffers(EmitContext& c) {
  for (BufferId b = 0; b < c.k.buffers.size(); ++b) {
    const ir::Buffer& buf = c.k.buffer(b);
    if (!onCube(buf.mem)) continue;
    bool fits = buf.shape.size() == 2;
    std::string dims;
    for (const ir::Extent& e : buf.shape) {
      fits = fits && e.bounded() && bound(e) % 16 == 0;
      dims += (dims.empty() ? "" : " x ") + (e.bounded() ? std::to_string(bound(e)) : std::string("unbounded"));
    }
    if (fits) continue;
    // One error, at the first op that writes the first such tile.
    for (const ir::Node& n : c.k.nodes) {
      if (n.dst == b && ir::isTileOpKind(n.kind)) {
        c.unsupported(n, fmt::format("cube tiles whose extents are not multiples of 16 (the fractal size): '{}' in {} "
                                     "is {}",
                                     buf.name, dsl::memName(buf.mem), dims));
        return false;
      }
    }
    return false;
  }
  return true;
}

}  // namespace tilecraft::codegen::detail
