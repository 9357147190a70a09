// The one sizing and placement model of on-chip buffers (see sema_layout.h for why it is shared).
#include "dsl/sema_layout.h"

#include <algorithm>
#include <limits>
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

int64_t bufferAlignment(Mem mem) { return mem == Mem::L0A || mem == Mem::L0B ? 512 : 32; }

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
  std::vector<size_t> placed;
  for (size_t i : order) {
    const LayoutItem& item = items[i];
    int64_t size = saturatingMul(item.bytes, item.copies);
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t o : placed) {
      const LayoutItem& other = items[o];
      if (other.mem != item.mem || other.end < item.start || item.end < other.start) continue;
      busy.push_back({layout.offsets[o], saturatingAdd(layout.offsets[o], saturatingMul(other.bytes, other.copies))});
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [lo, hi] : busy) {
      if (saturatingAdd(offset, size) <= lo) break;
      offset = std::max(offset, alignUp(hi, bufferAlignment(item.mem)));
    }
    layout.offsets[i] = offset;
    placed.push_back(i);
    int64_t& end = layout.end[static_cast<size_t>(item.mem)];
    end = std::max(end, saturatingAdd(offset, size));
  }
  return layout;
}

}  // namespace tilecraft::dsl
