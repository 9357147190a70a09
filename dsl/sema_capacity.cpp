// Sema, part 5: on-chip buffer accounting. Every tile value is a buffer live from the operation that makes it
// to its last use; a use inside a loop that does not contain the definition keeps the buffer live to that
// loop's end. Values handed between stages (copyin -> compute -> copyout) are queue buffers with `buffers=`
// copies. Work buffers of reductions and high-level math are live at their operation only. The peak per
// memory must fit its capacity; this is the budget the buffer planner works within.
#include <fmt/format.h>

#include <algorithm>

#include "dsl/sema_internal.h"

namespace tilecraft::dsl::detail {

namespace {

int64_t depthOf(const BufferRecord& r) {
  bool queue = (r.mem == Mem::UB || r.mem == Mem::L1) && (r.defStage == Stage::CopyIn || r.usedInCopyOut);
  return queue ? r.buffers : 1;
}

std::string extentsStr(const BufferRecord& r) {
  std::string out;
  for (size_t i = 0; i < r.shape.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(r.shape[i].value);
  }
  return out;
}

}  // namespace

int Checker::newRecord(NodeId def, const Type& type, std::string label, int workFactor) {
  BufferRecord r;
  r.def = def;
  r.label = workFactor > 0 ? std::move(label) : "result of " + label;
  r.mem = type.mem;
  r.dtype = type.dtype;
  r.shape = type.shape;
  r.workFactor = workFactor;
  if (workFactor > 0) {
    r.start = r.end = pos_ + 1;  // alongside the result of the same operation
  } else {
    r.start = r.end = ++pos_;
  }
  r.defLoopDepth = loops_.size();
  r.defStage = stage_;
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
    if (it->isTile) {
      r.buffers = it->buffers;
      break;
    }
  }
  for (size_t i = 0; i < r.shape.size(); ++i) {
    const Dim& d = r.shape[i];
    if (d.kind != Dim::Kind::Sym || d.value > 0) continue;
    r.unknownSize = true;
    if (!unknownReported_.insert(d.name).second) continue;
    auto diag = error(def, fmt::format("dimension {} of this tile ({}) has no compile-time bound, so its {} use cannot "
                                       "be checked",
                                       i, d.name, memName(r.mem)));
    if (d.ref == kNoNode) {
      diag.hint(fmt::format("tile the range: for t in tiles({}, size=...)", d.name));
    } else {
      diag.hint(fmt::format("tile that dimension with tiles({}, size=...), or bound it: '{} = dim(max=4096)'", d.name,
                            d.name));
    }
  }
  records_.push_back(std::move(r));
  int index = static_cast<int>(records_.size() - 1);
  if (workFactor == 0) recordOf_[def] = index;
  return index;
}

void Checker::use(NodeId operand) {
  int index = recordOf_[operand];
  if (index < 0) return;
  BufferRecord& r = records_[index];
  r.end = std::max(r.end, pos_ + 1);
  if (loops_.size() > r.defLoopDepth && r.extendTo == kNoNode) r.extendTo = loops_[r.defLoopDepth].node;
  if (stage_ != r.defStage && stage_ != Stage::None) r.usedInOtherStage = true;
  // Only the value a store writes is an output queue; what is computed inside store(...) to make it is not.
  if (stage_ == Stage::CopyOut && !inStoreValue_) r.usedInCopyOut = true;
}

void Checker::closeLoop(NodeId loop) {
  for (BufferRecord& r : records_) {
    if (r.extendTo != loop) continue;
    r.end = std::max(r.end, pos_);
    r.extendTo = kNoNode;
  }
}

int64_t Checker::recordBytes(const BufferRecord& r, NodeId tileVar, int64_t size) const {
  int64_t elements = 1;
  for (const Dim& d : r.shape) elements *= (d.kind == Dim::Kind::Tile && d.ref == tileVar) ? size : d.value;
  int64_t bytes = (elements * dtypeBits(r.dtype) + 7) / 8;
  bytes = (bytes + kBufferAlignBytes - 1) / kBufferAlignBytes * kBufferAlignBytes;
  return r.workFactor > 0 ? bytes * r.workFactor : bytes;
}

void Checker::checkCapacity(KernelInfo& kernel) {
  for (Mem mem : {Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C}) {
    auto peakOf = [&](NodeId tileVar, int64_t size, uint32_t* where) {
      int64_t peak = 0;
      for (uint32_t p = 0; p <= pos_ + 1; ++p) {
        int64_t live = 0;
        for (const BufferRecord& r : records_) {
          if (r.mem != mem || r.dead || r.unknownSize || r.start > p || r.end < p) continue;
          live += recordBytes(r, tileVar, size) * depthOf(r);
        }
        if (live > peak) {
          peak = live;
          if (where) *where = p;
        }
      }
      return peak;
    };
    uint32_t at = 0;
    int64_t peak = peakOf(kNoNode, 0, &at);
    kernel.peakBytes[static_cast<size_t>(mem)] = peak;
    int64_t capacity = memCapacityBytes(mem);
    if (peak <= capacity) continue;

    std::vector<const BufferRecord*> live;
    for (const BufferRecord& r : records_) {
      if (r.mem == mem && !r.dead && !r.unknownSize && r.start <= at && r.end >= at) live.push_back(&r);
    }
    std::stable_sort(live.begin(), live.end(), [&](const BufferRecord* a, const BufferRecord* b) {
      return recordBytes(*a, kNoNode, 0) * depthOf(*a) > recordBytes(*b, kNoNode, 0) * depthOf(*b);
    });
    // Blame the tile variable of the largest live buffer that has one: its size is the knob to turn.
    NodeId tileVar = kNoNode;
    for (const BufferRecord* r : live) {
      for (const Dim& d : r->shape) {
        if (d.kind == Dim::Kind::Tile && tiles_.count(d.ref)) {
          tileVar = d.ref;
          break;
        }
      }
      if (tileVar != kNoNode) break;
    }
    bool doubled = std::any_of(live.begin(), live.end(), [](const BufferRecord* r) { return depthOf(*r) > 1; });
    NodeId blame = tileVar != kNoNode ? tiles_.at(tileVar).sizeNode : live.front()->def;
    std::string message = fmt::format("tiles in {} need {} at their peak{}; {} available", memName(mem), kib(peak),
                                      doubled ? " with double buffering" : "", kib(capacity));
    if (tileVar != kNoNode) {
      message = fmt::format("tiles in {} need {} at their peak{} with tile size {} for '{}'; {} available",
                            memName(mem), kib(peak), doubled ? " (double-buffered)" : "", tiles_.at(tileVar).size,
                            ast_.node(tileVar).name, kib(capacity));
    }
    auto d = error(blame, message);
    size_t shown = 0;
    for (const BufferRecord* r : live) {
      if (++shown > 8) break;
      int64_t bytes = recordBytes(*r, kNoNode, 0);
      std::string what = r->workFactor > 0 ? r->label : fmt::format("{} {}", r->label, dtypeName(r->dtype));
      std::string times = depthOf(*r) > 1 ? fmt::format(" x{} buffers", depthOf(*r)) : "";
      d.note(ast_.span(r->def), fmt::format("{} of {} = {}{}", what, extentsStr(*r), kib(bytes), times));
    }
    if (tileVar == kNoNode) {
      d.hint(fmt::format("make these tiles smaller; they must fit in {} of {}", kib(capacity), memName(mem)));
      continue;
    }
    const TileInfo& info = tiles_.at(tileVar);
    const std::string& var = ast_.node(tileVar).name;
    int64_t lo = 0;
    int64_t hi = info.size - 1;
    while (lo < hi) {  // largest size that fits
      int64_t mid = (lo + hi + 1) / 2;
      if (peakOf(tileVar, mid, nullptr) <= capacity) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (lo == 0) {
      d.hint(fmt::format("even size=1 for '{}' does not fit; shrink the other tile dimensions{}", var,
                         doubled ? " or use buffers=1" : ""));
    } else {
      int64_t pow2 = 1;
      while (pow2 * 2 <= lo) pow2 *= 2;
      d.hint(pow2 == lo ? fmt::format("use size={} for '{}' (the largest that fits)", lo, var)
                        : fmt::format("use size={} for '{}' ({} is the largest that fits)", pow2, var, lo));
    }
  }
}

}  // namespace tilecraft::dsl::detail
