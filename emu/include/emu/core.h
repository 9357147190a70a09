// One emulated AI core (an AIC or an AIV): its local memories, the pipes' ordering knowledge, event flags, the
// vector mask register and its instruction trace. Every API call goes through here to be checked and recorded.
//
// Hazard model. Each pipe executes its own instructions in order; different pipes run concurrently. Instruction i
// on pipe q may touch data that instruction j on pipe p != q wrote (or, for a write, read) only if q "knows" j has
// completed: know_[q][p] >= seq(j). Knowledge flows only through SetFlag/WaitFlag pairs (EnQue/DeQue and
// FreeTensor/AllocTensor are such pairs, with the queue's fixed HardEvent) and PipeBarrier<PIPE_ALL>. Memory is
// tracked per 32-byte block: the last writer and, per pipe, the last reader (stored per run of blocks that share
// them, emu/memstate.h). Scalar reads are the one exception: they complete before the scalar unit issues anything
// else, so they never race with a later write.
//
// Auto-sync. CANN builds custom operators with bisheng's --cce-auto-sync unless the project turns it off: the
// compiler inserts the flags between pipes itself. With autoSync() on (project runs, emu/project_launch.h), a
// conflict is not an error but a dependency the compiler would have synchronised: the pipe waits for exactly the
// instruction it conflicts with (know_[q][p] rises to its seq, nothing transitive), and the instruction records
// it (Instr::after) so that the performance model waits too.
//
// Poison. The device computes whatever a vector lane holds; what nothing wrote only matters once it reaches a
// result. With poisonUnwritten() on (project runs, as CANN builds and runs them), a lane-wise vector instruction
// (emu/vec_lanes.h) may read unwritten bytes: the destination lanes computed from them stay unwritten, so the
// checks fire where such a value is used by anything else (a reduction, a scalar read, a copy of a block holding
// nothing defined), not where garbage lanes are computed and then dropped.
#pragma once

#include <memory>
#include <mutex>
#include <unordered_map>

#include "emu/base.h"
#include "emu/enums.h"
#include "emu/gm.h"
#include "emu/memstate.h"
#include "emu/trace.h"

namespace tcemu {

// A local memory: its bytes, which of them something wrote, and the pipes' ordering state.
struct Arena {
  std::vector<uint8_t> data;
  WrittenBits written;  // 1 per byte once something wrote it
  OrderMap order;       // per run of 32-byte blocks
  void ensure(uint32_t size) {
    if (!data.empty()) return;
    recycled().take(*this, size);
    // Fill with a pattern, not zeros, so that a read of unwritten data that slipped past the checks is visible.
    data.assign(size, 0xA5);
    written.reset(size);
    order.reset(size / kBlock);
  }
  ~Arena() {
    if (!data.empty()) recycled().give(*this);
  }
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

 private:
  // Memory of finished cores, reused by the next launch: a launch then refills its state instead of faulting in
  // fresh pages, which otherwise costs more than running a small kernel.
  struct Pool {
    std::mutex mu;
    std::vector<Arena*> free;  // owns the vectors moved into these shells
    void give(Arena& a) {
      std::lock_guard<std::mutex> lock(mu);
      if (free.size() >= 64) return;
      Arena* shell = new Arena;
      shell->data.swap(a.data);
      std::swap(shell->written, a.written);
      std::swap(shell->order, a.order);
      free.push_back(shell);
    }
    void take(Arena& a, uint32_t size) {
      std::lock_guard<std::mutex> lock(mu);
      for (size_t i = free.size(); i-- > 0;) {
        if (free[i]->data.capacity() < size) continue;
        a.data.swap(free[i]->data);
        std::swap(a.written, free[i]->written);
        std::swap(a.order, free[i]->order);
        delete free[i];
        free.erase(free.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
    }
  };
  static Pool& recycled() {
    static Pool* pool = new Pool;  // never destroyed: cores may finish during static destruction
    return *pool;
  }
};

// A buffer handed out by TPipe (one slot of a TQue, or a TBuf). Tensors carry (id, generation) so that a tensor
// used after FreeTensor and a new AllocTensor of its slot is caught.
struct BufferRec {
  Mem mem = Mem::UB;
  uint32_t start = 0, len = 0;
  uint32_t gen = 0;
  AscendC::TBufState state = AscendC::TBufState::FREE;
  bool isTBuf = false;
  SrcLoc freedAt, reallocAt;
  // Knowledge published by FreeTensor (reverse event) that the next AllocTensor of this slot acquires.
  std::array<uint32_t, kPipeCount> releaseKnow = {};
  Pipe releaseDst = Pipe::Count;
  uint32_t releaseToken = 0;
};

// What a LocalTensor points at. Views made by operator[] share the buffer's bounds.
struct TensorRef {
  Mem mem = Mem::UB;
  uint32_t offset = 0;    // bytes from the start of the memory
  uint32_t bufStart = 0;  // bounds an access may not leave
  uint32_t bufEnd = 0;
  int32_t bufId = -1;  // -1: not from TPipe (no lifetime checks)
  uint32_t gen = 0;
  AscendC::TPosition pos = AscendC::TPosition::VECCALC;
  bool valid = false;
};

struct EventFlag {
  bool set = false;
  SrcLoc setAt;
  std::array<uint32_t, kPipeCount> know = {};
  uint32_t token = 0;
};

// Whether cores made from now on synchronise conflicting pipes themselves (see the file comment).
inline bool& autoSyncSetting() {
  static bool on = false;
  return on;
}
inline void setAutoSync(bool on) { autoSyncSetting() = on; }
inline bool& poisonSetting() {
  static bool on = false;
  return on;
}
inline void setPoisonUnwritten(bool on) { poisonSetting() = on; }

class Core {
 public:
  Core(CoreKind kind, int64_t blockIdx, int64_t subIdx, int64_t coreId)
      : kind_(kind),
        blockIdx_(blockIdx),
        subIdx_(subIdx),
        coreId_(coreId),
        autoSync_(autoSyncSetting()),
        poison_(poisonSetting()) {
    for (int p = 0; p < kPipeCount; ++p)
      for (int q = 0; q < kPipeCount; ++q) know_[p][q] = 0;
    maskLow_ = maskHigh_ = ~0ULL;
    takeTrace(trace_);
  }

  ~Core() {
    for (auto& entry : gmPages_) giveGmPage(std::move(entry.second));
    giveTrace(trace_);
  }
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  CoreKind kind() const { return kind_; }
  int64_t blockIdx() const { return blockIdx_; }
  int64_t subIdx() const { return subIdx_; }
  int64_t coreId() const { return coreId_; }

  Arena& arena(Mem m) {
    Arena& a = arenas_[static_cast<int>(m)];
    a.ensure(memSize(m));
    return a;
  }
  uint8_t* ptr(Mem m, uint32_t offset) { return arena(m).data.data() + offset; }

  // --- instructions ---------------------------------------------------------------------------------------------

  // Starts an instruction on a pipe; the returned index stays valid, the reference only until the next begin().
  uint32_t begin(Pipe pipe, OpClass cls, const char* name, const SrcLoc& loc) {
    Instr ins;
    ins.name = name;
    if (loc.file != lastFile_) {  // call sites repeat: look the base name up once per file pointer
      lastFile_ = loc.file;
      lastBase_ = baseName(loc.file);
    }
    ins.file = lastBase_;
    ins.line = loc.line;
    ins.pipe = pipe;
    ins.cls = cls;
    if (pipe != Pipe::Count) ins.seq = ++seq_[static_cast<int>(pipe)];
    trace_.push_back(ins);
    return static_cast<uint32_t>(trace_.size() - 1);
  }
  Instr& instr(uint32_t idx) { return trace_[idx]; }
  const std::vector<Instr>& trace() const { return trace_; }
  uint64_t autoSyncs() const { return autoSyncs_; }
  bool poisonsUnwritten() const { return poison_; }

  // Scalar accesses in a loop would make one instruction per element; consecutive ones from one call site merge.
  uint32_t beginScalar(const char* name, const SrcLoc& loc) {
    if (!trace_.empty()) {
      Instr& last = trace_.back();
      if (last.cls == OpClass::Scalar && last.name == name && last.line == loc.line && lastScalarFile_ == loc.file) {
        ++last.elements;
        return static_cast<uint32_t>(trace_.size() - 1);
      }
    }
    uint32_t idx = begin(Pipe::S, OpClass::Scalar, name, loc);
    trace_[idx].elements = 1;
    lastScalarFile_ = loc.file;
    return idx;
  }

  // --- memory access checks --------------------------------------------------------------------------------------

  // How strictly a read demands written data. Computation must not read a byte nothing wrote. Data movement
  // (DataCopy out, Brcb) moves whole 32-byte blocks, and a block written only in part is the normal tail of a
  // result, so there only a block that nothing wrote at all is an error. Poison (a lane-wise instruction under
  // poisonUnwritten()) allows any: the caller carries the unwritten lanes to its destination.
  enum class Unwritten { Byte, Block, Poison };

  // Checks and records that instruction `idx` reads [off, off+len) bytes of tensor `t` (offset relative to t);
  // whether some of them are unwritten (only Poison lets that pass).
  bool read(uint32_t idx, const TensorRef& t, uint64_t off, uint64_t len, const char* what, const SrcLoc& loc,
            Unwritten rule = Unwritten::Byte) {
    if (len == 0) return false;
    uint32_t start = checkRange(t, off, len, what, loc);
    Arena& a = arena(t.mem);
    uint64_t end = start + len;
    uint64_t hole = a.written.firstUnset(start, end);
    if (hole != end && rule == Unwritten::Poison) {
      touch(idx, a.order, start / kBlock, static_cast<uint32_t>((end - 1) / kBlock + 1), false, what, loc, true);
      return true;
    }
    if (hole != end && rule == Unwritten::Byte) {
      uint32_t at = static_cast<uint32_t>(hole);
      fault(loc,
            "%s reads %s bytes [%u, %u) that nothing wrote: byte %u (%u into the operand) was never written; "
            "hint: copy data in or Duplicate a value before reading",
            what, memName(t.mem), start, static_cast<uint32_t>(end), at, at - start);
    } else if (hole != end) {
      for (uint64_t b = start; b < end; b = (b / kBlock + 1) * kBlock) {
        uint64_t e = std::min<uint64_t>((b / kBlock + 1) * kBlock, end);
        if (!a.written.anySet(b, e)) {
          fault(loc,
                "%s reads %s bytes [%u, %u) and nothing wrote any of the 32-byte block at byte %llu; hint: copy "
                "data in or Duplicate a value before reading",
                what, memName(t.mem), start, static_cast<uint32_t>(end),
                static_cast<unsigned long long>(b / kBlock * kBlock));
        }
      }
    }
    touch(idx, a.order, start / kBlock, static_cast<uint32_t>((end - 1) / kBlock + 1), false, what, loc, true);
    return false;
  }

  void write(uint32_t idx, const TensorRef& t, uint64_t off, uint64_t len, const char* what, const SrcLoc& loc) {
    if (len == 0) return;
    uint32_t start = checkRange(t, off, len, what, loc);
    Arena& a = arena(t.mem);
    uint64_t end = start + len;
    touch(idx, a.order, start / kBlock, static_cast<uint32_t>((end - 1) / kBlock + 1), true, what, loc, true);
    a.written.set(start, end);
  }

  // Poison of contiguous element-wise APIs (emu/hl_map.h): the elements among t's first `count` (elemBytes each)
  // that hold a byte nothing wrote, appended to `out`; and, once the destination is written, those elements of
  // it made unwritten again.
  void unwrittenElements(const TensorRef& t, uint32_t elemBytes, uint64_t count, std::vector<uint64_t>& out) {
    const WrittenBits& w = arena(t.mem).written;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t at = t.offset + i * elemBytes;
      if (w.firstUnset(at, at + elemBytes) != at + elemBytes) out.push_back(i);
    }
  }
  void unwriteElements(const TensorRef& t, uint32_t elemBytes, const std::vector<uint64_t>& elems) {
    WrittenBits& w = arena(t.mem).written;
    for (uint64_t i : elems) w.clear(t.offset + i * elemBytes, t.offset + (i + 1) * elemBytes);
  }

  // Strided access: `count` chunks of `len` bytes, chunk i at off + i * stride.
  void readStrided(uint32_t idx, const TensorRef& t, uint64_t off, uint64_t len, uint64_t stride, uint64_t count,
                   const char* what, const SrcLoc& loc) {
    for (uint64_t i = 0; i < count; ++i) read(idx, t, off + i * stride, len, what, loc);
  }
  void writeStrided(uint32_t idx, const TensorRef& t, uint64_t off, uint64_t len, uint64_t stride, uint64_t count,
                    const char* what, const SrcLoc& loc) {
    for (uint64_t i = 0; i < count; ++i) write(idx, t, off + i * stride, len, what, loc);
  }

  // Checks the tensor is alive and [off, off+len) stays inside its buffer; returns the absolute start.
  uint32_t checkRange(const TensorRef& t, uint64_t off, uint64_t len, const char* what, const SrcLoc& loc) {
    checkAlive(t, what, loc);
    uint64_t start = static_cast<uint64_t>(t.offset) + off;
    if (start + len > t.bufEnd || start < t.bufStart) {
      // Local memory has no per-buffer bounds on the device: an access that stays inside the memory lands in the
      // buffers next to its own, a fault the device runs through. Past the memory's end it does not.
      CheckError e{loc,
                   format("%s accesses %s bytes [%llu, %llu), outside its buffer [%u, %u) (%llu bytes past the end); "
                          "hint: check the count or offset against the tensor's GetSize()",
                          what, memName(t.mem), static_cast<unsigned long long>(start),
                          static_cast<unsigned long long>(start + len), t.bufStart, t.bufEnd,
                          static_cast<unsigned long long>(start + len > t.bufEnd ? start + len - t.bufEnd : 0)),
                   {}};
      if (start + len > memSize(t.mem)) raise(std::move(e));
      raiseFault(std::move(e));
    }
    return static_cast<uint32_t>(start);
  }

  void checkAlive(const TensorRef& t, const char* what, const SrcLoc& loc) {
    if (!t.valid) fail(loc, "%s uses a LocalTensor that was never allocated (default-constructed)", what);
    if (t.bufId < 0) return;
    const BufferRec& b = buffers_[static_cast<size_t>(t.bufId)];
    if (b.gen != t.gen) {
      CheckError e{loc,
                   format("%s uses a tensor after FreeTensor released its buffer (%s bytes [%u, %u)) and "
                          "AllocTensor gave it to another tensor; hint: free the tensor after its last use",
                          what, memName(b.mem), b.start, b.start + b.len),
                   {}};
      e.notes.push_back({b.freedAt, "the buffer was freed here"});
      if (b.reallocAt.line) e.notes.push_back({b.reallocAt, "and allocated again here"});
      raise(std::move(e));
    }
  }

  // Start address alignment a memory needs for this operand.
  void checkAlign(const TensorRef& t, uint32_t align, const char* what, const SrcLoc& loc) {
    if (t.offset % align != 0) {
      fail(loc,
           "%s address %s+%u is not %u-byte aligned (%u bytes past a boundary); hint: offset tensors by "
           "multiples of %u bytes",
           what, memName(t.mem), t.offset, align, t.offset % align, align);
    }
  }

  // --- GM tracking (same-core pipes only; GM is shared by all cores) ----------------------------------------------

  void readGm(uint32_t idx, const void* p, uint64_t len, const char* what, const SrcLoc& loc) {
    touchGm(idx, reinterpret_cast<uintptr_t>(p), len, false, what, loc);
    footprint(idx, reinterpret_cast<uintptr_t>(p), len, false);
  }
  void writeGm(uint32_t idx, const void* p, uint64_t len, const char* what, const SrcLoc& loc) {
    touchGm(idx, reinterpret_cast<uintptr_t>(p), len, true, what, loc);
    footprint(idx, reinterpret_cast<uintptr_t>(p), len, true);
  }

  // GlobalTensor::SetL2CacheHint on this core: accesses to [lo, hi) in the hinted directions go around L2 (the
  // device's bypass address alias); a later hint on the same range replaces it.
  void setL2Hint(uintptr_t lo, uintptr_t hi, bool readBypass, bool writeBypass) {
    for (L2Hint& h : l2Hints_) {
      if (h.lo == lo && h.hi == hi) {
        h.read = readBypass;
        h.write = writeBypass;
        return;
      }
    }
    l2Hints_.push_back(L2Hint{lo, hi, readBypass, writeBypass});
  }

  // --- synchronisation -------------------------------------------------------------------------------------------

  // What the src pipe has completed so far, as published by a flag it sets now.
  std::array<uint32_t, kPipeCount> publish(Pipe src) const {
    std::array<uint32_t, kPipeCount> k;
    for (int p = 0; p < kPipeCount; ++p) k[p] = know_[static_cast<int>(src)][p];
    k[static_cast<int>(src)] = seq_[static_cast<int>(src)];
    return k;
  }
  void acquire(Pipe dst, const std::array<uint32_t, kPipeCount>& k) {
    for (int p = 0; p < kPipeCount; ++p)
      know_[static_cast<int>(dst)][p] = std::max(know_[static_cast<int>(dst)][p], k[p]);
  }
  void barrierAll() {
    for (int q = 0; q < kPipeCount; ++q)
      for (int p = 0; p < kPipeCount; ++p) know_[q][p] = seq_[p];
  }
  uint32_t newToken() { return ++tokens_; }

  EventFlag& flag(AscendC::HardEvent e, int id) { return flags_[static_cast<int>(e)][id]; }

  // --- vector mask register ---------------------------------------------------------------------------------------
  bool counterMode_ = false;
  uint64_t maskLow_, maskHigh_;
  // Special registers the vector ops set and read back (emu/vec_cast_cmp.h, vec_reduce.h, vec_gather.h).
  uint64_t cmpMask_[2] = {0, 0};  // CMPMASK: Compare's register form, SetCmpMask; Select mode 0/1 reads it
  float deqScale_ = 1.0f;         // SetDeqScale(half): the int32 -> half Cast multiplies by it
  uint64_t maxMinCnt_ = 0;        // value bits (low 32) and index (high 32) of the last WholeReduceMax/Min
  uint64_t accVal_ = 0;           // bits of the last count-form ReduceSum total (GetAccVal)
  uint64_t rsvdCnt_ = 0;          // elements the last GatherMask kept (GetGatherMaskRemainCount)
  uint64_t vms4Sr_ = 0;           // records per list the last MrgSort consumed, 16 bits each (GetMrgSortResult)
  // The vector address registers VA0..VA7 (set_va_reg_sb): eight 32-byte block addresses each, the GetPhyAddr()
  // values as the CPU-debug build sees them; bit r of vaSet_ says VAr was written (emu/vec_transdata.h).
  uint64_t va_[8][8] = {};
  uint8_t vaSet_ = 0;
  // FMATRIX and padding registers (SetFmatrix, SetLoadDataPaddingValue) that img2col LoadData reads when its
  // params say not to reset them (emu/cube_load3d.h). Like the device registers they start at 0 and keep their
  // value until set again, also across launches of a reused core.
  struct Load3dRegs {
    uint16_t l1H = 0, l1W = 0;
    uint8_t padList[4] = {0, 0, 0, 0};
    uint32_t paddingBits = 0;  // the low sizeof(T) bytes are the pad value
  } load3d_;

  // --- buffers ----------------------------------------------------------------------------------------------------
  std::vector<BufferRec> buffers_;
  int64_t pipeCount_ = 0;          // TPipe objects alive on this core
  uint32_t pool_[kMemCount] = {};  // bytes handed out per memory by TPipe::InitBuffer

  bool atomicAdd_ = false;
  int atomicKind_ = 0;        // 0 none, 1 add, 2 max, 3 min
  int atomicDtype_ = 0;       // the SetAtomicXxx<T> dtype, a tcemu::AtomicDtype (emu/datacopy.h)
  uint64_t movPadValue_ = 0;  // DataCopyPad's pad register (SetPadValue, or isPad), raw bits

  static const char* baseName(const char* path) {
    const char* s = std::strrchr(path, '/');
    return s ? s + 1 : path;
  }

 private:
  // Checks and records that instruction `idx` touches blocks [first, end) of `m`. The checks run per run of blocks
  // with one state; the first block that fails is the one reported, as if the blocks were checked in order, and
  // the blocks before it are recorded, as they would have been.
  void touch(uint32_t idx, OrderMap& m, uint32_t first, uint32_t end, bool isWrite, const char* what, const SrcLoc& loc,
             bool local) {
    int q = static_cast<int>(trace_[idx].pipe);
    uint32_t h = m.headAtOrBefore(first), next = m.nextHead(first);
    if (h == first && next == end) {
      // Exactly one run (a tile accessed whole again, a block of a strided operand): update it in place.
      BlockState& s = m.state(h);
      for (Conflict c = conflict(q, s, isWrite); c.other; c = conflict(q, s, isWrite)) {
        if (!autoSync_) hazard(idx, c.other - 1, c.verb, c.otherVerb, what, loc, local ? first * kBlock : 0);
        autoWait(idx, c.other - 1);
      }
      if (isWrite) {
        s.writer = idx + 1;
        s.readerPipes = 0;
      } else {
        s.readers[q] = idx + 1;
        s.readerPipes = static_cast<uint8_t>(s.readerPipes | (1u << q));
      }
      uint32_t run = first;
      if (first > 0) {
        uint32_t prev = m.headAtOrBefore(first - 1);
        if (m.state(prev).sameAs(s)) {
          m.join(first);
          run = prev;
        }
      }
      if (end < m.size() && m.state(run).sameAs(m.state(end))) m.join(end);
      return;
    }
    const uint32_t h0 = h;
    for (uint32_t b = first;;) {
      for (Conflict c = conflict(q, m.state(h), isWrite); c.other; c = conflict(q, m.state(h), isWrite)) {
        if (!autoSync_) {
          if (!faultsAsWarningsSetting()) record(idx, q, m, first, b, isWrite, h0, h);
          hazard(idx, c.other - 1, c.verb, c.otherVerb, what, loc, local ? b * kBlock : 0);
        }
        autoWait(idx, c.other - 1);
      }
      if (next >= end) break;
      b = h = next;
      next = m.nextHead(b);
    }
    record(idx, q, m, first, end, isWrite, h0, h);
  }

  struct L2Hint {
    uintptr_t lo, hi;
    bool read, write;
  };

  bool bypassesL2(uintptr_t addr, bool isWrite) const {
    bool bypass = false;
    for (const L2Hint& h : l2Hints_) {  // the innermost (latest) matching range wins
      if (addr >= h.lo && addr < h.hi) bypass = isWrite ? h.write : h.read;
    }
    return bypass;
  }

  // Records the GM bytes an instruction touches as a strided run (trace keys gb/go/gl/gs/gn/gi, l2b).
  void footprint(uint32_t idx, uintptr_t addr, uint64_t len, bool isWrite) {
    Instr& in = trace_[idx];
    if (in.gmTouches == 0) {
      const GmBlock* b = gmFind(addr);
      in.gmBlock = b ? b->id : 0;
      in.gmOffset = b ? addr - b->base : 0;
      in.gmLen = len;
      in.l2Bypass = bypassesL2(addr, isWrite);
      footIdx_ = idx;
      footFirst_ = addr;
    } else if (idx != footIdx_ || addr < footFirst_ || len != in.gmLen) {
      in.gmIrregular = true;
    } else if (in.gmTouches == 1) {
      in.gmStride = addr - footFirst_;
    } else if (addr != footFirst_ + in.gmTouches * in.gmStride) {
      in.gmIrregular = true;
    }
    ++in.gmTouches;
  }

  void touchGm(uint32_t idx, uintptr_t addr, uint64_t len, bool isWrite, const char* what, const SrcLoc& loc) {
    if (len == 0) return;
    uintptr_t first = addr / kBlock, end = (addr + len - 1) / kBlock + 1;
    constexpr uintptr_t pageMask = kGmPageBlocks - 1;
    for (uintptr_t b = first; b < end;) {
      uintptr_t pageNo = b / kGmPageBlocks;
      uintptr_t stop = std::min<uintptr_t>(end, (pageNo + 1) * kGmPageBlocks);
      touch(idx, gmPage(pageNo), static_cast<uint32_t>(b & pageMask),
            static_cast<uint32_t>(((stop - 1) & pageMask) + 1), isWrite, what, loc, false);
      b = stop;
    }
  }

  // What an access by pipe q conflicts with in a run of state `bs`: the other instruction (index + 1, 0 = none).
  struct Conflict {
    uint32_t other = 0;
    const char* verb = "";
    const char* otherVerb = "";
  };
  Conflict conflict(int q, const BlockState& bs, bool isWrite) const {
    if (bs.writer) {
      const Instr& w = trace_[bs.writer - 1];
      int p = static_cast<int>(w.pipe);
      if (p != q && w.seq > know_[q][p]) return {bs.writer, isWrite ? "overwrites" : "reads", "wrote"};
    }
    if (isWrite) {
      // A scalar read stalls the scalar unit until its data arrives, and the scalar unit issues everything that
      // follows it, so no later instruction can overwrite data before a scalar read of it has completed.
      unsigned others = bs.readerPipes & ~(1u << q) & ~(1u << static_cast<int>(Pipe::S));
      for (int p = 0; others; ++p, others >>= 1) {
        if (!(others & 1u)) continue;
        uint32_t r = bs.readers[p];
        if (trace_[r - 1].seq > know_[q][p]) return {r, "overwrites", "still reads"};
      }
    }
    return {};
  }

  // Records the access in blocks [first, end): a write makes them one run, a read marks pipe q in every run;
  // runs that end up equal to their neighbour merge. h0 and hLast are the heads of the runs holding first and
  // end - 1 (touch has found them already).
  void record(uint32_t idx, int q, OrderMap& m, uint32_t first, uint32_t end, bool isWrite, uint32_t h0,
              uint32_t hLast) {
    if (first >= end) return;
    uint32_t n = m.size();
    if (end < n && !m.isHead(end)) m.splitFrom(end, hLast);
    if (h0 != first) m.splitFrom(first, h0);
    if (isWrite) {
      m.clearHeads(first + 1, end);
      BlockState& s = m.state(first);
      s.writer = idx + 1;
      s.readerPipes = 0;
    } else {
      for (uint32_t h = first; h < end; h = m.nextHead(h)) {
        BlockState& s = m.state(h);
        s.readers[q] = idx + 1;
        s.readerPipes = static_cast<uint8_t>(s.readerPipes | (1u << q));
      }
    }
    uint32_t last = std::min(end, n - 1);
    uint32_t h = first == 0 ? m.nextHead(0) : first;
    if (h > last) return;
    uint32_t prev = h == first && h0 != first ? h0 : m.headAtOrBefore(h - 1);
    while (h <= last) {
      uint32_t next = m.nextHead(h);
      if (m.state(prev).sameAs(m.state(h))) m.join(h);
      else prev = h;
      h = next;
    }
  }

  // The flag pair auto-sync inserts: instruction idx's pipe waits until `other` has completed. An instruction
  // keeps the two latest-issued dependencies (a pipe is in order, so waiting for the later of two on one pipe
  // covers both; three pipes at once is rare and keeps the latest two).
  void autoWait(uint32_t idx, uint32_t other) {
    Instr& me = trace_[idx];
    const Instr& o = trace_[other];
    int q = static_cast<int>(me.pipe), p = static_cast<int>(o.pipe);
    know_[q][p] = std::max(know_[q][p], o.seq);
    ++autoSyncs_;
    for (uint32_t& a : me.after) {
      if (a && trace_[a - 1].pipe == o.pipe) {
        a = std::max(a, other + 1);
        return;
      }
    }
    uint32_t& slot = !me.after[0]                ? me.after[0]
                     : !me.after[1]              ? me.after[1]
                     : me.after[0] < me.after[1] ? me.after[0]
                                                 : me.after[1];
    slot = std::max(slot, other + 1);
  }

  // Raises the hazard; under faults-as-warnings, returns after the warning and the caller orders the two as
  // auto-sync would (the device's pipes settled the race that way in a kernel that passes there).
  void hazard(uint32_t idx, uint32_t other, const char* verb, const char* otherVerb, const char* what,
              const SrcLoc& loc, uint32_t addr) {
    const Instr& me = trace_[idx];
    const Instr& o = trace_[other];
    std::string evt = std::string(pipeName(o.pipe)) + "_" + pipeName(me.pipe);
    CheckError e{
        loc,
        format("cross-pipe hazard: %s on pipe %s %s data that %s on pipe %s %s, with no queue, flag or "
               "barrier between them (block at byte %u); hint: pass the tensor through a TQue "
               "(EnQue/DeQue), or SetFlag<HardEvent::%s>/WaitFlag<HardEvent::%s> between the two calls",
               what, pipeName(me.pipe), verb, o.name, pipeName(o.pipe), otherVerb, addr, evt.c_str(), evt.c_str()),
        {}};
    e.notes.push_back({SrcLoc{o.file, o.line}, format("%s on pipe %s is here", o.name, pipeName(o.pipe))});
    raiseFault(std::move(e));
  }

  CoreKind kind_;
  int64_t blockIdx_, subIdx_, coreId_;
  Arena arenas_[kMemCount];
  std::vector<Instr> trace_;
  std::vector<L2Hint> l2Hints_;
  uint32_t footIdx_ = 0;
  uintptr_t footFirst_ = 0;
  const char* lastScalarFile_ = nullptr;
  const char* lastFile_ = nullptr;
  const char* lastBase_ = "";
  uint32_t seq_[kPipeCount] = {};
  uint32_t know_[kPipeCount][kPipeCount];
  bool autoSync_;
  bool poison_;
  uint64_t autoSyncs_ = 0;  // dependencies auto-sync inserted (the run report's auto_syncs)
  uint32_t tokens_ = 0;
  EventFlag flags_[static_cast<int>(AscendC::HardEvent::MAX)][AscendC::QUE_MAX_EVENT];
  // GM ordering state in pages of 64 KiB, made on first touch.
  static constexpr uint32_t kGmPageBlocks = 2048;
  using GmPage = OrderMap;
  std::unordered_map<uintptr_t, std::unique_ptr<GmPage>> gmPages_;
  uintptr_t lastPageNo_ = ~uintptr_t{0};
  GmPage* lastPage_ = nullptr;
  GmPage& gmPage(uintptr_t pageNo) {
    if (pageNo == lastPageNo_) return *lastPage_;
    auto& slot = gmPages_[pageNo];
    if (!slot) slot = takeGmPage();
    lastPageNo_ = pageNo;
    lastPage_ = slot.get();
    return *lastPage_;
  }

  // GM pages of finished cores are reused (reset) by later ones, like arenas: see Arena::Pool.
  struct GmPagePool {
    std::mutex mu;
    std::vector<std::unique_ptr<GmPage>> free;
  };
  static GmPagePool& gmPagePool() {
    static GmPagePool* pool = new GmPagePool;
    return *pool;
  }
  static std::unique_ptr<GmPage> takeGmPage() {
    GmPagePool& pool = gmPagePool();
    std::unique_lock<std::mutex> lock(pool.mu);
    std::unique_ptr<GmPage> page;
    if (pool.free.empty()) {
      page = std::make_unique<GmPage>();
    } else {
      page = std::move(pool.free.back());
      pool.free.pop_back();
    }
    lock.unlock();
    page->reset(kGmPageBlocks);
    return page;
  }
  // Trace storage of finished cores, reused by later ones: a launch then appends to memory it already has instead
  // of growing a fresh vector (copies, and page faults once it is large).
  struct TracePool {
    std::mutex mu;
    std::vector<std::vector<Instr>> free;
  };
  static TracePool& tracePool() {
    static TracePool* pool = new TracePool;
    return *pool;
  }
  static void takeTrace(std::vector<Instr>& trace) {
    TracePool& pool = tracePool();
    std::lock_guard<std::mutex> lock(pool.mu);
    if (pool.free.empty()) return;
    trace.swap(pool.free.back());
    pool.free.pop_back();
  }
  static void giveTrace(std::vector<Instr>& trace) {
    if (trace.capacity() == 0) return;
    trace.clear();
    TracePool& pool = tracePool();
    std::lock_guard<std::mutex> lock(pool.mu);
    if (pool.free.size() < 64) pool.free.push_back(std::move(trace));
  }
  static void giveGmPage(std::unique_ptr<GmPage> page) {
    GmPagePool& pool = gmPagePool();
    std::lock_guard<std::mutex> lock(pool.mu);
    if (pool.free.size() < 4096) pool.free.push_back(std::move(page));
  }
};

// The core whose code is running now. Cores run one at a time (see launch.h), so a plain global suffices.
inline Core*& currentCore() {
  static Core* core = nullptr;
  return core;
}

// Kernel code outside ICPU_RUN_KF (a helper called from main, a unit test) runs on a default AIV core.
inline Core& cur() {
  Core* c = currentCore();
  if (!c) {
    static Core fallback(CoreKind::AIV, 0, 0, 0);
    c = &fallback;
    currentCore() = c;
  }
  return *c;
}

// Instructions for the other kind of unit are skipped, as a split-architecture build compiles them away.
inline bool onVectorCore() { return cur().kind() == CoreKind::AIV; }
inline bool onCubeCore() { return cur().kind() == CoreKind::AIC; }

// Runs `body` on a fresh core of `kind` (unit tests and tools); restores the previous core afterwards.
class CoreScope {
 public:
  explicit CoreScope(CoreKind kind = CoreKind::AIV, int64_t blockIdx = 0)
      : core_(std::make_unique<Core>(kind, blockIdx, 0, blockIdx)), prev_(currentCore()) {
    currentCore() = core_.get();
  }
  ~CoreScope() { currentCore() = prev_; }
  Core& core() { return *core_; }
  CoreScope(const CoreScope&) = delete;
  CoreScope& operator=(const CoreScope&) = delete;

 private:
  std::unique_ptr<Core> core_;
  Core* prev_;
};

}  // namespace tcemu
