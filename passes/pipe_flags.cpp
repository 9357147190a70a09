// The flags of queue insertion: every pair of pipes that touch one UB buffer in turn must be ordered by an event.
// A queue orders only the two pipes of its position (VECIN: MTE2 -> V, VECOUT: V -> MTE3, both: MTE2 -> MTE3);
// a consumer on a third pipe (the scalar unit reading a gather's indices, a store of a value a copy-in loaded
// for compute) needs a SetFlag/WaitFlag of its own, which this walk adds as Flag nodes.
#include "passes/pipe_flags.h"

#include <map>

#include "ir/builder.h"
#include "ir/row_form.h"
#include "ir/check.h"

namespace tilecraft::passes {

namespace {

using PipeSet = uint16_t;
PipeSet bit(ir::Pipe p) { return static_cast<PipeSet>(1u << static_cast<unsigned>(p)); }

/// The pipe an op reads `buffer` on and the pipe it writes its result on (Pipe::None: not a UB access this
/// walk orders; the cube path's L1/L0 hand-overs are the emitter's).
struct OpPipes {
  std::vector<std::pair<ir::BufferId, ir::Pipe>> reads;
  ir::Pipe write = ir::Pipe::None;
  ir::BufferId rewritten = ir::kNone;  // a source the op also writes on `write` (a column form's column)
};

OpPipes pipesOf(const ir::Kernel& k, const ir::Node& n) {
  OpPipes out;
  auto ub = [&](ir::BufferId b) { return b != ir::kNone && k.buffer(b).mem == ir::Mem::UB; };
  switch (n.kind) {
    case ir::NodeKind::Load:
      // A gather load's indices are read by the scalar unit (GetValue), each row copied by MTE2.
      for (ir::BufferId s : n.srcs) out.reads.push_back({s, ir::Pipe::S});
      if (ub(n.dst)) out.write = ir::Pipe::MTE2;
      break;
    case ir::NodeKind::Store:
      if (ub(n.srcs.at(0))) out.reads.push_back({n.srcs[0], ir::Pipe::MTE3});
      break;
    case ir::NodeKind::Copy:
      // UB -> UB is a vector copy; an L0C tile reaches UB through the emitter's own MTE2 -> V flags, so V holds it.
      if (ub(n.srcs.at(0))) out.reads.push_back({n.srcs[0], ir::Pipe::V});
      if (ub(n.dst)) out.write = ir::Pipe::V;
      break;
    case ir::NodeKind::Matmul: break;
    default:
      // Vector ops. Those the emitter runs partly on the scalar unit (f16 sums, row scans, argmax, gather,
      // compare tails) bracket that part with V_S and S_V flags, so at their edges they are V operations.
      for (ir::BufferId s : n.srcs) {
        if (ub(s)) out.reads.push_back({s, ir::Pipe::V});
      }
      if (ub(n.dst)) out.write = ir::Pipe::V;
      // A column form spreads its column's values across their blocks in place before it reads them.
      if (n.form == ir::VecForm::Column || n.form == ir::VecForm::ColumnFlat) {
        ir::BufferId tile = ir::columnTileOperand(k, n);
        out.rewritten = n.srcs[0] == tile ? n.srcs[1] : n.srcs[0];
      }
      break;
  }
  return out;
}

/// The pipes a queue's forward event (EnQue -> DeQue) orders; None for queues outside UB.
std::pair<ir::Pipe, ir::Pipe> queuePipes(ir::QueueKind q) {
  switch (q) {
    case ir::QueueKind::VecIn: return {ir::Pipe::MTE2, ir::Pipe::V};
    case ir::QueueKind::VecOut: return {ir::Pipe::V, ir::Pipe::MTE3};
    case ir::QueueKind::VecInOut: return {ir::Pipe::MTE2, ir::Pipe::MTE3};
    default: return {ir::Pipe::None, ir::Pipe::None};
  }
}

/// What the walk knows of one buffer's current contents.
struct BufferState {
  ir::Pipe writer = ir::Pipe::None;  // the pipe of the last write
  PipeSet known = 0;                 // pipes an event has told that the last write completed
  PipeSet readers = 0;               // pipes that read the contents since the last write
};

class FlagWalk {
 public:
  FlagWalk(ir::Kernel& k, const TreeIndex& index) : k_(k), index_(index), state_(k.buffers.size()), b_(k) {}

  void run() {
    for (ir::NodeId id : index_.order) {
      const ir::Node& n = k_.node(id);
      if (ir::isTileOpKind(n.kind)) op(id);
      if (ir::isSyncKind(n.kind)) sync(id);
    }
  }

  std::map<ir::NodeId, std::vector<ir::NodeId>> before;  // statement -> flags just before it

 private:
  void op(ir::NodeId id) {
    OpPipes pipes = pipesOf(k_, k_.node(id));
    for (auto [buf, pipe] : pipes.reads) {
      BufferState& s = state_[buf];
      if (s.writer != ir::Pipe::None && !(s.known & bit(pipe))) flag(id, buf, s.writer, pipe);
      s.readers |= bit(pipe);
    }
    if (pipes.write == ir::Pipe::None) return;
    if (pipes.rewritten != ir::kNone) written(id, pipes.rewritten, pipes.write);
    written(id, k_.node(id).dst, pipes.write);
  }

  void written(ir::NodeId id, ir::BufferId dst, ir::Pipe pipe) {
    BufferState& d = state_[dst];
    // A write by another pipe must not overtake the last one (write after write).
    if (d.writer != ir::Pipe::None && !(d.known & bit(pipe))) flag(id, dst, d.writer, pipe);
    // Nor a read other than the scalar unit's, which completes before anything after it is issued.
    PipeSet pending = d.readers & ~bit(pipe) & ~bit(ir::Pipe::S);
    for (unsigned p = 0; pending; ++p, pending >>= 1) {
      if (pending & 1u) flag(id, dst, static_cast<ir::Pipe>(p), pipe);
    }
    d = {pipe, bit(pipe), 0};
  }

  void sync(ir::NodeId id) {
    const ir::Node& n = k_.node(id);
    ir::BufferId buf = n.srcs.at(0);
    BufferState& s = state_[buf];
    auto [from, to] = queuePipes(k_.buffer(buf).queue);
    if (from == ir::Pipe::None) return;
    switch (n.kind) {
      case ir::NodeKind::Alloc: s = {}; return;  // a fresh copy: AllocTensor waited for the slot's last consumer
      case ir::NodeKind::DeQue:
        if (s.known & bit(from)) s.known |= bit(to);
        return;
      case ir::NodeKind::Free: {
        // FreeTensor tells the producer pipe that the consumer pipe is done; readers on other pipes must have
        // told the consumer pipe first (the producer pipe, which writes the next copy, knows its own reads).
        PipeSet pending = s.readers & ~bit(to) & ~bit(from) & ~bit(ir::Pipe::S);
        for (unsigned p = 0; pending; ++p, pending >>= 1) {
          if (pending & 1u) flag(id, buf, static_cast<ir::Pipe>(p), to);
        }
        return;
      }
      default: return;
    }
  }

  void flag(ir::NodeId at, ir::BufferId buf, ir::Pipe from, ir::Pipe to) {
    b_.setSource(k_.node(at).span, 0);
    before[at].push_back(b_.flag(buf, from, to));
    // The waiting pipe now knows everything the setting pipe had completed, for every buffer.
    for (BufferState& s : state_) {
      if (s.known & bit(from)) s.known |= bit(to);
    }
    state_[buf].known |= bit(to);
  }

  ir::Kernel& k_;
  const TreeIndex& index_;
  std::vector<BufferState> state_;
  ir::Builder b_;
};

}  // namespace

std::map<ir::NodeId, std::vector<ir::NodeId>> pipeFlags(ir::Kernel& kernel) {
  TreeIndex index = indexTree(kernel);
  FlagWalk walk(kernel, index);
  walk.run();
  return std::move(walk.before);
}

}  // namespace tilecraft::passes
