// SelectWithBytesMask (CANN 8.1 highlevel_api/lib/select): masked_fill with a mask of whole elements (bool, 8-,
// 16- or 32-bit) instead of bits. src is [firstAxis, srcLastAxis], mask [firstAxis, maskLastAxis] with
// maskLastAxis >= srcLastAxis (the extra mask columns are padding). A mask element is true when it is non-zero as
// the library reads it: 4-byte masks as float (so -0.0f is false), 2-byte as int16, 1-byte as uint8. True selects
// the second operand, false the first: (dst, src0 tensor, src1 scalar, mask) fills the scalar where the mask is
// true; (dst, src0 scalar, src1 tensor, mask) keeps the tensor where it is true.
//
// With isReuseMask = true (the default) and padded mask rows, the library compacts the mask in place (its first
// firstAxis * srcLastAxis elements become the rows without padding), so the mask is modified; the emulator does the
// same. With isReuseMask = false it compacts into sharedTmpBuffer, which must then hold 1024 bytes plus the
// compacted mask rounded up to 32 bytes.
#pragma once

#include "emu/hl_common.h"

namespace AscendC {

#ifndef TCEMU_HAVE_SELECT_WITH_BYTES_MASK_SHAPE_INFO
#define TCEMU_HAVE_SELECT_WITH_BYTES_MASK_SHAPE_INFO
struct SelectWithBytesMaskShapeInfo {
  SelectWithBytesMaskShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};
#endif

}  // namespace AscendC

namespace tcemu::hl {

template <typename U>
inline bool byteMaskTrue(U m) {
  if constexpr (sizeof(U) == 4) {
    float f;
    std::memcpy(&f, &m, 4);
    return !(f == 0.0f);
  } else if constexpr (sizeof(U) == 2) {
    int16_t v;
    std::memcpy(&v, &m, 2);
    return v != 0;
  } else {
    uint8_t v;
    std::memcpy(&v, &m, 1);
    return v != 0;
  }
}

template <typename T, typename U, bool isReuseMask>
inline void selectWithBytesMask(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* tensor, T scalar,
                                bool tensorFirst, const AscendC::LocalTensor<U>& mask,
                                const AscendC::LocalTensor<uint8_t>& tmp,
                                const AscendC::SelectWithBytesMaskShapeInfo& info, const SrcLoc& loc) {
  const char* api = "SelectWithBytesMask";
  checkDtype<T, half, float>(api, loc);
  checkDtype<U, bool, uint8_t, int8_t, half, int16_t, uint16_t, float, int32_t, uint32_t>(api, loc);
  checkUb(tensor->ref_, api, "src", loc);
  checkUb(mask.ref_, api, "mask", loc);
  checkUb(dst.ref_, api, "dst", loc);
  const uint64_t n = uint64_t{info.firstAxis} * info.srcLastAxis;
  const uint64_t maskN = uint64_t{info.firstAxis} * info.maskLastAxis;
  if (tensor->GetSize() != n) {
    fail(loc,
         "SelectWithBytesMask src holds %u elements but the shape info gives firstAxis x srcLastAxis = %u x %u "
         "= %llu; hint: pass the src tensor with SetSize(%llu) or fix the shape info",
         tensor->GetSize(), info.firstAxis, info.srcLastAxis, static_cast<unsigned long long>(n),
         static_cast<unsigned long long>(n));
  }
  if (mask.GetSize() != maskN) {
    fail(loc,
         "SelectWithBytesMask mask holds %u elements but the shape info gives firstAxis x maskLastAxis = %u x "
         "%u = %llu; hint: pass the mask tensor with SetSize(%llu) or fix the shape info",
         mask.GetSize(), info.firstAxis, info.maskLastAxis, static_cast<unsigned long long>(maskN),
         static_cast<unsigned long long>(maskN));
  }
  if (info.maskLastAxis < info.srcLastAxis) {
    fail(loc,
         "SelectWithBytesMask maskLastAxis = %u is smaller than srcLastAxis = %u; hint: every mask row must "
         "cover its src row (pad the mask rows)",
         info.maskLastAxis, info.srcLastAxis);
  }
  checkCount(dst, n, api, "dst", loc);
  const bool compact = info.maskLastAxis != info.srcLastAxis;
  const uint32_t minTmp = 1024u + (!isReuseMask && compact ? static_cast<uint32_t>(roundUp(n * sizeof(U), 32)) : 0u);
  checkTmp(tmp, minTmp, api, "GetSelectWithBytesMaskMaxMinTmpSize", loc);
  Core& core = cur();
  VecSeq seq{core, loc};
  if (compact) seq.add("GatherMask", 2, maskN * sizeof(U) / 2);
  seq.add("Cast", 2, n);
  seq.add("CompareScalar", 2, n);
  seq.add("Select", sizeof(T), n);
  core.read(seq.firstIdx, tensor->ref_, 0, n * sizeof(T), "SelectWithBytesMask src", loc);
  core.read(seq.firstIdx, mask.ref_, 0, maskN * sizeof(U), "SelectWithBytesMask mask", loc);
  core.write(seq.firstIdx, tmp.ref_, 0, minTmp, "SelectWithBytesMask sharedTmpBuffer", loc);
  core.read(seq.lastIdx, tmp.ref_, 0, minTmp, "SelectWithBytesMask sharedTmpBuffer", loc);
  if (compact && isReuseMask) core.write(seq.firstIdx, mask.ref_, 0, n * sizeof(U), "SelectWithBytesMask mask", loc);
  core.write(seq.lastIdx, dst.ref_, 0, n * sizeof(T), "SelectWithBytesMask dst", loc);
  // The mask rows without their padding, as raw elements (U may be bool: no std::vector<U>).
  std::vector<uint8_t> m(n * sizeof(U));
  const auto* maskBytes = reinterpret_cast<const uint8_t*>(mask.GetPhyAddr());
  for (uint32_t r = 0; r < info.firstAxis; ++r)
    std::memcpy(&m[uint64_t{r} * info.srcLastAxis * sizeof(U)], maskBytes + uint64_t{r} * info.maskLastAxis * sizeof(U),
                info.srcLastAxis * sizeof(U));
  std::vector<T> src(tensor->GetPhyAddr(), tensor->GetPhyAddr() + n);  // dst may alias src
  T* d = dst.GetPhyAddr();
  for (uint64_t i = 0; i < n; ++i) {
    U e;
    std::memcpy(static_cast<void*>(&e), &m[i * sizeof(U)], sizeof(U));
    const bool t = byteMaskTrue(e);
    d[i] = tensorFirst ? (t ? scalar : src[i]) : (t ? src[i] : scalar);
  }
  if (compact && isReuseMask) std::memcpy(static_cast<void*>(mask.GetPhyAddr()), m.data(), m.size());
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                                           const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo& info,
                                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::selectWithBytesMask<T, U, isReuseMask>(dst, &src0, src1, true, mask, sharedTmpBuffer, info, loc);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                                           const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                           const SelectWithBytesMaskShapeInfo& info,
                                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::selectWithBytesMask<T, U, isReuseMask>(dst, &src1, src0, false, mask, sharedTmpBuffer, info, loc);
}

}  // namespace AscendC
