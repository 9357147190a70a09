// Odds and ends real kernels use beside the compute APIs: printf/PRINTF, DumpTensor, GetSystemCycle, ScalarCast,
// the debug macros (ASCENDC_ASSERT, KERNEL_LOG, ASSERT, TRACE_START/STOP),
// KERNEL_TASK_TYPE_DEFAULT and its KERNEL_TYPE_* values, and the CCE intrinsics pipe_barrier/set_flag/wait_flag.
//
// Output (printf, DumpTensor) goes to stdout as the kernel runs. Cores run one at a time in index order (launch.h),
// so the output of a launch is always in the same order, unlike on the device.
#pragma once

#include <cassert>
#include <cstring>

#include "emu/launch.h"
#include "emu/sync.h"
#include "emu/vec.h"

// Kernel meta types (CANN's kernel_utils_macros.h, global namespace). The emulator takes the core layout from
// SetKernelMode, as CANN's CPU mode does, so the value only has to name one of these.
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};

// A static_assert is valid both inside the kernel body and at namespace scope, and rejects a misspelt value.
#define KERNEL_TASK_TYPE_DEFAULT(value) \
  static_assert(static_cast<int>(value) >= 0, "KERNEL_TASK_TYPE_DEFAULT takes a KERNEL_TYPE_* value")
#define KERNEL_TASK_TYPE(key, value) \
  static_assert(static_cast<int>(value) >= 0 && static_cast<long long>(key) >= 0, "KERNEL_TASK_TYPE(key, value)")
#define ENABLE_DETERMINISTIC() static_assert(true, "")
#define ENABLE_PRINTF() static_assert(true, "")

namespace tcemu {

// One element of a dump: floating types as %g of the float value (half exactly), integers as integers.
template <typename T>
inline std::string dumpValue(const T& v) {
  if constexpr (std::is_floating_point_v<T> || isHalfLike<T>) {
    return format("%g", static_cast<double>(toFloat(v)));
  } else if constexpr (std::is_signed_v<T>) {
    return format("%lld", static_cast<long long>(v));
  } else {
    return format("%llu", static_cast<unsigned long long>(v));
  }
}

template <typename T>
inline void dumpElements(const char* header, const T* p, uint32_t count) {
  std::string line = header;
  line += "[";
  for (uint32_t i = 0; i < count; ++i) {
    if (i) line += ", ";
    line += dumpValue(p[i]);
  }
  line += "]\n";
  std::fputs(line.c_str(), stdout);
}

// The device clamps a dump to the tensor; so does the emulator, and says how many elements it printed.
inline uint32_t dumpCount(uint64_t size, uint32_t dumpSize) {
  return static_cast<uint32_t>(std::min<uint64_t>(size, dumpSize));
}

}  // namespace tcemu

namespace AscendC {

// printf is the C library's, as in CANN's CPU mode (`using ::printf`); PRINTF prints the same way. (CANN's CPU mode
// prints PRINTF only when ASCENDC_DUMP is defined; the device build turns dumping on whenever a kernel prints.)
using ::printf;
template <typename... Args>
inline int PRINTF(const char* fmt, Args&&... args) {
  return std::printf(fmt, std::forward<Args>(args)...);
}

// DumpTensor prints `dumpSize` elements (at most the tensor's size) with the descriptor `desc`, the block index
// and where the tensor lives; GM tensors show no address, so the output does not depend on the host allocation.
// It reads memory directly, outside the pipes: like the device's dump, it is not a synchronised read.
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  uint32_t n = tcemu::dumpCount(tensor.GetSize(), dumpSize);
  tcemu::cur().checkRange(tensor.ref_, 0, uint64_t{n} * sizeof(T), "DumpTensor", loc);
  std::string header = tcemu::format(
      "DumpTensor: desc=%u, block=%lld, position=%s, offset=%u, dtype=%s, %u of %u "
      "elements: ",
      desc, static_cast<long long>(GetBlockIdx()), tcemu::positionName(tensor.ref_.pos), tensor.ref_.offset,
      tcemu::dtypeName<PrimT<T>>(), n, dumpSize);
  tcemu::dumpElements(header.c_str(), tensor.GetPhyAddr(), n);
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)loc;
  uint32_t n = tcemu::dumpCount(tensor.GetSize(), dumpSize);
  std::string header =
      tcemu::format("DumpTensor: desc=%u, block=%lld, position=GM, dtype=%s, %u of %u elements: ", desc,
                    static_cast<long long>(GetBlockIdx()), tcemu::dtypeName<PrimT<T>>(), n, dumpSize);
  tcemu::dumpElements(header.c_str(), tensor.GetPhyAddr(), n);
}
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)shapeInfo;
  DumpTensor(tensor, desc, dumpSize, loc);
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)shapeInfo;
  DumpTensor(tensor, desc, dumpSize, loc);
}

// The emulator has no clock a kernel may observe (results must not depend on the host): the "cycle" is the number
// of instructions the current core has issued so far, so it grows monotonically and differences measure work.
__aicore__ inline int64_t GetSystemCycle() { return static_cast<int64_t>(tcemu::cur().trace().size()); }

// Scalar conversions (CANN 8.1 kernel_scalar.h on 910B): float -> half only with CAST_ODD, float -> int32_t with
// CAST_ROUND (ties away from zero), CAST_CEIL, CAST_FLOOR or CAST_RINT (ties to even); int32 saturates.
template <typename srcT, typename dstT, RoundMode roundMode>
__aicore__ inline dstT ScalarCast(srcT valueIn, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  static_assert(sizeof(dstT) == sizeof(half) || sizeof(dstT) == sizeof(int32_t), "dstT only support half or int32_t");
  static const char* const modes[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                      "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
  long double x = tcemu::toFloat(valueIn);
  if constexpr (std::is_same_v<dstT, half>) {
    if (roundMode != RoundMode::CAST_ODD) {
      tcemu::fail(loc,
                  "ScalarCast<%s, half, RoundMode::%s>: float -> half takes only RoundMode::CAST_ODD; hint: use "
                  "CAST_ODD, or a vector Cast for other rounding modes",
                  tcemu::dtypeName<srcT>(), modes[static_cast<int>(roundMode)]);
    }
    return tcemu::vec::convertReal<half>(x, RoundMode::CAST_ODD);
  } else {
    if (roundMode != RoundMode::CAST_ROUND && roundMode != RoundMode::CAST_CEIL && roundMode != RoundMode::CAST_FLOOR &&
        roundMode != RoundMode::CAST_RINT) {
      tcemu::fail(loc,
                  "ScalarCast<%s, int32_t, RoundMode::%s>: float -> int32_t takes CAST_ROUND, CAST_CEIL, "
                  "CAST_FLOOR or CAST_RINT",
                  tcemu::dtypeName<srcT>(), modes[static_cast<int>(roundMode)]);
    }
    return tcemu::vec::convertReal<int32_t>(x, roundMode);
  }
}

// CANN's scalar bfloat16 conversions (kernel_utils.h): ToBfloat16 truncates (the float's high 16 bits, no
// rounding), ToFloat is exact.
inline bfloat16_t ToBfloat16(const float& fVal) {
  uint32_t bits = 0;
  std::memcpy(&bits, &fVal, sizeof(bits));
  return bfloat16_t::FromBits(static_cast<uint16_t>(bits >> 16));
}
inline float ToFloat(const bfloat16_t& bVal) { return bVal.ToFloat(); }

}  // namespace AscendC

// The CCE intrinsics some kernels call directly, mapped onto the emulator's flags and barriers: set_flag(src, dst,
// id) is SetFlag on the HardEvent from src to dst, pipe_barrier(p) is PipeBarrier<p>.
namespace tcemu {

inline AscendC::HardEvent intrinsicEvent(const char* what, pipe_t src, pipe_t dst, int32_t id, const SrcLoc& loc) {
  AscendC::HardEvent e = AscendC::eventOfPipes(src, dst);
  if (e == AscendC::HardEvent::MAX) {
    fail(loc,
         "%s(pipe %d, pipe %d, EVENT_ID%d): no HardEvent goes from the first pipe to the second; hint: use a "
         "pipe pair with an event (e.g. PIPE_MTE2 -> PIPE_V, PIPE_V -> PIPE_MTE3)",
         what, static_cast<int>(src), static_cast<int>(dst), id);
  }
  return e;
}

}  // namespace tcemu

inline void pipe_barrier(pipe_t pipe, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) { tcemu::pipeBarrier(pipe, loc); }
inline void set_flag(pipe_t pipe, pipe_t tpipe, event_t pipeID, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::setFlag(tcemu::intrinsicEvent("set_flag", pipe, tpipe, pipeID, loc), pipeID, loc);
}
inline void wait_flag(pipe_t pipe, pipe_t tpipe, event_t pipeID, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::waitFlag(tcemu::intrinsicEvent("wait_flag", pipe, tpipe, pipeID, loc), pipeID, loc);
}

// Debug and profiling macros of CANN's CPU mode that kernels leave in their code. TRACE_START/TRACE_STOP mark
// profiling ranges on the device (nothing to record here); ASSERT is the C assert, as in CANN's CPU mode;
// ASCENDC_ASSERT runs its `behavior` (usually a KERNEL_LOG) and fails the run with the kernel's line; KERNEL_LOG
// prints one line "[LEVEL][Block_N][file:line] message" (the file without its folders, for stable output).
#ifndef TRACE_START
#define TRACE_START(apid) static_cast<void>(apid)
#define TRACE_STOP(apid) static_cast<void>(apid)
#endif
namespace AscendC {
__aicore__ inline void MetricsProfStart() {}
__aicore__ inline void MetricsProfStop() {}
}  // namespace AscendC
#ifndef ASSERT
#define ASSERT(x) assert(x)
#endif
#define ASCENDC_ASSERT(cond, behavior)                                               \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      behavior;                                                                      \
      ::tcemu::fail(::tcemu::SrcLoc::current(), "ASCENDC_ASSERT(%s) failed", #cond); \
    }                                                                                \
  } while (0)

namespace tcemu {
inline const char* baseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
inline long long logBlock() { return currentLaunch() ? static_cast<long long>(AscendC::GetBlockIdx()) : -1; }
}  // namespace tcemu

#define TCEMU_KERNEL_LOG(tag, format, ...)                                                                             \
  std::printf("[" tag "][Block_%lld][%s:%d] " format "\n", ::tcemu::logBlock(), ::tcemu::baseName(__FILE__), __LINE__, \
              ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_DEBUG(format, ...) TCEMU_KERNEL_LOG("DEBUG", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_INFO(format, ...) TCEMU_KERNEL_LOG("INFO", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_WARN(format, ...) TCEMU_KERNEL_LOG("WARN", format, ##__VA_ARGS__)
#define KERNEL_LOG_KERNEL_ERROR(format, ...) TCEMU_KERNEL_LOG("ERROR", format, ##__VA_ARGS__)
#define KERNEL_LOG(level, format, ...) KERNEL_LOG_##level(format, ##__VA_ARGS__)
