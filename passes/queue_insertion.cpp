// queue-insertion: the TQue/TBuf of every buffer and the AllocTensor / EnQue / DeQue / FreeTensor protocol.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "ir/builder.h"
#include "ir/check.h"
#include "passes/passes.h"
#include "passes/pipe_flags.h"

namespace tilecraft::passes {

namespace {

struct Uses {
  std::vector<ir::NodeId> writers;  // ops, in program order
  std::vector<ir::NodeId> readers;
};

/// The pipes a stage runs on: copyin is MTE2 (GM -> UB/L1), compute V or M, copyout MTE3 (UB -> GM). A value
/// that moves from one pipe to another needs a queue; within one pipe, program order is enough (a TBuf).
ir::QueueKind queueFor(ir::Stage from, ir::Stage to, ir::Mem mem) {
  if (mem == ir::Mem::L1) return ir::QueueKind::A1;
  if (from == ir::Stage::CopyIn && to == ir::Stage::CopyOut) return ir::QueueKind::VecInOut;
  // Loaded and read by a later copy-in (a gather's indices, read on the scalar pipe): still MTE2 -> consumer.
  if (from == ir::Stage::CopyIn) return ir::QueueKind::VecIn;
  // Computed and read by a copy (a store, or a load's indices computed in UB): V -> MTE.
  if (to != ir::Stage::Compute) return ir::QueueKind::VecOut;
  return ir::QueueKind::Calc;
}

/// The statement in `block`'s body that contains `node` (or is it).
ir::NodeId childOf(const TreeIndex& index, ir::NodeId block, ir::NodeId node) {
  ir::NodeId cur = node;
  while (cur != ir::kNone && index.parent[cur] != block) cur = index.parent[cur];
  return cur;
}

/// Statements to add around existing ones, gathered first and applied in one rebuild so ids stay meaningful.
struct Inserts {
  std::map<ir::NodeId, std::vector<ir::NodeId>> front;   // stage -> at its start
  std::map<ir::NodeId, std::vector<ir::NodeId>> back;    // stage -> at its end
  std::map<ir::NodeId, std::vector<ir::NodeId>> before;  // statement -> just before it
  std::map<ir::NodeId, std::vector<ir::NodeId>> after;   // statement -> just after it
};

void rebuild(ir::Kernel& k, ir::NodeId id, const Inserts& ins) {
  ir::Node& n = k.node(id);
  auto rewrite = [&](std::vector<ir::NodeId>& list) {
    std::vector<ir::NodeId> out;
    if (auto it = ins.front.find(id); it != ins.front.end()) out = it->second;
    for (ir::NodeId s : list) {
      if (auto it = ins.before.find(s); it != ins.before.end())
        out.insert(out.end(), it->second.begin(), it->second.end());
      out.push_back(s);
      if (auto it = ins.after.find(s); it != ins.after.end())
        out.insert(out.end(), it->second.begin(), it->second.end());
    }
    if (auto it = ins.back.find(id); it != ins.back.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    list = std::move(out);
  };
  rewrite(n.body);
  std::vector<ir::NodeId> orelse = k.node(id).orelse;
  if (!orelse.empty()) {
    // An If is never a stage, so its else list takes only before/after anchors.
    std::vector<ir::NodeId> out;
    for (ir::NodeId s : orelse) {
      if (auto it = ins.before.find(s); it != ins.before.end())
        out.insert(out.end(), it->second.begin(), it->second.end());
      out.push_back(s);
      if (auto it = ins.after.find(s); it != ins.after.end())
        out.insert(out.end(), it->second.begin(), it->second.end());
    }
    k.node(id).orelse = std::move(out);
  }
  std::vector<ir::NodeId> children = k.node(id).body;
  children.insert(children.end(), k.node(id).orelse.begin(), k.node(id).orelse.end());
  for (ir::NodeId c : children) {
    if (!ir::isTileOpKind(k.node(c).kind) && !ir::isSyncKind(k.node(c).kind)) rebuild(k, c, ins);
  }
}

// The buffers= of the innermost tile loop around a stage: the copies a value made there has in flight.
int innermostBuffers(const ir::Kernel& kernel, const TreeIndex& index, ir::NodeId stage) {
  for (ir::NodeId p = index.parent[stage]; p != ir::kNone; p = index.parent[p]) {
    if (kernel.node(p).kind == ir::NodeKind::TileLoop) return kernel.node(p).buffers;
  }
  return 1;
}

// L0A and L0B double-buffer only where the memory holds every operand of the kernel with its copies, each its own
// InitBuffer rounded to 512 bytes (dsl/sema_layout.h); otherwise all of that memory's operands have one copy, as
// the checker decides (Checker::chooseL0Copies), so a program that fits single-buffered still compiles.
void doubleBufferL0(ir::Kernel& kernel) {
  for (dsl::Mem mem : {dsl::Mem::L0A, dsl::Mem::L0B}) {
    int64_t bytes = 0;
    for (const ir::Buffer& buf : kernel.buffers) {
      if (buf.mem == mem) bytes += ir::alignUp(buf.bytes, ir::alignmentOf(mem)) * buf.buffers;
    }
    if (bytes <= dsl::memCapacityBytes(mem)) continue;
    for (ir::Buffer& buf : kernel.buffers) {
      if (buf.mem == mem) buf.buffers = 1;
    }
  }
}

}  // namespace

void queueInsertion(ir::Kernel& kernel, PassContext& context) {
  TreeIndex index = indexTree(kernel);
  std::vector<Uses> uses(kernel.buffers.size());
  for (ir::NodeId id : index.order) {
    const ir::Node& n = kernel.node(id);
    if (!ir::isTileOpKind(n.kind)) continue;
    for (ir::BufferId s : n.srcs) uses[s].readers.push_back(id);
    if (n.kind == ir::NodeKind::Matmul && n.accumulate) uses[n.dst].readers.push_back(id);
    if (n.dst != ir::kNone) uses[n.dst].writers.push_back(id);
  }
  ir::Builder b(kernel);
  Inserts ins;
  for (ir::BufferId buf = 0; buf < kernel.buffers.size(); ++buf) {
    ir::Buffer& buffer = kernel.buffers[buf];
    if (buffer.kind == ir::BufferKind::Work) {
      buffer.queue = ir::QueueKind::Calc;
      continue;
    }
    const Uses& u = uses[buf];
    if (u.writers.empty()) continue;
    ir::NodeId writeStage = index.stage[u.writers.front()];
    ir::Stage from = kernel.node(writeStage).stage;
    // The reader that decides the hand-over: the first one in another stage node.
    ir::NodeId crossing = ir::kNone;
    for (ir::NodeId r : u.readers) {
      if (index.stage[r] != writeStage) {
        crossing = r;
        break;
      }
    }
    ir::Stage to = crossing == ir::kNone ? from : kernel.node(index.stage[crossing]).stage;
    ir::QueueKind queue = crossing == ir::kNone ? ir::QueueKind::Calc : queueFor(from, to, buffer.mem);
    // The cube's own buffers: L0A/L0B are written by the MTE1 copy and read by Mmad in one compute stage, L0C
    // is the accumulator; their hand-overs are within the cube pipeline, not TQue stage boundaries.
    if (buffer.mem == ir::Mem::L0A) queue = ir::QueueKind::A2;
    if (buffer.mem == ir::Mem::L0B) queue = ir::QueueKind::B2;
    if (buffer.mem == ir::Mem::L0C) queue = ir::QueueKind::CO1;
    if (queue == ir::QueueKind::A1 && crossing != ir::kNone && kernel.node(crossing).dst != ir::kNone &&
        kernel.buffer(kernel.node(crossing).dst).mem == ir::Mem::L0B) {
      queue = ir::QueueKind::B1;
    }
    buffer.queue = queue;
    if (queue == ir::QueueKind::A2 || queue == ir::QueueKind::B2) {
      // L0A/L0B operands take the copies of their loop like queues (MTE1 fills the next while Mmad reads this
      // one); doubleBufferL0 below takes them back where the memory cannot hold them all twice.
      buffer.buffers = innermostBuffers(kernel, index, writeStage);
      continue;
    }
    if (queue == ir::QueueKind::Calc || queue == ir::QueueKind::CO1) continue;
    // A consumer may update the value in place after its DeQue (`v = v * 2.0` in compute); a second producer
    // cannot be expressed with one queue.
    bool ok = true;
    for (ir::NodeId w : u.writers) {
      ir::NodeId st = index.stage[w];
      bool consumer = false;
      for (ir::NodeId r : u.readers) consumer = consumer || (index.stage[r] == st && st != writeStage);
      if (st == writeStage || consumer || !ok) continue;
      ok = false;
      context.diagnostics
          .error(kernel.node(w).span,
                 fmt::format("'{}' is handed from one stage to another but written again here, in another stage "
                             "that does not read it (first written at line {})",
                             buffer.name, kernel.node(u.writers.front()).line))
          .hint("give the second value its own name");
    }
    if (!ok) continue;
    // Copies in flight: the buffers= of the innermost tile loop around the writing stage.
    buffer.buffers = innermostBuffers(kernel, index, writeStage);
    b.setSource(kernel.node(writeStage).span, 0);
    ins.front[writeStage].push_back(b.sync(ir::NodeKind::Alloc, buf));
    ins.back[writeStage].push_back(b.sync(ir::NodeKind::EnQue, buf));
    // DeQue where the consumer starts, Free after the last reader. A reader nested deeper (a loop that uses a
    // value loaded once before it) gets both around the loop at the producer's level, so the value stays put.
    ir::NodeId level = index.parent[writeStage];
    ir::NodeId firstStage = index.stage[crossing];
    ir::NodeId lastReader = u.readers.back();
    for (ir::NodeId r : u.readers) {
      if (index.stage[r] != writeStage) lastReader = r;
    }
    ir::NodeId lastStage = index.stage[lastReader];
    ir::NodeId deque = b.sync(ir::NodeKind::DeQue, buf);
    ir::NodeId free = b.sync(ir::NodeKind::Free, buf);
    if (index.parent[firstStage] == level) {
      ins.front[firstStage].push_back(deque);
    } else {
      ins.before[childOf(index, level, firstStage)].push_back(deque);
    }
    if (index.parent[lastStage] == level) {
      ins.back[lastStage].push_back(free);
    } else {
      ins.after[childOf(index, level, lastStage)].push_back(free);
    }
  }
  // DeQues come first in a stage and AllocTensors after them; EnQues close the producing stage and Frees the
  // consuming one. Within each group, buffer order keeps the output deterministic.
  for (auto& [stage, list] : ins.front) {
    std::stable_sort(list.begin(), list.end(), [&](ir::NodeId a, ir::NodeId c) {
      return (kernel.node(a).kind == ir::NodeKind::DeQue) > (kernel.node(c).kind == ir::NodeKind::DeQue);
    });
  }
  for (auto& [stage, list] : ins.back) {
    std::stable_sort(list.begin(), list.end(), [&](ir::NodeId a, ir::NodeId c) {
      return (kernel.node(a).kind == ir::NodeKind::EnQue) > (kernel.node(c).kind == ir::NodeKind::EnQue);
    });
  }
  doubleBufferL0(kernel);
  rebuild(kernel, kernel.body, ins);
  // With the queues in place, the hand-overs their events do not cover get flags (pipe_flags.cpp).
  Inserts flags;
  flags.before = pipeFlags(kernel);
  rebuild(kernel, kernel.body, flags);
}

}  // namespace tilecraft::passes
