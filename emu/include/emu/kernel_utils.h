// CANN's kernel utilities that kernels call by name (8.1: basic_api/impl/kernel_utils.h,
// utils/kernel_utils_ceil_oom_que.h, kernel_pop_stack_buffer.h): IsSameType, DivCeil/AlignUp/ConstCeil, the queue
// configuration a TQue's third parameter may point to (TQueConfig, GetTQueConfig), AscendCUtils' size queries and
// mask setters, PopStackBuffer, InitOutput and GetTPipePtr. Signatures are CANN's; what the device leaves undefined is a check here.
#pragma once

#include <algorithm>
#include <type_traits>

#include "emu/hl_common.h"
#include "emu/launch.h"
#include "emu/sync.h"
#include "emu/tpipe.h"

namespace AscendC {

// CANN derives these from its own TrueType/FalseType; `::value` is all kernels read.
template <typename T, typename U>
struct IsSameType : public std::false_type {};
template <typename T>
struct IsSameType<T, T> : public std::true_type {};

__aicore__ inline uint32_t DivCeil(uint32_t a, uint32_t b, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (b == 0) tcemu::fail(loc, "DivCeil(%u, 0): division by zero", a);
  return (a + b - 1) / b;
}

__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  return DivCeil(a, b, loc) * b;
}

__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A TQue's configuration; the emulator's queues take their depth and buffers from InitBuffer, so only the fields
// are kept (a kernel may read them back).
struct TQueConfig {
  bool nd2nz = false;
  bool nz2nd = false;
  bool scmBlockGroup = false;
  uint32_t bufferLen = 0;
  uint32_t bufferNumber = 0;
  uint32_t consumerSize = 0;
  TPosition consumer[8] = {};
  bool enableStaticEvtId = false;
  bool enableLoopQueue = false;
};

__aicore__ constexpr TQueConfig GetTQueConfig(bool nd2nzIn, bool nz2ndIn, bool scmBlockGroupIn, uint32_t bufferLenIn,
                                              uint32_t bufferNumberIn, uint32_t consumerSizeIn,
                                              const TPosition consumerIn[], bool enableStaticEvtIdIn,
                                              bool enableLoopQueueIn) {
  return {nd2nzIn,
          nz2ndIn,
          scmBlockGroupIn,
          bufferLenIn,
          bufferNumberIn,
          consumerSizeIn,
          {consumerIn[0], consumerIn[1], consumerIn[2], consumerIn[3], consumerIn[4], consumerIn[5], consumerIn[6],
           consumerIn[7]},
          enableStaticEvtIdIn,
          enableLoopQueueIn};
}

// The classic mask form: bit 0 nd2nz, bit 1 nz2nd, bit 2 scmBlockGroup.
__aicore__ constexpr TQueConfig GetTQueConfig(const int32_t mask) {
  return {(static_cast<uint32_t>(mask) & 0x1u) != 0,
          (static_cast<uint32_t>(mask) & 0x2u) != 0,
          (static_cast<uint32_t>(mask) & 0x4u) != 0,
          0,
          0,
          0,
          {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
           TPosition::MAX, TPosition::MAX},
          false,
          false};
}

__aicore__ constexpr TQueConfig GetTQueConfig(const TQueConfig* conf) { return *conf; }

class AscendCUtils {
 public:
  __aicore__ static inline int32_t GetBitSize(int32_t byteSize) { return byteSize * 8; }
  __aicore__ static inline int32_t GetC0Size() { return ONE_BLK_SIZE; }
  __aicore__ static inline int32_t GetC0Count(const int32_t dtypeSize, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
    if (dtypeSize == 0) tcemu::fail(loc, "AscendCUtils::GetC0Count(0): dtypeSize can not be 0");
    return GetC0Size() / dtypeSize;
  }
  __aicore__ static inline int32_t GetDefaultBlockNum() { return DEFAULT_BLK_NUM; }

  template <typename T, bool isSetMask = true>
  __aicore__ static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
    if constexpr (isSetMask) SetVectorMask<T, MaskMode::NORMAL>(maskHigh, maskLow);
  }

  // The first `len` lanes of a repeat, as CANN computes the two mask words (whatever the mask mode).
  template <typename T, bool isSetMask = true>
  __aicore__ static inline void SetMask(int32_t len) {
    if constexpr (!isSetMask) return;
    constexpr int32_t typeLen = ONE_REPEAT_BYTE_SIZE / static_cast<int32_t>(sizeof(T));
    constexpr int32_t halfTypeLen = 64;  // one 64-bit mask word
    if (len == halfTypeLen) {
      SetMask<T>(0, FULL_MASK);
    } else if (len == typeLen || len >= 2 * halfTypeLen) {
      SetMask<T>(FULL_MASK, FULL_MASK);
    } else {
      uint64_t high = len > halfTypeLen ? (uint64_t{1} << static_cast<uint32_t>(len - halfTypeLen)) - 1 : 0;
      uint64_t low = len > halfTypeLen ? FULL_MASK : (uint64_t{1} << static_cast<uint32_t>(len)) - 1;
      SetMask<T>(high, low);
    }
  }

  template <typename T>
  __aicore__ static inline void SetMaskCount() {
    AscendC::SetMaskCount();
  }
  template <typename T>
  __aicore__ static inline void SetMaskNorm() {
    AscendC::SetMaskNorm();
  }
  template <bool isSetMask = true>
  __aicore__ static inline void ResetMask() {
    if constexpr (isSetMask) AscendC::ResetMask();
  }
};

// The UB the TPipe left free after every InitBuffer, as one tensor (what the high-level APIs take their temporary
// space from when given no sharedTmpBuffer). CANN only has it for the vector memory.
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  static_assert(pos == TPosition::LCM || pos == TPosition::VECIN || pos == TPosition::VECOUT,
                "PopStackBuffer: the emulator models the stack buffer of the UB (TPosition::LCM) only");
  popLocal = tcemu::hl::stackBuffer(0, "PopStackBuffer", loc).template ReinterpretCast<T>();
  return true;
}

// CANN's InitOutput (kernel_operator_common_intf.h): `size` elements of GM set to `value`, the way CANN does it: the
// UB the pipe left free filled on V, then copied out on MTE3 in bursts of at most 255 blocks. Nothing on the cube.
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if ASCEND_IS_AIC {
    return;
  }
  LocalTensor<T> popBuffer;
  PopStackBuffer<T, TPosition::LCM>(popBuffer, loc);
  uint32_t popSize = std::min<uint32_t>(popBuffer.GetSize(), 255 * 32 / sizeof(T));
  if (popSize == 0 && size > 0)
    tcemu::fail(loc, "InitOutput of %u elements: the pipe's InitBuffer calls left no UB free to fill from", size);
  Duplicate(popBuffer, value, static_cast<int32_t>(popSize), loc);
  SetFlag<HardEvent::V_MTE3>(0, loc);
  WaitFlag<HardEvent::V_MTE3>(0, loc);
  for (uint32_t done = 0; done < size; done += popSize) {
    uint32_t n = std::min(popSize, size - done);
    DataCopyPad(gmWorkspaceAddr[done], popBuffer, DataCopyExtParams(1, n * static_cast<uint32_t>(sizeof(T)), 0, 0, 0),
                loc);
  }
}

}  // namespace AscendC

// The running core's current pipe (CANN's kernel_common.h, global namespace): the TPipe constructed last.
__aicore__ inline AscendC::TPipe* GetTPipePtr() { return AscendC::currentTPipe(); }
