// Brcb, Gather, GatherMask and the 16x16 Transpose (ascendc_api.md §3.5), for 910B.
//
// Brcb: repeat r reads src elements 8r .. 8r+7 and fills block b of dst (dst + r*dstRepStride*32 +
// b*dstBlkStride*32) with element 8r+b; CANN resets the mask register to full first, and so do we.
// Gather: lane l of repeat r reads the element at byte srcBaseAddr + offset[r*lanes + l] from the start of
// src (the offsets are bytes, not elements) and writes it to lane l of dst's repeat r (dstRepStride in
// 32-byte blocks). GatherMask (VERSION_V2, the 910B default) keeps the elements whose pattern bit is 1 and
// packs them contiguously into dst; rsvdCnt (and GetGatherMaskRemainCount) is how many it kept. Normal mode
// (reduceMode=false) covers every lane of repeatTimes repeats; counter mode covers the first `mask` elements
// of each repeat (A2's "configuration one": repeatTimes * mask elements). A pattern tensor's bits run on
// within a repeat, and repeat r's start at src1 + r*src1RepeatStride*32 bytes; the built-in patterns 1..7
// restart every repeat.
#pragma once

#include "emu/vec_cast_cmp.h"

namespace AscendC {

struct BrcbRepeatParams {
  BrcbRepeatParams() {}
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local, const uint8_t repeatTimes,
                            const BrcbRepeatParams& repeatParams, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t>("Brcb", loc);
  tcemu::Core& core = tcemu::cur();
  tcemu::vec::checkUb(src0Local, tcemu::kBlock, "Brcb src", loc);
  ResetMask();
  // Every lane of every repeat: a count of whole repeats leaves the mask register as ResetMask set it.
  constexpr uint32_t lanes = tcemu::vec::kRepeatBytes / sizeof(T);
  tcemu::vec::VecInstr vi("Brcb", sizeof(T), tcemu::vec::Mask::count(uint64_t{repeatTimes} * lanes), 0, loc);
  core.read(vi.index(), src0Local.ref_, 0, uint64_t{repeatTimes} * 8 * sizeof(T), "Brcb src", loc,
            tcemu::Core::Unwritten::Block);
  tcemu::vec::Operand d = vi.operand(dstLocal, {repeatParams.dstBlkStride, repeatParams.dstRepStride}, "Brcb dst");
  vi.write(d);
  std::vector<T> src(uint64_t{repeatTimes} * 8);
  std::memcpy(static_cast<void*>(src.data()), src0Local.GetPhyAddr(), src.size() * sizeof(T));
  const uint32_t epb = tcemu::kBlock / sizeof(T);
  vi.forEach([&](uint32_t r, uint32_t lane) { *vi.at<T>(d, r, lane) = src[r * 8 + lane / epb]; });
}

}  // namespace AscendC

namespace tcemu::vec {

template <typename T>
inline void gatherRun(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                      const AscendC::LocalTensor<uint32_t>& offsets, uint32_t srcBaseAddr, const Mask& mask,
                      uint32_t repeatTimes, uint16_t dstRepStride, const SrcLoc& loc) {
  checkDtype<T, half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t>("Gather", loc);
  Core& core = cur();
  core.checkAlive(src.ref_, "Gather src", loc);
  VecInstr vi("Gather", sizeof(T), mask, repeatTimes, loc);
  // One 32-bit offset per lane: a repeat's offsets span lanes * 4 bytes.
  Operand o = vi.operand(offsets, {1, vi.lanes() * 4 / kBlock}, "Gather srcOffset");
  vi.read(o);
  Operand d = vi.operand(dst, {1, dstRepStride}, "Gather dst");
  std::vector<std::pair<T*, T>> out;
  vi.forEach([&](uint32_t r, uint32_t lane) {
    uint32_t off = *vi.at<uint32_t>(o, r, lane);
    uint64_t at = uint64_t{srcBaseAddr} + off;
    if (at % sizeof(T) != 0) {
      fail(loc,
           "Gather offset %u (element %u) plus srcBaseAddr %u is byte %llu of src, not a multiple of %u: the "
           "offsets are bytes; hint: multiply element indices by sizeof(%s)",
           off, r * vi.lanes() + lane, srcBaseAddr, static_cast<unsigned long long>(at),
           static_cast<uint32_t>(sizeof(T)), dtypeName<T>());
    }
    core.read(vi.index(), src.ref_, at, sizeof(T), "Gather src", loc);
    T v;
    std::memcpy(static_cast<void*>(&v), reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) + at, sizeof(T));
    out.emplace_back(vi.at<T>(d, r, lane), v);
  });
  vi.write(d);
  for (auto& [p, v] : out) *p = v;
}

}  // namespace tcemu::vec

namespace AscendC {

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                              const LocalTensor<uint32_t>& srcOffsetLocal, const uint32_t srcBaseAddr,
                              const uint64_t mask, const uint8_t repeatTimes, const uint16_t dstRepStride,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::gatherRun(dstLocal, srcLocal, srcOffsetLocal, srcBaseAddr, tcemu::vec::Mask::continuous(mask),
                        repeatTimes, dstRepStride, loc);
}

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                              const LocalTensor<uint32_t>& srcOffsetLocal, const uint32_t srcBaseAddr,
                              const uint64_t mask[], const uint8_t repeatTimes, const uint16_t dstRepStride,
                              tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::vec::gatherRun(dstLocal, srcLocal, srcOffsetLocal, srcBaseAddr, tcemu::vec::Mask::bitwise(mask), repeatTimes,
                        dstRepStride, loc);
}

// Count form: CANN issues full repeats, then one repeat for the tail with dst and offsets advanced; the mask
// register is left at the tail's mask, as CANN's does.
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                              const LocalTensor<uint32_t>& srcOffsetLocal, const uint32_t srcBaseAddr,
                              const uint32_t count, tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  constexpr uint32_t lanes = tcemu::vec::kRepeatBytes / sizeof(T);
  const uint32_t tail = count % lanes, repeats = count / lanes;
  if (repeats > static_cast<uint32_t>(MAX_REPEAT_TIMES)) {
    tcemu::fail(loc,
                "Gather count %u needs %u repeats of %u elements; one call covers at most 255; hint: split "
                "the gather into calls of at most %u elements",
                count, repeats, lanes, 255 * lanes);
  }
  if (repeats > 0) {
    tcemu::vec::gatherRun(dstLocal, srcLocal, srcOffsetLocal, srcBaseAddr, tcemu::vec::Mask::continuous(lanes), repeats,
                          DEFAULT_REPEAT_STRIDE, loc);
  }
  if (tail > 0) {
    tcemu::vec::gatherRun(dstLocal[count - tail], srcLocal, srcOffsetLocal[count - tail], srcBaseAddr,
                          tcemu::vec::Mask::continuous(tail), 1, DEFAULT_REPEAT_STRIDE, loc);
  }
}

// dst[i][j] = src[j][i] for one 16x16 matrix of 2-byte elements (512 bytes).
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  tcemu::checkDtype<T, half, int16_t, uint16_t>("Transpose", loc);
  // vtranspose moves all 256 elements whatever the mask register holds.
  tcemu::vec::VecInstr vi("Transpose", sizeof(T), tcemu::vec::Mask::count(256), 0, loc);
  tcemu::vec::Operand s = vi.operand(srcLocal, {1, 8}, "Transpose src");
  tcemu::vec::Operand d = vi.operand(dstLocal, {1, 8}, "Transpose dst");
  vi.read(s);
  vi.write(d);
  std::vector<T> in(256);
  std::memcpy(static_cast<void*>(in.data()), srcLocal.GetPhyAddr(), 512);
  T* out = dstLocal.GetPhyAddr();
  for (uint32_t i = 0; i < 16; ++i)
    for (uint32_t j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
}

// --- GatherMask --------------------------------------------------------------------------------------------

enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
const GatherMaskMode defaultGahterMaskMode = GatherMaskMode::VERSION_V2;  // sic: CANN 8.1 spells both
const GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V2;

struct GatherMaskParams {
  GatherMaskParams() {}
  GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                   const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 0;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

}  // namespace AscendC

namespace tcemu::vec {

// pattern: 1..7 built in, 0 = the bits of `patternBits` (a tensor).
template <typename T>
inline void gatherMaskRun(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                          const TensorRef* patternRef, uint8_t pattern, bool reduceMode, uint32_t mask,
                          const AscendC::GatherMaskParams& p, uint64_t& rsvdCnt, const SrcLoc& loc) {
  checkDtype<T, half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t>("GatherMask", loc);
  if (!patternRef && (pattern < 1 || pattern > 7)) {
    fail(loc,
         "GatherMask src1Pattern %u is out of range [1, 7]; hint: 1/2 keep even/odd elements, 3..6 one of "
         "every four, 7 all; pass a LocalTensor for any other pattern",
         pattern);
  }
  if (reduceMode && mask == 0) {
    fail(loc,
         "GatherMask in counter mode (reduceMode=true) with mask 0: no element to gather; hint: mask is the "
         "number of elements of each repeat");
  }
  if (p.repeatTimes > AscendC::MAX_REPEAT_TIMES) {
    fail(loc,
         "GatherMask repeatTimes %u is out of range [0, 255]; hint: split the work into calls of at most 255 "
         "repeats",
         p.repeatTimes);
  }
  Core& core = cur();
  const uint32_t lanes = kRepeatBytes / sizeof(T), epb = kBlock / sizeof(T);
  const uint32_t perRepeat = reduceMode ? mask : lanes;
  // Every lane of every repeat is read; the engine runs the instruction and checks src0's range lane by lane.
  VecInstr vi("GatherMask", sizeof(T), Mask::count(uint64_t{p.repeatTimes} * lanes), 0, loc);
  Operand s = vi.operand(src0, {p.src0BlockStride, p.src0RepeatStride}, "GatherMask src0");
  core.instr(vi.index()).elements = uint64_t{p.repeatTimes} * perRepeat;
  checkUb(dst, kBlock, "GatherMask dst", loc);
  std::vector<T> kept;
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    const uint8_t* bits = nullptr;
    if (patternRef) {
      uint64_t off = uint64_t{r} * p.src1RepeatStride * kBlock;
      core.read(vi.index(), *patternRef, off, ceilDiv(perRepeat, 8), "GatherMask src1Pattern", loc);
      bits = core.ptr(patternRef->mem, patternRef->offset) + off;
    }
    for (uint32_t e = 0; e < perRepeat; ++e) {
      bool keep;
      switch (pattern) {
        case 0: keep = (bits[e / 8] >> (e % 8)) & 1u; break;
        case 1: keep = e % 2 == 0; break;
        case 2: keep = e % 2 == 1; break;
        case 7: keep = true; break;
        default: keep = e % 4 == static_cast<uint32_t>(pattern - 3); break;
      }
      uint64_t at = uint64_t{r} * s.stride.rep * kBlock + uint64_t{e / epb} * s.stride.blk * kBlock +
                    uint64_t{e % epb} * sizeof(T);
      core.read(vi.index(), src0.ref_, at, sizeof(T), "GatherMask src0", loc);
      if (!keep) continue;
      T v;
      std::memcpy(static_cast<void*>(&v), s.base + at, sizeof(T));
      kept.push_back(v);
    }
  }
  core.write(vi.index(), dst.ref_, 0, kept.size() * sizeof(T), "GatherMask dst", loc);
  std::memcpy(static_cast<void*>(dst.GetPhyAddr()), kept.data(), kept.size() * sizeof(T));
  rsvdCnt = kept.size();
  core.rsvdCnt_ = kept.size();
  // CANN leaves normal mode with the mask argument in the register.
  core.counterMode_ = false;
  core.maskHigh_ = 0;
  core.maskLow_ = mask;
}

}  // namespace tcemu::vec

namespace AscendC {

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  static_assert(mode == GatherMaskMode::VERSION_V2, "GatherMask VERSION_V1 does not exist on 910B");
  using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
  if constexpr (!std::is_same_v<U, Bits>) {
    tcemu::fail(loc,
                "GatherMask of %s takes a src1Pattern tensor of %s, not %s; hint: declare the pattern as "
                "LocalTensor<%s>",
                tcemu::dtypeName<T>(), tcemu::dtypeName<Bits>(), tcemu::dtypeName<U>(), tcemu::dtypeName<Bits>());
  }
  tcemu::vec::checkUb(src1Pattern, tcemu::kBlock, "GatherMask src1Pattern", loc);
  tcemu::vec::gatherMaskRun(dstLocal, src0Local, &src1Pattern.ref_, 0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                            loc);
}

template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dstLocal, const LocalTensor<T>& src0Local,
                                  const uint8_t src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt,
                                  tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return;
  static_assert(mode == GatherMaskMode::VERSION_V2, "GatherMask VERSION_V1 does not exist on 910B");
  tcemu::vec::gatherMaskRun(dstLocal, src0Local, nullptr, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt,
                            loc);
}

__aicore__ inline int64_t GetGatherMaskRemainCount(tcemu::SrcLoc loc = tcemu::SrcLoc::current()) {
  if (!tcemu::onVectorCore()) return 0;
  tcemu::cur().beginScalar("GetGatherMaskRemainCount", loc);
  return static_cast<int64_t>(tcemu::cur().rsvdCnt_);
}

}  // namespace AscendC
