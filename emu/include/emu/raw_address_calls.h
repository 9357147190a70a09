// More of the calls kernels make on raw addresses instead of tensors: the CCE intrinsics set_vector_mask,
// set_mask_count/set_mask_norm, vector_dup, vor and copy_ubuf_to_ubuf (the forms of CANN 8.1's tikicpulib
// stub_fun.h), and the dav_c220 implementation functions DuplicateImpl and DataCopyUB2GMImpl that some answers call
// past the API. Each maps its addresses back to the live buffers holding them (tcemu::ubTensorAt; a GM pointer is
// checked by the copy itself) and runs the API call it stands for, so it gets that call's checks and trace.
// Not emulated: the uint64_t `config` forms, and the repeatStrideMode/strideSizeMode forms.
#pragma once

#include "emu/datacopy.h"
#include "emu/vec_intrinsics.h"
#include "emu/vec_scalar.h"

// The mask register: mask1 holds lanes 64..127, mask0 lanes 0..63 (in counter mode mask0 is the element count).
inline void set_vector_mask(uint64_t mask1, uint64_t mask0) { AscendC::SetVectorMask<uint8_t>(mask1, mask0); }
inline void set_mask_count() { AscendC::SetMaskCount(); }
inline void set_mask_norm() { AscendC::SetMaskNorm(); }

namespace tcemu {

// vector_dup: the scalar into every lane the mask register selects; the source strides have no source to move.
template <typename T>
inline void vectorDup(T* dst, T value, uint8_t repeat, uint16_t dstBlockStride, uint16_t dstRepeatStride,
                      const SrcLoc& loc) {
  if (!onVectorCore()) return;
  vec::duplicate(ubTensorAt<T>(dst, "vector_dup dst", loc), value, vec::Mask::reg(), repeat,
                 {dstBlockStride, dstRepeatStride}, loc);
}

template <typename T>
inline void vorImpl(T* dst, T* src0, T* src1, uint8_t repeat, const AscendC::BinaryRepeatParams& p, const SrcLoc& loc) {
  if (!onVectorCore()) return;
  AscendC::Or<T, false>(ubTensorAt<T>(dst, "vor dst", loc), ubTensorAt<T>(src0, "vor src0", loc),
                        ubTensorAt<T>(src1, "vor src1", loc), uint64_t{0}, repeat, p, loc);
}

}  // namespace tcemu

#define TCEMU_VECTOR_DUP(T)                                                                                        \
  inline void vector_dup(__ubuf__ T* dst, T src, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                         uint8_t dstRepeatStride, uint8_t srcRepeatStride,                                         \
                         tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                           \
    static_cast<void>(srcBlockStride), static_cast<void>(srcRepeatStride);                                         \
    tcemu::vectorDup<T>(dst, src, repeat, dstBlockStride, dstRepeatStride, loc);                                   \
  }
#define TCEMU_VECTOR_DUP_WIDE(T)                                                                                   \
  TCEMU_VECTOR_DUP(T)                                                                                              \
  inline void vector_dup(__ubuf__ T* dst, T src, uint8_t repeat, uint16_t dstBlockStride, uint16_t srcBlockStride, \
                         uint16_t dstRepeatStride, uint16_t srcRepeatStride,                                       \
                         tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                                           \
    static_cast<void>(srcBlockStride), static_cast<void>(srcRepeatStride);                                         \
    tcemu::vectorDup<T>(dst, src, repeat, dstBlockStride, dstRepeatStride, loc);                                   \
  }
TCEMU_VECTOR_DUP_WIDE(half)
TCEMU_VECTOR_DUP_WIDE(float)
TCEMU_VECTOR_DUP_WIDE(int16_t)
TCEMU_VECTOR_DUP_WIDE(int32_t)
TCEMU_VECTOR_DUP_WIDE(uint16_t)
TCEMU_VECTOR_DUP_WIDE(uint32_t)
TCEMU_VECTOR_DUP(bfloat16_t)
#undef TCEMU_VECTOR_DUP_WIDE
#undef TCEMU_VECTOR_DUP

#define TCEMU_VOR(T)                                                                                                   \
  inline void vor(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, uint8_t repeat, uint8_t dstBlockStride,         \
                  uint8_t src0BlockStride, uint8_t src1BlockStride, uint8_t dstRepeatStride, uint8_t src0RepeatStride, \
                  uint8_t src1RepeatStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {                            \
    tcemu::vorImpl<T>(dst, src0, src1, repeat,                                                                         \
                      AscendC::BinaryRepeatParams(dstBlockStride, src0BlockStride, src1BlockStride, dstRepeatStride,   \
                                                  src0RepeatStride, src1RepeatStride),                                 \
                      loc);                                                                                            \
  }
TCEMU_VOR(int16_t)
TCEMU_VOR(uint16_t)
#undef TCEMU_VOR

// nBurst bursts of lenBurst 32-byte blocks, with srcStride/dstStride blocks between bursts (DataCopyParams' units).
// The addresses are untyped on the device; the copy moves bytes.
inline void copy_ubuf_to_ubuf(__ubuf__ void* dst, __ubuf__ void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst,
                              uint16_t srcStride, uint16_t dstStride, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  static_cast<void>(sid);
  AscendC::DataCopy(tcemu::ubTensorAt<uint8_t>(static_cast<uint8_t*>(dst), "copy_ubuf_to_ubuf dst", loc),
                    tcemu::ubTensorAt<uint8_t>(static_cast<uint8_t*>(src), "copy_ubuf_to_ubuf src", loc),
                    AscendC::DataCopyParams(nBurst, lenBurst, srcStride, dstStride), loc);
}

namespace AscendC {

template <typename T>
__aicore__ inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, const int32_t& calCount,
                                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  Duplicate(tcemu::ubTensorAt<T>(dstLocal, "DuplicateImpl dst", loc), scalarValue, calCount, loc);
}

template <typename T>
__aicore__ inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams,
                                         tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  GlobalTensor<T> g;
  g.SetGlobalBuffer(dst);
  DataCopy(g, tcemu::ubTensorAt<T>(src, "DataCopyUB2GMImpl src", loc), intriParams, loc);
}

}  // namespace AscendC
