// TPipe, TQueBind/TQue and TBuf: buffer carving per physical memory and the queue state machine
// (FREE -> OCCUPIED -> ENQUE -> DEQUE -> FREE), with the events a queue implies (ascendc_api.md §1.3-1.4, §5.2).
#pragma once

#include <deque>

#include "emu/tensor.h"

namespace tcemu {

// Hardware behind a logical queue end, and the forward/reverse events between them (CANN's GetQueEvt on 220).
inline bool hardwareOf(AscendC::TPosition p, AscendC::Hardware& hw) {
  using T = AscendC::TPosition;
  using H = AscendC::Hardware;
  switch (p) {
    case T::GM:
    case T::CO2: hw = H::GM; return true;
    case T::VECIN:
    case T::VECOUT:
    case T::VECCALC: hw = H::UB; return true;
    case T::A1:
    case T::B1:
    case T::C1:
    case T::TSCM: hw = H::L1; return true;
    case T::A2: hw = H::L0A; return true;
    case T::B2: hw = H::L0B; return true;
    case T::CO1: hw = H::L0C; return true;
    case T::C2: hw = H::BIAS; return true;
    default: return false;
  }
}

inline AscendC::HardEvent queueEvent(AscendC::TPosition src, AscendC::TPosition dst, bool forward) {
  using H = AscendC::Hardware;
  using E = AscendC::HardEvent;
  H s, d;
  if (!hardwareOf(src, s) || !hardwareOf(dst, d)) return E::MAX;
  if (s == H::GM && d == H::UB) return forward ? E::MTE2_V : E::V_MTE2;
  if (s == H::GM && d == H::L1) return forward ? E::MTE2_MTE1 : E::MTE1_MTE2;
  if (s == H::GM && (d == H::L0A || d == H::L0B)) return forward ? E::MTE2_M : E::M_MTE2;
  if (s == H::UB && d == H::GM) return forward ? E::V_MTE3 : E::MTE3_V;
  if (s == H::UB && d == H::L1) return forward ? E::MTE3_MTE1 : E::MTE1_MTE3;
  if (s == H::UB && d == H::UB) return forward ? E::MTE2_MTE3 : E::MTE3_MTE2;
  if (s == H::L1 && d == H::UB) return forward ? E::MTE1_V : E::V_MTE1;
  if (s == H::L1 && (d == H::L0A || d == H::L0B || d == H::BIAS)) return forward ? E::MTE1_M : E::M_MTE1;
  if (s == H::L0C && d == H::GM) return forward ? E::M_FIX : E::FIX_M;
  return E::MAX;
}

inline const char* hardEventName(AscendC::HardEvent e) {
  static const char* const names[] = {
      "MTE2_MTE1", "MTE1_MTE2", "MTE1_M",    "M_MTE1",    "MTE2_V",   "V_MTE2",   "MTE3_V",   "V_MTE3",  "M_V",
      "V_M",       "V_V",       "MTE3_MTE1", "MTE1_MTE3", "MTE1_V",   "MTE2_M",   "M_MTE2",   "V_MTE1",  "M_FIX",
      "FIX_M",     "MTE3_MTE2", "MTE2_MTE3", "S_V",       "V_S",      "S_MTE2",   "MTE2_S",   "S_MTE3",  "MTE3_S",
      "MTE2_FIX",  "FIX_MTE2",  "FIX_S",     "M_S",       "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX", "none"};
  return names[static_cast<int>(e)];
}

// Records the producer half of an event (SetFlag, EnQue, FreeTensor) and returns its token.
inline uint32_t syncSet(Core& core, AscendC::HardEvent evt, const char* name, const SrcLoc& loc,
                        std::array<uint32_t, kPipeCount>& outKnow) {
  EventPipes ep = eventPipes(evt);
  uint32_t ins = core.begin(ep.src, OpClass::SetFlag, name, loc);
  core.instr(ins).event = static_cast<int16_t>(evt);
  uint32_t tok = core.newToken();
  core.instr(ins).token = tok;
  outKnow = core.publish(ep.src);
  return tok;
}

// Records the consumer half (WaitFlag, DeQue, AllocTensor) and gives the destination pipe the published knowledge.
inline void syncWait(Core& core, AscendC::HardEvent evt, const char* name, const SrcLoc& loc,
                     const std::array<uint32_t, kPipeCount>& know, uint32_t token) {
  EventPipes ep = eventPipes(evt);
  uint32_t ins = core.begin(ep.dst, OpClass::WaitFlag, name, loc);
  core.instr(ins).event = static_cast<int16_t>(evt);
  core.instr(ins).token = token;
  core.acquire(ep.dst, know);
}

}  // namespace tcemu

namespace AscendC {

class TPipe;

inline TPipe*& currentTPipe() {
  static TPipe* pipe = nullptr;
  return pipe;
}

// CANN's untyped handle of a queue buffer (the untyped DeQue, EnQue(TBufHandle), FreeBuffer). A kernel only passes it
// back to the queue; here it is the buffer record's id plus one, so no handle is a null pointer.
using TBufHandle = uint8_t*;

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
 public:
  TQueBind() = default;

  template <typename T>
  LocalTensor<T> AllocTensor(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    LocalTensor<T> t;
    AllocTensor(t, loc);
    return t;
  }

  template <typename T>
  void AllocTensor(LocalTensor<T>& t, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    tcemu::Core& core = tcemu::cur();
    checkInited("AllocTensor", loc);
    size_t n = slots_.size();
    for (size_t k = 0; k < n; ++k) {
      size_t i = (cursor_ + k) % n;
      tcemu::BufferRec& b = core.buffers_[static_cast<size_t>(slots_[i])];
      if (b.state != TBufState::FREE) continue;
      cursor_ = (i + 1) % n;
      b.state = TBufState::OCCUPIED;
      ++b.gen;  // tensors of the slot's earlier owner are dead from here
      b.reallocAt = loc;
      if (b.releaseToken) {  // wait for the consumer that freed this slot
        tcemu::syncWait(core, tcemu::queueEvent(src, dst, false), "AllocTensor", loc, b.releaseKnow, b.releaseToken);
        b.releaseToken = 0;
      }
      t.ref_ = tcemu::TensorRef{b.mem, b.start, b.start, b.start + b.len, slots_[i], b.gen, userPos(), true};
      t.size_ = b.len / static_cast<uint32_t>(sizeof(T));
      return;
    }
    tcemu::fail(loc,
                "AllocTensor on a %s queue with no free buffer: all %zu buffers are allocated or queued; hint: "
                "FreeTensor each tensor after its last use, or InitBuffer the queue with more buffers",
                tcemu::positionName(userPos()), n);
  }

  template <typename T>
  void FreeTensor(LocalTensor<T>& t, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    tcemu::Core& core = tcemu::cur();
    tcemu::BufferRec& b = own(t, "FreeTensor", loc);
    if (b.state == TBufState::FREE) {
      tcemu::CheckError e{loc, "FreeTensor of a tensor whose buffer is already free (freed twice)", {}};
      e.notes.push_back({b.freedAt, "first freed here"});
      tcemu::raise(std::move(e));
    }
    if (b.state == TBufState::ENQUE) {
      tcemu::fail(loc,
                  "FreeTensor of a tensor that is still in the queue (EnQue'd, never DeQue'd); hint: DeQue it "
                  "first");
    }
    // The data stays until AllocTensor hands the slot out again (which bumps the generation): a device reads a
    // freed tensor's values as they were, so reading them until then is no error (the hazard checks still see
    // the reads, against the next owner's writes).
    b.state = TBufState::FREE;
    b.freedAt = loc;
    AscendC::HardEvent rev = tcemu::queueEvent(src, dst, false);
    if (rev != HardEvent::MAX) b.releaseToken = tcemu::syncSet(core, rev, "FreeTensor", loc, b.releaseKnow);
  }

  template <typename T>
  bool EnQue(const LocalTensor<T>& t, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    return enque(t, tcemu::queueEvent(src, dst, true), false, loc);
  }

  // The user-position forms sync on the event between the two given positions instead of the queue's own, e.g.
  // EnQue<TPosition::GM, TPosition::VECIN> on a TQueBind<VECIN, VECOUT> is an MTE2 -> V hand-over (CANN checks
  // that the matching DeQue names the same positions).
  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  bool EnQue(const LocalTensor<T>& t, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    static_assert(userQueuePos(srcUserPos) && userQueuePos(dstUserPos) &&
                      !(srcUserPos == TPosition::GM && dstUserPos == TPosition::GM),
                  "EnQue<src, dst> takes GM/VECIN/VECOUT/VECCALC positions, not both GM");
    return enque(t, tcemu::queueEvent(srcUserPos, dstUserPos, true), true, loc);
  }

  template <typename T>
  LocalTensor<T> DeQue(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    LocalTensor<T> t;
    deque(t, tcemu::queueEvent(src, dst, true), false, loc);
    return t;
  }

  template <typename T>
  void DeQue(LocalTensor<T>& t, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    deque(t, tcemu::queueEvent(src, dst, true), false, loc);
  }

  template <TPosition srcUserPos, TPosition dstUserPos, typename T>
  LocalTensor<T> DeQue(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    static_assert(userQueuePos(srcUserPos) && userQueuePos(dstUserPos) &&
                      !(srcUserPos == TPosition::GM && dstUserPos == TPosition::GM),
                  "DeQue<src, dst, T> takes GM/VECIN/VECOUT/VECCALC positions, not both GM");
    LocalTensor<T> t;
    deque(t, tcemu::queueEvent(srcUserPos, dstUserPos, true), true, loc);
    return t;
  }

  // The untyped forms: the same hand-over with the buffer named by a handle, not a tensor.
  TBufHandle DeQue(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    LocalTensor<uint8_t> t;
    deque(t, tcemu::queueEvent(src, dst, true), false, loc);
    return reinterpret_cast<TBufHandle>(static_cast<uintptr_t>(t.ref_.bufId) + 1);
  }
  bool EnQue(TBufHandle buf, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    return enque(handleTensor(buf, "EnQue", loc), tcemu::queueEvent(src, dst, true), false, loc);
  }
  void FreeBuffer(TBufHandle buf, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    LocalTensor<uint8_t> t = handleTensor(buf, "FreeBuffer", loc);
    FreeTensor(t, loc);
  }

  bool VacantInQue() const { return depth <= 0 || static_cast<int32_t>(fifo_.size()) < depth; }
  bool HasTensorInQue() const { return !fifo_.empty(); }
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(fifo_.size()); }
  bool HasIdleBuffer() const {
    tcemu::Core& core = tcemu::cur();
    for (int32_t id : slots_)
      if (core.buffers_[static_cast<size_t>(id)].state == TBufState::FREE) return true;
    return false;
  }
  void FreeAllEvent() {}
  template <typename T>
  TBufState GetState(const LocalTensor<T>& t) const {
    if (t.ref_.bufId < 0) return TBufState::FREE;
    return tcemu::cur().buffers_[static_cast<size_t>(t.ref_.bufId)].state;
  }

  // Emulator internals (TPipe::InitBuffer fills them).
  struct Entry {
    int32_t buf = -1;
    uint32_t token = 0;
    AscendC::HardEvent evt = AscendC::HardEvent::MAX;
    bool userPositions = false;
    std::array<uint32_t, tcemu::kPipeCount> know = {};
  };
  std::vector<int32_t> slots_;
  size_t cursor_ = 0;
  std::deque<Entry> fifo_;
  static constexpr TPosition srcPos = src;
  static constexpr TPosition dstPos = dst;
  // The position whose memory holds the buffers (CANN's GetPosition for a queue's two ends).
  static constexpr TPosition userPos() {
    return src == TPosition::GM ? dst : dst == TPosition::GM ? src : src == TPosition::CO1 ? src : dst;
  }

 private:
  static constexpr bool userQueuePos(TPosition p) {
    return p == TPosition::GM || p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
  }
  template <typename T>
  bool enque(const LocalTensor<T>& t, AscendC::HardEvent fwd, bool userPositions, const tcemu::SrcLoc& loc) {
    tcemu::Core& core = tcemu::cur();
    tcemu::BufferRec& b = own(t, "EnQue", loc);
    if (b.state != TBufState::OCCUPIED && b.state != TBufState::DEQUE) {
      tcemu::fail(loc,
                  "EnQue of a tensor in state %s; only an allocated (OCCUPIED) or dequeued tensor can be "
                  "enqueued",
                  stateName(b.state));
    }
    if (depth > 0 && static_cast<int32_t>(fifo_.size()) >= depth) {
      tcemu::fail(loc,
                  "EnQue beyond the queue depth: %zu tensors already queued, depth is %d; hint: DeQue before "
                  "enqueuing again, or declare the TQue with a larger depth",
                  fifo_.size(), depth);
    }
    b.state = TBufState::ENQUE;
    Entry e;
    e.buf = t.ref_.bufId;
    e.evt = fwd;
    e.userPositions = userPositions;
    if (fwd != HardEvent::MAX) e.token = tcemu::syncSet(core, fwd, "EnQue", loc, e.know);
    fifo_.push_back(e);
    return true;
  }
  template <typename T>
  void deque(LocalTensor<T>& t, AscendC::HardEvent fwd, bool userPositions, const tcemu::SrcLoc& loc) {
    tcemu::Core& core = tcemu::cur();
    checkInited("DeQue", loc);
    if (fifo_.empty()) {
      tcemu::fail(loc,
                  "DeQue on an empty %s queue: nothing was EnQue'd; hint: EnQue the tensor in the producing "
                  "stage before DeQue in the consuming one",
                  tcemu::positionName(userPos()));
    }
    Entry e = fifo_.front();
    // The device waits on the event the DeQue names; a different one than the EnQue set never arrives.
    if (e.evt != fwd || e.userPositions != userPositions) {
      tcemu::fail(loc,
                  "DeQue%s waits on event %s but the EnQue%s that queued this tensor set %s; hint: give "
                  "EnQue and DeQue the same <src, dst> positions, or use neither",
                  userPositions ? "<src, dst>" : "", tcemu::hardEventName(fwd), e.userPositions ? "<src, dst>" : "",
                  tcemu::hardEventName(e.evt));
    }
    fifo_.pop_front();
    tcemu::BufferRec& b = core.buffers_[static_cast<size_t>(e.buf)];
    b.state = TBufState::DEQUE;
    if (e.token) tcemu::syncWait(core, fwd, "DeQue", loc, e.know, e.token);
    t.ref_ = tcemu::TensorRef{b.mem, b.start, b.start, b.start + b.len, e.buf, b.gen, userPos(), true};
    t.size_ = b.len / static_cast<uint32_t>(sizeof(T));
  }
  LocalTensor<uint8_t> handleTensor(TBufHandle buf, const char* what, const tcemu::SrcLoc& loc) {
    checkInited(what, loc);
    auto id = static_cast<int32_t>(reinterpret_cast<uintptr_t>(buf)) - 1;
    if (buf == nullptr || std::find(slots_.begin(), slots_.end(), id) == slots_.end()) {
      tcemu::fail(loc,
                  "%s of a TBufHandle that is not one of this %s queue's buffers; hint: pass back the handle "
                  "its DeQue returned",
                  what, tcemu::positionName(userPos()));
    }
    const tcemu::BufferRec& b = tcemu::cur().buffers_[static_cast<size_t>(id)];
    LocalTensor<uint8_t> t;
    t.ref_ = tcemu::TensorRef{b.mem, b.start, b.start, b.start + b.len, id, b.gen, userPos(), true};
    t.size_ = b.len;
    return t;
  }
  static const char* stateName(TBufState s) {
    static const char* const names[] = {"FREE", "OCCUPIED", "ENQUE", "DEQUE"};
    return names[static_cast<int>(s)];
  }
  void checkInited(const char* what, const tcemu::SrcLoc& loc) const {
    if (slots_.empty()) tcemu::fail(loc, "%s on a queue that TPipe::InitBuffer never initialised", what);
  }
  template <typename T>
  tcemu::BufferRec& own(const LocalTensor<T>& t, const char* what, const tcemu::SrcLoc& loc) {
    checkInited(what, loc);
    tcemu::Core& core = tcemu::cur();
    core.checkAlive(t.ref_, what, loc);
    if (std::find(slots_.begin(), slots_.end(), t.ref_.bufId) == slots_.end()) {
      tcemu::fail(loc,
                  "%s of a tensor that does not belong to this %s queue; hint: pass the tensor back to the "
                  "queue that allocated it",
                  what, tcemu::positionName(userPos()));
    }
    return core.buffers_[static_cast<size_t>(t.ref_.bufId)];
  }
};

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<(pos == TPosition::VECOUT || pos == TPosition::CO1 || pos == TPosition::CO2 ||
                              pos == TPosition::SPM)
                                 ? pos
                                 : (pos == TPosition::A2   ? TPosition::A1
                                    : pos == TPosition::B2 ? TPosition::B1
                                    : pos == TPosition::C2 ? TPosition::C1
                                                           : TPosition::GM),
                             (pos == TPosition::VECOUT || pos == TPosition::CO2 || pos == TPosition::SPM)
                                 ? TPosition::GM
                                 : (pos == TPosition::CO1 ? TPosition::CO2 : pos),
                             depth, mask> {};

template <TPosition pos = TPosition::VECCALC>
class TBuf {
 public:
  template <typename T>
  LocalTensor<T> Get(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    const tcemu::BufferRec& b = rec("TBuf::Get", loc);
    return make<T>(b, b.start, b.len / static_cast<uint32_t>(sizeof(T)));
  }
  template <typename T>
  LocalTensor<T> Get(uint32_t len, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    const tcemu::BufferRec& b = rec("TBuf::Get", loc);
    uint64_t bytes = uint64_t{len} * sizeof(T);
    // Any length within the buffer, as the device takes it: CANN's whole-block check is ASCENDC_DEBUG-only, and a
    // length of 0 (which its CPU-debug build asserts against) is an empty tensor (CrossEntropyLoss's answer takes
    // one and never uses it). The calls on the tensor check their own bounds and alignment.
    // More than the buffer holds is a fault the device runs through: its Get does not check, and the calls on the
    // tensor then reach into the buffers after it (each reported where it does).
    if (bytes > b.len) {
      tcemu::fault(loc, "TBuf::Get(%u) of %s asks for %llu bytes; the buffer has %u bytes", len, tcemu::dtypeName<T>(),
                   static_cast<unsigned long long>(bytes), b.len);
    }
    return make<T>(b, b.start, len);
  }
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    const tcemu::BufferRec& b = rec("TBuf::GetWithOffset", loc);
    if (bufOffset % 32 != 0) {
      tcemu::fail(loc, "TBuf::GetWithOffset offset %u bytes is not 32-byte aligned", bufOffset);
    }
    uint64_t end = uint64_t{bufOffset} + uint64_t{size} * sizeof(T);
    if (end > b.len) {
      tcemu::fail(loc, "TBuf::GetWithOffset(%u, %u) of %s ends at byte %llu; the buffer has %u bytes", size, bufOffset,
                  tcemu::dtypeName<T>(), static_cast<unsigned long long>(end), b.len);
    }
    return make<T>(b, b.start + bufOffset, size);
  }
  // CANN's TBuf takes the queue calls too: AllocTensor and DeQue are Get, EnQue and FreeTensor do nothing (a TBuf
  // has no state to move through).
  template <typename T>
  LocalTensor<T> AllocTensor(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    return Get<T>(loc);
  }
  template <typename T>
  LocalTensor<T> DeQue(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    return Get<T>(loc);
  }
  template <typename T>
  void EnQue(const LocalTensor<T>&) {}
  template <typename T>
  void FreeTensor(LocalTensor<T>&) {}

  int32_t id_ = -1;  // buffer record, set by TPipe::InitBuffer

 private:
  const tcemu::BufferRec& rec(const char* what, const tcemu::SrcLoc& loc) {
    if (id_ < 0) tcemu::fail(loc, "%s on a TBuf that TPipe::InitBuffer never initialised", what);
    return tcemu::cur().buffers_[static_cast<size_t>(id_)];
  }
  template <typename T>
  LocalTensor<T> make(const tcemu::BufferRec& b, uint32_t offset, uint32_t count) {
    LocalTensor<T> t;
    t.ref_ = tcemu::TensorRef{b.mem, offset, b.start, b.start + b.len, id_, b.gen, pos, true};
    t.size_ = count;
    return t;
  }
};

class TPipe {
 public:
  TPipe() {
    tcemu::Core& core = tcemu::cur();
    // A new pipe carves its memories from the start again; buffers of an earlier pipe on this core are dead.
    for (auto& b : core.buffers_) {
      b.state = TBufState::FREE;
      ++b.gen;
    }
    std::fill(std::begin(core.pool_), std::end(core.pool_), 0u);
    prev_ = currentTPipe();
    currentTPipe() = this;
  }
  ~TPipe() {
    if (currentTPipe() == this) currentTPipe() = prev_;
  }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  void Init() {}
  void Destroy() {}
  void Reset() {
    std::fill(std::begin(tcemu::cur().pool_), std::end(tcemu::cur().pool_), 0u);
    buffers_ = 0;
  }

  template <class Q>
  bool InitBuffer(Q& que, uint8_t num, uint32_t len, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    constexpr TPosition pos = Q::userPos();
    if (num < 1 || num > QBUF_MAX_LEN) {
      tcemu::fail(loc, "InitBuffer with %u buffers; a queue takes 1 to %d", num, QBUF_MAX_LEN);
    }
    if (!que.slots_.empty()) tcemu::fail(loc, "InitBuffer called twice on the same queue");
    int32_t first = carve(pos, len, num, "queue", loc);
    for (int32_t i = 0; i < num; ++i) que.slots_.push_back(first + i);
    return true;
  }

  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (buf.id_ >= 0) tcemu::fail(loc, "InitBuffer called twice on the same TBuf");
    buf.id_ = carve(pos, len, 1, "TBuf", loc);
    tcemu::cur().buffers_[static_cast<size_t>(buf.id_)].isTBuf = true;
    tcemu::cur().buffers_[static_cast<size_t>(buf.id_)].state = TBufState::OCCUPIED;
    return true;
  }

  template <HardEvent evt>
  TEventID AllocEventID(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    auto& used = eventsInUse_[static_cast<int>(evt)];
    for (int id = 0; id < QUE_MAX_EVENT; ++id) {
      if (!(used & (1u << id))) {
        used |= (1u << id);
        return static_cast<TEventID>(id);
      }
    }
    tcemu::fail(loc, "AllocEventID<%s>: all %d event ids are allocated; hint: ReleaseEventID ids you no longer use",
                tcemu::eventPipes(evt).name, QUE_MAX_EVENT);
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    eventsInUse_[static_cast<int>(evt)] &= ~(1u << id);
  }
  template <HardEvent evt>
  TEventID FetchEventID() {
    return FetchEventID(evt);
  }
  TEventID FetchEventID(HardEvent evt) {
    auto used = eventsInUse_[static_cast<int>(evt)];
    for (int id = 0; id < QUE_MAX_EVENT; ++id)
      if (!(used & (1u << id))) return static_cast<TEventID>(id);
    return 0;
  }

 private:
  // Carves `num` buffers of `len` bytes (rounded up to 32) from the memory behind `pos`; returns the first id.
  int32_t carve(TPosition pos, uint32_t len, uint32_t num, const char* kind, const tcemu::SrcLoc& loc) {
    tcemu::Core& core = tcemu::cur();
    tcemu::Mem mem;
    if (!tcemu::positionMem(pos, mem)) {
      tcemu::fail(loc, "InitBuffer for position %s, which is not a local memory", tcemu::positionName(pos));
    }
    // CANN's CPU-debug build asserts against a length of 0; the device makes buffers of no bytes.
    if (len == 0) tcemu::fault(loc, "InitBuffer with a length of 0 bytes");
    if (buffers_ + static_cast<int32_t>(num) > QBUF_MAX_LEN) {
      tcemu::fail(loc, "InitBuffer would make this TPipe hold %d buffers; a TPipe holds at most %d",
                  buffers_ + static_cast<int32_t>(num), QBUF_MAX_LEN);
    }
    uint32_t rounded = static_cast<uint32_t>(tcemu::roundUp(len, 32));
    uint32_t& used = core.pool_[static_cast<int>(mem)];
    uint32_t cap = tcemu::memSize(mem);
    uint64_t need = uint64_t{rounded} * num;
    if (used + need > cap) {
      uint32_t left = cap - used;
      tcemu::fail(loc,
                  "%s overflow: InitBuffer of a %s %s with %u x %u bytes needs %llu bytes; %u of %u bytes are "
                  "left (%u used by earlier InitBuffer calls); hint: at most %u bytes per buffer fit",
                  tcemu::memName(mem), tcemu::positionName(pos), kind, num, rounded,
                  static_cast<unsigned long long>(need), left, cap, used, left / num / 32 * 32);
    }
    int32_t first = static_cast<int32_t>(core.buffers_.size());
    for (uint32_t i = 0; i < num; ++i) {
      tcemu::BufferRec b;
      b.mem = mem;
      b.start = used;
      b.len = rounded;
      used += rounded;
      core.buffers_.push_back(b);
    }
    buffers_ += static_cast<int32_t>(num);
    return first;
  }

  int32_t buffers_ = 0;
  uint32_t eventsInUse_[static_cast<int>(HardEvent::MAX)] = {};
  TPipe* prev_ = nullptr;
};

template <pipe_t srcPipe, pipe_t dstPipe>
class TQueSync;

}  // namespace AscendC
