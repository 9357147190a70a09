// buffer-plan: offsets per memory with reuse of dead space, then the capacity check on the real layout.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

// AscendC's limit on the buffers one TPipe holds (QBUF_MAX_LEN), as the emulator's TPipe checks it.
#include "emu/include/emu/enums.h"
#include "dsl/sema_layout.h"
#include "ir/check.h"
#include "passes/passes.h"

namespace tilecraft::passes {

namespace {

struct Interval {
  int64_t start = -1;
  int64_t end = -1;
};

struct Span {
  int64_t begin = 0;
  int64_t end = 0;
  ir::NodeId node = ir::kNone;
};

/// Program positions: every statement gets one; a loop spans from its own position to its last descendant's.
void number(const ir::Kernel& k, ir::NodeId id, int64_t& pos, std::vector<int64_t>& at, std::vector<Span>& loops,
            std::vector<int64_t>& innerLoop, int64_t loopIndex) {
  at[id] = pos++;
  innerLoop[id] = loopIndex;
  const ir::Node& n = k.node(id);
  bool isLoop = n.kind == ir::NodeKind::TileLoop || n.kind == ir::NodeKind::RangeLoop;
  int64_t mine = loopIndex;
  if (isLoop) {
    loops.push_back({at[id], 0, id});
    mine = static_cast<int64_t>(loops.size() - 1);
  }
  for (ir::NodeId s : n.body) number(k, s, pos, at, loops, innerLoop, mine);
  for (ir::NodeId s : n.orelse) number(k, s, pos, at, loops, innerLoop, mine);
  if (isLoop) loops[mine].end = pos - 1;
}

/// What the emitted Init() asks of a TPipe: the planned InitBuffer calls, a queue's copies each a buffer. A mixed
/// kernel's vector and cube cores each have their own TPipe.
struct PipeBuffers {
  int64_t queues = 0;
  int64_t copies = 0;
  int64_t tbufs = 0;
  int64_t total() const { return copies + tbufs; }
};

std::array<PipeBuffers, 2> pipeBuffers(const ir::Kernel& kernel) {
  std::array<PipeBuffers, 2> sides;  // [0]: UB (vector), [1]: L1/L0 (cube)
  for (const ir::PipeBuffer& p : kernel.pipe) {
    PipeBuffers& side = sides[p.mem == ir::Mem::UB ? 0 : 1];
    if (p.queue == ir::kNone) {
      ++side.tbufs;
      continue;
    }
    ++side.queues;
    side.copies += p.copies;
  }
  return sides;
}

}  // namespace

void bufferPlan(ir::Kernel& kernel, PassContext& context) {
  std::vector<int64_t> at(kernel.nodes.size(), -1);
  std::vector<int64_t> innerLoop(kernel.nodes.size(), -1);
  std::vector<Span> loops;
  int64_t pos = 0;
  number(kernel, kernel.body, pos, at, loops, innerLoop, -1);

  // Lifetime of each buffer: from its first to its last reference in program order.
  std::vector<Interval> life(kernel.buffers.size());
  std::vector<ir::NodeId> firstRef(kernel.buffers.size(), ir::kNone);
  auto touch = [&](ir::BufferId b, ir::NodeId id) {
    if (b == ir::kNone) return;
    Interval& l = life[b];
    if (l.start < 0 || at[id] < l.start) {
      l.start = at[id];
      firstRef[b] = id;
    }
    l.end = std::max(l.end, at[id]);
  };
  for (ir::NodeId id = 0; id < kernel.nodes.size(); ++id) {
    if (at[id] < 0) continue;
    const ir::Node& n = kernel.node(id);
    touch(n.dst, id);
    touch(n.work, id);
    for (ir::BufferId s : n.srcs) touch(s, id);
  }
  // A buffer used inside a loop it was not made in is live for the whole loop (every iteration reads it); a
  // queue buffer with several copies rotates over the iterations of the loop it is made in, so all copies
  // stay live for that whole loop. Loops are visited inner to outer, so nested extensions compose.
  for (size_t b = 0; b < kernel.buffers.size(); ++b) {
    Interval& l = life[b];
    if (l.start < 0) continue;
    if (kernel.buffers[b].buffers > 1 && innerLoop[firstRef[b]] >= 0) {
      const Span& loop = loops[innerLoop[firstRef[b]]];
      l.start = std::min(l.start, loop.begin);
      l.end = std::max(l.end, loop.end);
    }
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      bool inside = l.start > it->begin && l.start <= it->end;
      bool reaches = l.end > it->begin && l.end <= it->end;
      if (!inside && reaches) l.end = it->end;
    }
  }

  // In place: an elementwise op may write over an operand that dies at it (AscendC allows dst == src for the
  // basic vector calls). The two buffers then share one slot whose lifetime is the union of theirs.
  std::vector<ir::BufferId> rep(kernel.buffers.size());
  for (ir::BufferId b = 0; b < rep.size(); ++b) rep[b] = b;
  auto single = [&](ir::BufferId b) {
    const ir::Buffer& buf = kernel.buffers[b];
    return buf.queue == ir::QueueKind::Calc && buf.buffers == 1 && buf.kind == ir::BufferKind::Value;
  };
  std::vector<ir::NodeId> byPosition;
  for (ir::NodeId id = 0; id < kernel.nodes.size(); ++id) {
    if (at[id] >= 0) byPosition.push_back(id);
  }
  std::sort(byPosition.begin(), byPosition.end(), [&](ir::NodeId a, ir::NodeId c) { return at[a] < at[c]; });
  for (ir::NodeId id : byPosition) {
    const ir::Node& n = kernel.node(id);
    bool elementwise = (n.kind == ir::NodeKind::Unary || n.kind == ir::NodeKind::Binary ||
                        n.kind == ir::NodeKind::BinaryScalar || n.kind == ir::NodeKind::Copy) &&
                       n.work == ir::kNone;
    if (!elementwise || n.dst == ir::kNone || firstRef[n.dst] != id || !single(n.dst) || rep[n.dst] != n.dst) continue;
    for (ir::BufferId s : n.srcs) {
      ir::BufferId r = rep[s];
      if (s == n.dst || !single(s) || life[r].end != at[id] || kernel.buffers[s].mem != kernel.buffers[n.dst].mem ||
          kernel.buffers[s].bytes != kernel.buffers[n.dst].bytes) {
        continue;
      }
      rep[n.dst] = r;
      life[r].end = std::max(life[r].end, life[n.dst].end);
      break;
    }
  }

  // The layout itself is the model the checker also uses (dsl/sema_layout.h): one item per slot.
  std::vector<ir::BufferId> placed;
  std::vector<dsl::LayoutItem> items;
  for (ir::BufferId b = 0; b < kernel.buffers.size(); ++b) {
    if (life[b].start < 0 || rep[b] != b) continue;
    const ir::Buffer& buf = kernel.buffers[b];
    placed.push_back(b);
    bool queue = buf.queue != ir::QueueKind::None && buf.queue != ir::QueueKind::Calc;
    items.push_back({buf.mem, buf.bytes, buf.buffers, life[b].start, life[b].end, queue});
  }
  dsl::Layout layout = dsl::placeBuffers(items);
  for (size_t i = 0; i < placed.size(); ++i) kernel.buffers[placed[i]].offset = layout.offsets[i];
  kernel.plannedBytes = layout.end;
  kernel.pipe.clear();
  for (const dsl::PipeBuffer& p : layout.pipe) {
    ir::BufferId queue = p.item < 0 ? ir::kNone : placed[static_cast<size_t>(p.item)];
    kernel.pipe.push_back({p.mem, queue, p.offset, p.bytes, p.copies});
  }
  for (ir::BufferId b = 0; b < kernel.buffers.size(); ++b) {
    if (life[b].start >= 0 && rep[b] != b) kernel.buffers[b].offset = kernel.buffers[rep[b]].offset;
  }
  kernel.planned = true;

  // More buffers than a TPipe holds would fail in InitBuffer at run time; say so here, with the count.
  std::array<PipeBuffers, 2> pipes = pipeBuffers(kernel);
  bool mixed = kernel.coreKind == ir::CoreKind::Mixed;
  PipeBuffers one = pipes[0];
  if (!mixed) {
    one.queues += pipes[1].queues;
    one.copies += pipes[1].copies;
  }
  for (const PipeBuffers& pipe : mixed ? std::vector<PipeBuffers>{pipes[0], pipes[1]} : std::vector<PipeBuffers>{one}) {
    if (pipe.total() <= AscendC::QBUF_MAX_LEN) continue;
    context.diagnostics
        .error(kernel.span,
               fmt::format("kernel '{}' needs {} TPipe buffers ({} queues with {} copies, {} for "
                           "compute-only values); a TPipe holds at most {}",
                           kernel.name, pipe.total(), pipe.queues, pipe.copies, pipe.tbufs, AscendC::QBUF_MAX_LEN))
        .hint(pipe.copies > pipe.queues ? "use buffers=1 on the tile loop (each double-buffered queue takes two), or "
                                          "load fewer tensors per kernel"
                                        : "load fewer tensors per kernel");
  }

  // The checker bounded the peak of live bytes; the layout adds alignment and fragmentation, so check again.
  for (ir::Mem mem : {ir::Mem::UB, ir::Mem::L1, ir::Mem::L0A, ir::Mem::L0B, ir::Mem::L0C}) {
    int64_t used = kernel.plannedBytes[static_cast<int>(mem)];
    int64_t capacity = dsl::memCapacityBytes(mem);
    if (used <= capacity) continue;
    ir::BufferId largest = ir::kNone;
    for (ir::BufferId b : placed) {
      const ir::Buffer& buf = kernel.buffers[b];
      if (buf.mem != mem) continue;
      if (largest == ir::kNone ||
          buf.bytes * buf.buffers > kernel.buffers[largest].bytes * kernel.buffers[largest].buffers) {
        largest = b;
      }
    }
    const ir::Buffer& big = kernel.buffers[largest];
    auto d = context.diagnostics.error(
        kernel.span,
        fmt::format("kernel '{}' needs {} bytes of {} after buffer planning (aligned offsets); {} available",
                    kernel.name, used, dsl::memName(mem), capacity));
    d.note(firstRef[largest] != ir::kNone ? kernel.node(firstRef[largest]).span : kernel.span,
           fmt::format("largest buffer: '{}' of {} bytes x{} copies", big.name, big.bytes, big.buffers));
    d.hint(big.buffers > 1 ? "use a smaller tile size, or buffers=1 on its loop" : "use a smaller tile size");
  }
}

}  // namespace tilecraft::passes
