// Global-memory helpers next to DataCopy: InitGlobalMemory (CANN's highlevel_api/lib/utils/init_global_memory.h,
// which fills GM through a Duplicate in UB and DataCopyPad copy-outs) and DataCacheCleanAndInvalid (a scalar-cache
// flush kernels issue after GlobalTensor::SetValue). Emulated GM has no cache, so the flush only traces.
#pragma once

#include "emu/datacopy.h"

namespace AscendC {

// CANN keeps these in basic_api/impl/kernel_reg.h.
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// Writes `size` copies of `value` from the tensor's start, as one copy-out on MTE3 (atomic modes apply, as to
// the device's copy-outs). The device's Duplicate on V and its flags are internal to the call and not traced.
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  if (size == 0) return;
  tcemu::Core& core = tcemu::cur();
  uint32_t ins = core.begin(tcemu::Pipe::MTE3, tcemu::OpClass::DmaOut, "InitGlobalMemory", loc);
  uint8_t* gm = reinterpret_cast<uint8_t*>(gmWorkspaceAddr.addr_);
  uint64_t bytes = size * sizeof(T);
  tcemu::dmaInfo(core, ins, sizeof(T), 1, bytes, gm, tcemu::Space::UB, tcemu::Space::GM);
  tcemu::checkGm(gm, bytes, "InitGlobalMemory", loc);
  core.writeGm(ins, gm, bytes, "InitGlobalMemory", loc);
  std::vector<T> fill(size, value);
  tcemu::storeGm(core, gm, reinterpret_cast<const uint8_t*>(fill.data()), bytes);
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)dstTensor;
  tcemu::cur().beginScalar("DataCacheCleanAndInvalid", loc);
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dstTensor, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)dstTensor;
  tcemu::cur().beginScalar("DataCacheCleanAndInvalid", loc);
}

template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)dstTensor;
  tcemu::cur().beginScalar("DataCacheCleanAndInvalid", loc);
}

}  // namespace AscendC
