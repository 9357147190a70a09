// Multi-dimensional DataCopy between GM and UB: the SliceInfo forms (GM -> UB on MTE2, UB -> GM on MTE3) and
// DataCopy with Nz2NdParamsFull (UB NZ -> GM ND, MTE3), as CANN 8.1 defines them for 910B.
//
// SliceInfo. Dimension 0 is the innermost. Each tensor has a shape (the SliceInfo shapeValues when
// srcSliceInfo[0].shapeValue != 0, else each tensor's ShapeInfo); an element index is sum(idx_i * prod(shape_j<i)).
// Dimension i >= 1 selects indices startIndex, startIndex + (1 + stride), ... up to endIndex; every combination
// of them is one slice of dimension 0 (src and dst enumerate theirs in the same order and must have as many).
// A slice of dimension 0 starts at its startIndex and copies bursts of srcSliceInfo[0].burstLen 32-byte blocks:
// (endIndex - startIndex + 1 + stride) / (burstLen * C0 + stride) of them, C0 = 32 / sizeof(T), with gaps of
// srcSliceInfo[0].stride elements on the source and dstSliceInfo[0].stride elements on the destination
// (UB gaps are whole 32-byte blocks: the element count is rounded down to blocks, as CANN does).
//
// Nz2NdParamsFull. Matrix m of ndNum: 16-column strip b of nValue rows, at UB element
// m * srcNdMatrixStride * 256 + b * srcNStride * 16 (row r 16 elements further each), goes to GM row r of
// columns [16b, 16b + 16) at element m * dstNdMatrixStride + r * dstDStride + 16b. dValue must be a multiple of 16,
// the element 2 or 4 bytes.
#pragma once

#include "emu/datacopy.h"

namespace AscendC {

constexpr uint32_t K_MAX_SHAPE_DIM = 8;

struct SliceInfo {
  SliceInfo() {}
  SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn, const uint32_t burstLenIn,
            const uint32_t shapeValueIn = 0)
      : startIndex(startIndexIn),
        endIndex(endIndexIn),
        stride(strideIn),
        burstLen(burstLenIn),
        shapeValue(shapeValueIn) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = ONE_BLK_SIZE - 1;
  uint32_t stride = 0;
  uint32_t burstLen = ONE_BLK_SIZE;
  uint32_t shapeValue = 0;
};

struct Nz2NdParamsFull {
  Nz2NdParamsFull() {}
  Nz2NdParamsFull(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                  const uint16_t srcNdMatrixStrideIn, const uint16_t srcNStrideIn, const uint16_t dstDStrideIn,
                  const uint16_t dstNdMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcNStride(srcNStrideIn),
        dstDStride(dstDStrideIn),
        dstNdMatrixStride(dstNdMatrixStrideIn) {}
  uint16_t ndNum = 1;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 1;
  uint16_t srcNStride = 0;
  uint16_t dstDStride = 0;
  uint16_t dstNdMatrixStride = 1;
};

}  // namespace AscendC

namespace tcemu::slice {

// Element offsets (from the start index) of every dimension-0 slice, in CANN's order: dimension 1 varies fastest.
inline std::vector<uint64_t> sliceOffsets(const AscendC::SliceInfo* info, const uint32_t* shape, uint32_t dims) {
  std::vector<uint64_t> out{0};
  uint64_t pitch = 1;
  for (uint32_t i = 1; i < dims; ++i) {
    pitch *= shape[i - 1];
    uint64_t count =
        (uint64_t{info[i].endIndex} - info[i].startIndex + 1 + info[i].stride) / (1 + uint64_t{info[i].stride});
    size_t before = out.size();
    for (uint64_t k = 1; k < count; ++k)
      for (size_t j = 0; j < before; ++j) out.push_back(out[j] + k * (1 + uint64_t{info[i].stride}) * pitch);
  }
  return out;
}

inline uint64_t startOf(const AscendC::SliceInfo* info, const uint32_t* shape, uint32_t dims) {
  uint64_t start = info[0].startIndex, pitch = 1;
  for (uint32_t i = 1; i < dims; ++i) {
    pitch *= shape[i - 1];
    start += pitch * info[i].startIndex;
  }
  return start;
}

template <typename T, typename Dst, typename Src>
inline void sliceShapes(const Dst& dst, const Src& src, const AscendC::SliceInfo* dstInfo,
                        const AscendC::SliceInfo* srcInfo, uint32_t dims, uint32_t* dstShape, uint32_t* srcShape,
                        const SrcLoc& loc) {
  if (dims < 1 || dims > AscendC::K_MAX_SHAPE_DIM) {
    fail(loc,
         "DataCopy with SliceInfo dimValue is %u, outside [1, 8]; hint: dimValue is the length of the "
         "SliceInfo arrays",
         dims);
  }
  bool useShapeValue = srcInfo[0].shapeValue != 0;
  for (uint32_t i = 0; i < dims; ++i) {
    srcShape[i] = useShapeValue ? srcInfo[i].shapeValue : src.GetShapeInfo().shape[i];
    dstShape[i] = useShapeValue ? dstInfo[i].shapeValue : dst.GetShapeInfo().shape[i];
    if (i + 1 < dims && (srcShape[i] == 0 || dstShape[i] == 0)) {
      fail(loc,
           "DataCopy with SliceInfo: dimension %u has shape %u (src) and %u (dst); hint: set shapeValue in "
           "every SliceInfo, or SetShapeInfo on both tensors",
           i, srcShape[i], dstShape[i]);
    }
  }
}

// One slice copy. toGm: UB -> GM (MTE3), else GM -> UB (MTE2).
template <typename T>
inline void sliceCopy(const AscendC::LocalTensor<T>& local, T* gm, const AscendC::SliceInfo* dstInfo,
                      const AscendC::SliceInfo* srcInfo, uint32_t dims, const uint32_t* dstShape,
                      const uint32_t* srcShape, bool toGm, const SrcLoc& loc) {
  if (local.ref_.mem != Mem::UB) {
    fail(loc,
         "DataCopy with SliceInfo %s %s (%s); it copies between GM and UB only; hint: use a VECIN/VECOUT "
         "tensor",
         toGm ? "from" : "to", memName(local.ref_.mem), positionName(local.ref_.pos));
  }
  const uint32_t c0 = kBlock / sizeof(T);
  const AscendC::SliceInfo& s0 = srcInfo[0];
  if (s0.burstLen == 0) fail(loc, "DataCopy with SliceInfo srcSliceInfo[0].burstLen is 0; it counts 32-byte blocks");
  std::vector<uint64_t> srcOff = sliceOffsets(srcInfo, srcShape, dims);
  std::vector<uint64_t> dstOff = sliceOffsets(dstInfo, dstShape, dims);
  if (srcOff.size() != dstOff.size()) {
    fail(loc,
         "DataCopy with SliceInfo selects %zu slices of the source but %zu of the destination; hint: give "
         "dimensions 1 and up the same number of indices on both sides",
         srcOff.size(), dstOff.size());
  }
  uint64_t srcStart = startOf(srcInfo, srcShape, dims), dstStart = startOf(dstInfo, dstShape, dims);
  uint64_t burst = uint64_t{s0.burstLen} * kBlock;
  uint64_t bursts = (uint64_t{s0.endIndex} - s0.startIndex + 1 + s0.stride) / (uint64_t{s0.burstLen} * c0 + s0.stride);
  // Gaps: GM in elements (bytes when not whole blocks), UB in whole 32-byte blocks.
  const AscendC::SliceInfo& gmInfo = toGm ? dstInfo[0] : s0;
  const AscendC::SliceInfo& ubInfo = toGm ? s0 : dstInfo[0];
  uint64_t gmGap = uint64_t{gmInfo.stride} * sizeof(T);
  uint64_t ubGap = uint64_t{ubInfo.stride} * sizeof(T) / kBlock * kBlock;
  Core& core = cur();
  uint64_t ubStart = (toGm ? srcStart : dstStart) * sizeof(T);
  if ((local.ref_.offset + ubStart) % kBlock != 0) {
    fail(loc,
         "DataCopy with SliceInfo starts %llu bytes into the UB tensor, not a multiple of 32; hint: make the "
         "UB startIndex of dimension 0 (and the UB shape) a multiple of %u elements",
         static_cast<unsigned long long>(ubStart), c0);
  }
  uint32_t ins = core.begin(toGm ? Pipe::MTE3 : Pipe::MTE2, toGm ? OpClass::DmaOut : OpClass::DmaIn, "DataCopy", loc);
  uint8_t* gmBase = reinterpret_cast<uint8_t*>(gm);
  dmaInfo(core, ins, sizeof(T), static_cast<uint32_t>(bursts * srcOff.size()), burst,
          gmBase + (toGm ? dstStart : srcStart) * sizeof(T), toGm ? Space::UB : Space::GM,
          toGm ? Space::GM : Space::UB);
  for (size_t k = 0; k < srcOff.size(); ++k) {
    uint64_t ubElem = toGm ? srcStart + srcOff[k] : dstStart + dstOff[k];
    uint64_t gmElem = toGm ? dstStart + dstOff[k] : srcStart + srcOff[k];
    if ((local.ref_.offset + ubElem * sizeof(T)) % kBlock != 0) {
      fail(loc,
           "DataCopy with SliceInfo slice %zu starts at UB element %llu, not on a 32-byte block; hint: make "
           "the UB shape of dimension 0 a multiple of %u elements",
           k, static_cast<unsigned long long>(ubElem), c0);
    }
    for (uint64_t b = 0; b < bursts; ++b) {
      uint64_t ub = ubElem * sizeof(T) + b * (burst + ubGap);
      uint8_t* g = gmBase + gmElem * sizeof(T) + b * (burst + gmGap);
      checkGm(g, burst, toGm ? "DataCopy dst" : "DataCopy src", loc);
      if (toGm) {
        core.read(ins, local.ref_, ub, burst, "DataCopy src", loc, Core::Unwritten::Block);
        core.writeGm(ins, g, burst, "DataCopy dst", loc);
        storeGm(core, g, core.ptr(Mem::UB, local.ref_.offset) + ub, burst);
      } else {
        core.readGm(ins, g, burst, "DataCopy src", loc);
        core.write(ins, local.ref_, ub, burst, "DataCopy dst", loc);
        std::memcpy(core.ptr(Mem::UB, local.ref_.offset) + ub, g, burst);
      }
    }
  }
}

}  // namespace tcemu::slice

namespace AscendC {

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  uint32_t dstShape[K_MAX_SHAPE_DIM], srcShape[K_MAX_SHAPE_DIM];
  tcemu::slice::sliceShapes<T>(dstLocal, srcGlobal, dstSliceInfo, srcSliceInfo, dimValue, dstShape, srcShape, loc);
  tcemu::slice::sliceCopy(dstLocal, srcGlobal.addr_, dstSliceInfo, srcSliceInfo, dimValue, dstShape, srcShape, false,
                          loc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  uint32_t dstShape[K_MAX_SHAPE_DIM], srcShape[K_MAX_SHAPE_DIM];
  tcemu::slice::sliceShapes<T>(dstGlobal, srcLocal, dstSliceInfo, srcSliceInfo, dimValue, dstShape, srcShape, loc);
  tcemu::slice::sliceCopy(srcLocal, dstGlobal.addr_, dstSliceInfo, srcSliceInfo, dimValue, dstShape, srcShape, true,
                          loc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                     const Nz2NdParamsFull& intriParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "DataCopy with Nz2NdParamsFull moves 2- or 4-byte elements");
  const Nz2NdParamsFull& p = intriParams;
  tcemu::Core& core = tcemu::cur();
  if (srcLocal.ref_.mem != tcemu::Mem::UB) {
    tcemu::fail(loc, "DataCopy with Nz2NdParamsFull from %s (%s); it copies UB (VECOUT) to GM",
                tcemu::memName(srcLocal.ref_.mem), tcemu::positionName(srcLocal.ref_.pos));
  }
  if (p.dValue % 16 != 0) {
    tcemu::fail(loc,
                "DataCopy with Nz2NdParamsFull dValue %u is not a multiple of 16; hint: copy whole 16-column "
                "strips and drop the padding columns on the host, or use DataCopyPad per row",
                p.dValue);
  }
  core.checkAlign(srcLocal.ref_, tcemu::kBlock, "DataCopy src", loc);
  uint32_t ins = core.begin(tcemu::Pipe::MTE3, tcemu::OpClass::DmaOut, "DataCopy", loc);
  const uint64_t row = 16 * sizeof(T);
  const uint32_t strips = p.dValue / 16;
  uint8_t* gm = reinterpret_cast<uint8_t*>(dstGlobal.addr_);
  tcemu::dmaInfo(core, ins, sizeof(T), uint32_t{p.ndNum} * p.nValue * strips, row, gm, tcemu::Space::UB,
                 tcemu::Space::GM);
  const uint8_t* ub = core.ptr(tcemu::Mem::UB, srcLocal.ref_.offset);
  for (uint64_t m = 0; m < p.ndNum; ++m) {
    for (uint32_t b = 0; b < strips; ++b) {
      for (uint64_t r = 0; r < p.nValue; ++r) {
        uint64_t s = (m * p.srcNdMatrixStride * 256 + uint64_t{b} * p.srcNStride * 16 + r * 16) * sizeof(T);
        uint8_t* d = gm + (m * p.dstNdMatrixStride + r * p.dstDStride + uint64_t{b} * 16) * sizeof(T);
        core.read(ins, srcLocal.ref_, s, row, "DataCopy src", loc, tcemu::Core::Unwritten::Block);
        tcemu::checkGm(d, row, "DataCopy dst", loc);
        core.writeGm(ins, d, row, "DataCopy dst", loc);
        tcemu::storeGm(core, d, ub + s, row);
      }
    }
  }
}

}  // namespace AscendC

namespace AscendC {

// The DataCopyEnhancedParams forms. On 910B the enhanced part (block mode, deq scale, relu, pad) applies only to
// paths the chip does not have (L0C -> UB, UB/L1 -> L0C): GM <-> UB/L1 and UB -> UB move exactly as with the plain
// DataCopyParams, and the other local paths fail with the plain form's message.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
                     const DataCopyParams& intriParams, const DataCopyEnhancedParams& enhancedParams,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)enhancedParams;
  tcemu::copyGmToLocal(dstLocal, srcGlobal, intriParams, loc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
                     const DataCopyParams& intriParams, const DataCopyEnhancedParams& enhancedParams,
                     tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)enhancedParams;
  tcemu::copyLocalToGm(dstGlobal, srcLocal, intriParams, loc);
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const DataCopyParams& intriParams,
                     const DataCopyEnhancedParams& enhancedParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  (void)enhancedParams;
  tcemu::copyLocalToLocal(dstLocal, srcLocal, intriParams, loc);
}

}  // namespace AscendC
