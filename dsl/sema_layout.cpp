// The one sizing and placement model of on-chip buffers (see sema_layout.h for why it is shared).
#include "dsl/sema_layout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <utility>

namespace tilecraft::dsl {

int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

namespace {

int64_t alignUp(int64_t value, int64_t align) {
  int64_t up = saturatingAdd(value, align - 1);
  return up == std::numeric_limits<int64_t>::max() ? up : up / align * align;
}

}  // namespace

int64_t bufferAlignment(Mem mem) {
  if (mem == Mem::L0C) return 1024;
  return mem == Mem::L0A || mem == Mem::L0B ? 512 : 32;
}

int64_t tileBytes(DType dtype, std::span<const int64_t> extents) {
  int64_t outer = 1;
  int64_t inner = 1;
  for (size_t i = 0; i < extents.size(); ++i) {
    int64_t& into = i + 1 == extents.size() ? inner : outer;
    into = saturatingMul(into, extents[i]);
  }
  int64_t rowBits = saturatingMul(inner, dtypeBits(dtype));
  if (rowBits == std::numeric_limits<int64_t>::max()) return rowBits;  // dividing would hide the saturation
  return saturatingMul(outer, alignUp((rowBits + 7) / 8, 32));
}

int64_t reduceWorkBytes(DType dtype, int64_t rowElements) {
  int64_t bytes = dtypeBits(dtype) / 8;
  int64_t repeats = saturatingAdd(saturatingMul(rowElements, bytes), 255) / 256;
  return saturatingMul(alignUp(saturatingMul(2, repeats), 32 / bytes), bytes);
}

int64_t mathWorkBytes(DType dtype, int64_t tileBytes) {
  int64_t minimum = dtypeBits(dtype) == 16 ? 512 : 256;
  return std::max(tileBytes, minimum);
}

namespace {

// The items of one memory already placed, found by lifetime: those that overlap [start, end] either are live at
// `start` (a stabbing query on a segment tree over the items' start positions) or begin in (start, end] (a
// range of a map by start). Both cost a logarithm plus the items found, so placing n items with short lifetimes
// is O(n log n) instead of the O(n^2) of testing every placed item.
class PlacedByLifetime {
 public:
  explicit PlacedByLifetime(std::vector<int64_t> starts) : starts_(std::move(starts)) {
    std::sort(starts_.begin(), starts_.end());
    starts_.erase(std::unique(starts_.begin(), starts_.end()), starts_.end());
    tree_.resize(2 * starts_.size());
  }

  void add(int64_t start, int64_t end, std::pair<int64_t, int64_t> range) {
    Placed p{start, end, range};
    // Leaves [first, last) are the start positions inside [start, end].
    size_t first = index(start);
    size_t last = static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), end) - starts_.begin());
    size_t n = starts_.size();
    for (size_t l = first + n, r = last + n; l < r; l >>= 1, r >>= 1) {
      if (l & 1) tree_[l++].push_back(p);
      if (r & 1) tree_[--r].push_back(p);
    }
    byStart_.emplace(start, p);
  }

  /// The address ranges of the placed items live at some position of [start, end]; `start` must be the start of
  /// an item given to the constructor.
  void overlapping(int64_t start, int64_t end, std::vector<std::pair<int64_t, int64_t>>& out) const {
    for (size_t i = index(start) + starts_.size(); i > 0; i >>= 1) {
      for (const Placed& p : tree_[i]) {
        if (p.start <= end) out.push_back(p.range);  // exact even for an empty lifetime (end < start)
      }
    }
    for (auto it = byStart_.upper_bound(start); it != byStart_.end() && it->first <= end; ++it) {
      out.push_back(it->second.range);
    }
  }

 private:
  size_t index(int64_t start) const {
    return static_cast<size_t>(std::lower_bound(starts_.begin(), starts_.end(), start) - starts_.begin());
  }

  struct Placed {
    int64_t start;
    int64_t end;
    std::pair<int64_t, int64_t> range;  // [offset, offset + bytes)
  };
  std::vector<int64_t> starts_;
  std::vector<std::vector<Placed>> tree_;
  std::multimap<int64_t, Placed> byStart_;
};

}  // namespace

Layout placeBuffers(std::span<const LayoutItem> items) {
  Layout layout;
  layout.offsets.assign(items.size(), 0);
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) {
    int64_t sa = saturatingMul(items[a].bytes, items[a].copies);
    int64_t sc = saturatingMul(items[c].bytes, items[c].copies);
    return sa != sc ? sa > sc : items[a].start < items[c].start;
  });
  // Queues: one InitBuffer each, in this order, from the start of their memory.
  std::map<Mem, int64_t> queuesEnd;
  for (size_t i : order) {
    const LayoutItem& item = items[i];
    if (!item.queue) continue;
    int64_t& at = queuesEnd[item.mem];
    int64_t perCopy = alignUp(item.bytes, bufferAlignment(item.mem));
    layout.offsets[i] = at;
    layout.pipe.push_back({item.mem, static_cast<int>(i), at, perCopy, item.copies});
    at = saturatingAdd(at, saturatingMul(perCopy, item.copies));
  }
  // Everything else: one TBuf after the queues, its items reusing the space of items that are dead.
  std::map<Mem, PlacedByLifetime> placed;
  {
    std::map<Mem, std::vector<int64_t>> starts;
    for (const LayoutItem& item : items) {
      if (!item.queue) starts[item.mem].push_back(item.start);
    }
    for (auto& [mem, list] : starts) placed.emplace(mem, PlacedByLifetime(std::move(list)));
  }
  std::map<Mem, int64_t> sharedEnd;
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (size_t i : order) {
    const LayoutItem& item = items[i];
    if (item.queue) continue;
    int64_t size = saturatingMul(item.bytes, item.copies);
    PlacedByLifetime& live = placed.at(item.mem);
    busy.clear();
    live.overlapping(item.start, item.end, busy);
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [lo, hi] : busy) {
      if (saturatingAdd(offset, size) <= lo) break;
      offset = std::max(offset, alignUp(hi, bufferAlignment(item.mem)));
    }
    layout.offsets[i] = offset;
    live.add(item.start, item.end, {offset, saturatingAdd(offset, size)});
    int64_t& end = sharedEnd[item.mem];
    end = std::max(end, saturatingAdd(offset, size));
  }
  for (Mem mem : {Mem::GM, Mem::UB, Mem::L1, Mem::L0A, Mem::L0B, Mem::L0C}) {
    int64_t base = queuesEnd.count(mem) ? queuesEnd.at(mem) : 0;
    int64_t shared = sharedEnd.count(mem) ? alignUp(sharedEnd.at(mem), 32) : 0;
    layout.end[static_cast<size_t>(mem)] = saturatingAdd(base, shared);
    if (!placed.count(mem)) continue;
    layout.pipe.push_back({mem, -1, base, shared, 1});
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].queue) continue;
    layout.offsets[i] =
        saturatingAdd(layout.offsets[i], queuesEnd.count(items[i].mem) ? queuesEnd.at(items[i].mem) : 0);
  }
  std::stable_sort(layout.pipe.begin(), layout.pipe.end(), [](const PipeBuffer& a, const PipeBuffer& b) {
    return a.mem != b.mem ? a.mem < b.mem : a.offset < b.offset;
  });
  return layout;
}

}  // namespace tilecraft::dsl
