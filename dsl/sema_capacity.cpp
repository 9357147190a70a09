// Sema, part 5: on-chip buffer accounting, as the lowering and the buffer planner will allocate. Every tile
// value is a buffer live from the operation that makes it to its last use; a use inside a loop that does not
// contain the definition keeps the buffer live to that loop's end. Values handed between stages are queue
// buffers with `buffers=` copies, held from the start of their producing stage block to the end of the last
// stage block that reads them; with two copies they rotate over the iterations of their loop, so both are live
// for the whole loop. Lowering's extra buffers are counted too: the copy of a stored name written more than
// once, the broadcast and filled operands of compare and where, work buffers at their operation. An
// elementwise result may take the slot of a plain operand that dies at it. The buffers are then laid out with
// the planner's own functions (sema_layout.h: sizes, alignment, first fit), and the end of that layout per
// memory must fit its capacity, so what passes here the planner places.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

#include "dsl/sema_internal.h"
#include "dsl/sema_layout.h"

namespace tilecraft::dsl::detail {

namespace {

bool isQueue(const BufferRecord& r) {
  return (r.mem == Mem::UB || r.mem == Mem::L1) && (r.defStage == Stage::CopyIn || r.usedInCopyOut);
}

// The cube's L0A/L0B operands double-buffer like queues, so the MTE1 copy of the next tile overlaps the Mmad of
// this one, when their memory holds every operand twice (chooseL0Copies; the planner's rule in
// passes/queue_insertion.cpp is the same).
bool isL0Operand(const BufferRecord& r) { return r.mem == Mem::L0A || r.mem == Mem::L0B; }

int64_t depthOf(const BufferRecord& r) {
  if (isQueue(r)) return r.buffers;
  return isL0Operand(r) && !r.l0Single ? r.buffers : 1;
}

/// A buffer the emitted kernel gives an InitBuffer of its own (sema_layout.h): a queue, or a cube buffer of L0A,
/// L0B or L0C (LoadData's and Mmad's TQue<A2/B2/CO1>).
bool ownsPipeBuffer(const BufferRecord& r) {
  return isQueue(r) || r.mem == Mem::L0A || r.mem == Mem::L0B || r.mem == Mem::L0C;
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
  // What is computed inside store(...) in copyout is lowered into a compute stage just before it.
  r.defStage = inStoreValue_ ? Stage::Compute : stage_;
  r.stageStart = stage_ == Stage::None ? r.start : inStoreValue_ ? storeStageStart_ : stageStart_;
  if (!loops_.empty()) {
    r.loop = loops_.back().node;
    r.loopStart = loops_.back().startPos;
  }
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
  // What is computed inside store(...) in copyout is lowered into a compute stage just before it.
  Stage at = inStoreValue_ ? Stage::Compute : stage_;
  if (at != r.defStage && at != Stage::None) {
    r.usedInOtherStage = true;
    r.lastStage = stageNode_;
  }
  // Only the value a store writes is an output queue; what is computed inside store(...) to make it is not.
  if (stage_ == Stage::CopyOut && !inStoreValue_) r.usedInCopyOut = true;
}

void Checker::closeLoop(NodeId loop) {
  for (BufferRecord& r : records_) {
    if (r.loop == loop) r.loopEnd = pos_;
    if (r.extendTo != loop) continue;
    r.end = std::max(r.end, pos_);
    r.extendTo = kNoNode;
  }
}

void Checker::closeStage(NodeId stage) {
  for (BufferRecord& r : records_) {
    if (r.lastStage == stage) r.end = std::max(r.end, pos_);
  }
}

bool Checker::storeCopyRecord(NodeId value) {
  if (ast_.kind(value) != NodeKind::Name || recordOf_[value] < 0) return false;
  const BufferRecord& stored = records_[recordOf_[value]];
  if (stored.mem != Mem::UB || (stored.writes == 1 && stored.defLoopDepth == loops_.size())) return false;
  BufferRecord r = stored;
  r.def = value;
  r.label = fmt::format("copy of '{}' for the store", ast_.node(value).name);
  r.named = true;
  r.workFactor = 0;
  r.reduceWork = false;
  r.dead = false;
  r.folded = false;
  r.inPlaceFrom.clear();
  r.writes = 1;
  r.start = r.end = pos_ + 1;
  r.stageStart = storeStageStart_;
  r.defLoopDepth = loops_.size();
  r.extendTo = kNoNode;
  r.defStage = Stage::Compute;
  r.usedInOtherStage = r.usedInCopyOut = true;
  r.lastStage = stageNode_;
  r.buffers = 1;
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it) {
    if (it->isTile) {
      r.buffers = it->buffers;
      break;
    }
  }
  r.loop = loops_.empty() ? kNoNode : loops_.back().node;
  r.loopStart = loops_.empty() ? 0 : loops_.back().startPos;
  records_.push_back(std::move(r));
  return true;
}

void Checker::stagingRecords(NodeId at, const std::vector<NodeId>& operands, const Type& result, bool fillNumbers) {
  for (NodeId o : operands) {
    const Type& t = result_.types[o];
    Type temp = result;
    std::string label;
    if (t.kind == TypeKind::Buffer) {
      bool same = t.shape.size() == result.shape.size();
      for (size_t i = 0; same && i < t.shape.size(); ++i) same = sameDim(t.shape[i], result.shape[i]);
      if (same) continue;
      temp.dtype = t.dtype;
      label = "broadcast operand";
    } else if (fillNumbers && (t.kind == TypeKind::Int || t.kind == TypeKind::Float)) {
      label = "filled operand";
    } else {
      continue;
    }
    // Live alongside the op's result (made just before), like a work buffer.
    int index = newRecord(at, temp, std::move(label), 1);
    records_[index].start = records_[index].end = pos_;
  }
}

int64_t Checker::recordBytes(const BufferRecord& r, NodeId tileVar, int64_t size) const {
  std::vector<int64_t> extents;
  for (const Dim& d : r.shape) extents.push_back((d.kind == Dim::Kind::Tile && d.ref == tileVar) ? size : d.value);
  if (r.reduceWork) return reduceWorkBytes(r.dtype, extents.empty() ? 1 : extents.back());
  int64_t bytes = tileBytes(r.dtype, extents);
  if (r.workFactor > 0 && r.mathWork) return mathWorkBytes(r.dtype, saturatingMul(bytes, r.workFactor));
  return r.workFactor > 0 ? saturatingMul(bytes, r.workFactor) : bytes;
}

namespace {

/// Live positions of a record as the planner sees them: all copies of a rotating queue live for its loop.
std::pair<uint32_t, uint32_t> lifetime(const BufferRecord& r) {
  uint32_t start = isQueue(r) ? std::min(r.start, r.stageStart) : r.start;
  if (depthOf(r) > 1 && r.loop != kNoNode) return {std::min(start, r.loopStart), std::max(r.end, r.loopEnd)};
  return {start, r.end};
}

/// A byte count the layout saturated (sema_layout.h) is past 2**63 - 1: print that, not a made-up figure.
bool saturated(int64_t bytes) { return bytes == std::numeric_limits<int64_t>::max(); }

std::string kibOrHuge(int64_t bytes) { return saturated(bytes) ? "more than 2**63 - 1 bytes" : kib(bytes); }

/// "193 KiB (197664 bytes)" when the KiB figure is rounded, so a near miss does not read as a fit.
std::string bytesStr(int64_t bytes) {
  if (saturated(bytes)) return kibOrHuge(bytes);
  return bytes % 1024 == 0 || bytes < 1024 ? kib(bytes) : fmt::format("{} ({} bytes)", kib(bytes), bytes);
}

}  // namespace

int64_t Checker::layoutEnd(Mem mem, NodeId tileVar, int64_t size) const {
  // The planner's in-place rule (buffer_plan.cpp): an elementwise result that is a plain compute buffer may
  // take the slot of a plain operand of the same size that dies at that op; the slot lives for both.
  auto single = [](const BufferRecord& r) {
    return !isQueue(r) && !r.usedInOtherStage && r.workFactor == 0 && r.writes == 1 && !r.folded && !r.dead;
  };
  std::vector<std::pair<uint32_t, uint32_t>> life(records_.size());
  std::vector<size_t> rep(records_.size());
  for (size_t i = 0; i < records_.size(); ++i) {
    life[i] = lifetime(records_[i]);
    rep[i] = i;
  }
  for (size_t i = 0; i < records_.size(); ++i) {
    const BufferRecord& r = records_[i];
    if (r.mem != mem || r.unknownSize || !single(r)) continue;
    for (int from : r.inPlaceFrom) {
      const BufferRecord& s = records_[from];
      size_t slot = rep[from];
      if (static_cast<size_t>(from) == i || !single(s) || s.mem != mem || s.unknownSize ||
          life[slot].second != r.start || recordBytes(s, tileVar, size) != recordBytes(r, tileVar, size)) {
        continue;
      }
      rep[i] = slot;
      life[slot].second = std::max(life[slot].second, life[i].second);
      break;
    }
  }
  std::vector<LayoutItem> items;
  for (size_t i = 0; i < records_.size(); ++i) {
    const BufferRecord& r = records_[i];
    if (r.mem != mem || r.dead || r.unknownSize || rep[i] != i) continue;
    items.push_back({mem, recordBytes(r, tileVar, size), depthOf(r), life[i].first, life[i].second, ownsPipeBuffer(r)});
  }
  return placeBuffers(items).end[static_cast<size_t>(mem)];
}

// size=auto, the capacity error's search turned into a feature: each auto tile takes the largest size with which
// every memory's layout fits (its whole extent if that fits, else a power of two, which keeps rows aligned).
// Innermost loops first (declared later): a wide inner tile keeps copies long, then the outer one takes what
// is left. A size that does not fit even at 1 stays 1, and the capacity check below reports it.
constexpr int64_t kMaxCopyBursts = 4095;  // DataCopy's blockCount
constexpr int64_t kAutoInnerCap = 1 << 20;

void Checker::resolveAutoSizes() {
  std::vector<NodeId> autos;
  for (const auto& [var, info] : tiles_) {
    if (info.autoSize) autos.push_back(var);
  }
  std::sort(autos.rbegin(), autos.rend());
  auto setSize = [&](NodeId var, int64_t size) {
    TileInfo& info = tiles_.at(var);
    info.size = size;
    auto patch = [&](std::vector<Dim>& shape) {
      for (Dim& d : shape) {
        if (d.kind == Dim::Kind::Tile && d.ref == var) d.value = size;
      }
    };
    for (BufferRecord& r : records_) patch(r.shape);
    for (Type& t : result_.types) patch(t.shape);
    Type& sizeType = result_.types[info.sizeNode];
    sizeType = Type{};
    sizeType.kind = TypeKind::Int;
    sizeType.constInt = size;
  };
  for (NodeId var : autos) setSize(var, 1);  // the tiles not resolved yet take the least space
  const Mem mems[] = {Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C};
  auto fits = [&](NodeId var, int64_t size) {
    return std::all_of(std::begin(mems), std::end(mems),
                       [&](Mem m) { return layoutEnd(m, var, size) <= memCapacityBytes(m); });
  };
  for (NodeId var : autos) {
    TileInfo& info = tiles_.at(var);
    // A tile along an outer axis is that many rows, bursts of one DataCopy, which takes at most 4095; along the
    // innermost axis only the memory limits it.
    bool inner = false;
    for (const BufferRecord& r : records_) {
      inner = inner || (!r.shape.empty() && r.shape.back().kind == Dim::Kind::Tile && r.shape.back().ref == var);
    }
    int64_t cap = inner ? kAutoInnerCap : kMaxCopyBursts;
    int64_t hi = info.autoBound > 0 ? std::min(info.autoBound, cap) : cap;
    int64_t lo = 1;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (fits(var, mid)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    int64_t size = lo;
    if (size < info.autoBound || info.autoBound == 0) {
      size = 1;
      while (size * 2 <= lo) size *= 2;
    }
    info.autoSize = false;
    setSize(var, size);
  }
}

void Checker::chooseL0Copies() {
  for (Mem mem : {Mem::L0A, Mem::L0B}) {
    if (layoutEnd(mem, kNoNode, 0) <= memCapacityBytes(mem)) continue;
    for (BufferRecord& r : records_) {
      if (r.mem == mem) r.l0Single = true;
    }
  }
}

void Checker::checkCapacity(KernelInfo& kernel) {
  resolveAutoSizes();
  chooseL0Copies();
  for (Mem mem : {Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C}) {
    int64_t peak = layoutEnd(mem, kNoNode, 0);
    kernel.peakBytes[static_cast<size_t>(mem)] = peak;
    int64_t capacity = memCapacityBytes(mem);
    if (peak <= capacity) continue;

    // The notes show the buffers live where the most bytes are live at once.
    // One sweep over the positions with the changes of live bytes (a pass over all buffers per position is
    // quadratic in the length of a stage).
    std::vector<int64_t> change(static_cast<size_t>(pos_) + 3, 0);
    // A buffer with an InitBuffer of its own holds its space for the whole kernel.
    auto held = [&](const BufferRecord& r) {
      return ownsPipeBuffer(r) ? std::pair<uint32_t, uint32_t>{0, pos_ + 1} : lifetime(r);
    };
    for (const BufferRecord& r : records_) {
      auto [start, end] = held(r);
      if (r.mem != mem || r.dead || r.unknownSize || start > end || start > pos_ + 1) continue;
      // Saturated byte counts only move where the notes point: the peak itself was found past capacity above.
      int64_t bytes = saturatingMul(recordBytes(r, kNoNode, 0), depthOf(r));
      change[start] = saturatingAdd(change[start], bytes);
      int64_t& after = change[std::min<size_t>(static_cast<size_t>(end) + 1, change.size() - 1)];
      after = saturatingAdd(after, -bytes);
    }
    uint32_t at = 0;
    int64_t most = -1;
    int64_t liveBytes = 0;
    for (uint32_t p = 0; p <= pos_ + 1; ++p) {
      liveBytes = saturatingAdd(liveBytes, change[p]);
      if (liveBytes > most) {
        most = liveBytes;
        at = p;
      }
    }
    std::vector<const BufferRecord*> live;
    for (const BufferRecord& r : records_) {
      auto [start, end] = held(r);
      if (r.mem == mem && !r.dead && !r.unknownSize && start <= at && end >= at) live.push_back(&r);
    }
    std::stable_sort(live.begin(), live.end(), [&](const BufferRecord* a, const BufferRecord* b) {
      return saturatingMul(recordBytes(*a, kNoNode, 0), depthOf(*a)) >
             saturatingMul(recordBytes(*b, kNoNode, 0), depthOf(*b));
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
    std::string message = fmt::format("tiles in {} need {} at their peak{}; {} available", memName(mem), bytesStr(peak),
                                      doubled ? " with double buffering" : "", kib(capacity));
    if (tileVar != kNoNode) {
      message = fmt::format("tiles in {} need {} at their peak{} with tile size {} for '{}'; {} available",
                            memName(mem), bytesStr(peak), doubled ? " (double-buffered)" : "", tiles_.at(tileVar).size,
                            ast_.node(tileVar).name, kib(capacity));
    }
    auto d = error(blame, message);
    size_t shown = 0;
    for (const BufferRecord* r : live) {
      if (++shown > 8) break;
      int64_t bytes = recordBytes(*r, kNoNode, 0);
      std::string what = r->workFactor > 0 ? r->label : fmt::format("{} {}", r->label, dtypeName(r->dtype));
      std::string times = depthOf(*r) > 1 ? fmt::format(" x{} buffers", depthOf(*r)) : "";
      std::string of = r->reduceWork ? "" : " of " + extentsStr(*r);
      d.note(ast_.span(r->def), fmt::format("{}{} = {}{}", what, of, kibOrHuge(bytes), times));
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
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (layoutEnd(mem, tileVar, mid) <= capacity) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (lo == 0) {
      // The other knobs: the declared bounds of the dims in the live tiles (N = dim(max=8192)).
      std::map<std::string, int64_t> bounds;
      for (const BufferRecord* r : live) {
        for (const Dim& dim : r->shape) {
          if (dim.kind == Dim::Kind::Sym && dim.value > 0) bounds[dim.name] = dim.value;
        }
      }
      std::string lower;
      for (const auto& [name, max] : bounds) {
        lower += fmt::format("{}{} = dim(max={})", lower.empty() ? "" : ", ", name, max);
      }
      d.hint(fmt::format("even size=1 for '{}' does not fit; shrink the other tile dimensions{}{}", var,
                         lower.empty() ? "" : " (lower the bound of " + lower + ")",
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
