#include "ir/verifier.h"

#include <fmt/format.h>

#include <array>
#include <set>

#include "ir/builder.h"
#include "ir/row_form.h"

namespace tilecraft::ir {

namespace {

class Verifier {
 public:
  explicit Verifier(const Kernel& k) : k_(k), defined_(k.buffers.size(), false) {}

  std::vector<std::string> run() {
    if (k_.body == kNone || k_.body >= k_.nodes.size() || k_.node(k_.body).kind != NodeKind::Block) {
      errors_.push_back(fmt::format("{}: the kernel body is not a Block", k_.name));
      return errors_;
    }
    for (NodeId s : k_.node(k_.body).body) stmt(s, nullptr);
    for (const Param& p : k_.params) {
      // A tensor the kernel writes must not be read around L2: L2 may still hold the newer bytes.
      if (p.streamed && p.role != TensorRole::In) {
        errors_.push_back(
            fmt::format("{}: tensor {} is streamed around L2 but is {}, not in", k_.name, p.name, roleName(p.role)));
      }
    }
    checkForms();
    checkPlan();
    checkPipe();
    return errors_;
  }

 private:
  void fail(NodeId id, const std::string& message) {
    const Node& n = k_.node(id);
    std::string what = nodeKindName(n.kind);
    if (n.op != Op::None) what += std::string(" ") + opName(n.op);
    std::string where = n.line ? fmt::format(" (line {})", n.line) : "";
    errors_.push_back(fmt::format("{}: {} #{}{}: {}", k_.name, what, id, where, message));
  }

  bool bufferOk(NodeId id, BufferId b) {
    if (b < k_.buffers.size()) return true;
    fail(id, fmt::format("buffer id {} out of range ({} buffers)", b, k_.buffers.size()));
    return false;
  }

  std::string name(BufferId b) const { return "%" + k_.buffers[b].name; }

  // A scalar tree is as deep as the longest operator chain of the source: walked with a stack (ir/scalar_walk.h).
  void scalar(NodeId owner, NodeId root) {
    std::vector<NodeId> pending{root};
    while (!pending.empty()) {
      NodeId id = pending.back();
      pending.pop_back();
      if (!scalarNode(owner, id)) continue;
      const std::vector<NodeId>& args = k_.node(id).args;
      for (size_t i = args.size(); i-- > 0;) pending.push_back(args[i]);
    }
  }

  // Checks one node of a scalar tree; false when it is not a scalar node (its operands are not visited).
  bool scalarNode(NodeId owner, NodeId id) {
    if (id >= k_.nodes.size() || !isScalarKind(k_.node(id).kind)) {
      fail(owner, fmt::format("operand #{} is not a scalar expression", id));
      return false;
    }
    const Node& n = k_.node(id);
    if (n.kind == NodeKind::LoopField && !openLoops_.count(n.ref)) {
      fail(owner, fmt::format("uses loop '{}' outside its body", k_.loops.at(n.ref).name));
    }
    if (n.kind == NodeKind::SplitField && !splitsSeen_.count(n.ref)) {
      fail(owner, fmt::format("uses split '{}' before it is made", k_.splits.at(n.ref).name));
    }
    if (n.kind == NodeKind::VarRef) {
      const Var& v = k_.vars.at(n.ref);
      if (!v.inTiling() && !varsSeen_.count(n.ref)) fail(owner, fmt::format("uses '{}' before it is defined", v.name));
    }
    return true;
  }

  void read(NodeId id, BufferId b) {
    if (!bufferOk(id, b)) return;
    if (!defined_[b]) fail(id, fmt::format("reads {} before it is written", name(b)));
  }

  void write(NodeId id, BufferId b) {
    if (bufferOk(id, b)) defined_[b] = true;
  }

  void memIs(NodeId id, BufferId b, std::initializer_list<Mem> mems, const char* role) {
    if (!bufferOk(id, b)) return;
    for (Mem m : mems) {
      if (k_.buffers[b].mem == m) return;
    }
    std::string allowed;
    for (Mem m : mems) allowed += (allowed.empty() ? "" : " or ") + std::string(dsl::memName(m));
    fail(id, fmt::format("{} {} is in {}; this op needs {}", role, name(b), dsl::memName(k_.buffers[b].mem), allowed));
  }

  void sameDtype(NodeId id, BufferId a, BufferId b) {
    if (!bufferOk(id, a) || !bufferOk(id, b)) return;
    if (k_.buffers[a].dtype != k_.buffers[b].dtype) {
      fail(id, fmt::format("dtypes differ: {} is {}, {} is {}", name(a), dsl::dtypeName(k_.buffers[a].dtype), name(b),
                           dsl::dtypeName(k_.buffers[b].dtype)));
    }
  }

  void sameShape(NodeId id, BufferId a, BufferId b) {
    if (!bufferOk(id, a) || !bufferOk(id, b)) return;
    if (!Builder::sameShape(k_.buffers[a].shape, k_.buffers[b].shape)) {
      fail(id, fmt::format("shapes differ: {} and {}", name(a), name(b)));
    }
  }

  void access(NodeId id, const Node& n) {
    if (n.ref >= k_.params.size() || k_.params[n.ref].shape.empty()) {
      fail(id, "the GM operand is not a tensor parameter");
      return;
    }
    if (n.access.size() != k_.params[n.ref].shape.size()) {
      fail(id, fmt::format("{} indices for a {}-d tensor", n.access.size(), k_.params[n.ref].shape.size()));
    }
    for (const GmIndex& g : n.access) {
      if (g.kind == GmIndex::Kind::Tile && !openLoops_.count(g.loop))
        fail(id, "indexes with a tile loop outside its body");
      if (g.kind == GmIndex::Kind::Point || g.kind == GmIndex::Kind::Slice) scalar(id, g.lo);
      if (g.valid != kNone) scalar(id, g.valid);
    }
  }

  void expectStage(NodeId id, const Node* stage, Stage want) {
    if (!stage) {
      fail(id, fmt::format("must be inside a {} stage", stageName(want)));
    } else if (stage->stage != want) {
      fail(id, fmt::format("is in a {} stage; it belongs in {}", stageName(stage->stage), stageName(want)));
    }
  }

  void op(NodeId id, const Node& n, const Node* stage) {
    tileOps_.push_back(id);
    for (NodeId a : n.args) scalar(id, a);
    for (BufferId s : n.srcs) read(id, s);
    switch (n.kind) {
      case NodeKind::Load:
        expectStage(id, stage, Stage::CopyIn);
        access(id, n);
        memIs(id, n.dst, {Mem::UB, Mem::L1}, "destination");
        if (bufferOk(id, n.dst) && n.ref < k_.params.size() && k_.buffers[n.dst].dtype != k_.params[n.ref].dtype) {
          fail(id, "a load keeps the tensor's dtype");
        }
        break;
      case NodeKind::Store:
        expectStage(id, stage, Stage::CopyOut);
        access(id, n);
        if (!n.srcs.empty()) memIs(id, n.srcs[0], {Mem::UB, Mem::L0C}, "source");
        break;
      case NodeKind::Copy:
        expectStage(id, stage, Stage::Compute);
        sameDtype(id, n.dst, n.srcs.at(0));
        if (n.transpose) memIs(id, n.dst, {Mem::L0A, Mem::L0B}, "transposed destination");
        break;
      case NodeKind::Matmul:
        expectStage(id, stage, Stage::Compute);
        memIs(id, n.dst, {Mem::L0C}, "accumulator");
        memIs(id, n.srcs.at(0), {Mem::L0A}, "left operand");
        memIs(id, n.srcs.at(1), {Mem::L0B}, "right operand");
        if (n.accumulate) read(id, n.dst);
        break;
      case NodeKind::Fill:
        expectStage(id, stage, Stage::Compute);
        memIs(id, n.dst, {Mem::UB, Mem::L0C}, "destination");
        break;
      default:
        // Vector ops: UB in and out, in a compute stage.
        expectStage(id, stage, Stage::Compute);
        memIs(id, n.dst, {Mem::UB}, "destination");
        for (BufferId s : n.srcs) memIs(id, s, {Mem::UB}, "operand");
        vectorTypes(id, n);
        break;
    }
    if (n.work != kNone) {
      if (bufferOk(id, n.work) && k_.buffers[n.work].kind != BufferKind::Work) {
        fail(id, fmt::format("work buffer {} is not marked as work", name(n.work)));
      }
      write(id, n.work);
    }
    if (n.dst != kNone) write(id, n.dst);
  }

  void vectorTypes(NodeId id, const Node& n) {
    switch (n.kind) {
      case NodeKind::Unary:
      case NodeKind::BinaryScalar:
      case NodeKind::Scan:
        sameDtype(id, n.dst, n.srcs.at(0));
        sameShape(id, n.dst, n.srcs.at(0));
        break;
      case NodeKind::Binary:
        for (BufferId s : n.srcs) {
          sameDtype(id, n.dst, s);
          if (bufferOk(id, s) && bufferOk(id, n.dst) &&
              !Builder::broadcastsTo(k_.buffers[s].shape, k_.buffers[n.dst].shape)) {
            fail(id, fmt::format("{} does not broadcast to {}", name(s), name(n.dst)));
          }
        }
        break;
      case NodeKind::Select:
        sameDtype(id, n.dst, n.srcs.at(1));
        sameDtype(id, n.dst, n.srcs.at(2));
        if (bufferOk(id, n.srcs[0]) && k_.buffers[n.srcs[0]].dtype != DType::Bool) fail(id, "the mask is not bool");
        break;
      case NodeKind::Compare:
        if (bufferOk(id, n.dst) && k_.buffers[n.dst].dtype != DType::Bool) fail(id, "a comparison writes a bool mask");
        if (n.srcs.size() == 2) sameDtype(id, n.srcs[0], n.srcs[1]);
        break;
      case NodeKind::Cast:
        if (bufferOk(id, n.dst) && bufferOk(id, n.srcs.at(0)) &&
            !dsl::castSupported(k_.buffers[n.srcs[0]].dtype, k_.buffers[n.dst].dtype)) {
          fail(id, fmt::format("no direct cast {} -> {}", dsl::dtypeName(k_.buffers[n.srcs[0]].dtype),
                               dsl::dtypeName(k_.buffers[n.dst].dtype)));
        }
        break;
      case NodeKind::Broadcast:
        sameDtype(id, n.dst, n.srcs.at(0));
        if (bufferOk(id, n.dst) && bufferOk(id, n.srcs[0]) &&
            !Builder::broadcastsTo(k_.buffers[n.srcs[0]].shape, k_.buffers[n.dst].shape)) {
          fail(id, fmt::format("{} does not broadcast to {}", name(n.srcs[0]), name(n.dst)));
        }
        break;
      case NodeKind::Reduce:
        if (n.op != Op::Argmax && n.op != Op::Argmin) sameDtype(id, n.dst, n.srcs.at(0));
        break;
      default: break;
    }
  }

  void body(const std::vector<NodeId>& stmts, const Node* stage) {
    for (NodeId s : stmts) stmt(s, stage);
  }

  void stmt(NodeId id, const Node* stage) {
    if (id >= k_.nodes.size()) {
      errors_.push_back(fmt::format("{}: statement id {} out of range", k_.name, id));
      return;
    }
    const Node& n = k_.node(id);
    if (isScalarKind(n.kind)) {
      fail(id, "a scalar expression is not a statement");
      return;
    }
    if (isTileOpKind(n.kind)) {
      op(id, n, stage);
      return;
    }
    if (isSyncKind(n.kind)) {
      if (!n.srcs.empty() && bufferOk(id, n.srcs[0])) sync(id, n);
      return;
    }
    if (stage && n.kind != NodeKind::ScalarDef) {
      fail(id, fmt::format("a {} stage holds straight-line ops only", stageName(stage->stage)));
      return;
    }
    switch (n.kind) {
      case NodeKind::Stage: body(n.body, &n); return;
      case NodeKind::CoreSplit:
        for (NodeId a : n.args) scalar(id, a);
        splitsSeen_.insert(n.ref);
        return;
      case NodeKind::TileLoop:
      case NodeKind::RangeLoop:
        for (size_t i = 0; i < n.args.size(); ++i) {
          // The count and tail belong to the loop itself.
          if (i >= 2 && n.kind == NodeKind::TileLoop) openLoops_.insert(n.ref);
          scalar(id, n.args[i]);
        }
        openLoops_.insert(n.ref);
        body(n.body, nullptr);
        openLoops_.erase(n.ref);
        return;
      case NodeKind::If:
        scalar(id, n.args.at(0));
        body(n.body, nullptr);
        body(n.orelse, nullptr);
        return;
      case NodeKind::Block: body(n.body, nullptr); return;
      case NodeKind::ScalarDef:
        scalar(id, n.args.at(0));
        varsSeen_.insert(n.ref);
        return;
      default: fail(id, "not a statement"); return;
    }
  }

  void sync(NodeId id, const Node& n) {
    BufferId b = n.srcs[0];
    const Buffer& buf = k_.buffers[b];
    if (n.kind == NodeKind::Flag) {
      if (n.fromPipe == Pipe::None || n.toPipe == Pipe::None || n.fromPipe == n.toPipe)
        fail(id, fmt::format("a flag on {} orders pipe {} with pipe {}", name(b), pipeName(n.fromPipe),
                             pipeName(n.toPipe)));
      return;
    }
    if (buf.queue == QueueKind::None || buf.queue == QueueKind::Calc) {
      fail(id, fmt::format("{} has no queue ({})", name(b), queueKindName(buf.queue)));
    }
    if (n.kind == NodeKind::DeQue && !enqueued_.count(b))
      fail(id, fmt::format("dequeues {} before any enque", name(b)));
    if (n.kind == NodeKind::EnQue) {
      if (!defined_[b]) fail(id, fmt::format("enqueues {} before it is written", name(b)));
      enqueued_.insert(b);
    }
  }

  // A flat op (legalize) reads and writes row padding: its operands must share one row layout, and every write of
  // each source must have written the padding, or the instruction reads memory nothing wrote.
  void checkForms() {
    std::vector<std::vector<NodeId>> writers(k_.buffers.size());
    for (NodeId id : tileOps_) {
      BufferId d = k_.node(id).dst;
      if (d < k_.buffers.size()) writers[d].push_back(id);
    }
    for (NodeId id : tileOps_) {
      const Node& n = k_.node(id);
      if (n.form == VecForm::Repeat && !repeatReduce(k_, n)) {
        fail(id,
             "is a repeated WholeReduce, but it is not a last-axis f32 sum or f16/f32 max/min of several rows "
             "that fit one repeat");
      }
      if (n.form == VecForm::Padded) {
        if (n.kind == NodeKind::Compare && !paddedCompare(k_, n)) {
          fail(id, "is a padded Compare, but its rows have no room for whole repeats (or it has no vector form)");
        } else if (n.kind != NodeKind::Compare &&
                   (n.srcs.empty() || n.srcs[0] >= writers.size() || !wholeMaskSelect(k_, n, writers[n.srcs[0]]))) {
          fail(id, "is a padded Select, but its mask has a writer that is not a padded Compare of repeats as wide");
        }
      }
      if (n.form == VecForm::FirstLanes && !columnLanes(k_, n)) {
        fail(id, "is first-lanes, but its operands are not f16/f32 columns of one shape with a level-0 form");
      }
      if (n.form == VecForm::Column || n.form == VecForm::ColumnFlat) {
        if (!columnLayout(k_, n)) {
          fail(id,
               "is a column form, but it is not an f32 add/sub/mul/div/max/min of a tile and its column whose "
               "rows Brcb can spread");
          continue;
        }
        BufferId tile = columnTileOperand(k_, n);
        if (n.form == VecForm::Column || rowsUnpadded(k_.buffers[tile])) continue;
        for (NodeId w : writers[tile]) {
          if (!writesRowPadding(k_, k_.node(w))) {
            fail(id, fmt::format("is column-flat, but {} #{} leaves the row padding of {} unwritten",
                                 nodeKindName(k_.node(w).kind), w, name(tile)));
          }
        }
        continue;
      }
      if (n.form != VecForm::Flat) continue;
      if (!flatLayout(k_, n)) {
        fail(id, "is flat, but its operands do not share one multi-row layout (shape, row pitch, inner extent)");
        continue;
      }
      for (BufferId s : std::set<BufferId>(n.srcs.begin(), n.srcs.end())) {
        if (rowsUnpadded(k_.buffers[s])) continue;
        for (NodeId w : writers[s]) {
          if (!writesRowPadding(k_, k_.node(w))) {
            fail(id, fmt::format("is flat, but {} #{} leaves the row padding of {} unwritten",
                                 nodeKindName(k_.node(w).kind), w, name(s)));
          }
        }
      }
    }
  }

  void checkPlan() {
    if (!k_.planned) return;
    for (size_t i = 0; i < k_.buffers.size(); ++i) {
      const Buffer& b = k_.buffers[i];
      if (!defined_[i]) continue;  // never used: nothing to place
      int64_t align = alignmentOf(b.mem);
      if (b.offset < 0) {
        errors_.push_back(fmt::format("{}: buffer %{} has no offset after planning", k_.name, b.name));
      } else if (b.offset % align) {
        errors_.push_back(fmt::format("{}: buffer %{} at offset {} in {} is not {}-byte aligned", k_.name, b.name,
                                      b.offset, dsl::memName(b.mem), align));
      } else if (b.offset + b.bytes * b.buffers > dsl::memCapacityBytes(b.mem)) {
        errors_.push_back(fmt::format("{}: buffer %{} ends at {} past the {} bytes of {}", k_.name, b.name,
                                      b.offset + b.bytes * b.buffers, dsl::memCapacityBytes(b.mem),
                                      dsl::memName(b.mem)));
      }
    }
  }

  // The InitBuffer list (Kernel::pipe) is what the emitter prints: per memory the calls follow each other from
  // offset 0, each queue sits at its own call with its copies, every other buffer inside its memory's TBuf.
  void checkPipe() {
    if (!k_.planned || k_.pipe.empty()) return;
    std::array<int64_t, 6> end{};
    std::vector<int> callOf(k_.buffers.size(), -1);
    std::array<int, 6> tbuf;
    tbuf.fill(-1);
    for (size_t i = 0; i < k_.pipe.size(); ++i) {
      const PipeBuffer& p = k_.pipe[i];
      int64_t& at = end[static_cast<size_t>(p.mem)];
      if (p.offset != at) {
        errors_.push_back(fmt::format("{}: InitBuffer #{} in {} at offset {}; the earlier calls end at {}", k_.name, i,
                                      dsl::memName(p.mem), p.offset, at));
      }
      at = p.offset + p.bytes * p.copies;
      if (p.queue == kNone) {
        tbuf[static_cast<size_t>(p.mem)] = static_cast<int>(i);
      } else {
        callOf[p.queue] = static_cast<int>(i);
      }
    }
    for (size_t b = 0; b < k_.buffers.size(); ++b) {
      const Buffer& buf = k_.buffers[b];
      if (!defined_[b] || buf.offset < 0) continue;
      bool queue = buf.queue != QueueKind::None && buf.queue != QueueKind::Calc;
      int call = queue ? callOf[b] : tbuf[static_cast<size_t>(buf.mem)];
      if (call < 0) {
        errors_.push_back(fmt::format("{}: buffer %{} has no InitBuffer in the plan", k_.name, buf.name));
        continue;
      }
      const PipeBuffer& p = k_.pipe[static_cast<size_t>(call)];
      bool fits = queue ? buf.offset == p.offset && buf.bytes <= p.bytes && buf.buffers == p.copies
                        : buf.offset >= p.offset && buf.offset + buf.bytes <= p.offset + p.bytes;
      if (!fits) {
        errors_.push_back(
            fmt::format("{}: buffer %{} at offset {} ({} x{}) is outside its InitBuffer #{} ({} x{} at {})", k_.name,
                        buf.name, buf.offset, buf.bytes, buf.buffers, call, p.bytes, p.copies, p.offset));
      }
    }
  }

  const Kernel& k_;
  std::vector<bool> defined_;
  std::set<uint32_t> openLoops_;
  std::set<uint32_t> splitsSeen_;
  std::set<uint32_t> varsSeen_;
  std::set<BufferId> enqueued_;
  std::vector<std::string> errors_;
  std::vector<NodeId> tileOps_;  // in program order
};

}  // namespace

std::vector<std::string> verify(const Kernel& kernel) { return Verifier(kernel).run(); }

std::vector<std::string> verify(const Module& module) {
  std::vector<std::string> all;
  for (const Kernel& k : module.kernels) {
    for (std::string& e : verify(k)) all.push_back(std::move(e));
  }
  return all;
}

}  // namespace tilecraft::ir
