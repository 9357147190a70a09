// Broadcast, Pad and UnPad (CANN 8.1 highlevel_api/lib/pad): shape changes of a UB tensor.
//
// Broadcast<T, dim, axis>: dim 1 or 2 (the only ranks CANN implements). A source of one element fills the whole
// destination, a source of the destination's size is copied, otherwise the 2-D source [m, 1] (axis 1) or [1, n]
// (axis 0) is repeated along `axis` into [m, n]. Values are moved, never computed, so the result is exact (1-byte
// types go through half on the device, which holds every int8/uint8 value exactly).
//
// Pad: rows of a [height, width] tensor. With width * sizeof(T) a multiple of 32 bytes the rows already hold
// width - srcOriWidth columns of dirty data at the end; Pad copies src to dst and sets columns srcOriWidth ..
// srcOriWidth + rightPad - 1 of every row to padValue (leftPad must be 0). Otherwise dst rows are leftPad + width +
// rightPad long (a multiple of 32 bytes): padValue, the source row, padValue. UnPad drops the last rightPad columns
// of each 32-byte-aligned row (dst rows are width - rightPad long, packed). padValue is converted with
// static_cast<T> as CANN does. The shapes come from the tiling (srcHeight, srcWidth, srcOriWidth); the other tiling
// fields describe CANN's own loop split and are not needed here. Temporary space: Pad and UnPad are emulated
// without any, so the sharedTmpBuffer is only checked to be a live UB tensor.
#pragma once

#include "emu/hl_common.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

struct PadParams {
  PadParams() {}
  PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  UnPadParams() {}
  UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

}  // namespace AscendC

namespace tcemu::hl {

inline std::string shapeText(const uint32_t* shape, int32_t dim) {
  std::string s = "[";
  for (int32_t i = 0; i < dim; ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

template <typename T, int32_t dim, int32_t axis>
inline void broadcast(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const uint32_t* dstShape,
                      const uint32_t* srcShape, const AscendC::LocalTensor<uint8_t>* tmp, const SrcLoc& loc) {
  checkDtype<T, int8_t, uint8_t, half, float>("Broadcast", loc);
  if constexpr (dim != 1 && dim != 2) {
    fail(loc,
         "Broadcast<T, dim = %d, axis = %d>: CANN implements dim = 1 and dim = 2 only; hint: view the tensor as "
         "[rows, cols] with the broadcast axis 0 or 1",
         dim, axis);
  } else {
    if constexpr (axis < 0 || axis >= dim) {
      fail(loc,
           "Broadcast<T, dim = %d, axis = %d>: axis must be between 0 and dim - 1 = %d; hint: axis is the "
           "dimension the source has size 1 in",
           dim, axis, dim - 1);
    }
    uint64_t srcSize = 1, dstSize = 1;
    bool shapeOk = true;
    for (int32_t i = 0; i < dim; ++i) {
      srcSize *= srcShape[i];
      dstSize *= dstShape[i];
      if (srcShape[i] != dstShape[i] && (i != axis || srcShape[i] != 1)) shapeOk = false;
    }
    if (!shapeOk && srcSize != 1) {
      fail(loc,
           "Broadcast<T, %d, %d>: srcShape %s does not broadcast to dstShape %s along axis %d (the source must "
           "match the destination except for size 1 on axis %d); hint: pass the shapes in the order dstShape, srcShape",
           dim, axis, shapeText(srcShape, dim).c_str(), shapeText(dstShape, dim).c_str(), axis, axis);
    }
    const uint32_t rows = dim == 2 ? dstShape[0] : 1, cols = dstShape[dim - 1];
    const bool twoDim = dim == 2 && srcSize != dstSize && srcSize != 1;
    const uint32_t workBytes = sizeof(T) == 1 ? 2u : static_cast<uint32_t>(sizeof(T));
    if (twoDim && axis == 0 && uint64_t{cols} * workBytes % 32 != 0) {
      fail(loc,
           "Broadcast<T, 2, 0> needs dstShape[1] * %u bytes to be a multiple of 32: dstShape[1] = %u %s elements "
           "is %llu bytes; hint: pad the last axis to %u elements",
           workBytes, cols, dtypeName<T>(), static_cast<unsigned long long>(uint64_t{cols} * workBytes),
           static_cast<uint32_t>(roundUp(cols, 32 / workBytes)));
    }
    checkUb(src.ref_, "Broadcast", "src", loc);
    checkUb(dst.ref_, "Broadcast", "dst", loc);
    checkCount(src, srcSize, "Broadcast", "src", loc);
    checkCount(dst, dstSize, "Broadcast", "dst", loc);
    const uint32_t minTmp = broadcastCoreTmp(twoDim, axis, srcSize, dstSize, rows, cols, sizeof(T), false);
    AscendC::LocalTensor<uint8_t> work;
    if (tmp) {
      checkTmp(*tmp, minTmp, "Broadcast", "GetBroadCastMaxMinTmpSize", loc);
      work = *tmp;
    } else {
      work = stackBuffer(minTmp, "Broadcast", loc);
    }
    Core& core = cur();
    VecSeq seq{core, loc};
    if (sizeof(T) == 1) seq.add("Cast", 2, srcSize);
    if (srcSize == dstSize) {
      seq.add("Copy", workBytes, dstSize);
    } else if (srcSize == 1) {
      seq.add("Duplicate", workBytes, dstSize);
    } else if (axis == 1) {
      seq.add("Brcb", workBytes, uint64_t{rows} * (32 / workBytes));
      seq.add("Copy", workBytes, uint64_t{rows} * roundUp(cols, 32 / workBytes));
      if (uint64_t{cols} * workBytes % 32 != 0) seq.add("GatherMask", workBytes, dstSize);
    } else {
      seq.add("Duplicate", workBytes, 32 / workBytes);
      seq.add("Or", workBytes, dstSize);
    }
    if (sizeof(T) == 1) seq.add("Cast", 2, dstSize);
    const uint32_t used = std::min<uint32_t>(
        work.GetSize(), broadcastCoreTmp(twoDim, axis, srcSize, dstSize, rows, cols, sizeof(T), true));
    core.read(seq.firstIdx, src.ref_, 0, srcSize * sizeof(T), "Broadcast src", loc);
    if (used) {
      core.write(seq.firstIdx, work.ref_, 0, used, "Broadcast sharedTmpBuffer", loc);
      core.read(seq.lastIdx, work.ref_, 0, used, "Broadcast sharedTmpBuffer", loc);
    }
    core.write(seq.lastIdx, dst.ref_, 0, dstSize * sizeof(T), "Broadcast dst", loc);

    const T* s = src.GetPhyAddr();
    std::vector<T> out(dstSize);
    for (uint64_t i = 0; i < dstSize; ++i) {
      if (srcSize == dstSize) out[i] = s[i];
      else if (srcSize == 1) out[i] = s[0];
      else out[i] = axis == 1 ? s[i / cols] : s[i % cols];
    }
    std::copy(out.begin(), out.end(), dst.GetPhyAddr());
  }
}

template <typename T>
inline T padFill(int32_t v) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(v);
  else return fromFloat<T>(static_cast<float>(v));
}

template <typename T>
inline void pad(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::PadParams& p,
                const AscendC::LocalTensor<uint8_t>* tmp, const PadTiling& tiling, const SrcLoc& loc) {
  checkDtype<T, int16_t, uint16_t, half, int32_t, uint32_t, float>("Pad", loc);
  const uint32_t height = tiling.srcHeight, width = tiling.srcWidth, oriWidth = tiling.srcOriWidth;
  const bool aligned = uint64_t{width} * sizeof(T) % 32 == 0;
  if (aligned) {
    if (width == oriWidth) {
      fail(loc,
           "Pad of rows already 32-byte aligned: srcWidth = srcOriWidth = %u %s elements, so there is nothing "
           "to pad; hint: skip the Pad, or set srcOriWidth to the real row length in PadTilingFunc's oriSrcShape",
           width, dtypeName<T>());
    }
    if (p.leftPad != 0) {
      fail(loc,
           "Pad of 32-byte-aligned rows (srcWidth = %u) takes leftPad = 0, got %u: the dirty columns are always "
           "at the end of the row; hint: set leftPad = 0 and rightPad = srcWidth - srcOriWidth = %u",
           width, p.leftPad, width - oriWidth);
    }
    if (p.rightPad == 0 || oriWidth + p.rightPad > width) {
      fail(loc,
           "Pad of 32-byte-aligned rows: rightPad = %u must be between 1 and srcWidth - srcOriWidth = %u - %u = "
           "%u; hint: set rightPad = %u",
           p.rightPad, width, oriWidth, width - oriWidth, width - oriWidth);
    }
  } else if ((uint64_t{width} + p.leftPad + p.rightPad) * sizeof(T) % 32 != 0) {
    fail(loc,
         "Pad: srcWidth = %u, leftPad = %u, rightPad = %u give a padded row of %u %s elements (%llu bytes), not "
         "a multiple of 32 bytes; hint: choose leftPad + rightPad so that the row is %u elements",
         width, p.leftPad, p.rightPad, width + p.leftPad + p.rightPad, dtypeName<T>(),
         static_cast<unsigned long long>((uint64_t{width} + p.leftPad + p.rightPad) * sizeof(T)),
         static_cast<uint32_t>(roundUp(width + p.leftPad + p.rightPad, 32 / sizeof(T))));
  }
  checkUb(src.ref_, "Pad", "src", loc);
  checkUb(dst.ref_, "Pad", "dst", loc);
  if (tmp) checkUb(tmp->ref_, "Pad", "sharedTmpBuffer", loc);
  const uint32_t outWidth = aligned ? width : width + p.leftPad + p.rightPad;
  const uint64_t inCount = uint64_t{height} * width, outCount = uint64_t{height} * outWidth;
  checkCount(src, inCount, "Pad", "src", loc);
  checkCount(dst, outCount, "Pad", "dst", loc);
  Core& core = cur();
  VecSeq seq{core, loc};
  if (aligned) {
    seq.add("DataCopy", sizeof(T), inCount);
    seq.add("Duplicate", sizeof(T), uint64_t{height} * (32 / sizeof(T)));
  } else {
    seq.add("Transpose", sizeof(T), inCount);
    seq.add("Duplicate", sizeof(T), outCount - inCount);
    seq.add("Transpose", sizeof(T), outCount);
    seq.add("DataCopy", sizeof(T), outCount);
  }
  core.read(seq.firstIdx, src.ref_, 0, inCount * sizeof(T), "Pad src", loc);
  core.write(seq.lastIdx, dst.ref_, 0, outCount * sizeof(T), "Pad dst", loc);
  const T* s = src.GetPhyAddr();
  const T fill = padFill<T>(p.padValue);
  std::vector<T> out(outCount);
  for (uint32_t r = 0; r < height; ++r) {
    for (uint32_t j = 0; j < outWidth; ++j) {
      if (aligned) {
        out[uint64_t{r} * outWidth + j] =
            (j >= oriWidth && j < oriWidth + p.rightPad) ? fill : s[uint64_t{r} * width + j];
      } else {
        bool inside = j >= p.leftPad && j < p.leftPad + width;
        out[uint64_t{r} * outWidth + j] = inside ? s[uint64_t{r} * width + (j - p.leftPad)] : fill;
      }
    }
  }
  std::copy(out.begin(), out.end(), dst.GetPhyAddr());
}

template <typename T>
inline void unpad(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, const AscendC::UnPadParams& p,
                  const AscendC::LocalTensor<uint8_t>* tmp, const UnPadTiling& tiling, const SrcLoc& loc) {
  checkDtype<T, int16_t, uint16_t, half, int32_t, uint32_t, float>("UnPad", loc);
  const uint32_t height = tiling.srcHeight, width = tiling.srcWidth;
  if (uint64_t{width} * sizeof(T) % 32 != 0) {
    fail(loc,
         "UnPad: srcWidth = %u %s elements is %llu bytes, not a multiple of 32; hint: UnPad takes rows padded "
         "to 32 bytes (srcWidth = %u)",
         width, dtypeName<T>(), static_cast<unsigned long long>(uint64_t{width} * sizeof(T)),
         static_cast<uint32_t>(roundUp(width, 32 / sizeof(T))));
  }
  if (p.rightPad > width || uint64_t{width - p.rightPad} * sizeof(T) % 32 == 0) {
    fail(loc,
         "UnPad: srcWidth - rightPad = %u - %u must be a row length that is not 32-byte aligned (and not "
         "negative); hint: for an aligned result no UnPad is needed, copy the rows instead",
         width, p.rightPad);
  }
  checkUb(src.ref_, "UnPad", "src", loc);
  checkUb(dst.ref_, "UnPad", "dst", loc);
  if (tmp) checkUb(tmp->ref_, "UnPad", "sharedTmpBuffer", loc);
  const uint32_t outWidth = width - p.rightPad;
  const uint64_t inCount = uint64_t{height} * width, outCount = uint64_t{height} * outWidth;
  checkCount(src, inCount, "UnPad", "src", loc);
  checkCount(dst, outCount, "UnPad", "dst", loc);
  Core& core = cur();
  VecSeq seq{core, loc};
  seq.add("GatherMask", sizeof(T), inCount);
  core.read(seq.firstIdx, src.ref_, 0, inCount * sizeof(T), "UnPad src", loc);
  core.write(seq.lastIdx, dst.ref_, 0, outCount * sizeof(T), "UnPad dst", loc);
  const T* s = src.GetPhyAddr();
  std::vector<T> out(outCount);
  for (uint32_t r = 0; r < height; ++r)
    for (uint32_t j = 0; j < outWidth; ++j) out[uint64_t{r} * outWidth + j] = s[uint64_t{r} * width + j];
  std::copy(out.begin(), out.end(), dst.GetPhyAddr());
}

}  // namespace tcemu::hl

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::broadcast<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}
// CANN's implementation names (impl/pad/broadcast), which kernels also call directly.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, loc);
}

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling,
                           tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::pad(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::pad(dstTensor, srcTensor, padParams, nullptr, tiling, loc);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling,
                             tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::unpad(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             UnPadTiling& tiling, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::hl::unpad(dstTensor, srcTensor, unPadParams, nullptr, tiling, loc);
}

}  // namespace AscendC
