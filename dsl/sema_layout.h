// On-chip buffer sizing and layout, shared by the checker (sema_capacity.cpp) and the buffer planner
// (passes/buffer_plan.cpp). Both size a tile, size a work buffer and place live buffers with these functions,
// so the checker's verdict is the planner's layout: a program the checker accepts is one the planner places.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dsl/types.h"

namespace tilecraft::dsl {

/// Byte counts saturate at INT64_MAX instead of wrapping: a tile of 2**62 elements is far over every capacity,
/// never a small buffer (the checker then refuses it).
int64_t saturatingAdd(int64_t a, int64_t b);
int64_t saturatingMul(int64_t a, int64_t b);

/// Offset alignment of a buffer in `mem`: 32 bytes, 512 for L0A/L0B (their fractal blocks), 1024 for L0C (Mmad's
/// output).
int64_t bufferAlignment(Mem mem);

/// Bytes of one copy of a tile with these extents (upper bounds): the innermost row padded to 32 bytes, as
/// DataCopyPad lays rows out in UB.
int64_t tileBytes(DType dtype, std::span<const int64_t> extents);

/// Work buffer of a reduction over rows of `rowElements`: one partial result per 256-byte repeat of a row,
/// roundup(repeats, 32 B) elements, about twice that for max/min (ascendc_api.md, reductions).
int64_t reduceWorkBytes(DType dtype, int64_t rowElements);

/// Work buffer (sharedTmpBuffer) of a high-level math call (tanh ... erf, pow) over a tile of `tileBytes`: the
/// tile's size, but at least the one 256-byte repeat of float work the API needs (two for 16-bit types, which
/// stage a float copy), so a call on a small tile still gets its minimum.
int64_t mathWorkBytes(DType dtype, int64_t tileBytes);

/// One buffer to place: `copies` x `bytes` in `mem`, live over the positions [start, end]. A queue (`queue`) is a
/// TQue of the emitted kernel: its own TPipe::InitBuffer, which shares its space with nothing.
struct LayoutItem {
  Mem mem = Mem::UB;
  int64_t bytes = 0;
  int64_t copies = 1;
  int64_t start = 0;
  int64_t end = 0;
  bool queue = false;
};

/// One TPipe::InitBuffer of the emitted Init(): a queue (`item`, with its copies) or, for `item` -1, the one TBuf
/// of its memory that holds every item that is not a queue. The TPipe hands memory out in call order, so
/// `offset` is the sum of the earlier calls' bytes in that memory.
struct PipeBuffer {
  Mem mem = Mem::UB;
  int item = -1;
  int64_t offset = 0;
  int64_t bytes = 0;  // per copy
  int64_t copies = 1;
};

struct Layout {
  std::vector<int64_t> offsets;  // per item, in its memory
  std::array<int64_t, 6> end{};  // per Mem: the sum of its InitBuffer bytes (the end of the highest buffer)
  std::vector<PipeBuffer> pipe;  // the InitBuffer calls, per memory in offset order
};

/// The layout a TPipe can hand out. Queues first, one after the other (largest first, ties in order of birth,
/// then of index), each copy rounded up to the memory's alignment; then one TBuf with every other item, placed
/// first fit, largest first: an item takes the lowest aligned offset that no item with an overlapping lifetime
/// occupies (placing big buffers first keeps small ones from fragmenting the space). Only items in the TBuf
/// reuse space: a queue's InitBuffer is its own for the whole kernel. Deterministic for a given item list.
Layout placeBuffers(std::span<const LayoutItem> items);

}  // namespace tilecraft::dsl
