// Data movement (ascendc_api.md §2): DataCopy between GM, UB and L1 (count and DataCopyParams forms),
// DataCopyPad with its mixed units, SetPadValue, and the GM atomics that MTE3 and Fixpipe writes obey.
//
// Pipes follow CANN 8.1 on dav-c220: GM->UB/L1 on MTE2, UB/L1->GM on MTE3, UB->UB on V, L1->bias table on MTE1.
// Vector-side copies (anything touching UB) do nothing on an AIC core and cube-side ones (L1) nothing on an AIV
// core, as the device build compiles them away. The cube path (ND->NZ, LoadData, Mmad, Fixpipe) is emu/cube.h.
#pragma once

#include "emu/datacopy_params.h"
#include "emu/tensor.h"

namespace tcemu {

enum class AtomicDtype : int { None = 0, F16, F32, S16, S32, S8, BF16 };

template <typename T>
constexpr AtomicDtype atomicDtypeOf() {
  if constexpr (std::is_same_v<T, half>) return AtomicDtype::F16;
  else if constexpr (std::is_same_v<T, float>) return AtomicDtype::F32;
  else if constexpr (std::is_same_v<T, int16_t>) return AtomicDtype::S16;
  else if constexpr (std::is_same_v<T, int32_t>) return AtomicDtype::S32;
  else if constexpr (std::is_same_v<T, int8_t>) return AtomicDtype::S8;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return AtomicDtype::BF16;
  else return AtomicDtype::None;
}

// One element of an atomic store: add, max or min of the stored value and the incoming one, in the atomic dtype.
// Integers wrap; half and bf16 are combined in float and rounded once.
template <typename A>
inline void atomicCombine(uint8_t* dst, const uint8_t* src, int kind) {
  A a, b;
  std::memcpy(static_cast<void*>(&a), dst, sizeof(A));
  std::memcpy(static_cast<void*>(&b), src, sizeof(A));
  A r;
  if constexpr (std::is_integral_v<A>) {
    using U = std::make_unsigned_t<A>;
    r = kind == 1   ? static_cast<A>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)))
        : kind == 2 ? std::max(a, b)
                    : std::min(a, b);
  } else {
    float x = toFloat(a), y = toFloat(b);
    r = fromFloat<A>(kind == 1 ? x + y : kind == 2 ? std::max(x, y) : std::min(x, y));
  }
  std::memcpy(dst, &r, sizeof(A));
}

// Stores `len` bytes to GM, combining with what is there when an atomic mode is set on this core.
inline void storeGm(Core& core, uint8_t* dst, const uint8_t* src, uint64_t len) {
  if (core.atomicKind_ == 0) {
    std::memmove(dst, src, len);
    return;
  }
  auto apply = [&](auto tag, uint64_t size) {
    using A = decltype(tag);
    for (uint64_t i = 0; i + size <= len; i += size) atomicCombine<A>(dst + i, src + i, core.atomicKind_);
  };
  switch (static_cast<AtomicDtype>(core.atomicDtype_)) {
    case AtomicDtype::F16: apply(half(), 2); break;
    case AtomicDtype::F32: apply(float(), 4); break;
    case AtomicDtype::S16: apply(int16_t(), 2); break;
    case AtomicDtype::S32: apply(int32_t(), 4); break;
    case AtomicDtype::S8: apply(int8_t(), 1); break;
    case AtomicDtype::BF16: apply(bfloat16_t(), 2); break;
    default: std::memmove(dst, src, len); break;
  }
}

// Fills the trace fields the perf model reads for a DMA.
inline void dmaInfo(Core& core, uint32_t ins, uint32_t dtypeBytes, uint32_t bursts, uint64_t burstBytes, const void* gm,
                    Space src, Space dst) {
  Instr& in = core.instr(ins);
  in.dtypeBytes = static_cast<uint8_t>(dtypeBytes);
  in.bursts = bursts;
  in.burstBytes = static_cast<uint32_t>(burstBytes);
  in.bytes = uint64_t{bursts} * burstBytes;
  in.elements = dtypeBytes ? in.bytes / dtypeBytes : 0;
  in.gmAlign = gm ? static_cast<uint32_t>(reinterpret_cast<uintptr_t>(gm) % 512) : 0;
  in.src = src;
  in.dst = dst;
}

inline void checkRange(const char* api, const char* field, uint64_t value, uint64_t lo, uint64_t hi, const char* hint,
                       const SrcLoc& loc) {
  if (value < lo || value > hi) {
    fail(loc, "%s %s is %llu, outside [%llu, %llu]; hint: %s", api, field, static_cast<unsigned long long>(value),
         static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), hint);
  }
}

inline void checkDataCopyParams(const AscendC::DataCopyParams& p, const SrcLoc& loc) {
  checkRange("DataCopy", "blockCount", p.blockCount, 1, 4095, "split the copy into several DataCopy calls", loc);
  checkRange("DataCopy", "blockLen", p.blockLen, 1, 65535,
             "blockLen counts 32-byte blocks; split the copy into several bursts", loc);
}

// A count-form copy moves whole 32-byte blocks: anything else would lose its tail on the device.
template <typename T>
inline void checkCount(uint32_t calCount, const SrcLoc& loc) {
  uint64_t bytes = uint64_t{calCount} * sizeof(T);
  if (bytes % kBlock != 0) {
    fail(loc,
         "DataCopy of %u %s (%llu bytes) is not a multiple of 32 bytes: the hardware rounds it down to %llu "
         "bytes and silently drops the last %llu; hint: copy a multiple of %u elements, or use DataCopyPad for the "
         "tail",
         calCount, dtypeName<T>(), static_cast<unsigned long long>(bytes),
         static_cast<unsigned long long>(bytes / kBlock * kBlock), static_cast<unsigned long long>(bytes % kBlock),
         static_cast<unsigned>(kBlock / sizeof(T)));
  }
}

template <typename T>
inline void copyGmToLocal(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src,
                          const AscendC::DataCopyParams& p, const SrcLoc& loc) {
  Mem m = dst.ref_.mem;
  if (m == Mem::UB) {
    if (!onVectorCore()) return;
  } else if (m == Mem::L1) {
    if (!onCubeCore()) return;  // GM->TSCM from a vector core is a message to the cube core, not emulated
  } else {
    fail(loc,
         "DataCopy from GM to %s (position %s): GM copies reach only UB (VECIN/VECOUT/VECCALC) and L1 "
         "(A1/B1/C1); hint: move data into L0A/L0B with LoadData and out of L0C with Fixpipe",
         memName(m), positionName(dst.ref_.pos));
  }
  checkDataCopyParams(p, loc);
  Core& core = cur();
  core.checkAlign(dst.ref_, kBlock, "DataCopy dst", loc);
  uint32_t ins = core.begin(Pipe::MTE2, OpClass::DmaIn, "DataCopy", loc);
  uint64_t len = uint64_t{p.blockLen} * kBlock;
  const uint8_t* gm = reinterpret_cast<const uint8_t*>(src.addr_);
  dmaInfo(core, ins, sizeof(T), p.blockCount, len, gm, Space::GM, spaceOf(m));
  for (uint64_t i = 0; i < p.blockCount; ++i) {
    const uint8_t* s = gm + i * (p.blockLen + p.srcStride) * kBlock;
    uint64_t d = i * (p.blockLen + p.dstStride) * kBlock;
    checkGm(s, len, "DataCopy src", loc);
    core.readGm(ins, s, len, "DataCopy src", loc);
    core.write(ins, dst.ref_, d, len, "DataCopy dst", loc);
    std::memcpy(core.ptr(m, dst.ref_.offset) + d, s, len);
  }
}

template <typename T>
inline void copyLocalToGm(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::DataCopyParams& p, const SrcLoc& loc) {
  Mem m = src.ref_.mem;
  if (m == Mem::UB) {
    if (!onVectorCore()) return;
  } else if (m == Mem::L1) {
    if (!onCubeCore()) return;
  } else {
    fail(loc,
         "DataCopy from %s (position %s) to GM: only UB (VECOUT) and L1 (A1/B1) copy out with DataCopy; "
         "hint: copy L0C out with Fixpipe",
         memName(m), positionName(src.ref_.pos));
  }
  checkDataCopyParams(p, loc);
  Core& core = cur();
  core.checkAlign(src.ref_, kBlock, "DataCopy src", loc);
  uint32_t ins = core.begin(Pipe::MTE3, OpClass::DmaOut, "DataCopy", loc);
  uint64_t len = uint64_t{p.blockLen} * kBlock;
  uint8_t* gm = reinterpret_cast<uint8_t*>(dst.addr_);
  dmaInfo(core, ins, sizeof(T), p.blockCount, len, gm, spaceOf(m), Space::GM);
  for (uint64_t i = 0; i < p.blockCount; ++i) {
    uint64_t s = i * (p.blockLen + p.srcStride) * kBlock;
    uint8_t* d = gm + i * (p.blockLen + p.dstStride) * kBlock;
    core.read(ins, src.ref_, s, len, "DataCopy src", loc, Core::Unwritten::Block);
    checkGm(d, len, "DataCopy dst", loc);
    core.writeGm(ins, d, len, "DataCopy dst", loc);
    storeGm(core, d, core.ptr(m, src.ref_.offset) + s, len);
  }
}

// Strided local copy with the same burst geometry on both sides; `unit` is the burst-length unit in bytes.
template <typename T, typename U>
inline void copyLocalBursts(Core& core, uint32_t ins, const AscendC::LocalTensor<T>& dst,
                            const AscendC::LocalTensor<U>& src, const AscendC::DataCopyParams& p, uint32_t srcUnit,
                            uint32_t dstUnit, uint32_t lenUnit, const SrcLoc& loc) {
  uint64_t len = uint64_t{p.blockLen} * lenUnit;
  dmaInfo(core, ins, sizeof(T), p.blockCount, len, nullptr, spaceOf(src.ref_.mem), spaceOf(dst.ref_.mem));
  std::vector<uint8_t> tmp(len);
  for (uint64_t i = 0; i < p.blockCount; ++i) {
    uint64_t s = i * (len + uint64_t{p.srcStride} * srcUnit);
    uint64_t d = i * (len + uint64_t{p.dstStride} * dstUnit);
    core.read(ins, src.ref_, s, len, "DataCopy src", loc, Core::Unwritten::Block);
    std::memcpy(tmp.data(), core.ptr(src.ref_.mem, src.ref_.offset) + s, len);
    std::vector<uint8_t> written(len);
    core.arena(src.ref_.mem).written.get(src.ref_.offset + s, written.data(), len);
    core.write(ins, dst.ref_, d, len, "DataCopy dst", loc);
    std::memcpy(core.ptr(dst.ref_.mem, dst.ref_.offset) + d, tmp.data(), len);
    // A copy carries the junk of a partly written block along: its bytes stay "never written" at the destination.
    core.arena(dst.ref_.mem).written.put(dst.ref_.offset + d, written.data(), len);
  }
}

template <typename T>
inline void copyLocalToLocal(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                             const AscendC::DataCopyParams& p, const SrcLoc& loc) {
  Mem dm = dst.ref_.mem, sm = src.ref_.mem;
  if (sm == Mem::UB && dm == Mem::UB) {
    if (!onVectorCore()) return;
    checkDataCopyParams(p, loc);
    Core& core = cur();
    core.checkAlign(src.ref_, kBlock, "DataCopy src", loc);
    core.checkAlign(dst.ref_, kBlock, "DataCopy dst", loc);
    uint32_t ins = core.begin(Pipe::V, OpClass::DmaLocal, "DataCopy", loc);
    copyLocalBursts(core, ins, dst, src, p, kBlock, kBlock, kBlock, loc);
    return;
  }
  if (sm == Mem::L1 && dm == Mem::BT) {
    if (!onCubeCore()) return;
    checkDataCopyParams(p, loc);
    Core& core = cur();
    core.checkAlign(src.ref_, kBlock, "DataCopy src", loc);
    core.checkAlign(dst.ref_, 64, "DataCopy dst", loc);
    uint32_t ins = core.begin(Pipe::MTE1, OpClass::DmaLocal, "DataCopy", loc);
    // copy_cbuf_to_bt: burst length and destination gap in 64 bytes, source gap in 32 bytes.
    copyLocalBursts(core, ins, dst, src, p, kBlock, 64, 64, loc);
    return;
  }
  if (sm == Mem::L1 && dm == Mem::UB) {
    fail(loc,
         "DataCopy from L1 (%s) to UB (%s) is not supported on 910B (dav-c220); hint: copy to GM and back, "
         "or keep the data on the vector core",
         positionName(src.ref_.pos), positionName(dst.ref_.pos));
  }
  fail(loc,
       "DataCopy from %s (%s) to %s (%s) is not a DataCopy path the emulator supports on 910B (supported "
       "local paths: UB->UB, L1->C2 bias table)",
       memName(sm), positionName(src.ref_.pos), memName(dm), positionName(dst.ref_.pos));
}

// --- DataCopyPad -------------------------------------------------------------------------------------------------

// Checks shared by both directions (CheckDataCopyPadParams): 12-bit count, 21-bit byte length.
template <typename T>
inline void checkPadParams(uint32_t blockCount, uint32_t blockLen, bool gmToUb, const SrcLoc& loc) {
  checkRange("DataCopyPad", "blockCount", blockCount, 0, 4095, "split the copy into several DataCopyPad calls", loc);
  checkRange("DataCopyPad", "blockLen", blockLen, 0, 2097151, "blockLen counts bytes; split long rows", loc);
  if (gmToUb && blockLen % sizeof(T) != 0) {
    fail(loc,
         "DataCopyPad blockLen is %u bytes, not a multiple of sizeof(%s) = %u; hint: blockLen counts bytes, "
         "so pass count * sizeof(%s)",
         blockLen, dtypeName<T>(), static_cast<unsigned>(sizeof(T)), dtypeName<T>());
  }
}

// GM -> UB. blockLen and srcStride (GM gap) in bytes, dstStride (UB gap) in 32-byte blocks. Each UB block holds
// leftPadding elements, the data, rightPadding elements, then dummy elements up to the next 32 bytes. The pads
// and, when there is any padding, the dummies take the pad register; with no padding the dummies repeat the
// block's first element (copy_gm_to_ubuf_align).
template <typename T>
inline void padGmToUb(const AscendC::LocalTensor<T>& dst, const AscendC::GlobalTensor<T>& src, uint32_t blockCount,
                      uint32_t blockLen, uint32_t srcGap, uint32_t dstGap, uint32_t left, uint32_t right,
                      const SrcLoc& loc) {
  if (!onVectorCore()) return;
  if (dst.ref_.mem != Mem::UB) {
    fail(loc,
         "DataCopyPad from GM to %s (%s): on 910B DataCopyPad reaches only UB (VECIN/VECOUT); hint: use "
         "DataCopy with Nd2NzParams for L1",
         memName(dst.ref_.mem), positionName(dst.ref_.pos));
  }
  checkPadParams<T>(blockCount, blockLen, true, loc);
  if (left * sizeof(T) > kBlock || right * sizeof(T) > kBlock) {
    fail(loc,
         "DataCopyPad padding of %u left and %u right %s elements exceeds 32 bytes on a side (at most %u "
         "elements); hint: pad at most one 32-byte block per side",
         left, right, dtypeName<T>(), static_cast<unsigned>(kBlock / sizeof(T)));
  }
  Core& core = cur();
  core.checkAlign(dst.ref_, kBlock, "DataCopyPad dst", loc);
  if (blockCount == 0 || blockLen == 0) return;  // a no-op on A2/A3
  uint32_t ins = core.begin(Pipe::MTE2, OpClass::DmaIn, "DataCopyPad", loc);
  const uint8_t* gm = reinterpret_cast<const uint8_t*>(src.addr_);
  uint64_t ubBlock = roundUp(uint64_t{left + right} * sizeof(T) + blockLen, kBlock);
  dmaInfo(core, ins, sizeof(T), blockCount, blockLen, gm, Space::GM, Space::UB);
  T pad;
  std::memcpy(static_cast<void*>(&pad), &core.movPadValue_, sizeof(T));
  uint8_t* ub = core.ptr(Mem::UB, dst.ref_.offset);
  for (uint64_t i = 0; i < blockCount; ++i) {
    const uint8_t* s = gm + i * (uint64_t{blockLen} + srcGap);
    uint64_t d = i * (ubBlock + uint64_t{dstGap} * kBlock);
    checkGm(s, blockLen, "DataCopyPad src", loc);
    core.readGm(ins, s, blockLen, "DataCopyPad src", loc);
    core.write(ins, dst.ref_, d, ubBlock, "DataCopyPad dst", loc);
    T* out = reinterpret_cast<T*>(ub + d);
    uint64_t n = ubBlock / sizeof(T), data = blockLen / sizeof(T);
    T first;
    std::memcpy(static_cast<void*>(&first), s, sizeof(T));
    T fill = left + right > 0 ? pad : first;
    for (uint64_t e = 0; e < n; ++e) out[e] = fill;
    for (uint64_t e = 0; e < left; ++e) out[e] = pad;
    std::memcpy(out + left, s, blockLen);
    for (uint64_t e = 0; e < right; ++e) out[left + data + e] = pad;
  }
}

// UB -> GM. blockLen in bytes, srcStride (UB gap) in 32-byte blocks, dstStride (GM gap) in bytes; each UB block
// occupies blockLen rounded up to 32 bytes, and only blockLen bytes reach GM.
template <typename T>
inline void padUbToGm(const AscendC::GlobalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t blockCount,
                      uint32_t blockLen, uint32_t srcGap, uint32_t dstGap, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  if (src.ref_.mem != Mem::UB) {
    fail(loc, "DataCopyPad from %s (%s) to GM: on 910B DataCopyPad copies out only from UB (VECIN/VECOUT)",
         memName(src.ref_.mem), positionName(src.ref_.pos));
  }
  checkPadParams<T>(blockCount, blockLen, false, loc);
  Core& core = cur();
  core.checkAlign(src.ref_, kBlock, "DataCopyPad src", loc);
  if (blockCount == 0 || blockLen == 0) return;
  uint32_t ins = core.begin(Pipe::MTE3, OpClass::DmaOut, "DataCopyPad", loc);
  uint8_t* gm = reinterpret_cast<uint8_t*>(dst.addr_);
  uint64_t ubBlock = roundUp(blockLen, kBlock);
  dmaInfo(core, ins, sizeof(T), blockCount, blockLen, gm, Space::UB, Space::GM);
  for (uint64_t i = 0; i < blockCount; ++i) {
    uint64_t s = i * (ubBlock + uint64_t{srcGap} * kBlock);
    uint8_t* d = gm + i * (uint64_t{blockLen} + dstGap);
    core.read(ins, src.ref_, s, blockLen, "DataCopyPad src", loc, Core::Unwritten::Block);
    checkGm(d, blockLen, "DataCopyPad dst", loc);
    core.writeGm(ins, d, blockLen, "DataCopyPad dst", loc);
    storeGm(core, d, core.ptr(Mem::UB, src.ref_.offset) + s, blockLen);
  }
}

template <typename T>
inline uint64_t padBits(T v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}

template <typename T>
inline void setAtomic(int kind, const char* api, const SrcLoc& loc) {
  checkDtype<T, half, float, int16_t, int32_t, int8_t, bfloat16_t>(api, loc);
  Core& core = cur();
  core.atomicKind_ = kind;
  core.atomicAdd_ = kind == 1;
  core.atomicDtype_ = static_cast<int>(atomicDtypeOf<T>());
}

}  // namespace tcemu

namespace AscendC {

// --- DataCopy ----------------------------------------------------------------------------------------------------

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                     const DataCopyParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::copyGmToLocal(dstLocal, srcGlobal, repeatParams, loc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                     const DataCopyParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::copyLocalToGm(dstGlobal, srcLocal, repeatParams, loc);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const DataCopyParams& repeatParams,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::copyLocalToLocal(dstLocal, srcLocal, repeatParams, loc);
}

// L1 -> bias table (C2) with a dtype change: half in L1 becomes float in the table (convControl).
template <typename dst_T, typename src_T>
inline void DataCopy(const LocalTensor<dst_T>& dstLocal, const LocalTensor<src_T>& srcLocal,
                     const DataCopyParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (srcLocal.ref_.mem != tcemu::Mem::L1 || dstLocal.ref_.mem != tcemu::Mem::BT) {
    tcemu::fail(loc,
                "DataCopy from %s to %s with different dtypes (%s to %s): only L1 (C1) to the bias table (C2) "
                "converts, half to float",
                tcemu::memName(srcLocal.ref_.mem), tcemu::memName(dstLocal.ref_.mem), tcemu::dtypeName<src_T>(),
                tcemu::dtypeName<dst_T>());
  }
  if constexpr (!(std::is_same_v<dst_T, float> && std::is_same_v<src_T, half>)) {
    tcemu::fail(loc, "DataCopy from C1 to C2 converts only half to float, not %s to %s", tcemu::dtypeName<src_T>(),
                tcemu::dtypeName<dst_T>());
  } else {
    if (!tcemu::onCubeCore()) return;
    tcemu::checkDataCopyParams(repeatParams, loc);
    tcemu::Core& core = tcemu::cur();
    core.checkAlign(srcLocal.ref_, tcemu::kBlock, "DataCopy src", loc);
    core.checkAlign(dstLocal.ref_, 64, "DataCopy dst", loc);
    uint32_t ins = core.begin(tcemu::Pipe::MTE1, tcemu::OpClass::DmaLocal, "DataCopy", loc);
    // Burst length counts 64-byte units of the float destination, so each burst reads half as many bytes.
    uint64_t dlen = uint64_t{repeatParams.blockLen} * 64, slen = dlen / 2;
    tcemu::dmaInfo(core, ins, sizeof(float), repeatParams.blockCount, dlen, nullptr, tcemu::Space::L1,
                   tcemu::Space::BT);
    for (uint64_t i = 0; i < repeatParams.blockCount; ++i) {
      uint64_t s = i * (slen + uint64_t{repeatParams.srcStride} * tcemu::kBlock);
      uint64_t d = i * (dlen + uint64_t{repeatParams.dstStride} * 64);
      core.read(ins, srcLocal.ref_, s, slen, "DataCopy src", loc);
      core.write(ins, dstLocal.ref_, d, dlen, "DataCopy dst", loc);
      const half* in = reinterpret_cast<const half*>(core.ptr(tcemu::Mem::L1, srcLocal.ref_.offset) + s);
      float* out = reinterpret_cast<float*>(core.ptr(tcemu::Mem::BT, dstLocal.ref_.offset) + d);
      for (uint64_t e = 0; e < dlen / 4; ++e) out[e] = tcemu::toFloat(in[e]);
    }
  }
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const uint32_t calCount,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (dstLocal.ref_.mem == tcemu::Mem::UB ? !tcemu::onVectorCore() : !tcemu::onCubeCore()) return;
  tcemu::checkCount<T>(calCount, loc);
  DataCopyParams p;
  p.blockLen = static_cast<uint16_t>(uint64_t{calCount} * sizeof(T) / tcemu::kBlock);
  tcemu::checkRange("DataCopy", "calCount * sizeof(T) / 32", uint64_t{calCount} * sizeof(T) / tcemu::kBlock, 1, 65535,
                    "a count-form copy moves 1 to 65535 blocks of 32 bytes; split larger copies", loc);
  tcemu::copyGmToLocal(dstLocal, srcGlobal, p, loc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (srcLocal.ref_.mem == tcemu::Mem::UB ? !tcemu::onVectorCore() : !tcemu::onCubeCore()) return;
  tcemu::checkCount<T>(calCount, loc);
  DataCopyParams p;
  p.blockLen = static_cast<uint16_t>(uint64_t{calCount} * sizeof(T) / tcemu::kBlock);
  tcemu::checkRange("DataCopy", "calCount * sizeof(T) / 32", uint64_t{calCount} * sizeof(T) / tcemu::kBlock, 1, 65535,
                    "a count-form copy moves 1 to 65535 blocks of 32 bytes; split larger copies", loc);
  tcemu::copyLocalToGm(dstGlobal, srcLocal, p, loc);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  bool toBt = srcLocal.ref_.mem == tcemu::Mem::L1 && dstLocal.ref_.mem == tcemu::Mem::BT;
  if (srcLocal.ref_.mem == tcemu::Mem::UB && !tcemu::onVectorCore()) return;
  if (srcLocal.ref_.mem == tcemu::Mem::L1 && !tcemu::onCubeCore()) return;
  tcemu::checkCount<T>(calCount, loc);
  uint32_t unit = toBt ? 64 : tcemu::kBlock;  // the bias table counts 64-byte units
  uint64_t bytes = uint64_t{calCount} * sizeof(T);
  if (bytes % unit != 0) {
    tcemu::fail(loc,
                "DataCopy of %u %s (%llu bytes) into the bias table is not a multiple of 64 bytes; hint: "
                "copy a multiple of %u elements",
                calCount, tcemu::dtypeName<T>(), static_cast<unsigned long long>(bytes),
                static_cast<unsigned>(64 / sizeof(T)));
  }
  DataCopyParams p;
  p.blockLen = static_cast<uint16_t>(bytes / unit);
  tcemu::copyLocalToLocal(dstLocal, srcLocal, p, loc);
}

// --- DataCopyPad -------------------------------------------------------------------------------------------------

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                        const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams,
                        tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  if (padParams.isPad) tcemu::cur().movPadValue_ = tcemu::padBits(padParams.paddingValue);
  tcemu::padGmToUb(dstLocal, srcGlobal, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                   dataCopyParams.dstStride, padParams.leftPadding, padParams.rightPadding, loc);
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                        const DataCopyParams& dataCopyParams, const DataCopyPadParams& padParams,
                        tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  if (padParams.isPad) tcemu::cur().movPadValue_ = padParams.paddingValue;
  tcemu::padGmToUb(dstLocal, srcGlobal, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                   dataCopyParams.dstStride, padParams.leftPadding, padParams.rightPadding, loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                        const DataCopyExtParams& dataCopyParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::padUbToGm(dstGlobal, srcLocal, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                   dataCopyParams.dstStride, loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                        const DataCopyParams& dataCopyParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::padUbToGm(dstGlobal, srcLocal, dataCopyParams.blockCount, dataCopyParams.blockLen, dataCopyParams.srcStride,
                   dataCopyParams.dstStride, loc);
}

// Sets the pad register that DataCopyPad fills pads and dummies with (GM -> VECIN/VECOUT only on 910B).
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
  if (!tcemu::onVectorCore()) return;
  tcemu::cur().movPadValue_ = tcemu::padBits(paddingValue);
}

// --- GM atomics: later MTE3 and Fixpipe writes to GM combine with the stored data ---------------------------------

template <typename T>
inline void SetAtomicAdd(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::setAtomic<T>(1, "SetAtomicAdd", loc);
}
template <typename T>
inline void SetAtomicMax(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::setAtomic<T>(2, "SetAtomicMax", loc);
}
template <typename T>
inline void SetAtomicMin(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::setAtomic<T>(3, "SetAtomicMin", loc);
}
// Changes the dtype of the current atomic mode.
template <typename T>
inline void SetAtomicType(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkDtype<T, half, float, int16_t, int32_t, int8_t, bfloat16_t>("SetAtomicType", loc);
  tcemu::cur().atomicDtype_ = static_cast<int>(tcemu::atomicDtypeOf<T>());
}
inline void SetAtomicNone() {
  tcemu::Core& core = tcemu::cur();
  core.atomicKind_ = 0;
  core.atomicAdd_ = false;
}

// Copies to GM that combine with what is there (dav-c220): the call clears any atomic mode, sets the one of
// reduceType for its own copy and clears it again, so no atomic mode survives the call.
enum class ReduceType : uint8_t { NO_REDUCE, REDUCE_ADD, REDUCE_MIN, REDUCE_MAX };

template <typename T, ReduceType reduceType>
inline void setReduceAtomic(const char* api, const tcemu::SrcLoc& loc) {
  SetAtomicNone();
  if constexpr (reduceType == ReduceType::REDUCE_ADD) tcemu::setAtomic<T>(1, api, loc);
  if constexpr (reduceType == ReduceType::REDUCE_MAX) tcemu::setAtomic<T>(2, api, loc);
  if constexpr (reduceType == ReduceType::REDUCE_MIN) tcemu::setAtomic<T>(3, api, loc);
}

template <typename T, ReduceType reduceType = ReduceType::NO_REDUCE>
inline void DataCopyWithReduce(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                               const DataCopyParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  setReduceAtomic<T, reduceType>("DataCopyWithReduce", loc);
  tcemu::copyLocalToGm(dstGlobal, srcLocal, repeatParams, loc);
  SetAtomicNone();
}

template <typename T, ReduceType reduceType = ReduceType::NO_REDUCE>
inline void DataCopyWithReduce(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                               const uint32_t calCount, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  tcemu::checkCount<T>(calCount, loc);
  DataCopyParams p;
  p.blockLen = static_cast<uint16_t>(uint64_t{calCount} * sizeof(T) / tcemu::kBlock);
  DataCopyWithReduce<T, reduceType>(dstGlobal, srcLocal, p, loc);
}

template <typename T, ReduceType reduceType = ReduceType::NO_REDUCE>
inline void DataCopyPadWithReduce(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                                  const DataCopyExtParams& dataCopyExtParams,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  setReduceAtomic<T, reduceType>("DataCopyPadWithReduce", loc);
  tcemu::padUbToGm(dstGlobal, srcLocal, dataCopyExtParams.blockCount, dataCopyExtParams.blockLen,
                   dataCopyExtParams.srcStride, dataCopyExtParams.dstStride, loc);
  SetAtomicNone();
}

}  // namespace AscendC

// The masked vector copy needs the vector engine; it comes with it.
#include "emu/datacopy_vcopy.h"

#include "emu/datacopy_gm.h"
#include "emu/datacopy_slice.h"
