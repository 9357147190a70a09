// The instruction trace: every emulated API call becomes one Instr on its pipe. The checks use it to name the
// earlier instruction of a hazard, and the performance model (perf/) replays it as a timeline.
//
// File format (env TILECRAFT_EMU_TRACE=PATH), JSON lines, appended once per ICPU_RUN_KF launch:
//   {"launch":N,"kernel":"add_custom","mode":"AIV","blocks":8,"cores":8}
//   {"core":0,"kind":"AIV","block":0,"sub":0,"instrs":123}
//   {"i":0,"p":"MTE2","c":"dma_in","n":"DataCopy","f":"add.cpp","l":42,"dt":2,"rep":0,"el":4096,"by":8192,
//    "bu":1,"bl":8192,"ga":0,"src":"GM","dst":"UB","m":0,"k":0,"nn":0,"ev":-1,"tok":0,"xf":-1,"xm":0,
//    "gb":1,"go":0,"gl":8192,"gs":0,"gn":1,"gi":0,"l2b":0,"aw":0,"aw2":0}
// one line per instruction after its core's line. Keys: i index, p pipe, c class, n API name, f/l kernel call site
// (file base name), dt element bytes, rep vector repeats, el elements, by bytes moved, bu bursts, bl burst bytes,
// ga GM byte address modulo 512 (alignment), src/dst memories, m/k/nn Mmad shape, ev HardEvent index of a sync
// instruction (-1 otherwise; PIPE_ALL barriers have p "ALL"), tok pairs a set with its wait (0 = none), xf/xm the
// flag id (-1 otherwise) and mode of a CrossCoreSetFlag/CrossCoreWaitFlag: the timeline pairs a cross-core wait
// with the sets of the other cores from them (the topology of a mode is the core lines' kind/block/sub). The GM
// footprint of a DMA, for the performance model's L2: gb the GmAlloc buffer (1-based allocation serial, 0 = none),
// go the first byte's offset in it, gl the bytes of each access, gs the distance between consecutive accesses'
// starts, gn their count, gi 1 when they are not evenly spaced (the footprint is then unknown), l2b 1 when the
// access goes around L2 (GlobalTensor::SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE) on this core). aw and aw2
// are the dependencies auto-sync inserted (emu/core.h): the index + 1 of an earlier instruction on another pipe of
// this core that must complete before this one starts (0 = none).
#pragma once

#include <cstdint>

#include "emu/enums.h"

namespace tcemu {

enum class OpClass : uint8_t {
  Scalar,    // GetValue/SetValue and other scalar-unit work
  DmaIn,     // GM -> UB / L1 (MTE2)
  DmaOut,    // UB -> GM (MTE3)
  DmaLocal,  // local -> local copies (UB->UB on V, L1->L0 on MTE1)
  Vector,    // a vector instruction: `repeats` repeats of 256 B
  Cube,      // Mmad
  Fixpipe,   // L0C -> GM / L1
  SetFlag,   // a SetFlag, EnQue or FreeTensor (the producer side of an event)
  WaitFlag,  // a WaitFlag, DeQue or AllocTensor (the consumer side)
  Barrier,   // PipeBarrier<pipe> (pipe Count means PIPE_ALL)
  CoreSync,  // SyncAll / cross-core flags
};

inline const char* opClassName(OpClass c) {
  static const char* const names[] = {"scalar",  "dma_in",   "dma_out",   "dma_local", "vector",   "cube",
                                      "fixpipe", "set_flag", "wait_flag", "barrier",   "core_sync"};
  return names[static_cast<int>(c)];
}

// Where an operand lives, for the trace: a local memory or global memory.
enum class Space : uint8_t { UB, L1, L0A, L0B, L0C, BT, FB, GM, None };
inline Space spaceOf(Mem m) { return static_cast<Space>(static_cast<int>(m)); }
inline const char* spaceName(Space s) {
  static const char* const names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "GM", "-"};
  return names[static_cast<int>(s)];
}

struct Instr {
  const char* name = "";
  const char* file = "";
  int32_t line = 0;
  Pipe pipe = Pipe::S;  // Pipe::Count only for PIPE_ALL barriers
  OpClass cls = OpClass::Scalar;
  uint8_t dtypeBytes = 0;
  uint32_t seq = 0;         // 1-based position among this pipe's instructions
  uint32_t repeats = 0;     // vector repeats executed
  uint64_t elements = 0;    // elements computed or moved (scalar: number of merged accesses)
  uint64_t bytes = 0;       // bytes moved by a DMA
  uint32_t bursts = 0;      // DMA bursts (blockCount)
  uint32_t burstBytes = 0;  // bytes per burst
  uint32_t gmAlign = 0;     // GM address modulo 512
  Space src = Space::None, dst = Space::None;
  uint16_t m = 0, n = 0, k = 0;
  int16_t event = -1;     // HardEvent of a sync instruction
  uint32_t token = 0;     // pairs a SetFlag with the WaitFlag that consumed it
  int8_t crossFlag = -1;  // flag id of a cross-core set or wait
  uint8_t crossMode = 0;  // its mode: 0 all cores of a kind, 1 the AIV pair of a block, 2 AIC <-> AIV of a block
  // GM footprint (see the file comment): gmTouches accesses of gmLen bytes, gmStride apart, from gmOffset of
  // buffer gmBlock.
  uint32_t gmBlock = 0;
  uint32_t gmTouches = 0;
  uint64_t gmOffset = 0, gmLen = 0, gmStride = 0;
  bool gmIrregular = false;
  bool l2Bypass = false;
  // Auto-sync dependencies (emu/core.h): index + 1 of instructions on other pipes this one waits for, 0 = none.
  uint32_t after[2] = {0, 0};
};

}  // namespace tcemu
