// Intra-core synchronisation (SetFlag/WaitFlag, PipeBarrier, TQueSync) and the vector mask register API.
#pragma once

#include "emu/tpipe.h"

namespace tcemu {

// Vector-side events mean nothing on a cube core and cube-side ones nothing on a vector core: CANN ignores them.
inline bool eventOnThisCore(AscendC::HardEvent evt) {
  EventPipes ep = eventPipes(evt);
  auto vectorSide = [](Pipe p) { return p == Pipe::V || p == Pipe::MTE3; };
  auto cubeSide = [](Pipe p) { return p == Pipe::M || p == Pipe::MTE1 || p == Pipe::FIX; };
  if (onCubeCore()) return !vectorSide(ep.src) && !vectorSide(ep.dst);
  return !cubeSide(ep.src) && !cubeSide(ep.dst);
}

inline void checkEventId(const char* what, AscendC::HardEvent evt, int32_t id, const SrcLoc& loc) {
  if (id < 0 || id >= AscendC::QUE_MAX_EVENT) {
    fail(loc, "%s<HardEvent::%s> with event id %d; ids run from 0 to %d", what, eventPipes(evt).name, id,
         AscendC::QUE_MAX_EVENT - 1);
  }
}

inline void setFlag(AscendC::HardEvent evt, int32_t id, const SrcLoc& loc) {
  checkEventId("SetFlag", evt, id, loc);
  if (!eventOnThisCore(evt)) return;
  Core& core = cur();
  EventFlag& f = core.flag(evt, id);
  if (f.set) {
    CheckError e{loc,
                 format("SetFlag<HardEvent::%s>(%d) while the flag is already set: two SetFlags with no "
                        "WaitFlag between them; hint: WaitFlag<HardEvent::%s>(%d) before setting it again",
                        eventPipes(evt).name, id, eventPipes(evt).name, id),
                 {}};
    e.notes.push_back({f.setAt, "the flag was set here"});
    raise(std::move(e));
  }
  f.token = syncSet(core, evt, "SetFlag", loc, f.know);
  f.set = true;
  f.setAt = loc;
}

inline void waitFlag(AscendC::HardEvent evt, int32_t id, const SrcLoc& loc) {
  checkEventId("WaitFlag", evt, id, loc);
  if (!eventOnThisCore(evt)) return;
  Core& core = cur();
  EventFlag& f = core.flag(evt, id);
  if (!f.set) {
    fail(loc,
         "WaitFlag<HardEvent::%s>(%d) with no SetFlag before it: the %s pipe would wait forever; hint: "
         "SetFlag<HardEvent::%s>(%d) after the producing call",
         eventPipes(evt).name, id, pipeName(eventPipes(evt).dst), eventPipes(evt).name, id);
  }
  syncWait(core, evt, "WaitFlag", loc, f.know, f.token);
  f.set = false;
}

// A flag still set when the core finishes was never waited for: its SetFlag/WaitFlag pairs do not match.
inline void checkFlagsBalanced(Core& core) {
  for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
    for (int id = 0; id < AscendC::QUE_MAX_EVENT; ++id) {
      EventFlag& f = core.flag(static_cast<AscendC::HardEvent>(e), id);
      if (f.set) {
        fail(f.setAt,
             "SetFlag<HardEvent::%s>(%d) is never matched by a WaitFlag before the kernel ends; hint: pair "
             "every SetFlag with a WaitFlag of the same event and id",
             eventPipes(static_cast<AscendC::HardEvent>(e)).name, id);
      }
    }
  }
}

inline void pipeBarrier(pipe_t pipe, const SrcLoc& loc) {
  Core& core = cur();
  if (pipe == PIPE_ALL) {
    uint32_t ins = core.begin(Pipe::Count, OpClass::Barrier, "PipeBarrier", loc);
    (void)ins;
    core.barrierAll();
    return;
  }
  Pipe p = pipeOf(pipe);
  if (p == Pipe::Count) fail(loc, "PipeBarrier on pipe %d, which has no barrier", static_cast<int>(pipe));
  if (p == Pipe::S) fail(loc, "PipeBarrier<PIPE_S> is not supported; hint: use PipeBarrier<PIPE_ALL>");
  core.begin(p, OpClass::Barrier, "PipeBarrier", loc);
}

}  // namespace tcemu

namespace AscendC {

template <HardEvent event>
inline void SetFlag(int32_t eventID, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::setFlag(event, eventID, loc);
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::waitFlag(event, eventID, loc);
}
template <pipe_t pipe>
inline void PipeBarrier(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::pipeBarrier(pipe, loc);
}

enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg>
inline void DataSyncBarrier(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::pipeBarrier(PIPE_ALL, loc);
}

inline HardEvent eventOfPipes(pipe_t src, pipe_t dst) {
  for (int e = 0; e < static_cast<int>(HardEvent::MAX); ++e) {
    tcemu::EventPipes ep = tcemu::eventPipes(static_cast<HardEvent>(e));
    if (ep.src == tcemu::pipeOf(src) && ep.dst == tcemu::pipeOf(dst)) return static_cast<HardEvent>(e);
  }
  return HardEvent::MAX;
}

template <pipe_t srcPipe, pipe_t dstPipe>
class TQueSync {
 public:
  void SetFlag(TEventID id, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { tcemu::setFlag(event(loc), id, loc); }
  void WaitFlag(TEventID id, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { tcemu::waitFlag(event(loc), id, loc); }

 private:
  static HardEvent event(const tcemu::SrcLoc& loc) {
    HardEvent e = eventOfPipes(srcPipe, dstPipe);
    if (e == HardEvent::MAX)
      tcemu::fail(loc, "TQueSync between pipes %d and %d, which have no event", srcPipe, dstPipe);
    return e;
  }
};

// --- vector mask register (ascendc_api.md §3.1) ---------------------------------------------------------------

inline void SetMaskCount() { tcemu::cur().counterMode_ = true; }
inline void SetMaskNorm() { tcemu::cur().counterMode_ = false; }
inline void ResetMask() {
  tcemu::cur().maskLow_ = FULL_MASK;
  tcemu::cur().maskHigh_ = FULL_MASK;
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  tcemu::cur().maskHigh_ = maskHigh;
  tcemu::cur().maskLow_ = maskLow;
}

// The length form: in counter mode `len` is the element count; otherwise the first `len` lanes of a repeat.
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
  tcemu::Core& core = tcemu::cur();
  if (mode == MaskMode::COUNTER || core.counterMode_) {
    core.maskHigh_ = 0;
    core.maskLow_ = static_cast<uint64_t>(len);
    return;
  }
  uint32_t l = static_cast<uint32_t>(len);
  core.maskLow_ = l >= 64 ? FULL_MASK : ((1ULL << l) - 1);
  core.maskHigh_ = l >= 128 ? FULL_MASK : (l > 64 ? ((1ULL << (l - 64)) - 1) : 0);
}

}  // namespace AscendC
