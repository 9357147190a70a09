// The vector engine shared by every vector API (ascendc_api.md §3.1): mask and repeat execution, counter
// mode, the element address formula, the range checks, and the exact bytes each operand reads and writes.
//
// Usage (one instruction; sources before the destination, so an in-place call reads before it writes):
//
//   tcemu::vec::VecInstr vi("Add", sizeof(T), tcemu::vec::Mask::of<isSetMask>(mask), repeatTimes, loc);
//   auto d  = vi.operand(dst,  {p.dstBlkStride,  p.dstRepStride},  "Add dst");
//   auto s0 = vi.operand(src0, {p.src0BlkStride, p.src0RepStride}, "Add src0");
//   vi.read(s0);  vi.write(d);            // declares the exact bytes to the core's hazard and bounds checks
//   vi.forEach([&](uint32_t r, uint32_t lane) { *vi.at<T>(d, r, lane) = f(*vi.at<T>(s0, r, lane)); });
//   (or vi.forEachRun(f(r, first, n)): runs of lanes contiguous in every operand, for speed)
//   vi.finish();                          // count forms leave normal mode and a full mask, as CANN's do
//
// Semantics:
// - A repeat is 256 bytes of the widest operand: 128 lanes of 16-bit or 64 of 32-bit elements. Lane `lane` of
//   repeat r sits at byte r*repStride*32 + (lane/epb)*blkStride*32 + (lane%epb)*sizeof(T), epb =
//   32/sizeof(T).
// - Normal mode: a continuous mask n (1..128 for 16-bit, 1..64 for 32-bit) selects lanes [0, n) of every
// repeat; a
//   bit mask {low, high} selects lane i by bit i (32-bit elements use only `low`). Either is written to the
//   core's mask register, which isSetMask=false calls (MASK_PLACEHOLDER) use instead. Masked-off lanes keep
//   dst.
// - Counter mode (after SetMaskCount): the register's low word is the element count, repeatTimes is ignored
// and
//   ceil(count / lanes) repeats run, the last one partial. A mask argument in counter mode is an error: CANN
//   would overwrite the count with mask bits.
// - Count ("level 2") forms pass Mask::count(calCount): CANN runs them in counter mode with default strides,
// so they
//   need no repeat arithmetic and no 32-byte multiple, and they leave normal mode with a full mask behind.
// - Casts and mixed-precision forms pass the wider element size as `widestBytes`; the mask counts those lanes
// and
//   the narrower operand uses fewer blocks per repeat.
// - Each operand declares exactly the bytes of its active lanes to Core::read/write (bounds, liveness,
// never-written
//   data, cross-pipe hazards), so data under masked-off lanes may be unwritten.
#pragma once

#include "emu/sync.h"
#include "emu/tensor.h"

namespace AscendC {

// Field names and defaults of CANN 8.1 kernel_struct_binary.h / kernel_struct_unary.h.
struct BinaryRepeatParams {
  BinaryRepeatParams() {}
  BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
                     const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                    const uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                    const uint8_t srcRepStrideIn, const bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn),
        halfBlock(halfBlockIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

}  // namespace AscendC

namespace tcemu::vec {

constexpr uint32_t kRepeatBytes = 256;

// Where one operand's elements sit, in 32-byte blocks: block b of repeat r starts at r*rep*32 + b*blk*32.
struct Stride {
  uint32_t blk = 1;
  uint32_t rep = 8;
};

// How the active lanes of each repeat are chosen.
struct Mask {
  enum class Kind : uint8_t { Count, Continuous, Bits, Register };
  Kind kind = Kind::Register;
  int64_t value = 0;      // Count: elements; Continuous: the first `value` lanes of each repeat
  uint64_t bits[2] = {};  // Bits: bits[0] lanes 0..63, bits[1] lanes 64..127

  static Mask count(int64_t n) {
    Mask m;
    m.kind = Kind::Count;
    m.value = n;
    return m;
  }
  static Mask continuous(uint64_t n) {
    Mask m;
    m.kind = Kind::Continuous;
    m.value = static_cast<int64_t>(n);
    return m;
  }
  static Mask bitwise(const uint64_t b[]) {
    Mask m;
    m.kind = Kind::Bits;
    m.bits[0] = b[0];
    m.bits[1] = b[1];
    return m;
  }
  static Mask reg() { return Mask{}; }
  // isSetMask=false ignores the argument (MASK_PLACEHOLDER) and uses the core's mask register.
  template <bool isSetMask>
  static Mask of(uint64_t n) {
    return isSetMask ? continuous(n) : reg();
  }
  template <bool isSetMask>
  static Mask of(const uint64_t b[]) {
    return isSetMask ? bitwise(b) : reg();
  }
};

// One operand of an instruction: a UB tensor, its element size and its strides.
struct Operand {
  const TensorRef* ref = nullptr;
  uint8_t* base = nullptr;
  uint32_t elemBytes = 0;
  Stride stride;
  const char* what = "";
};

class VecInstr {
 public:
  // Resolves the mask (argument or register) into repeats and active lanes, checks the ranges, and starts the
  // instruction on PIPE_V. A mask argument (isSetMask=true) is written to the mask register first, as CANN
  // does.
  VecInstr(const char* api, uint32_t widestBytes, const Mask& mask, uint32_t repeatTimes, const SrcLoc& loc)
      : api_(api), loc_(loc), core_(cur()), countForm_(mask.kind == Mask::Kind::Count) {
    TCEMU_ASSERT(widestBytes == 2 || widestBytes == 4 || widestBytes == 8, "vector element size");
    lanes_ = kRepeatBytes / widestBytes;
    resolve(widestBytes, mask, repeatTimes);
    ins_ = core_.begin(Pipe::V, OpClass::Vector, api, loc);
    Instr& in = core_.instr(ins_);
    in.dtypeBytes = static_cast<uint8_t>(widestBytes);
    in.repeats = repeats_;
    in.elements = activeElements();
    in.src = Space::UB;
    in.dst = Space::UB;
  }

  uint32_t index() const { return ins_; }
  Core& core() { return core_; }
  uint32_t lanes() const { return lanes_; }
  uint32_t repeats() const { return repeats_; }
  bool counter() const { return counter_; }

  template <typename T>
  Operand operand(const AscendC::LocalTensor<T>& t, Stride s, const char* what) {
    core_.checkAlive(t.ref_, what, loc_);
    if (t.ref_.mem != Mem::UB) {
      fail(loc_,
           "%s is in %s: vector instructions reach only UB (VECIN, VECOUT, VECCALC); hint: copy the data "
           "to a UB tensor first",
           what, memName(t.ref_.mem));
    }
    core_.checkAlign(t.ref_, kBlock, what, loc_);
    if (!(s.blk == 1 && uint64_t{s.rep} * kBlock == uint64_t{lanes_} * sizeof(T))) allDense_ = false;
    Operand o;
    o.ref = &t.ref_;
    o.base = core_.ptr(t.ref_.mem, t.ref_.offset);
    o.elemBytes = sizeof(T);
    o.stride = s;
    o.what = what;
    return o;
  }

  // A lane-wise instruction: lane (r, i) of the destination is computed from lane (r, i) of each source only, so
  // under the core's poison rule (emu/core.h) an unwritten source lane leaves its destination lane unwritten.
  void lanewise() { lanewise_ = core_.poisonsUnwritten(); }

  // Declares the exact bytes the active lanes of `o` read (or write); contiguous runs are merged.
  void read(const Operand& o) {
    if (declare(o, false)) poisonLanesOf(o);
  }
  void write(const Operand& o) {
    uint32_t epb = kBlock / o.elemBytes;
    if (o.stride.blk == 0 && maxActiveLane_ >= epb) {
      fail(loc_,
           "%s block stride 0: every block of a repeat would write the same 32 bytes (active lanes reach "
           "block %u); hint: use a dst block stride of at least 1",
           o.what, maxActiveLane_ / epb);
    }
    declare(o, true);
    if (poisoned_.empty()) return;
    Arena& a = core_.arena(o.ref->mem);
    for (uint64_t id : poisoned_) {
      uint64_t at = o.ref->offset + offset(o, static_cast<uint32_t>(id / lanes_), static_cast<uint32_t>(id % lanes_));
      a.written.clear(at, at + o.elemBytes);
    }
  }

  // Byte offset of lane `lane` of repeat `r` in operand `o` (the §3.1 address formula).
  uint64_t offset(const Operand& o, uint32_t r, uint32_t lane) const {
    uint32_t epb = kBlock / o.elemBytes;
    return uint64_t{r} * o.stride.rep * kBlock + uint64_t{lane / epb} * o.stride.blk * kBlock +
           uint64_t{lane % epb} * o.elemBytes;
  }
  template <typename T>
  T* at(const Operand& o, uint32_t r, uint32_t lane) const {
    return reinterpret_cast<T*>(o.base + offset(o, r, lane));
  }

  bool active(uint32_t r, uint32_t lane) const {
    if (counter_) return uint64_t{r} * lanes_ + lane < total_;
    return (bits_[lane >> 6] >> (lane & 63)) & 1u;
  }
  // Lanes active in repeat r, in order; f(r, lane).
  template <typename F>
  void forEach(F&& f) const {
    for (uint32_t r = 0; r < repeats_; ++r) {
      uint32_t end = laneEnd(r);
      for (uint32_t lane = 0; lane < end; ++lane)
        if (counter_ || active(r, lane)) f(r, lane);
    }
  }

  // Runs of active lanes [first, first + n) of repeat r that stay inside one 32-byte block of every operand
  // (a block of the widest type; narrower operands' blocks hold whole multiples of it), so each operand's
  // elements of a run are contiguous: f(r, first, n). The fast path of the elementwise drivers.
  template <typename F>
  void forEachRun(F&& f) const {
    // Counter mode over operands laid out back to back: lane i of repeat r is element r * lanes + i of each
    // operand, so the whole instruction is one run (and the caller's loop can vectorise).
    if (counter_ && allDense_) {
      if (total_ > 0) f(0u, 0u, static_cast<uint32_t>(total_));
      return;
    }
    const uint32_t chunk = kBlock * lanes_ / kRepeatBytes;  // lanes in one block of the widest type
    for (uint32_t r = 0; r < repeats_; ++r) {
      uint32_t end = laneEnd(r);
      for (uint32_t c0 = 0; c0 < end; c0 += chunk) {
        uint32_t c1 = std::min(c0 + chunk, end);
        if (counter_) {
          f(r, c0, c1 - c0);
          continue;
        }
        // The chunk's mask bits (chunk divides 64, so they sit in one word), walked run by run.
        uint64_t bits = bits_[c0 >> 6] >> (c0 & 63);
        if (c1 - c0 < 64) bits &= (uint64_t{1} << (c1 - c0)) - 1;
        while (bits) {
          uint32_t first = static_cast<uint32_t>(__builtin_ctzll(bits));
          uint64_t rest = ~(bits >> first);
          uint32_t n = rest ? static_cast<uint32_t>(__builtin_ctzll(rest)) : 64 - first;
          f(r, c0 + first, n);
          bits &= first + n >= 64 ? 0 : ~uint64_t{0} << (first + n);
        }
      }
    }
  }

  // Count forms end in normal mode with a full mask (CANN: set_mask_norm; set_vector_mask(-1, -1)).
  void finish() {
    if (!countForm_) return;
    core_.counterMode_ = false;
    core_.maskLow_ = core_.maskHigh_ = ~0ULL;
  }

 private:
  void resolve(uint32_t widestBytes, const Mask& mask, uint32_t repeatTimes) {
    const bool b16 = widestBytes == 2;
    if (repeatTimes > static_cast<uint32_t>(AscendC::MAX_REPEAT_TIMES)) {
      fail(loc_,
           "%s repeatTimes %u is out of range [0, 255]; hint: split the work into calls of at most 255 "
           "repeats",
           api_, repeatTimes);
    }
    switch (mask.kind) {
      case Mask::Kind::Count:
        if (mask.value < 0) {
          fail(loc_, "%s calCount %lld is negative; hint: pass the number of elements to compute", api_,
               static_cast<long long>(mask.value));
        }
        counter_ = true;
        total_ = static_cast<uint64_t>(mask.value);
        break;
      case Mask::Kind::Continuous: {
        checkNotCounter();
        int64_t maxLanes = lanes_;  // 128 for 16-bit, 64 for 32-bit elements
        if (mask.value < 1 || mask.value > maxLanes) {
          fail(loc_,
               "%s mask %lld is out of range [1, %lld] for %u-byte elements (the first `mask` elements of "
               "each repeat); hint: for a longer or shorter row use the count form or more repeats",
               api_, static_cast<long long>(mask.value), static_cast<long long>(maxLanes), widestBytes);
        }
        uint64_t n = static_cast<uint64_t>(mask.value);
        setRegister(n > 64 ? (n == 128 ? ~0ULL : (1ULL << (n - 64)) - 1) : 0, n >= 64 ? ~0ULL : (1ULL << n) - 1);
        break;
      }
      case Mask::Kind::Bits:
        checkNotCounter();
        if (mask.bits[0] == 0 && (mask.bits[1] == 0 || !b16)) {
          fail(loc_,
               "%s bit mask {0x%llx, 0x%llx} selects no element of a repeat (%s); hint: set bit i of mask[0] "
               "(or of mask[1] for element 64 + i) for each element to compute",
               api_, static_cast<unsigned long long>(mask.bits[0]), static_cast<unsigned long long>(mask.bits[1]),
               b16 ? "16-bit elements use both words" : "32-bit elements use only mask[0]");
        }
        setRegister(mask.bits[1], mask.bits[0]);
        break;
      case Mask::Kind::Register: break;
    }
    if (!countForm_ && core_.counterMode_) {
      // Counter mode: the low word of the mask register is the element count and repeatTimes is ignored.
      counter_ = true;
      total_ = core_.maskLow_;
    }
    if (counter_) {
      repeats_ = static_cast<uint32_t>(ceilDiv(total_, lanes_));
      maxActiveLane_ = total_ == 0 ? 0 : static_cast<uint32_t>(std::min<uint64_t>(total_, lanes_) - 1);
      return;
    }
    // Normal mode: the lanes the register selects; a 32-bit (or wider) repeat has only the low word's lanes.
    bits_[0] = core_.maskLow_;
    bits_[1] = b16 ? core_.maskHigh_ : 0;
    if (lanes_ < 64) bits_[0] &= (1ULL << lanes_) - 1;
    if (mask.kind == Mask::Kind::Register && bits_[0] == 0 && bits_[1] == 0 && repeatTimes > 0) {
      fail(loc_,
           "%s with isSetMask=false, but the mask register selects no element (maskHigh 0x%llx, maskLow "
           "0x%llx); hint: SetVectorMask before the call, or pass the mask with isSetMask=true",
           api_, static_cast<unsigned long long>(core_.maskHigh_), static_cast<unsigned long long>(core_.maskLow_));
    }
    repeats_ = repeatTimes;
    maxActiveLane_ = bits_[1] ? 64 + 63 - static_cast<uint32_t>(__builtin_clzll(bits_[1]))
                              : (bits_[0] ? 63 - static_cast<uint32_t>(__builtin_clzll(bits_[0])) : 0);
  }

  void checkNotCounter() {
    if (core_.counterMode_) {
      fail(loc_,
           "%s with a mask argument in counter mode: the call would overwrite the element count in the mask "
           "register; hint: after SetMaskCount, call %s<T, false>(..., MASK_PLACEHOLDER, ...) and set the "
           "count "
           "with SetVectorMask<T, MaskMode::COUNTER>(0, count)",
           api_, api_);
    }
  }
  void setRegister(uint64_t high, uint64_t low) {
    core_.maskHigh_ = high;
    core_.maskLow_ = low;
  }

  // One past the last lane to visit in repeat r.
  uint32_t laneEnd(uint32_t r) const {
    if (!counter_) return std::min(lanes_, maxActiveLane_ + 1);
    uint64_t left = total_ - uint64_t{r} * lanes_;
    return static_cast<uint32_t>(std::min<uint64_t>(left, lanes_));
  }

  uint64_t activeElements() const {
    if (counter_) return total_;
    return uint64_t{repeats_} * static_cast<uint64_t>(__builtin_popcountll(bits_[0]) + __builtin_popcountll(bits_[1]));
  }

  // The active lanes of `o` holding a byte nothing wrote (repeat * lanes + lane), added to poisoned_.
  void poisonLanesOf(const Operand& o) {
    const WrittenBits& w = core_.arena(o.ref->mem).written;
    forEach([&](uint32_t r, uint32_t lane) {
      uint64_t at = o.ref->offset + offset(o, r, lane);
      if (w.firstUnset(at, at + o.elemBytes) != at + o.elemBytes) poisoned_.push_back(uint64_t{r} * lanes_ + lane);
    });
  }

  // Walks runs of active lanes block by block; merges runs that continue the previous one or lie inside it
  // (a block stride of 0 re-reads the same block), and hands each merged range to the core. Returns whether a
  // read met unwritten bytes (only lane-wise instructions under the poison rule get that far).
  bool declare(const Operand& o, bool isWrite) {
    uint32_t epb = kBlock / o.elemBytes;
    uint64_t curStart = 0, curEnd = 0;
    bool have = false, holes = false;
    const Core::Unwritten rule = lanewise_ ? Core::Unwritten::Poison : Core::Unwritten::Byte;
    auto flush = [&] {
      if (!have) return;
      if (isWrite) core_.write(ins_, *o.ref, curStart, curEnd - curStart, o.what, loc_);
      else holes = core_.read(ins_, *o.ref, curStart, curEnd - curStart, o.what, loc_, rule) || holes;
      have = false;
    };
    auto emit = [&](uint64_t start, uint64_t len) {
      uint64_t end = start + len;
      if (have && start == curEnd) {
        curEnd = end;
      } else if (have && start >= curStart && end <= curEnd) {
        return;
      } else {
        flush();
        curStart = start;
        curEnd = end;
        have = true;
      }
    };
    // Fast path: counter mode with dense strides touches one contiguous byte range.
    if (counter_ && o.stride.blk == 1 && uint64_t{o.stride.rep} * kBlock == uint64_t{lanes_} * o.elemBytes) {
      if (total_ == 0) return false;
      if (isWrite) core_.write(ins_, *o.ref, 0, total_ * o.elemBytes, o.what, loc_);
      else holes = core_.read(ins_, *o.ref, 0, total_ * o.elemBytes, o.what, loc_, rule);
      return holes;
    }
    for (uint32_t r = 0; r < repeats_; ++r) {
      uint32_t end = laneEnd(r);
      for (uint32_t b0 = 0; b0 < end; b0 += epb) {
        uint32_t b1 = std::min(b0 + epb, end);
        if (counter_) {  // every lane below laneEnd is active
          emit(offset(o, r, b0), uint64_t{b1 - b0} * o.elemBytes);
          continue;
        }
        // The block's mask bits (epb divides 64, so they sit in one word), walked run by run.
        uint64_t bits = bits_[b0 >> 6] >> (b0 & 63);
        if (b1 - b0 < 64) bits &= (uint64_t{1} << (b1 - b0)) - 1;
        while (bits) {
          uint32_t runStart = static_cast<uint32_t>(__builtin_ctzll(bits));
          uint64_t rest = ~(bits >> runStart);
          uint32_t runLen = rest ? static_cast<uint32_t>(__builtin_ctzll(rest)) : 64 - runStart;
          emit(offset(o, r, b0 + runStart), uint64_t{runLen} * o.elemBytes);
          bits &= runStart + runLen >= 64 ? 0 : ~uint64_t{0} << (runStart + runLen);
        }
      }
    }
    flush();
    return holes;
  }

  const char* api_;
  SrcLoc loc_;
  Core& core_;
  bool countForm_;
  uint32_t ins_ = 0;
  uint32_t lanes_ = 0;
  uint32_t repeats_ = 0;
  bool counter_ = false;
  bool allDense_ = true;  // every operand so far has block stride 1 and back-to-back repeats
  uint64_t total_ = 0;
  uint64_t bits_[2] = {};
  uint32_t maxActiveLane_ = 0;      // highest lane index any repeat uses
  bool lanewise_ = false;           // lanewise() under the poison rule
  std::vector<uint64_t> poisoned_;  // source lanes holding unwritten bytes: their destination lanes stay unwritten
};

// Strides of the structs, per operand.
inline Stride dstOf(const AscendC::BinaryRepeatParams& p) { return {p.dstBlkStride, p.dstRepStride}; }
inline Stride src0Of(const AscendC::BinaryRepeatParams& p) { return {p.src0BlkStride, p.src0RepStride}; }
inline Stride src1Of(const AscendC::BinaryRepeatParams& p) { return {p.src1BlkStride, p.src1RepStride}; }
inline Stride dstOf(const AscendC::UnaryRepeatParams& p) { return {p.dstBlkStride, p.dstRepStride}; }
inline Stride srcOf(const AscendC::UnaryRepeatParams& p) { return {p.srcBlkStride, p.srcRepStride}; }

}  // namespace tcemu::vec
