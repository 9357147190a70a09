// Reductions (ascendc_api.md §3.9), for 910B: WholeReduceSum/Max/Min (one result per repeat),
// BlockReduceSum/Max/Min (one per 32-byte block), PairReduceSum, RepeatReduceSum, the whole-tensor
// ReduceSum/Max/Min and the special registers GetReduceMaxMinCount / GetAccVal. The argument orders differ
// per family, as in CANN 8.1.
//
// Order of summation. Within a repeat (or a block, or a pair) the hardware adds as a binary tree (the vcgadd
// figure in asc-devkit ReduceDataBlock.md): lanes (0,1), (2,3), ... then the partial sums pairwise, each
// addition rounded to T. We follow that over all lanes of the repeat with masked-off lanes as 0. The CANN
// sources do not show how vcadd's cross-repeat accumulation (the count-form ReduceSum) orders its adds: we
// add the per-repeat sums left to right, rounding each add to T. The whole-tensor mask forms reduce the
// per-repeat results again as trees of one repeat each, then those results as one tree. Max/Min take the
// smallest index among equal values (documented for vcmax/vcmin); a NaN is never chosen over a number
// (unverified on hardware).
//
// ReduceSum/Max/Min synchronise internally in CANN (V_S, S_V, S_MTE3 flag pairs around their scalar steps),
// so a GetValue of their result needs no flag of the kernel's own; the emulator grants the same ordering,
// except where CANN's path has none (ReduceMax/Min with calIndex over one repeat; a mask-form ReduceSum of
// more repeats than one repeat holds). The per-repeat families have no such flags: reading their results on
// the scalar unit needs SetFlag/WaitFlag<HardEvent::V_S>. The special registers (GetAccVal,
// GetReduceMaxMinCount) are not hazard-checked.
#pragma once

#include "emu/vec_cast_cmp.h"

namespace tcemu::vec {

using AscendC::ReduceOrder;

enum class RedOp : uint8_t { Sum, Max, Min };

template <typename T>
inline T addRounded(T a, T b) {
  if constexpr (isHalfLike<T>) return fromFloat<T>(toFloat(a) + toFloat(b));
  else return a + b;
}

// A value and where it came from, for max/min with an index.
template <typename T>
struct Best {
  T value{};
  uint32_t index = 0;
  bool any = false;
  void offer(T v, uint32_t idx, RedOp op) {
    float x = toFloat(v), cur = toFloat(value);
    bool better = op == RedOp::Max ? x > cur : x < cur;
    if (!any || better || (std::isnan(cur) && !std::isnan(x))) {
      value = v;
      index = idx;
      any = true;
    }
  }
};

// Binary tree over v (size a power of two): adjacent pairs, then pairs of partial sums.
template <typename T>
inline T treeSum(const std::vector<T>& in) {
  if (in.empty()) return T{};
  thread_local std::vector<T> v;  // reused: a reduction per row must not allocate per row
  v.assign(in.begin(), in.end());
  T* p = v.data();  // not v[i]: at -O1 every v[i] would look the thread_local up again
  size_t n = v.size();
  while (n > 1) {
    size_t half = (n + 1) / 2;
    for (size_t i = 0; i < n / 2; ++i) p[i] = addRounded(p[2 * i], p[2 * i + 1]);
    if (n % 2) p[half - 1] = p[n - 1];
    n = half;
  }
  return p[0];
}

inline void checkStride(const char* api, const char* name, int32_t v, const SrcLoc& loc) {
  if (v < 0 || v > 65535) {
    fail(loc, "%s %s %d is out of range [0, 65535]; hint: strides are unsigned 16-bit counts", api, name, v);
  }
}

// The active lanes of every repeat, by repeat and lane; inactive lanes read as 0 and are marked in `act`.
template <typename T>
inline void loadLanes(VecInstr& vi, const Operand& s, std::vector<std::vector<T>>& vals,
                      std::vector<std::vector<uint8_t>>& act) {
  // Callers keep these per thread, so a reduction in a loop reuses the rows instead of allocating them again.
  vals.resize(vi.repeats());
  act.resize(vi.repeats());
  const uint32_t lanes = vi.lanes();
  for (uint32_t r = 0; r < vi.repeats(); ++r) {
    vals[r].assign(lanes, fromFloat<T>(0.0f));
    act[r].assign(lanes, 0);
  }
  // Runs of lanes contiguous in src, copied whole; the dense counter-mode run spans repeats, so cut it at their ends.
  vi.forEachRun([&](uint32_t r, uint32_t first, uint32_t n) {
    while (n > 0) {
      r += first / lanes;
      first %= lanes;
      uint32_t k = std::min(n, lanes - first);
      std::memcpy(static_cast<void*>(&vals[r][first]), vi.at<T>(s, r, first), k * sizeof(T));
      std::memset(&act[r][first], 1, k);
      first += k;
      n -= k;
    }
  });
}

// The mask argument of a reduction (int32 continuous or bit form); isSetMask=false uses the mask register.
template <bool isSetMask>
inline Mask maskArg(const uint64_t mask[]) {
  return Mask::of<isSetMask>(mask);
}
template <bool isSetMask>
inline Mask maskArg(int32_t mask) {
  return Mask::of<isSetMask>(static_cast<uint64_t>(static_cast<int64_t>(mask)));
}

inline uint32_t indexUnitBytes(ReduceOrder order, uint32_t elemBytes) {
  switch (order) {
    case ReduceOrder::ORDER_VALUE_INDEX:
    case ReduceOrder::ORDER_INDEX_VALUE: return 2 * elemBytes;
    case ReduceOrder::ORDER_ONLY_VALUE: return elemBytes;
    case ReduceOrder::ORDER_ONLY_INDEX: return 4;
  }
  return 2 * elemBytes;
}

// One result per repeat: the sum, or the max/min with its in-repeat index laid out per `order`. `toAcc` (the sum
// only: vcadd's accumulate mode) writes no dst: the repeats' sums, added in order in T, go to the ACC register
// (GetAccVal).
template <typename T>
inline void wholeReduce(const char* api, RedOp op, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src, const Mask& mask, int32_t repeatTimes, int32_t dstRepStride,
                        int32_t srcBlkStride, int32_t srcRepStride, ReduceOrder order, const SrcLoc& loc,
                        bool toAcc = false) {
  checkDtype<T, half, float>(api, loc);
  if (repeatTimes < 0 || repeatTimes > AscendC::MAX_REPEAT_TIMES) {
    fail(loc, "%s repeatTimes %d is out of range [0, 255]; hint: split the work into calls of at most 255 repeats", api,
         repeatTimes);
  }
  if (static_cast<uint8_t>(order) > 3) fail(loc, "%s order %d is out of range [0, 3]", api, static_cast<int>(order));
  checkStride(api, "dstRepStride", dstRepStride, loc);
  checkStride(api, "srcBlkStride", srcBlkStride, loc);
  checkStride(api, "srcRepStride", srcRepStride, loc);
  const uint32_t unit = op == RedOp::Sum ? sizeof(T) : indexUnitBytes(order, sizeof(T));
  std::string wd = std::string(api) + " dst", ws = std::string(api) + " src";
  if (!toAcc) checkUb(dst, unit, wd.c_str(), loc);
  VecInstr vi(api, sizeof(T), mask, static_cast<uint32_t>(repeatTimes), loc);
  Operand s = vi.operand(src, {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, ws.c_str());
  vi.read(s);
  thread_local std::vector<std::vector<T>> vals;
  thread_local std::vector<std::vector<uint8_t>> act;
  loadLanes(vi, s, vals, act);
  Core& core = vi.core();
  if (toAcc) {
    T total = T(0);
    for (uint32_t r = 0; r < vi.repeats(); ++r) total = static_cast<T>(total + treeSum(vals[r]));
    core.accVal_ = 0;
    std::memcpy(static_cast<void*>(&core.accVal_), &total, sizeof(T));
    vi.finish();
    return;
  }
  uint8_t* base = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  Best<T> all;
  for (uint32_t r = 0; r < vi.repeats(); ++r) {
    uint64_t off = uint64_t{r} * static_cast<uint32_t>(dstRepStride) * unit;
    core.write(vi.index(), dst.ref_, off, unit, wd.c_str(), loc);
    if (op == RedOp::Sum) {
      T sum = treeSum(vals[r]);
      std::memcpy(base + off, &sum, sizeof(T));
      continue;
    }
    Best<T> b;
    for (uint32_t lane = 0; lane < vi.lanes(); ++lane)
      if (act[r][lane]) b.offer(vals[r][lane], lane, op);
    if (b.any) all.offer(b.value, r * vi.lanes() + b.index, op);
    // The index is stored as an integer of T's width in T's slot (ORDER_ONLY_INDEX: always 32 bits).
    uint32_t idx32 = b.index;
    uint16_t idx16 = static_cast<uint16_t>(b.index);
    const void* idx = sizeof(T) == 2 ? static_cast<const void*>(&idx16) : static_cast<const void*>(&idx32);
    switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX:
        std::memcpy(base + off, &b.value, sizeof(T));
        std::memcpy(base + off + sizeof(T), idx, sizeof(T));
        break;
      case ReduceOrder::ORDER_INDEX_VALUE:
        std::memcpy(base + off, idx, sizeof(T));
        std::memcpy(base + off + sizeof(T), &b.value, sizeof(T));
        break;
      case ReduceOrder::ORDER_ONLY_VALUE: std::memcpy(base + off, &b.value, sizeof(T)); break;
      case ReduceOrder::ORDER_ONLY_INDEX: std::memcpy(base + off, &idx32, 4); break;
    }
  }
  if (op != RedOp::Sum && all.any) {
    uint64_t valueBits = 0;
    std::memcpy(static_cast<void*>(&valueBits), &all.value, sizeof(T));
    core.maxMinCnt_ = valueBits | (uint64_t{all.index} << 32);
  }
  vi.finish();
}

// One result per 32-byte block (8 per repeat); a block with no active lane is not written.
template <typename T>
inline void blockReduce(const char* api, RedOp op, const AscendC::LocalTensor<T>& dst,
                        const AscendC::LocalTensor<T>& src, int32_t repeat, const Mask& mask, int32_t dstRepStride,
                        int32_t srcBlkStride, int32_t srcRepStride, const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  if (repeat < 0 || repeat > AscendC::MAX_REPEAT_TIMES) {
    fail(loc, "%s repeat %d is out of range [0, 255]; hint: split the work into calls of at most 255 repeats", api,
         repeat);
  }
  checkStride(api, "dstRepStride", dstRepStride, loc);
  checkStride(api, "srcBlkStride", srcBlkStride, loc);
  checkStride(api, "srcRepStride", srcRepStride, loc);
  std::string wd = std::string(api) + " dst", ws = std::string(api) + " src";
  checkUb(dst, 8 * sizeof(T), wd.c_str(), loc);
  VecInstr vi(api, sizeof(T), mask, static_cast<uint32_t>(repeat), loc);
  Operand s = vi.operand(src, {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)}, ws.c_str());
  vi.read(s);
  thread_local std::vector<std::vector<T>> vals;
  thread_local std::vector<std::vector<uint8_t>> act;
  loadLanes(vi, s, vals, act);
  const uint32_t epb = kBlock / sizeof(T);
  T* out = dst.GetPhyAddr();
  for (uint32_t r = 0; r < vi.repeats(); ++r) {
    for (uint32_t b = 0; b < 8; ++b) {
      std::vector<T> lanes(vals[r].begin() + b * epb, vals[r].begin() + (b + 1) * epb);
      Best<T> best;
      for (uint32_t j = 0; j < epb; ++j)
        if (act[r][b * epb + j]) best.offer(lanes[j], j, op);
      if (!best.any) continue;
      uint64_t slot = uint64_t{r} * static_cast<uint32_t>(dstRepStride) * 8 + b;
      vi.core().write(vi.index(), dst.ref_, slot * sizeof(T), sizeof(T), wd.c_str(), loc);
      out[slot] = op == RedOp::Sum ? treeSum(lanes) : best.value;
    }
  }
  vi.finish();
}

// CANN's own V_S / S_V / S_MTE3 flag pairs inside ReduceSum/Max/Min: the scalar unit and MTE3 see the result.
inline void reduceInternalSync() {
  Core& core = cur();
  core.acquire(Pipe::S, core.publish(Pipe::V));
  core.acquire(Pipe::V, core.publish(Pipe::S));
  core.acquire(Pipe::MTE3, core.publish(Pipe::S));
}

template <typename T>
inline void checkWork(const char* api, const AscendC::LocalTensor<T>& work, uint64_t need, const SrcLoc& loc) {
  cur().checkAlive(work.ref_, (std::string(api) + " workLocal").c_str(), loc);
  if (work.GetSize() < need) {
    fail(loc,
         "%s workLocal holds %u elements of %s; this call needs at least %llu; hint: allocate workLocal with "
         "%llu elements",
         api, work.GetSize(), dtypeName<T>(), static_cast<unsigned long long>(need),
         static_cast<unsigned long long>(need));
  }
}

// The whole-tensor reductions: per-repeat results into workLocal, then reduced again to dst[0] (and dst[1]
// the index of the first extreme element, counted in elements from src, bit-cast into T, when calIndex).
template <typename T>
inline void reduceAll(const char* api, RedOp op, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<T>& work, const Mask& mask, int32_t repeatTimes, int32_t srcRepStride,
                      bool calIndex, bool countForm, const SrcLoc& loc) {
  checkDtype<T, half, float>(api, loc);
  if (!countForm && (repeatTimes < 0 || repeatTimes > AscendC::MAX_REPEAT_TIMES)) {
    fail(loc,
         "%s repeatTimes %d is out of range [0, 255]; hint: use the count form ReduceSum(dst, src, work, "
         "count) for long inputs",
         api, repeatTimes);
  }
  checkStride(api, "srcRepStride", srcRepStride, loc);
  const uint32_t epb = kBlock / sizeof(T), lanes = kRepeatBytes / sizeof(T);
  std::string wd = std::string(api) + " dst", ws = std::string(api) + " src", ww = std::string(api) + " workLocal";
  checkUb(dst, sizeof(T), wd.c_str(), loc);
  VecInstr vi(api, sizeof(T), mask, countForm ? 0 : static_cast<uint32_t>(repeatTimes), loc);
  Operand s = vi.operand(src, {1, static_cast<uint32_t>(srcRepStride)}, ws.c_str());
  vi.read(s);
  const uint32_t reps = vi.repeats();
  if (reps == 0) return;
  // A2's count-form ReduceSum is one vcadd in counter mode and leaves workLocal alone.
  const bool usesWork = !(countForm && op == RedOp::Sum);
  const uint64_t perRepeat = op == RedOp::Sum ? 1 : 2;
  if (usesWork) {
    checkWork(api, work, roundUp(perRepeat * reps, epb), loc);
    checkUb(work, kBlock, ww.c_str(), loc);
  }
  thread_local std::vector<std::vector<T>> vals;
  thread_local std::vector<std::vector<uint8_t>> act;
  loadLanes(vi, s, vals, act);
  Core& core = vi.core();
  T result{};
  uint32_t index = 0;
  if (op == RedOp::Sum) {
    std::vector<T> sums(reps);
    for (uint32_t r = 0; r < reps; ++r) sums[r] = treeSum(vals[r]);
    if (countForm) {
      result = sums[0];
      for (uint32_t r = 1; r < reps; ++r) result = addRounded(result, sums[r]);
      std::memcpy(static_cast<void*>(&core.accVal_), &result, sizeof(T));
    } else {
      core.write(vi.index(), work.ref_, 0, uint64_t{reps} * sizeof(T), ww.c_str(), loc);
      std::memcpy(work.GetPhyAddr(), sums.data(), reps * sizeof(T));
      std::vector<T> groups;
      for (uint32_t g = 0; g < reps; g += lanes) {
        std::vector<T> chunk(lanes, fromFloat<T>(0.0f));
        std::copy(sums.begin() + g, sums.begin() + std::min(reps, g + lanes), chunk.begin());
        groups.push_back(treeSum(chunk));
      }
      result = groups.size() == 1 ? groups[0] : treeSum(groups);
    }
  } else {
    Best<T> all;
    std::vector<T> pairs(2 * reps);
    for (uint32_t r = 0; r < reps; ++r) {
      Best<T> b;
      for (uint32_t lane = 0; lane < lanes; ++lane)
        if (act[r][lane]) b.offer(vals[r][lane], lane, op);
      uint32_t at = countForm ? r * lanes + b.index : r * static_cast<uint32_t>(srcRepStride) * epb + b.index;
      if (b.any) all.offer(b.value, at, op);
      pairs[2 * r] = b.value;
      uint32_t idx = b.index;
      // The lane index in T's slot, as vcmax writes it.
      std::memcpy(static_cast<void*>(&pairs[2 * r + 1]), &idx, sizeof(T));
    }
    core.write(vi.index(), work.ref_, 0, pairs.size() * sizeof(T), ww.c_str(), loc);
    std::memcpy(work.GetPhyAddr(), pairs.data(), pairs.size() * sizeof(T));
    result = all.value;
    index = all.index;
    uint64_t valueBits = 0;
    std::memcpy(static_cast<void*>(&valueBits), &all.value, sizeof(T));
    core.maxMinCnt_ = valueBits | (uint64_t{all.index} << 32);
  }
  const uint32_t outs = (op != RedOp::Sum && calIndex) ? 2 : 1;
  core.write(vi.index(), dst.ref_, 0, uint64_t{outs} * sizeof(T), wd.c_str(), loc);
  T* out = dst.GetPhyAddr();
  out[0] = result;
  if (outs == 2) {
    uint32_t idx32 = index;
    uint16_t idx16 = static_cast<uint16_t>(index);
    std::memcpy(static_cast<void*>(&out[1]),
                sizeof(T) == 2 ? static_cast<const void*>(&idx16) : static_cast<const void*>(&idx32), sizeof(T));
  }
  vi.finish();
  // CANN's single-repeat path with calIndex writes dst by vcmax alone, without its flag pairs.
  // A mask-form sum of more than one repeat's worth of repeat results ends in a plain vcadd, also without
  // them.
  const bool flagless = (op != RedOp::Sum && calIndex && reps == 1) || (op == RedOp::Sum && !countForm && reps > lanes);
  if (!flagless) reduceInternalSync();
}

}  // namespace tcemu::vec

namespace AscendC {

// --- per-repeat reductions ---------------------------------------------------------------------------------

#define TCEMU_WHOLE_REDUCE(NAME, OP, MASKTYPE, ORDERPARAM, ORDERARG)                                                 \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, MASKTYPE,              \
                              const int32_t repeatTimes, const int32_t dstRepStride, const int32_t srcBlkStride,     \
                              const int32_t srcRepStride ORDERPARAM, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { \
    if (!tcemu::onVectorCore()) return;                                                                              \
    tcemu::vec::wholeReduce(#NAME, tcemu::vec::RedOp::OP, dstLocal, srcLocal, tcemu::vec::maskArg<isSetMask>(mask),  \
                            repeatTimes, dstRepStride, srcBlkStride, srcRepStride, ORDERARG, loc);                   \
  }

#define TCEMU_COMMA ,
TCEMU_WHOLE_REDUCE(WholeReduceSum, Sum, const uint64_t mask[], , ReduceOrder::ORDER_VALUE_INDEX)
TCEMU_WHOLE_REDUCE(WholeReduceSum, Sum, const int32_t mask, , ReduceOrder::ORDER_VALUE_INDEX)
TCEMU_WHOLE_REDUCE(WholeReduceMax, Max, const uint64_t mask[],
                   TCEMU_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
TCEMU_WHOLE_REDUCE(WholeReduceMax, Max, const int32_t mask,
                   TCEMU_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
TCEMU_WHOLE_REDUCE(WholeReduceMin, Min, const uint64_t mask[],
                   TCEMU_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
TCEMU_WHOLE_REDUCE(WholeReduceMin, Min, const int32_t mask,
                   TCEMU_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef TCEMU_WHOLE_REDUCE

// Repeat before mask in this family.
#define TCEMU_BLOCK_REDUCE(NAME, OP, MASKTYPE)                                                                      \
  template <typename T, bool isSetMask = true>                                                                      \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeat, \
                              MASKTYPE, const int32_t dstRepStride, const int32_t srcBlkStride,                     \
                              const int32_t srcRepStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {           \
    if (!tcemu::onVectorCore()) return;                                                                             \
    tcemu::vec::blockReduce(#NAME, tcemu::vec::RedOp::OP, dstLocal, srcLocal, repeat,                               \
                            tcemu::vec::maskArg<isSetMask>(mask), dstRepStride, srcBlkStride, srcRepStride, loc);   \
  }
TCEMU_BLOCK_REDUCE(BlockReduceSum, Sum, const int32_t mask)
TCEMU_BLOCK_REDUCE(BlockReduceSum, Sum, const uint64_t mask[])
TCEMU_BLOCK_REDUCE(BlockReduceMax, Max, const int32_t mask)
TCEMU_BLOCK_REDUCE(BlockReduceMax, Max, const uint64_t mask[])
TCEMU_BLOCK_REDUCE(BlockReduceMin, Min, const int32_t mask)
TCEMU_BLOCK_REDUCE(BlockReduceMin, Min, const uint64_t mask[])
#undef TCEMU_BLOCK_REDUCE
#undef TCEMU_COMMA

// Sums lanes (2i, 2i+1) into result i; dstRepStride counts 128-byte units (one repeat's results).
template <typename T, bool isSetMask, typename M>
__aicore__ inline void pairReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, int32_t repeat,
                                     M mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                                     const tcemu::SrcLoc& loc) {
  if (!tcemu::onVectorCore()) return;
  namespace v = tcemu::vec;
  tcemu::checkDtype<T, half, float>("PairReduceSum", loc);
  if (repeat < 0 || repeat > MAX_REPEAT_TIMES) {
    tcemu::fail(loc,
                "PairReduceSum repeat %d is out of range [0, 255]; hint: split the work into calls of at "
                "most 255 repeats",
                repeat);
  }
  v::checkStride("PairReduceSum", "dstRepStride", dstRepStride, loc);
  v::checkStride("PairReduceSum", "srcBlkStride", srcBlkStride, loc);
  v::checkStride("PairReduceSum", "srcRepStride", srcRepStride, loc);
  v::checkUb(dstLocal, sizeof(T), "PairReduceSum dst", loc);
  v::VecInstr vi("PairReduceSum", sizeof(T), tcemu::vec::maskArg<isSetMask>(mask), static_cast<uint32_t>(repeat), loc);
  v::Operand s = vi.operand(srcLocal, {static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)},
                            "PairReduceSum src");
  vi.read(s);
  thread_local std::vector<std::vector<T>> vals;
  thread_local std::vector<std::vector<uint8_t>> act;
  v::loadLanes(vi, s, vals, act);
  T* out = dstLocal.GetPhyAddr();
  for (uint32_t r = 0; r < vi.repeats(); ++r) {
    for (uint32_t i = 0; i < vi.lanes() / 2; ++i) {
      if (!act[r][2 * i] && !act[r][2 * i + 1]) continue;
      uint64_t slot = uint64_t{r} * static_cast<uint32_t>(dstRepStride) * (128 / sizeof(T)) + i;
      vi.core().write(vi.index(), dstLocal.ref_, slot * sizeof(T), sizeof(T), "PairReduceSum dst", loc);
      out[slot] = v::addRounded(vals[r][2 * i], vals[r][2 * i + 1]);
    }
  }
  vi.finish();
}

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                     const int32_t repeat, const int32_t mask, const int32_t dstRepStride,
                                     const int32_t srcBlkStride, const int32_t srcRepStride,
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  pairReduceSum<T, isSetMask>(dstLocal, srcLocal, repeat, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                     const int32_t repeat, const uint64_t mask[], const int32_t dstRepStride,
                                     const int32_t srcBlkStride, const int32_t srcRepStride,
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  pairReduceSum<T, isSetMask>(dstLocal, srcLocal, repeat, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}

// WholeReduceSum with a continuous mask of elemsInOneRepeat; dstBlkStride is unused, as in CANN's vcadd call.
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                       const int32_t repeat, const int32_t elemsInOneRepeat, const int32_t dstBlkStride,
                                       const int32_t srcBlkStride, const int32_t dstRepStride,
                                       const int32_t srcRepStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  (void)dstBlkStride;
  tcemu::vec::wholeReduce("RepeatReduceSum", tcemu::vec::RedOp::Sum, dstLocal, srcLocal,
                          tcemu::vec::maskArg<isSetMask>(elemsInOneRepeat), repeat, dstRepStride, srcBlkStride,
                          srcRepStride, ReduceOrder::ORDER_VALUE_INDEX, loc);
}

// --- whole-tensor reductions -------------------------------------------------------------------------------

template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const LocalTensor<T>& workLocal, const int32_t count,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  constexpr int32_t maxCount = static_cast<int32_t>(TOTAL_UB_SIZE / sizeof(T));
  if (count < 1 || count > maxCount) {
    tcemu::fail(loc, "ReduceSum count %d is out of range [1, %d]", count, maxCount);
  }
  tcemu::vec::Mask m = isSetMask ? tcemu::vec::Mask::count(count) : tcemu::vec::Mask::reg();
  tcemu::vec::reduceAll("ReduceSum", tcemu::vec::RedOp::Sum, dstLocal, srcLocal, workLocal, m, 0, 8, false, true, loc);
}

template <typename T>
__aicore__ inline void reduceMaxMinCount(const char* api, tcemu::vec::RedOp op, const LocalTensor<T>& dstLocal,
                                         const LocalTensor<T>& srcLocal, const LocalTensor<T>& workLocal, int32_t count,
                                         bool calIndex, const tcemu::SrcLoc& loc) {
  if (!tcemu::onVectorCore()) return;
  constexpr int32_t maxCount = static_cast<int32_t>(TOTAL_UB_SIZE / sizeof(T));
  if (count < 1 || count > maxCount) tcemu::fail(loc, "%s count %d is out of range [1, %d]", api, count, maxCount);
  tcemu::vec::reduceAll(api, op, dstLocal, srcLocal, workLocal, tcemu::vec::Mask::count(count), 0, 8, calIndex, true,
                        loc);
}

template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const LocalTensor<T>& workLocal, const int32_t count, bool calIndex = 0,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  reduceMaxMinCount("ReduceMax", tcemu::vec::RedOp::Max, dstLocal, srcLocal, workLocal, count, calIndex, loc);
}
template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const LocalTensor<T>& workLocal, const int32_t count, bool calIndex = 0,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  reduceMaxMinCount("ReduceMin", tcemu::vec::RedOp::Min, dstLocal, srcLocal, workLocal, count, calIndex, loc);
}

#define TCEMU_REDUCE_MASK(NAME, OP, MASKTYPE, IDXPARAM, IDXARG)                                                    \
  template <typename T>                                                                                            \
  __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                      \
                              const LocalTensor<T>& workLocal, MASKTYPE, const int32_t repeatTimes,                \
                              const int32_t srcRepStride IDXPARAM, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { \
    if (!tcemu::onVectorCore()) return;                                                                            \
    tcemu::vec::reduceAll(#NAME, tcemu::vec::RedOp::OP, dstLocal, srcLocal, workLocal,                             \
                          tcemu::vec::maskArg<true>(mask), repeatTimes, srcRepStride, IDXARG, false, loc);         \
  }
#define TCEMU_COMMA ,
TCEMU_REDUCE_MASK(ReduceSum, Sum, const int32_t mask, , false)
TCEMU_REDUCE_MASK(ReduceSum, Sum, const uint64_t mask[], , false)
TCEMU_REDUCE_MASK(ReduceMax, Max, const int32_t mask, TCEMU_COMMA bool calIndex = 0, calIndex)
TCEMU_REDUCE_MASK(ReduceMax, Max, const uint64_t mask[], TCEMU_COMMA bool calIndex = 0, calIndex)
TCEMU_REDUCE_MASK(ReduceMin, Min, const int32_t mask, TCEMU_COMMA bool calIndex = 0, calIndex)
TCEMU_REDUCE_MASK(ReduceMin, Min, const uint64_t mask[], TCEMU_COMMA bool calIndex = 0, calIndex)
#undef TCEMU_REDUCE_MASK
#undef TCEMU_COMMA

// --- special registers, read on the scalar unit ------------------------------------------------------------

// The extreme value (low bits) and its index (high 32 bits) of the last WholeReduceMax/Min or ReduceMax/Min.
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(uint32_t& maxMinValue, uint32_t& maxMinIndex,
                                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::Core& core = tcemu::cur();
  core.beginScalar("GetReduceMaxMinCount", loc);
  maxMinValue = static_cast<uint32_t>(core.maxMinCnt_ & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu));
  maxMinIndex = static_cast<uint32_t>(core.maxMinCnt_ >> 32);
}

template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex,
                                            tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkDtype<T, half, float>("GetReduceMaxMinCount", loc);
  if (!tcemu::onVectorCore()) return;
  tcemu::Core& core = tcemu::cur();
  core.beginScalar("GetReduceMaxMinCount", loc);
  uint32_t value = static_cast<uint32_t>(core.maxMinCnt_), index = static_cast<uint32_t>(core.maxMinCnt_ >> 32);
  std::memcpy(static_cast<void*>(&maxMinValue), &value, sizeof(T));  // little-endian: the low sizeof(T) bytes
  std::memcpy(static_cast<void*>(&maxMinIndex), &index, sizeof(T));
}

// The total of the last count-form ReduceSum, as raw register bits or as T.
__aicore__ inline int64_t GetAccVal(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return 0;
  tcemu::cur().beginScalar("GetAccVal", loc);
  return static_cast<int64_t>(tcemu::cur().accVal_);
}

template <typename T>
__aicore__ inline T GetAccVal(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkDtype<T, half, float>("GetAccVal", loc);
  if (!tcemu::onVectorCore()) return T{};
  tcemu::cur().beginScalar("GetAccVal", loc);
  T v;
  std::memcpy(static_cast<void*>(&v), &tcemu::cur().accVal_, sizeof(T));
  return v;
}

}  // namespace AscendC
