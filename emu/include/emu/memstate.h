// The state behind the memory checks of emu/core.h, kept per access range rather than per byte or block, so that a
// check costs about the same for a 32-byte operand as for a 32 KiB tile.
//
// OrderMap: the ordering state (last writer, last reader per pipe) of a memory as runs of 32-byte blocks that share
// one state. A bit per block marks where a run starts, the state lives at that block; a write over a range makes it
// one run, a read splits at most at its two ends, and neighbouring runs that end up equal merge again. Kernels touch
// whole tiles, so a memory holds a handful of runs; a strided pattern can cut it down to one run per block, which
// costs what the per-block state did (no list to shift: splitting is O(1)).
//
// WrittenBits: one bit per byte, set once something wrote the byte, and a bit per 64 bytes that says all 64 were.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "emu/enums.h"

namespace tcemu {

constexpr uint32_t kBlock = 32;

// Ordering state of a run of 32-byte blocks: instruction indices + 1 (0 = none).
struct BlockState {
  uint32_t writer = 0;
  uint32_t readers[kPipeCount] = {};
  uint8_t readerPipes = 0;  // bit p set: readers[p] is current (a write clears them all at once)

  bool sameAs(const BlockState& o) const {
    if (writer != o.writer || readerPipes != o.readerPipes) return false;
    unsigned m = readerPipes;
    for (int p = 0; m; ++p, m >>= 1)
      if ((m & 1u) && readers[p] != o.readers[p]) return false;
    return true;
  }
};

class OrderMap {
 public:
  // One run of untouched blocks. Only the run heads' states are ever read, so the rest need no clearing.
  void reset(uint32_t blocks) {
    n_ = blocks;
    size_t words = (blocks + 63) / 64;
    heads_.assign(words, 0);
    summary_.assign((words + 63) / 64, 0);
    if (state_.size() < blocks) state_.resize(blocks);
    setHead(0);
    state_[0] = BlockState{};
  }
  uint32_t size() const { return n_; }
  BlockState& state(uint32_t head) { return state_[head]; }

  bool isHead(uint32_t b) const { return (heads_[b >> 6] >> (b & 63)) & 1u; }

  // The head of the run holding block b.
  uint32_t headAtOrBefore(uint32_t b) const {
    size_t w = b >> 6;
    uint64_t bits = heads_[w] & lowMask((b & 63) + 1);
    if (!bits) {
      // Block 0 is always a head, so some earlier word has a bit: find it through the summary.
      size_t sw = w >> 6;
      uint64_t s = summary_[sw] & lowMask(w & 63);
      while (!s) s = summary_[--sw];
      w = sw * 64 + 63 - static_cast<size_t>(__builtin_clzll(s));
      bits = heads_[w];
    }
    return static_cast<uint32_t>(w * 64 + 63 - static_cast<size_t>(__builtin_clzll(bits)));
  }

  // The first run head after block b, or size() if b is in the last run.
  uint32_t nextHead(uint32_t b) const {
    uint32_t from = b + 1;
    if (from >= n_) return n_;
    size_t w = from >> 6;
    uint64_t bits = heads_[w] & ~lowMask(from & 63);
    if (!bits) {
      size_t sw = w >> 6;
      uint64_t s = (w & 63) == 63 ? 0 : summary_[sw] & ~lowMask((w & 63) + 1);
      while (!s) {
        if (++sw >= summary_.size()) return n_;
        s = summary_[sw];
      }
      w = sw * 64 + static_cast<size_t>(__builtin_ctzll(s));
      bits = heads_[w];
    }
    return static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
  }

  // Makes block b (< size()) start a run, with the state of the run it was in.
  void split(uint32_t b) {
    if (!isHead(b)) splitFrom(b, headAtOrBefore(b));
  }
  // The same when b is not a head and `head` is the head of its run.
  void splitFrom(uint32_t b, uint32_t head) {
    state_[b] = state_[head];
    setHead(b);
  }

  // Joins the run at head b to the run before it.
  void join(uint32_t b) {
    size_t w = b >> 6;
    heads_[w] &= ~(uint64_t{1} << (b & 63));
    if (!heads_[w]) summary_[w >> 6] &= ~(uint64_t{1} << (w & 63));
  }

  // Removes every run head in [lo, hi).
  void clearHeads(uint32_t lo, uint32_t hi) {
    if (lo >= hi) return;
    size_t wl = lo >> 6, wh = (hi - 1) >> 6;
    for (size_t w = wl; w <= wh; ++w) {
      uint32_t a = w == wl ? lo & 63 : 0, e = w == wh ? ((hi - 1) & 63) + 1 : 64;
      heads_[w] &= ~(lowMask(e) & ~lowMask(a));
      if (!heads_[w]) summary_[w >> 6] &= ~(uint64_t{1} << (w & 63));
    }
  }

 private:
  static uint64_t lowMask(uint32_t bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
  void setHead(uint32_t b) {
    size_t w = b >> 6;
    heads_[w] |= uint64_t{1} << (b & 63);
    summary_[w >> 6] |= uint64_t{1} << (w & 63);
  }

  uint32_t n_ = 0;
  std::vector<uint64_t> heads_;    // bit b: a run starts at block b
  std::vector<uint64_t> summary_;  // bit w: heads_[w] has a bit set
  std::vector<BlockState> state_;  // valid at run heads only
};

// Bits 1 per byte; full_ has a bit per word of bits_ that is all ones, so checking a long written range reads one
// summary bit per 64 bytes (a word per 4 KiB) instead of every word.
class WrittenBits {
 public:
  void reset(uint32_t bytes) {
    bits_.assign((bytes + 63) / 64, 0);
    full_.assign((bits_.size() + 63) / 64, 0);
  }
  uint8_t operator[](size_t i) const { return static_cast<uint8_t>((bits_[i >> 6] >> (i & 63)) & 1u); }

  // The first byte in [a, b) (a < b) nothing wrote, or b.
  uint64_t firstUnset(uint64_t a, uint64_t b) const {
    uint64_t wa = a >> 6, wb = (b - 1) >> 6;
    if (uint64_t miss = ~bits_[wa] & mask(wa, a, b)) return wa * 64 + ctz(miss);
    if (wa == wb) return b;
    // Whole words in between: the first one whose summary bit is clear.
    for (uint64_t w = wa + 1; w < wb;) {
      uint64_t sw = w >> 6, hi = std::min<uint64_t>(wb, (sw + 1) * 64);
      uint64_t notFull = ~full_[sw] & rangeBits(w & 63, hi - sw * 64);
      if (notFull) {
        uint64_t at = sw * 64 + ctz(notFull);
        return at * 64 + ctz(~bits_[at]);
      }
      w = hi;
    }
    if (uint64_t miss = ~bits_[wb] & mask(wb, a, b)) return wb * 64 + ctz(miss);
    return b;
  }
  bool anySet(uint64_t a, uint64_t b) const {
    for (uint64_t w = a >> 6, last = (b - 1) >> 6; w <= last; ++w)
      if (bits_[w] & mask(w, a, b)) return true;
    return false;
  }
  void set(uint64_t a, uint64_t b) {
    uint64_t wa = a >> 6, wb = (b - 1) >> 6;
    bits_[wa] |= mask(wa, a, b);
    if (wb > wa) {
      if (wb > wa + 1) std::memset(&bits_[wa + 1], 0xFF, (wb - wa - 1) * sizeof(uint64_t));
      bits_[wb] |= mask(wb, a, b);
    }
    // Summary: every word in between is full now; the two ends may be.
    for (uint64_t w = wa + 1; w < wb;) {
      uint64_t sw = w >> 6, hi = std::min<uint64_t>(wb, (sw + 1) * 64);
      full_[sw] |= rangeBits(w & 63, hi - sw * 64);
      w = hi;
    }
    updateFull(wa);
    updateFull(wb);
  }

  // Marks [a, b) unwritten again: a lane computed from bytes nothing wrote holds no defined value (emu/core.h,
  // poison).
  void clear(uint64_t a, uint64_t b) {
    for (uint64_t i = a; i < b; ++i) bits_[i >> 6] &= ~(uint64_t{1} << (i & 63));
    for (uint64_t w = a >> 6; w <= (b - 1) >> 6; ++w) updateFull(w);
  }

  // Byte-wise copies of the bits of [at, at + n) (1 = written), for copies that carry them along.
  void get(uint64_t at, uint8_t* out, uint64_t n) const {
    for (uint64_t i = 0; i < n; ++i) out[i] = (*this)[at + i];
  }
  void put(uint64_t at, const uint8_t* in, uint64_t n) {
    if (n == 0) return;
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t bit = uint64_t{1} << ((at + i) & 63);
      if (in[i]) bits_[(at + i) >> 6] |= bit;
      else bits_[(at + i) >> 6] &= ~bit;
    }
    for (uint64_t w = at >> 6; w <= (at + n - 1) >> 6; ++w) updateFull(w);
  }

 private:
  static uint64_t ctz(uint64_t x) { return static_cast<uint64_t>(__builtin_ctzll(x)); }
  // Bits [lo, hi) of a word, 0 <= lo < hi <= 64.
  static uint64_t rangeBits(uint64_t lo, uint64_t hi) {
    uint64_t upTo = hi >= 64 ? ~uint64_t{0} : (uint64_t{1} << hi) - 1;
    return upTo & ~((uint64_t{1} << lo) - 1);
  }
  // The bits of word w that fall in [a, b).
  static uint64_t mask(uint64_t w, uint64_t a, uint64_t b) {
    return rangeBits(a > w * 64 ? a - w * 64 : 0, b < w * 64 + 64 ? b - w * 64 : 64);
  }
  void updateFull(uint64_t w) {
    uint64_t bit = uint64_t{1} << (w & 63);
    if (bits_[w] == ~uint64_t{0}) full_[w >> 6] |= bit;
    else full_[w >> 6] &= ~bit;
  }
  std::vector<uint64_t> bits_;
  std::vector<uint64_t> full_;  // bit w: bits_[w] is all ones
};

}  // namespace tcemu
